/**
 * Answers to read-only queries, remembered per write: a hit is served without a worker; any
 * write makes every entry stale.
 *
 * Correctness: an entry records the store's write sequence number (DurableStore.seq) that the
 * replica which computed it held, and is served only while the store is still at that number,
 * so no answer outlives a write (the route also clears the cache on every write). Only answers
 * the worker marked cacheable are kept: a query using NOW(), RAND(), UUID(), STRUUID(), BNODE()
 * or an extension function gives a fresh answer each time (classify.ts isDeterministic).
 * Only for the embedded store: a remote store can be written by others, unseen here.
 *
 * Memory: bounded by `maxBytes` (the bodies' UTF-16 size plus the keys'); the least recently used
 * entries go first, and an answer larger than an eighth of the budget is not kept.
 */
export interface CachedAnswer {
  seq: number;
  contentType: string;
  body: string;
  truncated: boolean;
}

export class ResultCache {
  readonly #entries = new Map<string, CachedAnswer>();
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string, seq: number): CachedAnswer | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined || hit.seq !== seq) {
      if (hit !== undefined) this.#drop(key, hit);
      this.#misses++;
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    this.#hits++;
    return hit;
  }

  set(key: string, answer: CachedAnswer): void {
    const size = sizeOf(key, answer);
    if (size > this.maxBytes / 8) return;
    const old = this.#entries.get(key);
    if (old !== undefined) this.#drop(key, old);
    this.#entries.set(key, answer);
    this.#bytes += size;
    while (this.#bytes > this.maxBytes) {
      const [oldest, entry] = this.#entries.entries().next().value!;
      this.#drop(oldest, entry);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.#entries.size, bytes: this.#bytes, hits: this.#hits, misses: this.#misses };
  }

  #drop(key: string, entry: CachedAnswer): void {
    this.#entries.delete(key);
    this.#bytes -= sizeOf(key, entry);
  }
}

function sizeOf(key: string, a: CachedAnswer): number {
  return 2 * (key.length + a.body.length + a.contentType.length) + 64;
}
