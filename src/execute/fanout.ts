/**
 * Fan-out for comparison (one branch per entity) and timeseries (one branch per period): branches
 * run concurrently under one shared budget and memo (the QueryContext), each with its own signal
 * linked to the question's. When a branch fails in a way that sinks the whole answer (any failure
 * for a comparison; an operational block or deadline for a timeseries, where a missing period is
 * only disclosed), its siblings are cancelled. The outcome is deterministic: results are reported
 * in branch order, and the failure named is the lowest-index branch that failed on its own (a
 * branch that was cancelled because of a sibling never names the failure).
 */
import { childContext, type QueryContext } from './context.ts';
import type { LeafResult } from './leaf.ts';

export class SiblingFailedError extends Error {
  override readonly name = 'SiblingFailedError';
  constructor(readonly branch: string) { super(`cancelled because branch "${branch}" failed`); }
}

export interface Branch<R extends LeafResult = LeafResult> { label: string; run: (ctx: QueryContext) => Promise<R> }

export interface FanOutResult<R extends LeafResult = LeafResult> {
  results: R[];
  /** Index of the branch whose own failure sank the fan-out, if any. */
  failedBranch?: number;
}

export async function fanOut<R extends LeafResult>(ctx: QueryContext, branches: readonly Branch<R>[], sinks: (r: R) => boolean): Promise<FanOutResult<R>> {
  const siblings = new AbortController();
  const signal = AbortSignal.any([ctx.signal, siblings.signal]);
  const own = new Set<number>();
  const results = await Promise.all(branches.map(async (b, i) => {
    const r = await b.run(childContext(ctx, signal));
    if (r.failure && sinks(r) && !(siblings.signal.aborted && r.failure.boundary === 'cancelled')) {
      own.add(i);
      if (!siblings.signal.aborted) siblings.abort(new SiblingFailedError(b.label));
    }
    return r;
  }));
  const failed = [...own].sort((a, b) => a - b)[0];
  return { results, ...(failed !== undefined ? { failedBranch: failed } : {}) };
}
