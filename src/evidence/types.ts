/**
 * Admitted evidence in memory: a value that survived structural validation, with everything needed
 * to state its origin (source, operation, raw response pointer, attempt) and its asserted assurance.
 * Only the executor creates these, and only from accepted attempts.
 */
import type { RawPointer } from '../http/client.ts';
import type { EntityKeys } from '../connectors/records.ts';

export interface AdmittedEvidence {
  /** 1-based within the run; the evidence IRI is minted from it. */
  index: number;
  attemptN: number;
  source: string;
  operation: string;
  /** Catalog measure key, publisher/group/name. */
  measure: string;
  measureLabel: string;
  /** The question's words for the measure ("total revenue"). */
  attribute: string | null;
  value: number;
  unit: string;
  currency?: string;
  period: { label: string; start?: string; end?: string; basis: string; fiscalYear?: number };
  entity: { label: string; keyType: string; key: string; keys: EntityKeys; qid?: string };
  raw: RawPointer;
  assurance: { match: 'key' | 'name'; planVerdict: 'exact' | 'composed'; warnings: string[] };
}
