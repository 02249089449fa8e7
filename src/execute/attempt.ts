/**
 * The attempt record: one execution of one connector operation with concrete bindings. Every
 * attempt is kept — accepted, rejected (validation said no) and errored (the call failed) — and
 * only accepted ones ever become evidence.
 */
import type { RawPointer } from '../http/client.ts';
import type { Check } from '../validate/structural.ts';

export type Disposition = 'accepted' | 'rejected' | 'errored' | 'cancelled';

export interface Attempt {
  /** 1-based, in the order attempts started within the run. */
  n: number;
  source: string;
  operation: string;
  /** measure key (publisher/group/name) the attempt read, when it read a measure. */
  measure?: string;
  bindings: Record<string, string>;
  /** Redacted URL(s) requested. */
  requests: string[];
  responses: RawPointer[];
  startedAt: string;
  endedAt: string;
  elapsedMs: number;
  checks: Check[];
  disposition: Disposition;
  /** Why it was rejected or errored, in words; the failing layer first. */
  reason?: string;
  /** The failure class, for refusals: offline, deadline, not_found, … */
  failure?: string;
  /** Index into the leaf's admitted list when accepted. */
  evidenceIndex?: number;
  /**
   * `store_read`: the attempt read a population graph already in the store (`graph`), not the
   * publisher; `responses` are the publisher responses that graph was derived from.
   */
  kind?: 'store_read';
  graph?: string;
}
