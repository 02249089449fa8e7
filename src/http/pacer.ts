/**
 * Per-publisher pacing: start times at least 1/requestsPerSecond apart, at most `maxConcurrent`
 * calls in flight, an optional daily budget, and a pause the publisher can impose (Retry-After).
 *
 * Contract: `acquire` first takes a concurrency permit, then reserves the next start slot, so actual
 * start times are monotonic and never closer than the interval. A slot that would start after the
 * caller's deadline is refused at once (rate_limited) instead of being waited for. The returned
 * release function must be called when the one outbound call (including reading its body) is done;
 * permits are never held across retries or across a question.
 */
import type { CallContext } from './context.ts';
import { PublisherError } from './errors.ts';

export interface PacingRule {
  requestsPerSecond?: number;
  requestsPerDay?: number;
  maxConcurrent?: number;
}

export class Pacer {
  private nextStart = 0;
  private pausedUntil = 0;
  private inFlight = 0;
  private readonly waiters: Array<() => void> = [];
  private dayWindowStart = 0;
  private usedToday = 0;
  readonly intervalMs: number;
  readonly maxConcurrent: number;

  constructor(readonly name: string, readonly rule: PacingRule) {
    this.intervalMs = rule.requestsPerSecond ? Math.ceil(1000 / rule.requestsPerSecond) : 0;
    this.maxConcurrent = Math.max(1, rule.maxConcurrent ?? 4);
  }

  /** The publisher asked everyone to wait (429/503 Retry-After): no call from us starts before `until`. */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** Waits for a permit and a start slot; `signal` is the call's combined caller/deadline signal. */
  async acquire(ctx: CallContext, signal: AbortSignal, what: { method: string; url: string }): Promise<() => void> {
    await this.takePermit(signal);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.waiters.shift()?.();
    };
    try {
      const now = ctx.clock.now();
      this.checkDailyBudget(now, what);
      const start = Math.max(now, this.nextStart, this.pausedUntil);
      if (start > ctx.deadline) {
        throw new PublisherError('rate_limited', `${this.name}: the next call allowed by the publisher's rate limit starts ${start - now} ms from now, after the deadline`, { ...what, source: this.name });
      }
      this.nextStart = start + this.intervalMs;
      this.usedToday++;
      if (start > now) await ctx.clock.sleep(start - now, signal);
      return release;
    } catch (e) {
      release();
      throw e;
    }
  }

  private checkDailyBudget(now: number, what: { method: string; url: string }): void {
    if (!this.rule.requestsPerDay) return;
    if (now - this.dayWindowStart >= 86_400_000) { this.dayWindowStart = now; this.usedToday = 0; }
    if (this.usedToday >= this.rule.requestsPerDay) {
      throw new PublisherError('rate_limited', `${this.name}: the declared daily limit of ${this.rule.requestsPerDay} requests is used up`, { ...what, source: this.name });
    }
  }

  private takePermit(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.inFlight < this.maxConcurrent) { this.inFlight++; return Promise.resolve(); }
    return new Promise<void>((resolve, reject) => {
      const grant = () => { signal.removeEventListener('abort', onAbort); this.inFlight++; resolve(); };
      const onAbort = () => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal.reason);
      };
      this.waiters.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
