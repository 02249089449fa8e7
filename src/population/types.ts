/**
 * Populations: every member of a set of entities at one grain (states, counties, organizations,
 * companies, opportunities) with one measure's value each, as one publisher response gave them,
 * with its completeness accounted for: how many rows the response declares, how many were read,
 * which were excluded and why (a suppressed or sentinel value is counted, never ranked), what
 * bounds the population (the nation, one state) and for which period.
 *
 * Everything a reader must be told travels as typed notes (`{ code, ...params }`); English is
 * rendered once, at the end (src/population/wording.ts). Nothing here is worded for a reader.
 */
import type { RawPointer } from '../http/client.ts';
import type { Scalar, ValueStatus } from '../connectors/records.ts';
import type { Scope } from './geo.ts';
import type { LatestDisclosure } from '../validate/latest.ts';

/** What one member of a population is. */
export type Grain = 'state' | 'county' | 'place' | 'organization' | 'company' | 'opportunity';

export type KeyType = 'fips' | 'ein' | 'cik' | 'opportunity_id';

export interface PopulationPeriod {
  /** "ACS 1-year 2018", "PLACES 2022 release", "tax period ending 2023-12-31", "CY2023". */
  label: string;
  start?: string;
  end?: string;
  basis: 'survey' | 'fiscal' | 'calendar' | 'release';
}

export interface PopulationRow {
  key: string;
  keyType: KeyType;
  label: string;
  /** The measure's value in `unit` (scale applied), or null with `status` saying why. */
  value: number | null;
  status: ValueStatus;
  /** The publisher's spelling of the cell ("-666666666", "", "12.1"). */
  asPublished?: string;
  marginOfError?: number | null;
  /** The row's own period when members differ (each organization's tax period). */
  period?: PopulationPeriod;
  /** Publisher fields used to scope or filter (state FIPS, subsection, foundation code, agency). */
  attributes: Record<string, Scalar>;
}

/** Why a row read from the response is not a usable member of the population asked. */
export type ExclusionCode =
  | 'value_suppressed'     // the publisher withheld or could not compute the value (a sentinel, -999)
  | 'value_not_applicable'
  | 'value_not_published'  // blank cell: not released for this row
  | 'value_missing'        // null, blank or not a number
  | 'outside_grain'        // a row of another kind in the same response (DC, Puerto Rico among "states")
  | 'outside_scope'        // a member outside the bound asked (a county of another state)
  | 'not_in_class';        // a member not of the class asked (not a private foundation)

export interface Exclusion {
  code: ExclusionCode;
  count: number;
  /** Why in the publisher's terms: the value status or the publisher field that decided. */
  detail?: string;
  /** Up to a few members, by key and label, with the value as published. */
  examples: Array<{ key: string; label: string; asPublished?: string; value?: number | null }>;
}

/** How complete the population is, established from the response itself. */
export type CompletenessVerdict =
  | 'complete'   // every member the operation covers, nothing cut
  | 'partial'    // a known subset (a TRIMMED or DERIVED sample, a 1-year survey's 65,000+ threshold, unread pages)
  | 'sample';    // ranked search results: never a population

export interface Completeness {
  /** Rows the response says it holds (a hit count, a frames point count), or the rows in the file when it says nothing. */
  declared: number | null;
  /** Rows read from the response. */
  read: number;
  /** Members of the population asked after grain, scope and class (`read` minus exclusions of those kinds). */
  members: number;
  /** Members with a usable value. */
  usable: number;
  excluded: Exclusion[];
  verdict: CompletenessVerdict;
  /** Why the verdict is not `complete` (typed), and what the completeness rests on. */
  reasons: PopulationNote[];
}

/** A typed statement about a population read; worded once, at the end. */
export type PopulationNote =
  | { code: 'trimmed_sample'; sample: string }
  | { code: 'derived_sample'; sample: string }
  | { code: 'membership_unverified'; sample: string; grain: Grain }
  | { code: 'membership_verified'; grain: Grain; expected: string }
  | { code: 'survey_threshold'; survey: string; threshold: number }
  | { code: 'search_results'; hitCount: number | null; shown: number }
  | { code: 'unread_pages'; pages: number; records: number | null }
  | { code: 'state_equivalents_excluded'; rows: Array<{ key: string; label: string; value: number | null }> }
  | { code: 'county_equivalents_excluded'; area: string; count: number }
  | { code: 'scope_filter'; scope: string; field: string }
  | { code: 'class_filter'; class: string; field: string; codes: string[] }
  | { code: 'survey_vintage'; label: string }
  /** "Latest" asked: the period read against the newer periods other reads declare, and why each was not read (the keyed read's disclosure). */
  | { code: 'latest'; disclosure: LatestDisclosure }
  | { code: 'newer_release_not_read'; label: string; why: string }
  | { code: 'sample_recorded'; sample: string; recordedAt: string | null }
  | { code: 'periods_differ'; earliest: string; latest: string; members: number }
  | { code: 'coverage_of'; of: string }
  | { code: 'equivalent_variable'; asked: string; read: string; why?: 'universe_total' | 'republished' }
  | { code: 'period_not_published'; asked: string; read: string }
  /** The values are a program's model-based estimates (SAIPE), not a survey's direct estimates. */
  | { code: 'model_based'; program: string }
  /** Read from the population graph stored earlier, not from the publisher: when it was stored and the response(s) it came from. */
  | { code: 'stored_graph'; graph: string; storedAt: string; responses: Array<{ url: string; retrievedAt: string; sha256: string }> }
  /** The stored graph was not used, and the publisher was asked again: why. */
  | { code: 'stored_graph_refetched'; graph: string; why: 'stale' | 'incomplete' | 'format'; storedAt?: string; maxAgeDays?: number; found?: number; declared?: number; revised: boolean };

export interface MeasureRef {
  /** Catalog measure key, publisher/group/name (the ACS's median household income: its publisher id, then `acs5-2009/B19013_001E`), or a count of members. */
  key: string;
  /** As the records carry it (`acs1-2018/B19013_001E`, `measureid/OBESITY`, `bmf/REVENUE_AMT`). */
  recordMeasure: string;
  label: string;
  unit: string;
  currency?: string;
}

export interface PopulationRead {
  source: string;
  operation: string;
  args: Record<string, string>;
  grain: Grain;
  scope: Scope;
  /** The class of member kept (private foundations), when the question names one. */
  memberClass?: string;
  measure: MeasureRef;
  period: PopulationPeriod;
  /** Usable members (value reported) first, then excluded members, in response order. */
  rows: PopulationRow[];
  /** Keys of the usable members (rows with a reported value inside grain, scope and class). */
  usable: PopulationRow[];
  completeness: Completeness;
  responses: RawPointer[];
  notes: PopulationNote[];
  /** The request(s) read, redacted, for the trace. */
  requests: string[];
  /** The population graph the rows are stored in (materialize.ts), when they are. */
  graph?: string;
}

/** A population read that could not be made, as a typed boundary (worded at the end). */
export type PopulationFailure =
  | { code: 'no_population_operation'; grain: Grain; source: string }
  | { code: 'grain_mismatch'; asked: Grain; returns: Grain | 'unknown'; operation: string }
  | { code: 'scope_not_covered'; asked: string; covers: string; operation: string }
  | { code: 'no_period'; asked: string; operation: string }
  | { code: 'not_a_population_measure'; measure: string; operation: string }
  | { code: 'operationally_blocked'; source: string; operation: string; url?: string; failure: string; message: string }
  | { code: 'no_data'; source: string; operation: string; message: string }
  | { code: 'measure_absent'; measure: string; operation: string };

export type PopulationOutcome = { ok: true; read: PopulationRead } | { ok: false; failure: PopulationFailure };
