/**
 * The gateway's VoID description, computed off the main thread and kept until the store changes.
 *
 * Contract
 * - `get()` resolves to VoID quads that reflect every write acknowledged before the call
 *   (`seq` says which: DurableStore.seq when the figures were mined). Figures that are behind
 *   the store are never returned, so nothing stale claims to be current.
 * - Figures come from `compute` (in the gateway: a `void` job in the query pool, so mining a
 *   store of ~600k quads takes seconds in a worker while the event loop keeps serving).
 * - One computation at a time: callers that need the same or an older state share the one in
 *   flight; callers that need a newer one share a single follow-up that starts when it ends.
 *   Nothing is computed on write (evidence is written after every question): the next reader
 *   pays, once.
 * - A failed computation (worker busy, time limit) rejects the callers waiting on it and is not
 *   cached; the next `get()` tries again.
 * One cache per app instance; no module-level state.
 */
import type { Quad } from '../rdf/store.ts';
import { renderVoid, type StoreFigures } from './compute.ts';

export interface VoidSnapshot {
  quads: Quad[];
  /** The last acknowledged write the figures include (DurableStore.seq). */
  seq: number;
}

/** Mines the figures somewhere (a worker) and says which write they reflect. */
export type ComputeFigures = () => Promise<{ figures: StoreFigures; seq: number }>;

export interface VoidCache {
  /** VoID reflecting every write acknowledged before the call. */
  get(): Promise<VoidSnapshot>;
}

export function createVoidCache(opts: { currentSeq: () => number; baseIri: string; compute: ComputeFigures }): VoidCache {
  let latest: VoidSnapshot | undefined;
  /** The computation in flight and the store state it was started on (it reflects at least that). */
  let inflight: { from: number; done: Promise<VoidSnapshot> } | undefined;
  /** A follow-up shared by callers that need a newer state than `inflight` will give. */
  let followUp: Promise<VoidSnapshot> | undefined;

  const launch = (): Promise<VoidSnapshot> => {
    const from = opts.currentSeq();
    const run: { from: number; done: Promise<VoidSnapshot> } = { from, done: Promise.resolve() as never };
    run.done = opts.compute().then(({ figures, seq }) => {
      if (seq < from) {
        throw new Error(`the VoID worker's replica held write ${seq} but the store had acknowledged ${from}; retry shortly`);
      }
      const snap = { quads: renderVoid(figures, { baseIri: opts.baseIri }), seq };
      if (!latest || seq >= latest.seq) latest = snap;
      return snap;
    }).finally(() => {
      if (inflight === run) inflight = undefined;
    });
    inflight = run;
    return run.done;
  };

  const get = (): Promise<VoidSnapshot> => {
    const wanted = opts.currentSeq();
    if (latest && latest.seq >= wanted) return Promise.resolve(latest);
    if (!inflight) return launch();
    if (inflight.from >= wanted) return inflight.done;
    followUp ??= inflight.done.then(() => undefined, () => undefined).then(() => {
      followUp = undefined;
      return get();
    });
    return followUp;
  };

  return { get };
}
