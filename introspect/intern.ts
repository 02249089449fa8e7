/**
 * Interned triples: a graph as three integer columns, the form the miner works on.
 *
 * Contract
 * - Every subject and object term gets one id in `terms` (N-Triples keys, see terms.ts); every
 *   predicate one id in `preds` (a separate, small space). Equal keys get equal ids, so distinct
 *   counts are counts of ids and per-term facts (type set, hash, kind) live in typed arrays.
 * - Triple i is (s[i], p[i], o[i]) for i < n; the columns may be longer than n.
 * - Ids are given in order of first appearance; nothing downstream may depend on that order.
 *
 * Why: with ids, each term string is hashed once per occurrence (one Map lookup) and every
 * later tally is an array index, so the miner allocates nothing per triple and groups subjects
 * with a counting sort instead of sorting strings.
 */

export interface InternedTriples {
  n: number;
  s: Int32Array;
  p: Int32Array;
  o: Int32Array;
  /** Subject/object term keys by id. */
  terms: string[];
  /** Predicate keys by id. */
  preds: string[];
}

/** Builds InternedTriples one triple at a time; the id maps are dropped with the builder. */
export class Interner {
  readonly #termIds = new Map<string, number>();
  readonly #predIds = new Map<string, number>();
  readonly terms: string[] = [];
  readonly preds: string[] = [];
  #s: Int32Array;
  #p: Int32Array;
  #o: Int32Array;
  #n = 0;

  constructor(expectedTriples = 1024) {
    const cap = Math.max(16, expectedTriples);
    this.#s = new Int32Array(cap);
    this.#p = new Int32Array(cap);
    this.#o = new Int32Array(cap);
  }

  term(key: string): number {
    let id = this.#termIds.get(key);
    if (id === undefined) {
      id = this.terms.length;
      this.#termIds.set(key, id);
      this.terms.push(key);
    }
    return id;
  }

  pred(key: string): number {
    let id = this.#predIds.get(key);
    if (id === undefined) {
      id = this.preds.length;
      this.#predIds.set(key, id);
      this.preds.push(key);
    }
    return id;
  }

  push(s: number, p: number, o: number): void {
    const i = this.#n;
    if (i === this.#s.length) this.#grow();
    this.#s[i] = s;
    this.#p[i] = p;
    this.#o[i] = o;
    this.#n = i + 1;
  }

  add(s: string, p: string, o: string): void {
    this.push(this.term(s), this.pred(p), this.term(o));
  }

  finish(): InternedTriples {
    return { n: this.#n, s: this.#s, p: this.#p, o: this.#o, terms: this.terms, preds: this.preds };
  }

  #grow(): void {
    const cap = this.#s.length * 2;
    const grow = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
    this.#s = grow(this.#s);
    this.#p = grow(this.#p);
    this.#o = grow(this.#o);
  }
}
