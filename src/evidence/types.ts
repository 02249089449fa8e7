/**
 * Admitted evidence in memory: a value that survived structural validation, with everything needed
 * to state its origin (source, operation, raw response pointer, attempt) and its asserted assurance.
 * Only the executor creates these, and only from accepted attempts.
 */
import type { RawPointer } from '../http/client.ts';
import type { EntityKeys } from '../connectors/records.ts';

export interface AdmittedEvidence<V extends number | boolean | null = number> {
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
  /** A measured number; a boolean for a status read; null for a listed record without an amount. */
  value: V;
  unit: string;
  currency?: string;
  period: { label: string; start?: string; end?: string; basis: string; fiscalYear?: number };
  entity: { label: string; keyType: string; key: string; keys: EntityKeys; qid?: string };
  raw: RawPointer;
  /** Status evidence: the publisher field read, its code as published and what the code means. */
  status?: { asked: string; field: string; code: string; meaning: string };
  /** Record evidence (entity lists): the record listed, by its own key. */
  record?: {
    kind: string; key: string; label: string; attributes: Record<string, string | number | boolean | null>;
    /** How the list this record belongs to was read: the years it is restricted to, whether paging was read to its end, and the records unread pages declare. */
    listing?: { from?: number; to?: number; partial: boolean; unreadDeclared?: number };
  };
  assurance: { match: 'key' | 'name'; planVerdict: 'exact' | 'composed'; warnings: string[] };
}

/** Evidence of any value type: measured numbers, status booleans, listed records (null when no amount). */
export type AnyEvidence = AdmittedEvidence<number | boolean | null>;
