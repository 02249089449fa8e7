/**
 * Failures as data, and the one place an error thrown below the executor is classified.
 *
 * A `Failure` is one boundary a search reached: which layer stopped it (`boundary`), the failure
 * class (`code`: offline, deadline, not_found, period, …), the source and request when a publisher
 * was involved, and a message for the trace. Searches collect them; they never throw them.
 *
 * `classify` is the only function that turns an exception into a Failure. Its rule for publisher
 * failures (issue 10, rule 6): when the publisher failed — retries exhausted on an error status, a
 * timeout or network error, an HTML page served as data, an empty, truncated or unparsable body, a
 * deadline — the outcome is `operationally_blocked`, naming the publisher, the request and the
 * failure. Only a publisher saying the thing does not exist (`not_found`) is `no_data`: a failed
 * exchange never shows the data to be absent. A bug (anything else) is rethrown with its stack.
 */
import { PublisherError, failureBoundary } from '../http/errors.ts';
import { BudgetExhaustedError, DeadlineError } from './context.ts';

export type Boundary = 'no_access_path' | 'no_candidate_source' | 'entity_unresolved' | 'no_data' | 'operationally_blocked' | 'cancelled' | 'not_understood';

export interface Failure {
  boundary: Boundary;
  /** The failure class: offline, deadline, budget, not_found, period, suppressed, ambiguous, unbound, … */
  code: string;
  /** For the trace and the refusal's reason (the boundary and code are what code reads). */
  message: string;
  /** The publisher the failure belongs to, when one was involved. */
  source?: string;
  /** The catalog operation (`source/operation`) the choice point was for, when one was bound. */
  operation?: string;
  /** The (redacted) request that failed, when one was sent. */
  request?: string;
  /** The response was read and judged (not a call that failed before any record was seen). */
  examined?: boolean;
  /** Reached by a candidate beyond the plan's relevance cut (plan.ts `fallbackCandidates`). */
  fallback?: boolean;
  /** Typed parameters a refusal is worded from (candidates of an ambiguous name, the kind of entity a read takes, …). */
  params?: Readonly<Record<string, string | number | readonly string[]>>;
}

/** Codes that mean the search was stopped rather than that a choice failed. */
export const STOP_CODES: ReadonlySet<string> = new Set(['deadline', 'budget', 'cancelled']);
export const isStop = (f: Failure): boolean => f.boundary === 'cancelled' || STOP_CODES.has(f.code);

/** What an aborted signal means: the question's deadline, or the caller cancelling. */
export function fromSignal(signal: AbortSignal): Failure {
  const reason = signal.reason;
  if (reason instanceof DeadlineError) return { boundary: 'operationally_blocked', code: 'deadline', message: reason.message };
  return { boundary: 'cancelled', code: 'cancelled', message: String((reason as Error)?.message ?? reason ?? 'cancelled') };
}

/**
 * The one classification of a thrown error. `source` names the publisher the call was for (the
 * error's own source wins when it carries one).
 */
export function classify(e: unknown, signal: AbortSignal, source?: string): Failure {
  const at = (f: Failure, err?: PublisherError): Failure => {
    const src = err?.source ?? source;
    return { ...f, ...(src ? { source: src } : {}), ...(err?.url ? { request: `${err.method ?? 'GET'} ${err.url}` } : {}) };
  };
  if (signal.aborted && signal.reason instanceof DeadlineError) {
    // the deadline stopped a call in flight: the refusal names the publisher and the request it was waiting on
    const err = e instanceof PublisherError ? e : undefined;
    const f = fromSignal(signal);
    const waiting = err?.source ?? source;
    return at(waiting ? { ...f, message: `${f.message} (waiting on ${waiting}${err?.url ? `: ${err.method ?? 'GET'} ${err.url}` : ''})` } : f, err);
  }
  if (e instanceof BudgetExhaustedError) return { boundary: 'operationally_blocked', code: 'budget', message: e.message };
  if (e instanceof DeadlineError) return { boundary: 'operationally_blocked', code: 'deadline', message: e.message };
  if (e instanceof PublisherError) {
    if (e.kind === 'cancelled' || signal.aborted) return at(signal.aborted ? fromSignal(signal) : { boundary: 'cancelled', code: 'cancelled', message: e.message }, e);
    // the publisher says it has no such record (not_found): the only publisher answer that is a lack of
    // data; blocked (credential, rate limit, offline), transport (status after retries, timeout, network)
    // and malformed (HTML as data, empty, truncated or unparsable body) mean the publisher failed
    const f = e.toFailure();
    const params: Record<string, string | number> = { kind: f.kind, method: f.method, ...(f.status !== undefined ? { status: f.status } : {}), ...(f.attempts !== undefined ? { attempts: f.attempts } : {}), ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}), ...(f.truncated !== undefined ? { truncated: String(f.truncated) } : {}) };
    return at({ boundary: failureBoundary(e), code: e.kind === 'not_found' ? 'not_found' : f.code, message: e.message, params }, e);
  }
  if (signal.aborted) return fromSignal(signal);
  const err = e as Error;
  // no recorded response for this request in the offline snapshot: blocked, like `offline`
  if (err?.name === 'MissingCassetteError') return at({ boundary: 'operationally_blocked', code: 'offline', message: err.message });
  // the connector refused the arguments it was bound with (a malformed identifier): this choice cannot be read
  if (err?.name === 'ConnectorInputError') {
    // arguments the read needs and the binding did not give: typed, so the refusal says so in a reader's words
    const input = err as Error & { missing?: readonly string[]; operation?: string };
    if (input.missing?.length) return at({ boundary: 'no_data', code: 'missing_input', message: err.message, params: { operation: input.operation ?? '', missing: [...input.missing] } });
    return at({ boundary: 'no_data', code: 'ConnectorInputError', message: err.message });
  }
  throw e; // a bug: keep the stack
}
