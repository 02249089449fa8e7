/**
 * The per-call context every publisher request runs under: the caller's AbortSignal, an absolute
 * deadline and the clock that measures it. This is the minimal slice of the per-question
 * `QueryContext` (ARCHITECTURE.md, "Execution") that the HTTP layer needs; the full QueryContext
 * (budgets, ledgers, model clients, progress) is defined by a later issue and only has to carry
 * these fields for the HTTP client and connectors to accept it.
 *
 * Time goes through `Clock` so that tests can run pacing, backoff and timeouts on virtual time.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface CallContext {
  /** Aborted when the caller gives up (HTTP client disconnects, CLI Ctrl-C, sibling failed). */
  readonly signal: AbortSignal;
  /** Absolute deadline, epoch milliseconds (per `clock`); Infinity for none. */
  readonly deadline: number;
  readonly clock: Clock;
}

export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return; }
    const onAbort = () => { clearTimeout(timer); reject(signal!.reason); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  }),
});

/** A context for one CLI invocation or test: a deadline `timeoutMs` from now (Infinity = none). */
export function callContext(options: { signal?: AbortSignal; timeoutMs?: number; clock?: Clock } = {}): CallContext {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? Infinity;
  return { signal: options.signal ?? new AbortController().signal, deadline: clock.now() + timeoutMs, clock };
}
