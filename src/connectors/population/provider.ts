/**
 * A population provider: how one publisher's population operations are asked for a measure at a
 * grain, bounded by a scope and a period, and how the records they return become population rows.
 * One file per publisher beside the connector it reads (src/connectors/population/), registered in
 * providers.ts. Providers use the connectors' operations
 * (src/connectors/) for every request and every parse; they only choose arguments and read records.
 *
 * A provider never widens a question: a year asked is that year's vintage (or a refusal naming it),
 * a scope it cannot bound is a typed failure, and a grain it does not return is a mismatch.
 */
import type { OperationResult } from '../records.ts';
import { FIFTY_STATES, type Scope } from '../../population/geo.ts';
import type { Grain, PopulationFailure, PopulationNote, PopulationPeriod, PopulationRow } from '../../population/types.ts';

export interface PeriodAsked {
  /** The year named, or null. */
  year: number | null;
  /** "latest", or no period named. */
  latest: boolean;
  /** The question's words for the period. */
  text: string;
}

/** A class of member a question names within a population ("private foundations" among organizations). */
export interface MemberClass {
  /** Stable id of the class (`private_foundation`). */
  id: string;
  /** The publisher field that decides membership, and the codes that qualify. */
  field: string;
  codes: readonly string[];
}

export interface PopulationAsk {
  /** The catalog measure key the plan chose, or `members` for a count of members. */
  measureKey: string;
  /** The catalog's label and unit of the measure, when it is one. */
  measureLabel?: string;
  measureUnit?: string;
  grain: Grain;
  scope: Scope;
  period: PeriodAsked;
  /** The noun phrase naming the members ("private foundations", "counties"), for member classes. */
  members?: string | null;
  /** The question's clock (ISO date): "latest" of a calendar-keyed source starts from its year. */
  today: string;
  /** DC (and Puerto Rico) asked for among "states". */
  includeStateEquivalents?: boolean;
}

export interface PopulationBinding {
  source: string;
  operation: string;
  args: Record<string, string>;
  grain: Grain;
  /** The measure as the records carry it; `members` when the read counts members. */
  recordMeasure: string;
  /** Record attributes that must match (PLACES crude prevalence). */
  attributes?: Record<string, string>;
  /** The period the binding reads. */
  period: PopulationPeriod;
  memberClass?: MemberClass;
  /**
   * Requests that fail the same way offline share this key (the same request form for another
   * variable): one blocked attempt skips the rest. Default: the exact request.
   */
  blockKey?: string;
  /** The measure's label when the binding reads another table's estimate of it (the subject table a profile republishes). */
  label?: string;
  /** Notes the binding itself implies (a survey's population threshold). */
  notes?: PopulationNote[];
}

export interface ProviderRows {
  rows: PopulationRow[];
  /** What the response declares it holds, when it says (a hit count, frames `pts`); else null. */
  declared: number | null;
  unit: string;
  currency?: string;
  label: string;
  notes: PopulationNote[];
  /** The period the response itself states, when it decides it (a file holding the latest release). */
  period?: PopulationPeriod;
}

export interface MembershipCheck {
  /** The rows held every member the provider can enumerate independently (every state, a county in every state). */
  verified: boolean;
  expected: string;
}

export interface PopulationProvider {
  source: string;
  /**
   * The freshness policy of this connector's populations: a population graph stored longer ago
   * than this many days is read again from the publisher, never served (src/population/materialize.ts).
   */
  freshnessDays: number;
  /** The source's population operations and the grain each returns. */
  operations: Readonly<Record<string, Grain>>;
  bind(ask: PopulationAsk, operation: string): PopulationBinding[] | PopulationFailure;
  rows(result: OperationResult, binding: PopulationBinding): ProviderRows;
  /** Whether rows of a sample that is not byte-for-byte (TRIMMED, DERIVED) still hold every member. */
  membership(rows: readonly PopulationRow[], binding: PopulationBinding): MembershipCheck;
}

/** The 50 states and DC by FIPS: the areas a national county or state population must cover. */
export const STATE_AREAS: readonly string[] = [...FIFTY_STATES.map((s) => s.fips), '11'];

/** A national county population: a county row in every one of the 50 states and DC. */
export function countiesInEveryState(rs: readonly { key: string }[]): MembershipCheck {
  const states = new Set(rs.map((r) => r.key.slice(0, 2)));
  return { verified: STATE_AREAS.every((f) => states.has(f)), expected: 'counties in every one of the 50 states and DC' };
}
