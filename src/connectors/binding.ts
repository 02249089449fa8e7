/**
 * Argument binding, owned by each connector: from a planned measure, a bound entity key and the
 * period asked, the calls of one operation that read it (keyed reads), or the arguments of a record
 * read (status and list questions), or the arguments of a cross-check read from admitted evidence.
 * A binder returns its readings in order of preference — each a choice point the executor tries in
 * turn — or an error saying why the operation cannot be bound. It never returns a neighbouring
 * year: the period a reading asks for is the period the question named, or, for "latest", the
 * newest vintage the publisher declares (from the validated descriptors, never a constant).
 *
 * These types are the connector side of the executor's binder contract (src/execute/binders/types.ts
 * has the same shape), so the executor can take a connector's binders as they are.
 */
import type { EntityType } from '../resolve/bundle.ts';

export interface PeriodAsked {
  year: number | null;
  basis: 'fiscal' | 'calendar' | 'unspecified';
  latest: boolean;
  text: string;
  quarter?: number | null;
}

export interface KeyedBinding {
  fetchArgs: Record<string, string>;
  /** `<group>/<name>` the records must carry. */
  measure: string;
  /** Another operation of the same publisher that serves this reading (a state's row from the all-states table). */
  operation?: string;
  /** Attribute values the records must carry (PLACES: the crude-prevalence row). */
  attributes?: Record<string, string>;
  /** The catalog title of the measure as it applies to this reading. */
  labelFor?: (catalogTitle: string) => string;
  /** How the period was read for this call ("ACS 1-year 2018"). */
  reading?: string;
  /** What the reader must know about this reading (the estimate read from another table that publishes it). */
  note?: string;
  /**
   * The period this reading asks for, when the binder chose it (a survey vintage): a "latest" read
   * orders its readings by it, newest first, and names the newer ones it could not read.
   */
  period?: { end: string; label: string };
}

export interface KeyedBindRequest {
  /** The candidate's measure key (`publisher/group/name`). */
  measureKey: string;
  key: { keyType: string; value: string };
  period: PeriodAsked;
  /** The validated descriptors: the newest period a publisher declares ("latest"). */
  declared?: { newestDeclaredYear(source: string): number | undefined };
}

export type KeyedBindResult = KeyedBinding[] | { error: string };

export interface KeyedBinder {
  /** What kind of entity the operation's key names (a county's FIPS, a school's UNITID). */
  entityType?: EntityType;
  bind(req: KeyedBindRequest): KeyedBindResult;
}

/** Hints a record read may need from the intent and the registry (see src/execute/bind-records.ts). */
export interface RecordHints {
  state?: string;
  registryState?: { code: string; label: string };
  form?: string;
  year?: number;
  awardGroup?: 'contracts' | 'grants';
  today?: string;
}

export type RecordBound = { fetchArgs: Record<string, string>; note?: string } | { error: string };

export interface RecordBinder {
  /** The identifier types the read is keyed by (the records are matched on it even when the request is not). */
  takes: readonly string[];
  bind(key: { keyType: string; value: string }, hints: RecordHints): RecordBound;
}

/** Evidence as a cross-check binder needs it: measure, unit and period of the admitted value. */
export interface EvidenceToCheck {
  measure: string;
  unit: string;
  period: { start?: string; end?: string; instant?: boolean; label?: string };
}

export type CrossCheckBinder = (e: EvidenceToCheck) => { fetchArgs: Record<string, string>; measure: string } | { error: string };

/** `publisher/group/name` → `group/name` for this publisher (the measure as its records carry it). */
export const ownMeasure = (measureKey: string, source: string): string => measureKey.startsWith(`${source}/`) ? measureKey.slice(source.length + 1) : measureKey;

export const needsKey = (op: string, type: string, got: string) => ({ error: `${op} takes a ${type}, not a ${got}` });
