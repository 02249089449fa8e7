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
 * Admission: an answer is kept only on its key's second ask among the last keys asked once
 * (`admit`): a query asked once and never again (most generated ones) costs one lookup in a
 * bounded set of keys, not a stored copy of its answer that pushes out the answers that are
 * asked again. The set of keys asked once is not cleared by writes (it says what is popular,
 * not what is true), so a popular query is kept again on its first ask after a write.
 *
 * Memory: answers are bounded by `maxBytes` (the encoded bodies plus the keys' UTF-16 size); the
 * least recently used go first, and an answer larger than an eighth of the budget is not kept.
 * The keys asked once are bounded by a sixteenth of it, oldest forgotten first.
 */
export interface CachedAnswer {
  seq: number;
  /** The Content-Type header as sent (with its charset). */
  contentType: string;
  /** The body as encoded once, sent as is on every hit. */
  body: Buffer;
  truncated: boolean;
}

export class ResultCache {
  readonly #entries = new Map<string, CachedAnswer>();
  #bytes = 0;
  /** Keys asked once (insertion order = age), and their total size. */
  readonly #seen = new Set<string>();
  #seenBytes = 0;
  readonly #maxSeenBytes: number;
  #hits = 0;
  #misses = 0;

  constructor(readonly maxBytes: number) {
    this.#maxSeenBytes = Math.max(4096, Math.floor(maxBytes / 16));
  }

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

  /**
   * Should the answer to this missed key be kept? True on the key's second ask (it is then
   * remembered as asked again, newest, until the set forgets it); false on its first, which only
   * records the key.
   */
  admit(key: string): boolean {
    if (this.#seen.delete(key)) {
      this.#seen.add(key); // asked again: forgotten last
      return true;
    }
    const size = 2 * key.length + 32;
    if (size > this.#maxSeenBytes) return false;
    this.#seen.add(key);
    this.#seenBytes += size;
    while (this.#seenBytes > this.#maxSeenBytes) {
      const oldest = this.#seen.values().next().value!;
      this.#seen.delete(oldest);
      this.#seenBytes -= 2 * oldest.length + 32;
    }
    return false;
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

  /** Forget every answer (a write); the keys asked once stay (see Admission). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get stats(): { entries: number; bytes: number; seen: number; seenBytes: number; hits: number; misses: number } {
    return { entries: this.#entries.size, bytes: this.#bytes, seen: this.#seen.size, seenBytes: this.#seenBytes, hits: this.#hits, misses: this.#misses };
  }

  #drop(key: string, entry: CachedAnswer): void {
    this.#entries.delete(key);
    this.#bytes -= sizeOf(key, entry);
  }
}

function sizeOf(key: string, a: CachedAnswer): number {
  return 2 * (key.length + a.contentType.length) + a.body.length + 64;
}
