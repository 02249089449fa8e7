/** Fan-out: concurrent branches under one context; a failing branch cancels its siblings deterministically. */
import { describe, expect, it } from 'vitest';
import { fanOut, SiblingFailedError } from '../../src/execute/fanout.ts';
import { queryContext } from '../../src/execute/context.ts';
import type { LeafResult } from '../../src/execute/leaf.ts';

const ctx = () => queryContext({ id: 't', runtime: {} as never, registry: {} as never, timeoutMs: Infinity });
const ok: LeafResult = { attempts: [], notes: [] };
const failed = (message: string): LeafResult => ({ attempts: [], notes: [], failure: { boundary: 'no_data', code: 'not_found', message } });
/** Waits until aborted, then reports cancellation (as a real leaf does). */
const waitsForCancel = (seen: unknown[]) => (c: { signal: AbortSignal }) => new Promise<LeafResult>((resolve) => {
  c.signal.addEventListener('abort', () => { seen.push(c.signal.reason); resolve({ attempts: [], notes: [], failure: { boundary: 'cancelled', code: 'cancelled', message: 'cancelled' } }); }, { once: true });
});

describe('fanOut', () => {
  it('a failing branch cancels its siblings, and the failure named is the failing branch', async () => {
    const seen: unknown[] = [];
    const out = await fanOut(ctx(), [
      { label: 'Apple', run: waitsForCancel(seen) },
      { label: 'Microsoft', run: async () => failed('no cassette') },
    ], () => true);
    expect(out.failedBranch).toBe(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(SiblingFailedError);
    expect((seen[0] as SiblingFailedError).branch).toBe('Microsoft');
  });

  it('when several fail on their own, the lowest index is named whatever the completion order', async () => {
    let release!: () => void;
    const late = new Promise<void>((r) => { release = r; });
    const out = await fanOut(ctx(), [
      { label: 'first', run: async () => { await late; return failed('first failed'); } },
      { label: 'second', run: async () => { const r = failed('second failed'); queueMicrotask(release); return r; } },
    ], (r) => r.failure?.boundary === 'no_data');
    expect(out.failedBranch).toBe(0);
  });

  it('failures that do not sink the fan-out (a missing period) leave siblings running', async () => {
    const out = await fanOut(ctx(), [
      { label: 'FY2019', run: async () => failed('no value') },
      { label: 'FY2020', run: async () => ok },
    ], (r) => r.failure?.boundary === 'operationally_blocked');
    expect(out.failedBranch).toBeUndefined();
    expect(out.results[1]).toBe(ok);
  });
});
