/**
 * A VoID description computed on first use and kept until the store is next written.
 *
 * Scanning a large store takes a while; the figures only change when the store does, so the
 * gateway computes them once and drops them on every write (`DurableStore.onWrite`). One cache
 * per app instance (no module-level state); `dispose()` unsubscribes.
 */
import type { DurableStore } from '../rdf/durable.ts';
import type { Quad } from '../rdf/store.ts';
import { computeVoid } from './compute.ts';

export interface VoidCache {
  /** The current VoID quads (computed now if the store changed since the last call). */
  get(): Quad[];
  dispose(): void;
}

export function createVoidCache(store: DurableStore, baseIri: string): VoidCache {
  let cached: Quad[] | null = null;
  const unsubscribe = store.onWrite(() => {
    cached = null;
  });
  return {
    get() {
      cached ??= computeVoid(store.rdf, { baseIri });
      return cached;
    },
    dispose: unsubscribe,
  };
}
