/**
 * Interned triples: a graph as three integer columns, the form the miner works on.
 *
 * Contract
 * - Every subject and object term gets one id (its N-Triples key, see terms.ts, is `term(id)`);
 *   every predicate one id in `preds` (a separate, small space). Equal keys get equal ids, so
 *   distinct counts are counts of ids and per-term facts live in typed arrays indexed by id:
 *   `kind` (KIND_*), `sampleHash` (= sample.ts hashKey of the key) and `datatype` (literal
 *   datatype index + 1 into `datatypes`; 0 for IRIs and blank nodes).
 * - Triple i is (s[i], p[i], o[i]) for i < n; the columns may be longer than n.
 * - Ids are given in order of first appearance; nothing downstream may depend on that order.
 *
 * Two builders: `Interner` takes key strings (any source); `TextInterner` takes spans of one
 * N-Triples text and never slices a term it has seen before: it hashes the characters in place
 * into its own open-addressing table, so a 2 M-line dump costs no per-line string or Map entry.
 */
import { hashKey } from './sample.ts';
import { RDF, XSD } from './vocab.ts';

export const KIND_IRI = 1;
export const KIND_BNODE = 2;
export const KIND_LITERAL = 4;

export interface InternedTriples {
  n: number;
  s: Int32Array;
  p: Int32Array;
  o: Int32Array;
  termCount: number;
  term(id: number): string;
  kind: Uint8Array;
  sampleHash: Uint32Array;
  datatype: Int32Array;
  datatypes: string[];
  /** Predicate keys by id. */
  preds: string[];
}

/** Growable typed columns shared by both builders. */
class Columns {
  s: Int32Array;
  p: Int32Array;
  o: Int32Array;
  n = 0;
  kind: Uint8Array;
  sampleHash: Uint32Array;
  datatype: Int32Array;
  readonly datatypes: string[] = [];
  readonly #datatypeIds = new Map<string, number>();
  terms = 0;

  constructor(expectedTriples: number) {
    const cap = Math.max(16, expectedTriples);
    this.s = new Int32Array(cap);
    this.p = new Int32Array(cap);
    this.o = new Int32Array(cap);
    const termCap = Math.max(16, cap >> 1);
    this.kind = new Uint8Array(termCap);
    this.sampleHash = new Uint32Array(termCap);
    this.datatype = new Int32Array(termCap);
  }

  push(s: number, p: number, o: number): void {
    const i = this.n;
    if (i === this.s.length) {
      const cap = i * 2;
      this.s = grow(this.s, cap);
      this.p = grow(this.p, cap);
      this.o = grow(this.o, cap);
    }
    this.s[i] = s;
    this.p[i] = p;
    this.o[i] = o;
    this.n = i + 1;
  }

  /** Room for one more term; returns its id. */
  newTerm(kind: number, sampleHash: number, datatype: number): number {
    const id = this.terms;
    if (id === this.kind.length) {
      const cap = id * 2;
      this.kind = grow(this.kind, cap);
      this.sampleHash = grow(this.sampleHash, cap);
      this.datatype = grow(this.datatype, cap);
    }
    this.kind[id] = kind;
    this.sampleHash[id] = sampleHash;
    this.datatype[id] = datatype;
    this.terms = id + 1;
    return id;
  }

  /** Datatype index + 1 of a datatype IRI. */
  datatypeId(iri: string): number {
    let id = this.#datatypeIds.get(iri);
    if (id === undefined) {
      id = this.datatypes.length;
      this.#datatypeIds.set(iri, id);
      this.datatypes.push(iri);
    }
    return id + 1;
  }
}

/** A typed array of `cap` elements holding `a`'s. */
export function grow<T extends Int32Array | Uint32Array | Uint8Array | Uint16Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

const kindOfChar = (c: number): number => (c === 34 ? KIND_LITERAL : c === 60 ? KIND_IRI : KIND_BNODE);

/** Builds InternedTriples from key strings; the id maps are dropped with the builder. */
export class Interner {
  readonly #termIds = new Map<string, number>();
  readonly #predIds = new Map<string, number>();
  readonly #terms: string[] = [];
  readonly #preds: string[] = [];
  readonly #cols: Columns;

  constructor(expectedTriples = 1024) {
    this.#cols = new Columns(expectedTriples);
  }

  term(key: string): number {
    let id = this.#termIds.get(key);
    if (id === undefined) {
      const kind = kindOfChar(key.charCodeAt(0));
      let datatype = 0;
      if (kind === KIND_LITERAL) {
        const q = key.lastIndexOf('"');
        datatype = this.#cols.datatypeId(key.startsWith('^^<', q + 1) ? key.slice(q + 4, -1) : key.charCodeAt(q + 1) === 64 ? RDF.langString : XSD.string);
      }
      id = this.#cols.newTerm(kind, hashKey(key), datatype);
      this.#termIds.set(key, id);
      this.#terms.push(key);
    }
    return id;
  }

  pred(key: string): number {
    let id = this.#predIds.get(key);
    if (id === undefined) {
      id = this.#preds.length;
      this.#predIds.set(key, id);
      this.#preds.push(key);
    }
    return id;
  }

  add(s: string, p: string, o: string): void {
    this.#cols.push(this.term(s), this.pred(p), this.term(o));
  }

  finish(): InternedTriples {
    const terms = this.#terms;
    return finish(this.#cols, (id) => terms[id]!, this.#preds);
  }
}

function finish(c: Columns, term: (id: number) => string, preds: string[]): InternedTriples {
  return { n: c.n, s: c.s, p: c.p, o: c.o, termCount: c.terms, term, kind: c.kind, sampleHash: c.sampleHash,
    datatype: c.datatype, datatypes: c.datatypes, preds };
}

/** FNV-1a prime; the hash below extends sample.ts hashKey past its 64 code units. */
const FNV_PRIME = 0x01000193;
const SAMPLE_PREFIX = 64;

/**
 * Builds InternedTriples from spans of one text. A term is identified by its characters: the
 * table holds term ids, probed with an FNV-1a hash over the whole span; hits compare the
 * characters in place. Only a new term's position is stored; `term(id)` slices on demand.
 */
export class TextInterner {
  readonly #text: string;
  readonly #cols: Columns;
  #start: Int32Array;
  #length: Int32Array;
  #fullHash: Uint32Array;
  #table: Int32Array;
  #mask: number;
  readonly #predIds = new Map<string, number>();
  readonly #preds: string[] = [];
  #lastS0 = -1;
  #lastSLen = 0;
  #lastSId = -1;
  #lastP0 = -1;
  #lastPLen = 0;
  #lastPId = -1;

  constructor(text: string, expectedTriples: number) {
    this.#text = text;
    this.#cols = new Columns(expectedTriples);
    const termCap = this.#cols.kind.length;
    this.#start = new Int32Array(termCap);
    this.#length = new Int32Array(termCap);
    this.#fullHash = new Uint32Array(termCap);
    let size = 1024;
    while (size < termCap * 2) size *= 2;
    this.#table = new Int32Array(size);
    this.#mask = size - 1;
  }

  /** Id of the term text[from, to); `quote` is its closing '"' for literals (else ignored). */
  term(from: number, to: number, quote: number): number {
    const text = this.#text;
    const length = to - from;
    let h = (0x811c9dc5 ^ length) >>> 0;
    const prefixEnd = from + (length < SAMPLE_PREFIX ? length : SAMPLE_PREFIX);
    let i = from;
    for (; i < prefixEnd; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    const sampleHash = h >>> 0;
    for (; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    h >>>= 0;
    const table = this.#table;
    const mask = this.#mask;
    let slot = h & mask;
    for (;;) {
      const entry = table[slot]!;
      if (entry === 0) break;
      const id = entry - 1;
      if (this.#fullHash[id] === h && this.#length[id] === length && this.#same(this.#start[id]!, from, length)) return id;
      slot = (slot + 1) & mask;
    }
    const kind = kindOfChar(text.charCodeAt(from));
    let datatype = 0;
    if (kind === KIND_LITERAL) {
      const c = text.charCodeAt(quote + 1);
      datatype = this.#cols.datatypeId(c === 94 /* ^^< */ ? text.slice(quote + 4, to - 1) : c === 64 ? RDF.langString : XSD.string);
    }
    const id = this.#cols.newTerm(kind, sampleHash, datatype);
    if (id === this.#start.length) {
      const cap = this.#cols.kind.length;
      this.#start = grow(this.#start, cap);
      this.#length = grow(this.#length, cap);
      this.#fullHash = grow(this.#fullHash, cap);
    }
    this.#start[id] = from;
    this.#length[id] = length;
    this.#fullHash[id] = h;
    table[slot] = id + 1;
    if (this.#cols.terms * 2 > table.length) this.#rehash();
    return id;
  }

  /** Id of the subject text[from, to): a subject's lines are often consecutive, so the last one is checked first. */
  subject(from: number, to: number): number {
    const length = to - from;
    if (length === this.#lastSLen && this.#same(this.#lastS0, from, length)) return this.#lastSId;
    this.#lastS0 = from;
    this.#lastSLen = length;
    return (this.#lastSId = this.term(from, to, -1));
  }

  /** Id of the predicate text[from, to): predicates are few, so the last one is checked first. */
  pred(from: number, to: number): number {
    const length = to - from;
    if (length === this.#lastPLen && this.#same(this.#lastP0, from, length)) return this.#lastPId;
    const key = this.#text.slice(from, to);
    let id = this.#predIds.get(key);
    if (id === undefined) {
      id = this.#preds.length;
      this.#predIds.set(key, id);
      this.#preds.push(key);
    }
    this.#lastP0 = from;
    this.#lastPLen = length;
    this.#lastPId = id;
    return id;
  }

  push(s: number, p: number, o: number): void {
    this.#cols.push(s, p, o);
  }

  finish(): InternedTriples {
    const text = this.#text;
    const start = this.#start;
    const length = this.#length;
    this.#table = new Int32Array(0);
    return finish(this.#cols, (id) => text.slice(start[id]!, start[id]! + length[id]!), this.#preds);
  }

  #same(a: number, b: number, length: number): boolean {
    if (a === b) return true;
    const text = this.#text;
    for (let i = 0; i < length; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
    return true;
  }

  #rehash(): void {
    const size = this.#table.length * 2;
    const table = new Int32Array(size);
    const mask = size - 1;
    for (let id = 0; id < this.#cols.terms; id++) {
      let slot = this.#fullHash[id]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.#table = table;
    this.#mask = mask;
  }
}
