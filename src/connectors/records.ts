/**
 * Typed records: what a connector turns a publisher response into, just in time.
 *
 * An Observation is one number (or a marked absence of one) with everything needed to read it
 * correctly: unit, currency, scale, period (with its end, and fiscal vs calendar basis), geography
 * or entity keys, and a pointer to the raw response it came from. An absence keeps `value: null`
 * and says why in `status` (a Census -666666666 is `not_computable`, never a number).
 * An EntityRecord describes a thing (a company, an organisation, a filing, an award) by its keys.
 */
import type { RawPointer } from '../http/client.ts';

export type ValueStatus =
  | 'reported'
  | 'suppressed'        // withheld by the publisher (confidentiality, reliability)
  | 'not_applicable'    // the cell has no meaning for that row (Census (X))
  | 'too_few_cases'     // sample too small (Census N)
  | 'not_computable'    // estimate could not be computed (Census -)
  | 'not_published'     // the publisher does not publish this cell (blank CDC PLACES cell)
  | 'controlled'        // Census ***** : a controlled total, no sampling error
  | 'missing';          // the publisher sent null / "null" / nothing

export interface Period {
  start?: string;
  end?: string;
  /** A point in time (balance sheet, debt outstanding) rather than a duration. */
  instant: boolean;
  /** `fiscal`: the filer's or government's fiscal year; `calendar`; `survey`: a survey vintage. */
  basis: 'fiscal' | 'calendar' | 'survey';
  fiscalYear?: number;
  fiscalPeriod?: string;
  /** SEC calendar frame (CY2023, CY2023Q4I) this value was assigned to. */
  frame?: string;
  /** Human wording, e.g. "ACS 5-year 2017–2021". */
  label?: string;
}

export interface Geography {
  level: 'nation' | 'state' | 'county' | 'place' | 'other';
  /** Full FIPS code as text: "17", "17031", "1714000". */
  fips?: string;
  name?: string;
}

/** Identifiers of an entity, always as text (EINs and CIKs keep their leading zeros). */
export interface EntityKeys {
  name?: string;
  cik?: string;
  ticker?: string;
  ein?: string;
  uei?: string;
  fips?: string;
  ipeds_unitid?: string;
  [key: string]: string | undefined;
}

export type Scalar = string | number | boolean | null;

export interface Observation {
  type: 'observation';
  source: string;
  operation: string;
  /** `<group>/<name>` as in the catalog's measures, e.g. `us-gaap/Revenues`, `acs5/B01001_001E`. */
  measure: string;
  label?: string;
  value: number | null;
  status: ValueStatus;
  /** The publisher's own spelling of the value ("12.1", "-888888888", "") when it was text. */
  asPublished?: string;
  unit: string;
  currency?: string;
  /** Multiply `value` by this to get units (1 for every publisher here; kept explicit). */
  scale: number;
  period: Period;
  geography?: Geography;
  entity?: EntityKeys;
  /** The other end of a relation (grant recipient), when the observation is an edge. */
  counterparty?: EntityKeys;
  marginOfError?: number | null;
  confidenceInterval?: { low: number; high: number };
  attributes: Record<string, Scalar>;
  raw: RawPointer;
}

export interface EntityRecord {
  type: 'entity';
  source: string;
  operation: string;
  /** What the record describes: company, organization, filing, award, school, opportunity… */
  kind: string;
  label: string;
  keys: EntityKeys;
  attributes: Record<string, Scalar | Scalar[]>;
  raw: RawPointer;
}

export type TypedRecord = Observation | EntityRecord;

export interface UnreadPage { name: string; records: number; from: string; to: string }

export interface OperationResult {
  source: string;
  operation: string;
  records: TypedRecord[];
  /** Every response the records came from (several when paging). */
  responses: RawPointer[];
  /** Whether `records` is the whole answer to the operation (all pages, nothing cut). */
  complete: boolean;
  /** Plain statements a reader needs (survey vintage, DERIVED sample, paging stopped at …). */
  notes: string[];
  /**
   * Pages the publisher's response declares but that could not be read (SEC submissions overflow
   * files): their name, how many records each holds and the dates they span, as the response states
   * them. Set with `complete: false`; a reader of the result uses these, not the wording of `notes`.
   */
  unreadPages?: UnreadPage[];
}

const BY_MEASURE = Symbol('assay.observationsByMeasure');
/**
 * Set (non-enumerable) on an object that has accessor properties, so a walk over results
 * (memo.ts `freezeResult`) reads its properties' descriptors rather than their values: reading
 * `records` would make them. Objects without it are plain data, walked by value.
 */
export const HAS_ACCESSORS = Symbol('assay.hasAccessors');

/**
 * A result whose records are made when first read, with a per-measure reader beside them. A whole
 * companyfacts response holds every period of every concept a filer reported (tens of thousands of
 * facts for a large filer) while a question reads a few concepts: `measureRecords` turns only the
 * concepts asked into observations. Reading `records` makes all of them, once, in the same order
 * and as the same objects the per-measure reader returns, so either way a reader sees the same
 * records.
 */
export function lazyRecords(result: Omit<OperationResult, 'records'>, all: () => TypedRecord[], ofMeasure: (measure: string) => Observation[]): OperationResult {
  let made: TypedRecord[] | undefined;
  let replaced = false;
  const out = { ...result } as OperationResult;
  Object.defineProperty(out, 'records', {
    get: () => (made ??= all()),
    set: (v: TypedRecord[]) => { made = v; replaced = true; },
    enumerable: true, configurable: true,
  });
  // records assigned afterwards are the records: the per-measure reader then reads them
  const of = (m: string): Observation[] => replaced ? made!.filter((r): r is Observation => r.type === 'observation' && r.measure === m) : ofMeasure(m);
  Object.defineProperty(out, BY_MEASURE, { value: of, enumerable: false });
  Object.defineProperty(out, HAS_ACCESSORS, { value: true, enumerable: false });
  return out;
}

/**
 * The records of a result a reader of one measure needs to look at: that measure's observations
 * when the result can give them on their own (`lazyRecords`), every record otherwise (the reader
 * filters by measure as before).
 */
export function measureRecords(result: OperationResult, measure: string): TypedRecord[] {
  const of = (result as { [BY_MEASURE]?: (m: string) => Observation[] })[BY_MEASURE];
  return of ? of(measure) : result.records;
}

/** Strips the body from a raw response, keeping only the pointer. */
export function pointer(r: RawPointer): RawPointer {
  const { source, method, url, status, sha256, retrievedAt, cassette, origin } = r;
  return { source, method, url, status, sha256, retrievedAt, ...(cassette ? { cassette } : {}), ...(origin ? { origin } : {}) };
}
