/**
 * Discovery remembered per intent in an ask worker. The lexical prefilter is a pure function of
 * the intent and the index (loaded once per worker, never changed), and a gateway is asked the
 * same questions again and again: the candidates found for an intent are kept (least recently
 * used dropped first) and shared, frozen, by later questions with the same intent. With an
 * embeddings model the query vector comes from the model, so nothing is remembered then.
 */
import type { Candidate, DiscoveryIndex } from '../../discover/index.ts';
import type { Intent } from '../../understand/intent.ts';

/** Intents remembered per worker (a result is ~10–15 k small candidate objects sharing the index's cards). */
const MAX_INTENTS = 64;

export function rememberingDiscovery(index: DiscoveryIndex, max = MAX_INTENTS): DiscoveryIndex {
  const held = new Map<string, Candidate[]>();
  const remember = (key: string, found: Candidate[]): Candidate[] => {
    // The candidates (not the cards: those belong to the index) are frozen, so no question can
    // change what a later one reads.
    for (const c of found) {
      Object.freeze(c.matched);
      Object.freeze(c);
    }
    Object.freeze(found);
    held.set(key, found);
    if (held.size > max) held.delete(held.keys().next().value!);
    return found;
  };
  const recall = (key: string): Candidate[] | undefined => {
    const hit = held.get(key);
    if (hit) {
      held.delete(key);
      held.set(key, hit);
    }
    return hit;
  };
  const memo = Object.create(index) as DiscoveryIndex;
  memo.discover = (intent: Intent, options = {}) => {
    if (options.queryVector) return index.discover(intent, options);
    const key = JSON.stringify(intent);
    return recall(key) ?? remember(key, index.discover(intent));
  };
  memo.discoverAsync = async (intent: Intent, signal?: AbortSignal) => {
    if (index.hasEmbeddings) return index.discoverAsync(intent, signal);
    signal?.throwIfAborted();
    return memo.discover(intent);
  };
  return memo;
}
