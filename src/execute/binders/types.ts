/**
 * The shape every argument binder shares: from a planned measure, a bound entity key and the period
 * asked, the connector calls that read it. A binder returns its readings in order of preference —
 * each one a choice point the executor tries in turn (a survey year read first from the 1-year,
 * then from the 5-year estimates) — or an error saying why the operation cannot be bound. It never
 * returns a neighbouring year: the period a reading asks for is the period the question named, or,
 * for "latest", the newest vintage the publisher declares.
 */
import type { EntityType } from '../../resolve/bundle.ts';
import type { PeriodWanted } from '../../validate/structural.ts';

export interface Binding {
  /** Arguments of the fetch (memoised per question: several concepts or entities read from one response). */
  fetchArgs: Record<string, string>;
  /** `<group>/<name>` the records must carry. */
  measure: string;
  /**
   * The operation of the same publisher that serves this reading, when it is not the planned one
   * (a state's row read from the all-states table, which also carries the margin of error).
   */
  operation?: string;
  /** Attribute values the records must carry (PLACES: the crude-prevalence row, not the age-adjusted one). */
  attributes?: Record<string, string>;
  /** The catalog title of the measure as it applies to this reading (ACS dollars are in the vintage's inflation-adjusted dollars). */
  labelFor?: (catalogTitle: string) => string;
  /** How the period was read for this call ("ACS 1-year 2018"), said in the trace and the evidence. */
  reading?: string;
  /** What the reader must know about this reading (the estimate read from another table that publishes it). */
  note?: string;
  /** The period this reading asks for, when the binder chose it (a survey vintage a "latest" read descends through). */
  period?: { end: string; label: string };
}

export interface BindRequest {
  /** The candidate's measure key (`publisher/group/name`). */
  measureKey: string;
  key: { keyType: string; value: string };
  period: PeriodWanted;
  /** The validated descriptors (the newest period a publisher declares), when the caller has them. */
  declared?: { newestDeclaredYear(source: string): number | undefined };
}

/** `no_binder`: the executor has no binder for the operation yet (not a property of the request). */
export type BindError = { error: string; code?: 'no_binder' };
export type BindResult = Binding[] | BindError;

export interface Binder {
  /** What kind of entity the operation's key names (a FIPS of a county, a UNITID of a school). */
  entityType?: EntityType;
  bind(req: BindRequest): BindResult;
}

export const measurePart = (measureKey: string, publisher: string): string => measureKey.startsWith(`${publisher}/`) ? measureKey.slice(publisher.length + 1) : measureKey;
