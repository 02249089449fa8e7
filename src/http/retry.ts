/**
 * Retry policy: which outcomes are worth another attempt, how long to wait (exponential backoff with
 * full jitter, never less than what the publisher's Retry-After asks), and parsing Retry-After.
 */

export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
  /** Injected so tests are deterministic; Math.random in production. */
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ maxAttempts: 4, baseMs: 250, maxMs: 8_000, random: Math.random });

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/** Delay before attempt `attempt + 1` (attempt counts from 1); at least `retryAfterMs` when given. */
export function backoffMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  const jittered = Math.round(ceiling / 2 + policy.random() * (ceiling / 2));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** Retry-After is delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
