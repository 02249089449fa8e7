/**
 * Virtual time for HTTP tests: `sleep` registers a timer; `run(promise)` flushes pending work and
 * then jumps to the earliest timer, until the promise settles. Pacing, backoff, Retry-After,
 * timeouts and deadlines are then exact and instantaneous — no real waiting, no timed assertions.
 */
import type { Clock } from '../../src/http/context.ts';

interface Timer { at: number; seq: number; fire: () => void }

export class VirtualClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) { this.t = start; }

  now(): number { return this.t; }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) { reject(signal.reason); return; }
      const timer: Timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fire: () => { signal?.removeEventListener('abort', onAbort); resolve(); } };
      const onAbort = () => { this.timers = this.timers.filter((x) => x !== timer); reject(signal!.reason); };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  /** Drives virtual time until `p` settles. */
  async run<T>(p: Promise<T>): Promise<T> {
    let settled = false;
    p.then(() => { settled = true; }, () => { settled = true; });
    for (let guard = 0; guard < 1_000_000; guard++) {
      await flush();
      if (settled) return p;
      if (this.timers.length === 0) {
        await flush();
        if (settled) return p;
        throw new Error('virtual clock: nothing left to run but the promise has not settled (a hang with no timeout?)');
      }
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      this.t = Math.max(this.t, next.at);
      next.fire();
    }
    throw new Error('virtual clock: too many timers');
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}
