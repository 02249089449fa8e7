/**
 * The storm: 200 requests against a fake publisher that answers 429 half the time. Checked on
 * virtual time: no two calls start closer than the declared pacing; every request ends within its
 * deadline, as data or as a typed operational block; no call is sent after its request's deadline.
 */
import { describe, expect, it } from 'vitest';
import { HttpClient, type RawResponse } from '../../src/http/client.ts';
import { PublisherError } from '../../src/http/errors.ts';
import type { CallContext } from '../../src/http/context.ts';
import { VirtualClock } from './virtual-clock.ts';
import { fakeFetch, type Behaviour } from './fake-publisher.ts';

/** Deterministic PRNG (mulberry32) so the storm is the same on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('storm', () => {
  it('200 requests, half answered 429: paced, all end by their deadline as data or a typed block', async () => {
    const clock = new VirtualClock();
    const coin = prng(42);
    const { fetch, calls } = fakeFetch(clock, (): Behaviour => (coin() < 0.5
      ? { status: 429, headers: coin() < 0.5 ? { 'retry-after': String(1 + Math.floor(coin() * 3)) } : ({} as Record<string, string>) }
      : { status: 200, body: '{"ok":true}' }));
    const client = new HttpClient({ mode: 'live', fetch, userAgent: 'Assay-test ops@example.org', retry: { maxAttempts: 6, random: prng(7) } });
    const rps = 10;
    const policy = { source: 'sec-edgar', expect: 'json' as const, userAgentRequired: true, pacing: { requestsPerSecond: rps, maxConcurrent: 4 } };

    const start = clock.now();
    const deadlines: number[] = [];
    const ended: number[] = [];
    const runs = Array.from({ length: 200 }, (_, i) => {
      const deadline = start + 2_000 + (i % 20) * 1_000; // 2 s … 21 s
      deadlines.push(deadline);
      const ctx: CallContext = { signal: new AbortController().signal, deadline, clock };
      return client.request({ method: 'GET', url: `https://data.sec.gov/api/xbrl/companyfacts/CIK${String(i).padStart(10, '0')}.json` }, policy, ctx)
        .then((r: RawResponse) => r, (e: unknown) => e)
        .finally(() => { ended[i] = clock.now(); });
    });
    const outcomes = await clock.run(Promise.all(runs));

    // pacing: consecutive call starts at least 1/rps apart
    const starts = calls.map((c) => c.at).sort((a, b) => a - b);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(1000 / rps);

    let data = 0; let blocked = 0;
    outcomes.forEach((o, i) => {
      expect(ended[i]!).toBeLessThanOrEqual(deadlines[i]!);
      if (o instanceof PublisherError) {
        expect(o.kind, o.message).toBe('blocked');
        expect(['rate_limited', 'deadline']).toContain(o.code);
        blocked++;
      } else {
        expect((o as RawResponse).json).toEqual({ ok: true });
        data++;
      }
    });
    // nothing sent after its request's deadline
    for (const c of calls) {
      const i = Number(/CIK(\d+)/.exec(c.url)![1]);
      expect(c.at).toBeLessThanOrEqual(deadlines[i]!);
    }
    expect(data + blocked).toBe(200);
    expect(data).toBeGreaterThan(0);
    expect(blocked).toBeGreaterThan(0);
    console.log(`storm: ${calls.length} calls, ${data} answered, ${blocked} blocked, virtual span ${(Math.max(...ended) - start) / 1000} s`);
  });
});
