/**
 * Kept graphs: the interned columns the miner works on (intern.ts), kept per graph of a store and
 * folded forward from the writes themselves, so that introspecting a graph that changed does
 * not dump it out of oxigraph again.
 *
 * Contract
 * - The owner tells the keeper every write to the store, in order, AFTER the store applied it:
 *   `load` (N-Triples or N-Quads text), `clear`, `delta` (concrete quads added or removed) and
 *   `unknown` (a write whose effect is not known here, e.g. a SPARQL Update). Telling costs O(1):
 *   the op's text is queued, not parsed (`maxPendingChars` bounds what is queued; past it the
 *   graphs the queue touches are forgotten and read from the store again when asked).
 * - `interned(graph)` folds the queue (in write order) and gives the graph's triples as
 *   `InternedTriples`, exactly as interning oxigraph's N-Triples dump of that graph would give them
 *   up to term ids and blank-node labels; or null when the graph is not kept (never told, a write
 *   of unknown effect, a format this file does not parse, a graph past `maxTriples`): the caller
 *   then dumps the graph and may `adopt` the result.
 * - Term keys are the dump's: a term the dump could print differently from how the write spelt it
 *   (escapes, a numeric lexical form oxigraph normalizes, an upper-case language tag, an XSD
 *   datatype with no rule here) is put through a scratch oxigraph store once and keyed as it comes
 *   out. Blank nodes are identified, not labelled: oxigraph renames a loaded document's blank nodes,
 *   so a node loaded as `_:b` is kept as `_:#<write>#b` (one node per label per write, as oxigraph
 *   makes them); blank nodes from deltas and dumps keep their labels (they are oxigraph's own). The
 *   miner never prints a blank node's label (mine.ts leaves them out of samples), so its output
 *   is the same either way.
 * - Memory: per kept triple 12 bytes of columns and ~8–16 of set index; per distinct term its
 *   characters (2 bytes each) and ~30 bytes of tables. Terms of deleted triples stay until the
 *   graph is cleared or adopted again.
 */
import { createRequire } from 'node:module';
import type * as Ox from 'oxigraph';
import { KIND_BNODE, KIND_IRI, KIND_LITERAL, type InternedTriples } from './intern.ts';
import { hashKey } from './sample.ts';
import { RDF, XSD } from './vocab.ts';

export interface KeptLimits {
  /** Triples kept over every graph of the store; a graph that would pass it is not kept. */
  maxTriples: number;
  /** Characters of write text waiting to be folded; past it, the graphs they touch are forgotten. */
  maxPendingChars: number;
}

export const DEFAULT_KEPT_LIMITS: KeptLimits = { maxTriples: 4_000_000, maxPendingChars: 256 * 1024 * 1024 };

/** The whole-dataset clear targets of SPARQL's CLEAR. */
export type ClearWhich = 'DEFAULT' | 'NAMED' | 'ALL';

type Pending =
  | { kind: 'load'; data: string | Uint8Array; quads: boolean; graph: string; scope: number }
  | { kind: 'delta'; remove: boolean; nquads: string }
  | { kind: 'clear'; graph: string }
  | { kind: 'clearWhich'; which: ClearWhich }
  | { kind: 'unknown'; graph: string };

const FNV_PRIME = 0x01000193;

function grow<T extends Int32Array | Uint32Array | Uint8Array | Uint16Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/** Distinct terms of one graph, their characters in one buffer, found by hash without slicing. */
class TermTable {
  chars = new Uint16Array(1 << 16);
  used = 0;
  count = 0;
  start = new Int32Array(1024);
  length = new Int32Array(1024);
  fullHash = new Uint32Array(1024);
  kind = new Uint8Array(1024);
  sampleHash = new Uint32Array(1024);
  datatype = new Int32Array(1024);
  readonly datatypes: string[] = [];
  readonly #datatypeIds = new Map<string, number>();
  #table = new Int32Array(2048);

  /** Id of the term text[from, to), added if new. */
  idOf(text: string, from: number, to: number): number {
    const length = to - from;
    let h = (0x811c9dc5 ^ length) >>> 0;
    for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    h >>>= 0;
    const table = this.#table;
    const mask = table.length - 1;
    let slot = h & mask;
    for (;;) {
      const entry = table[slot]!;
      if (entry === 0) break;
      const id = entry - 1;
      if (this.fullHash[id] === h && this.length[id] === length && this.#same(id, text, from, length)) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.#add(text, from, to, h);
    table[slot] = id + 1;
    if (this.count * 2 > table.length) this.#rehash();
    return id;
  }

  key(id: number): string {
    const at = this.start[id]!;
    const n = this.length[id]!;
    let s = '';
    for (let i = 0; i < n; i += 8192) s += String.fromCharCode.apply(null, this.chars.subarray(at + i, at + Math.min(n, i + 8192)) as unknown as number[]);
    return s;
  }

  #same(id: number, text: string, from: number, length: number): boolean {
    const chars = this.chars;
    const at = this.start[id]!;
    for (let i = 0; i < length; i++) if (chars[at + i] !== text.charCodeAt(from + i)) return false;
    return true;
  }

  #add(text: string, from: number, to: number, h: number): number {
    const length = to - from;
    if (this.used + length > this.chars.length) {
      let cap = this.chars.length * 2;
      while (cap < this.used + length) cap *= 2;
      this.chars = grow(this.chars, cap);
    }
    const at = this.used;
    for (let i = 0; i < length; i++) this.chars[at + i] = text.charCodeAt(from + i);
    this.used += length;
    const id = this.count;
    if (id === this.start.length) {
      const cap = id * 2;
      this.start = grow(this.start, cap);
      this.length = grow(this.length, cap);
      this.fullHash = grow(this.fullHash, cap);
      this.kind = grow(this.kind, cap);
      this.sampleHash = grow(this.sampleHash, cap);
      this.datatype = grow(this.datatype, cap);
    }
    const c = text.charCodeAt(from);
    const kind = c === 34 ? KIND_LITERAL : c === 60 ? KIND_IRI : KIND_BNODE;
    let datatype = 0;
    if (kind === KIND_LITERAL) {
      const q = text.lastIndexOf('"', to - 1);
      const next = text.charCodeAt(q + 1);
      datatype = this.#datatypeId(next === 94 /* ^^< */ ? text.slice(q + 4, to - 1) : next === 64 /* @ */ ? RDF.langString : XSD.string);
    }
    this.start[id] = at;
    this.length[id] = length;
    this.fullHash[id] = h;
    this.kind[id] = kind;
    // sample.ts hashKey of the key: FNV-1a over its first 64 code units, seeded with its length.
    let sh = (0x811c9dc5 ^ length) >>> 0;
    const end = from + Math.min(length, 64);
    for (let i = from; i < end; i++) sh = Math.imul(sh ^ text.charCodeAt(i), FNV_PRIME);
    this.sampleHash[id] = sh >>> 0;
    this.datatype[id] = datatype;
    this.count = id + 1;
    return id;
  }

  #datatypeId(iri: string): number {
    let id = this.#datatypeIds.get(iri);
    if (id === undefined) {
      id = this.datatypes.length;
      this.#datatypeIds.set(iri, id);
      this.datatypes.push(iri);
    }
    return id + 1;
  }

  #rehash(): void {
    const table = new Int32Array(this.#table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.fullHash[id]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.#table = table;
  }

  bytes(): number {
    return this.chars.byteLength + this.start.byteLength * 5 + this.kind.byteLength + this.#table.byteLength;
  }
}

/** One graph: its terms, predicates and the set of its triples as id columns. */
class KeptGraph {
  readonly terms = new TermTable();
  readonly preds: string[] = [];
  readonly #predIds = new Map<string, number>();
  s = new Int32Array(1024);
  p = new Int32Array(1024);
  o = new Int32Array(1024);
  /** Rows used, dead ones included. */
  rows = 0;
  dead = 0;
  /** Holds blank nodes under labels of its own (from a loaded document), not the store's. */
  synthetic = false;
  /** Open addressing over rows: row + 1, 0 empty, -1 a deleted row's slot. */
  #index = new Int32Array(2048);
  #indexUsed = 0;

  get size(): number {
    return this.rows - this.dead;
  }

  pred(text: string, from: number, to: number): number {
    const key = text.slice(from, to);
    let id = this.#predIds.get(key);
    if (id === undefined) {
      id = this.preds.length;
      this.#predIds.set(key, id);
      this.preds.push(key);
    }
    return id;
  }

  add(s: number, p: number, o: number): void {
    const index = this.#index;
    const mask = index.length - 1;
    let slot = tripleHash(s, p, o) & mask;
    let free = -1;
    for (;;) {
      const e = index[slot]!;
      if (e === 0) break;
      if (e === -1) { if (free < 0) free = slot; }
      else {
        const r = e - 1;
        if (this.s[r] === s && this.p[r] === p && this.o[r] === o) return;
      }
      slot = (slot + 1) & mask;
    }
    const row = this.rows;
    if (row === this.s.length) {
      const cap = row * 2;
      this.s = grow(this.s, cap);
      this.p = grow(this.p, cap);
      this.o = grow(this.o, cap);
    }
    this.s[row] = s;
    this.p[row] = p;
    this.o[row] = o;
    this.rows = row + 1;
    if (free >= 0) index[free] = row + 1;
    else {
      index[slot] = row + 1;
      this.#indexUsed++;
    }
    if (this.#indexUsed * 2 > index.length) this.#reindex(index.length * 2);
  }

  remove(s: number, p: number, o: number): void {
    const index = this.#index;
    const mask = index.length - 1;
    let slot = tripleHash(s, p, o) & mask;
    for (;;) {
      const e = index[slot]!;
      if (e === 0) return;
      if (e > 0) {
        const r = e - 1;
        if (this.s[r] === s && this.p[r] === p && this.o[r] === o) {
          index[slot] = -1;
          this.s[r] = -1;
          this.dead++;
          return;
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Drop dead rows (the miner reads the first `size` rows). */
  compact(): void {
    if (this.dead === 0) return;
    let w = 0;
    for (let r = 0; r < this.rows; r++) {
      if (this.s[r] === -1) continue;
      this.s[w] = this.s[r]!;
      this.p[w] = this.p[r]!;
      this.o[w] = this.o[r]!;
      w++;
    }
    this.rows = w;
    this.dead = 0;
    let size = 2048;
    while (size < w * 2 + 2) size *= 2;
    this.#reindex(size);
  }

  /** A predicate whose every triple was deleted is not the graph's any more (the dump never names it). */
  #dropUnusedPreds(): void {
    const used = new Uint8Array(this.preds.length);
    for (let r = 0; r < this.rows; r++) used[this.p[r]!] = 1;
    if (!used.includes(0)) return;
    const map = new Int32Array(this.preds.length);
    const kept = this.preds.filter((_, i) => used[i] === 1);
    let next = 0;
    for (let i = 0; i < this.preds.length; i++) map[i] = used[i] ? next++ : -1;
    for (let r = 0; r < this.rows; r++) this.p[r] = map[this.p[r]!]!;
    this.preds.length = 0;
    this.#predIds.clear();
    kept.forEach((k, i) => { this.preds.push(k); this.#predIds.set(k, i); });
    this.#reindex(this.#index.length);
  }

  #reindex(size: number): void {
    const index = new Int32Array(size);
    const mask = size - 1;
    let used = 0;
    for (let r = 0; r < this.rows; r++) {
      if (this.s[r] === -1) continue;
      let slot = tripleHash(this.s[r]!, this.p[r]!, this.o[r]!) & mask;
      while (index[slot] !== 0) slot = (slot + 1) & mask;
      index[slot] = r + 1;
      used++;
    }
    this.#index = index;
    this.#indexUsed = used;
  }

  interned(): InternedTriples {
    this.compact();
    this.#dropUnusedPreds();
    const t = this.terms;
    return {
      n: this.rows, s: this.s, p: this.p, o: this.o, termCount: t.count, term: (id) => t.key(id),
      kind: t.kind, sampleHash: t.sampleHash, datatype: t.datatype, datatypes: t.datatypes, preds: this.preds,
    };
  }

  bytes(): number {
    return this.terms.bytes() + this.s.byteLength * 3 + this.#index.byteLength;
  }
}

function tripleHash(s: number, p: number, o: number): number {
  let h = Math.imul(s, 0x9e3779b1) ^ Math.imul(p + 0x7f4a7c15, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0xc2b2ae35) ^ Math.imul(o, 0x27d4eb2f);
  return (h ^ (h >>> 13)) >>> 0;
}

/** Why a write could not be folded: the graphs it touched are forgotten. */
class Unparsed extends Error {}

/** Lines folded per batch: the spans of a batch are held while its odd terms are canonicalized. */
const BATCH = 65_536;
/** Span columns per line: s, p, o, g as (start, end) pairs. */
const F = 8;
/** A term whose key is a string in `odd` instead of its span. */
const FLAG_S = 1;
const FLAG_P = 2;
const FLAG_O = 4;
const FLAG_G = 8;

const XSD_NS = 'http://www.w3.org/2001/XMLSchema#';

/**
 * The keeper of one store's graphs. One per store instance (each query worker's replica has its
 * own); not shared between threads.
 * Two modes: `all` (made on an empty store: every graph is kept from its first write) and `asked`
 * (made on a store already holding data: only graphs adopted after a read are kept, and writes to
 * other graphs are not even queued).
 */
export class KeptStore {
  readonly limits: KeptLimits;
  #mode: 'all' | 'asked';
  readonly #graphs = new Map<string, KeptGraph>();
  /** In `all` mode: graphs whose state is not known here (a write of unknown effect, or too large). */
  readonly #unknown = new Set<string>();
  #pending: Pending[] = [];
  #pendingChars = 0;
  #scope = 0;
  /** A blank node of one N-Quads write was seen in two graphs: forgetting one graph forgets all. */
  #sharedScopes = false;
  #generation = 0;
  /** Graphs adopted from a read of the store (each a dump). */
  #adopted = 0;

  constructor(mode: 'all' | 'asked', limits: Partial<KeptLimits> = {}) {
    this.limits = { ...DEFAULT_KEPT_LIMITS, ...limits };
    this.#mode = mode;
  }

  get mode(): 'all' | 'asked' {
    return this.#mode;
  }

  // --- Told of writes (O(1) each: queued, folded when read). ----------------------------------

  /** A document loaded into `graph` ('' default; ignored for N-Quads, whose lines name their graph). */
  load(data: string | Uint8Array, format: 'n-triples' | 'n-quads', graph = ''): void {
    const quads = format === 'n-quads';
    // A graph nobody asked about is not kept: its text is not held either.
    if (!quads && this.#mode === 'asked' && !this.#graphs.has(graph)) return;
    this.#queue({ kind: 'load', data, quads, graph, scope: ++this.#scope }, data.length);
  }

  /** Concrete quads (canonical N-Quads as oxigraph writes them, blank nodes labelled as stored) added or removed. */
  delta(step: 'insert' | 'delete', nquads: string): void {
    if (this.#mode === 'asked' && this.#graphs.size === 0) return;
    this.#queue({ kind: 'delta', remove: step === 'delete', nquads }, nquads.length);
  }

  /** One graph emptied ('' default). */
  clear(graph: string): void {
    // Queued loads of this graph alone are superseded: drop them and their text.
    this.#pending = this.#pending.filter((e) => {
      const drop = e.kind === 'load' && !e.quads && e.graph === graph;
      if (drop) this.#pendingChars -= e.data.length;
      return !drop;
    });
    this.#queue({ kind: 'clear', graph }, 0);
  }

  clearWhich(which: ClearWhich): void {
    this.#queue({ kind: 'clearWhich', which }, 0);
  }

  /** A write whose effect is not known here: `graph` (or, without one, every graph) is forgotten. */
  unknown(graph?: string): void {
    if (graph === undefined) this.#forgetAll();
    else this.#queue({ kind: 'unknown', graph }, 0);
  }

  // --- Read. ------------------------------------------------------------------------------------

  /** The graph's triples, folded up to the last write told; null when the graph is not kept. */
  interned(graph: string): InternedTriples | null {
    this.#fold();
    const g = this.#graphs.get(graph);
    if (g) return g.interned();
    if (this.#isUnknown(graph)) return null;
    return new KeptGraph().interned(); // `all` mode, never written: empty
  }

  /**
   * Keep `graph` as read from the store (its dump, interned) after `interned` said null. Ignored
   * when writes were told since (the triples given may be behind them) or past `maxTriples`.
   */
  adopt(graph: string, triples: InternedTriples): void {
    if (this.#pending.length > 0 || !this.#isUnknown(graph)) return;
    // Blank nodes shared with another graph are held there under labels of their own: forget it.
    if (this.#sharedScopes) this.#forgetAll();
    if (triples.n + this.#keptTriples() > this.limits.maxTriples) return;
    const g = new KeptGraph();
    const predIds = triples.preds.map((k) => g.pred(k, 0, k.length));
    const ids = new Int32Array(triples.termCount).fill(-1);
    const idOf = (t: number): number => {
      let id = ids[t]!;
      if (id < 0) {
        const key = triples.term(t);
        ids[t] = id = g.terms.idOf(key, 0, key.length);
      }
      return id;
    };
    for (let i = 0; i < triples.n; i++) g.add(idOf(triples.s[i]!), predIds[triples.p[i]!]!, idOf(triples.o[i]!));
    this.#graphs.set(graph, g);
    this.#unknown.delete(graph);
    this.#adopted++;
  }

  /** What is kept: graphs, triples, bytes of its typed arrays, writes and characters queued, graphs adopted so far. */
  stats(): { graphs: number; triples: number; bytes: number; pendingWrites: number; pendingChars: number; adopted: number } {
    let bytes = 0;
    for (const g of this.#graphs.values()) bytes += g.bytes();
    return { graphs: this.#graphs.size, triples: this.#keptTriples(), bytes, pendingWrites: this.#pending.length, pendingChars: this.#pendingChars, adopted: this.#adopted };
  }

  // --- Internals. -------------------------------------------------------------------------------

  #isUnknown(graph: string): boolean {
    return !this.#graphs.has(graph) && (this.#mode === 'asked' || this.#unknown.has(graph));
  }

  #keptTriples(): number {
    let n = 0;
    for (const g of this.#graphs.values()) n += g.size;
    return n;
  }

  /** Moves each time everything kept is forgotten (callers combining several graphs read them again). */
  get generation(): number {
    return this.#generation;
  }

  #forgetAll(): void {
    this.#generation++;
    this.#graphs.clear();
    this.#unknown.clear();
    this.#mode = 'asked';
    this.#pending = [];
    this.#pendingChars = 0;
    this.#sharedScopes = false;
  }

  #forget(graph: string): void {
    if (this.#sharedScopes) {
      this.#forgetAll();
      return;
    }
    this.#graphs.delete(graph);
    if (this.#mode === 'all') this.#unknown.add(graph);
  }

  #queue(e: Pending, chars: number): void {
    this.#pending.push(e);
    this.#pendingChars += chars;
    // Past the bound, forget rather than make this write wait for a fold: the graphs are read
    // from the store again when asked.
    if (this.#pendingChars > this.limits.maxPendingChars) this.#forgetAll();
  }

  /** The graph to fold a line into, or null when it is not kept. */
  #target(graph: string): KeptGraph | null {
    let g = this.#graphs.get(graph);
    if (g) return g;
    if (this.#isUnknown(graph)) return null;
    g = new KeptGraph();
    this.#graphs.set(graph, g);
    return g;
  }

  /** Empty `graph`: known (and kept) from here on if it was kept or the mode keeps every graph. */
  #empty(graph: string): void {
    if (this.#graphs.has(graph)) this.#graphs.set(graph, new KeptGraph());
    else this.#unknown.delete(graph);
  }

  #fold(): void {
    const queue = this.#pending;
    this.#pending = [];
    this.#pendingChars = 0;
    for (const e of queue) {
      switch (e.kind) {
        case 'clear':
          this.#empty(e.graph);
          break;
        case 'clearWhich':
          for (const g of [...this.#graphs.keys()]) if (e.which === 'ALL' || (e.which === 'DEFAULT') === (g === '')) this.#empty(g);
          for (const g of [...this.#unknown]) if (e.which === 'ALL' || (e.which === 'DEFAULT') === (g === '')) this.#unknown.delete(g);
          break;
        case 'unknown':
          this.#forget(e.graph);
          break;
        case 'load': {
          const text = typeof e.data === 'string' ? e.data : Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength).toString('utf8');
          this.#foldText(text, e.quads, e.graph, e.scope, false);
          break;
        }
        case 'delta':
          this.#foldText(e.nquads, true, '', 0, e.remove);
          break;
      }
      this.#enforceLimit();
    }
  }

  #enforceLimit(): void {
    // Past the bound the largest graphs go first; they are read from the store when asked.
    while (this.#keptTriples() > this.limits.maxTriples) {
      let largest: [string, number] | null = null;
      for (const [name, g] of this.#graphs) if (!largest || g.size > largest[1]) largest = [name, g.size];
      if (!largest) return;
      this.#forget(largest[0]);
    }
  }

  /** Fold one document; one that does not parse here forgets the graphs it may have touched. */
  #foldText(text: string, quads: boolean, graph: string, scope: number, remove: boolean): void {
    try {
      foldLines(text, quads, graph, scope, remove, (name) => this.#target(name), () => { this.#sharedScopes = true; });
    } catch (e) {
      if (!(e instanceof Unparsed)) throw e;
      if (quads) this.#forgetAll();
      else this.#forget(graph);
    }
  }
}

/** A term whose dump key may differ from its spelling here is "odd": canonicalized by oxigraph. */
function foldLines(text: string, quads: boolean, graph: string, scope: number, remove: boolean,
  target: (graph: string) => KeptGraph | null, shared: () => void): void {
  const spans = new Int32Array(BATCH * F);
  const flags = new Uint8Array(BATCH);
  const odd: string[] = [];
  /** Index into `odd` per flagged term: s, p, o, g. */
  const oddAt = new Int32Array(BATCH * 4);
  let scopeGraph: string | null = null;
  const length = text.length;
  let pos = 0;
  while (pos < length) {
    // Phase 1: spans of up to BATCH lines; odd terms collected as strings.
    let lines = 0;
    odd.length = 0;
    const oddKeys = new Map<string, number>();
    const oddIndex = (key: string): number => {
      let i = oddKeys.get(key);
      if (i === undefined) {
        i = odd.length;
        odd.push(key);
        oddKeys.set(key, i);
      }
      return i;
    };
    while (pos < length && lines < BATCH) {
      let end = text.indexOf('\n', pos);
      if (end < 0) end = length;
      const at = lines * F;
      const r = lineSpans(text, pos, end, spans, at, quads);
      if (r >= 0) {
        let f = 0;
        for (let t = 0; t < 4; t++) {
          const a = spans[at + 2 * t]!;
          const b = spans[at + 2 * t + 1]!;
          if (a === b) continue; // no graph term
          const bit = 1 << t;
          if (text.charCodeAt(a) === 95 /* _ */) {
            if (t === 3) throw new Unparsed('a blank-node graph name');
            f |= bit;
            oddAt[lines * 4 + t] = oddIndex(scope > 0 ? `_:#${scope}#${text.slice(a + 2, b)}` : text.slice(a, b));
          } else if (r & bit) {
            f |= bit | (bit << 4);
            oddAt[lines * 4 + t] = oddIndex(text.slice(a, b));
          }
        }
        flags[lines] = f;
        lines++;
      }
      pos = end + 1;
    }
    // Phase 2: canonical keys of the odd terms (blank-node keys are used as they are).
    const needs = new Set<number>();
    for (let l = 0; l < lines; l++) {
      const hi = flags[l]! >> 4;
      for (let t = 0; t < 4; t++) if (hi & (1 << t)) needs.add(oddAt[l * 4 + t]!);
    }
    if (needs.size > 0) {
      const which = [...needs];
      const canonical = canonicalize(which.map((i) => odd[i]!));
      which.forEach((i, j) => { odd[i] = canonical[j]!; });
    }
    // Phase 3: intern and add (or remove).
    let lastG: KeptGraph | null = null;
    let lastKey: string | null = null;
    let lastName = '';
    for (let l = 0; l < lines; l++) {
      const at = l * F;
      const f = flags[l]! & 15;
      let g: KeptGraph | null;
      if (quads) {
        const a = spans[at + 6]!;
        const b = spans[at + 7]!;
        const same = lastKey !== null && (a < b && !(f & FLAG_G) ? b - a === lastKey.length && text.startsWith(lastKey, a) : a === b && lastKey === '');
        if (same) g = lastG;
        else {
          const key = a === b ? '' : f & FLAG_G ? odd[oddAt[l * 4 + 3]!]! : text.slice(a, b);
          const name = key === '' ? '' : key.slice(1, -1);
          g = target(name);
          lastG = g;
          lastName = name;
          lastKey = f & FLAG_G ? '\u0000' : key;
        }
        if (scope > 0 && (f & (FLAG_S | FLAG_O)) !== 0 && hasBlank(text, spans, at)) {
          if (scopeGraph === null) scopeGraph = lastName;
          else if (scopeGraph !== lastName) shared();
        }
      } else {
        if (lastKey === null) {
          lastG = target(graph);
          lastKey = '';
        }
        g = lastG;
      }
      if (!g) continue;
      if (f & (FLAG_S | FLAG_O) && (text.charCodeAt(spans[at]!) === 95 || text.charCodeAt(spans[at + 4]!) === 95)) {
        if (scope > 0) g.synthetic = true;
        // The store's own label of a node this graph holds under one of its own: not matchable here.
        else if (remove && g.synthetic) throw new Unparsed('a deleted blank node known under another label');
      }
      const sid = f & FLAG_S ? keyId(g, odd[oddAt[l * 4]!]!) : g.terms.idOf(text, spans[at]!, spans[at + 1]!);
      const pid = f & FLAG_P ? predId(g, odd[oddAt[l * 4 + 1]!]!) : g.pred(text, spans[at + 2]!, spans[at + 3]!);
      const oid = f & FLAG_O ? keyId(g, odd[oddAt[l * 4 + 2]!]!) : g.terms.idOf(text, spans[at + 4]!, spans[at + 5]!);
      if (remove) g.remove(sid, pid, oid);
      else g.add(sid, pid, oid);
    }
  }
}

function hasBlank(text: string, spans: Int32Array, at: number): boolean {
  return text.charCodeAt(spans[at]!) === 95 || text.charCodeAt(spans[at + 4]!) === 95;
}

const keyId = (g: KeptGraph, key: string): number => g.terms.idOf(key, 0, key.length);
const predId = (g: KeptGraph, key: string): number => g.pred(key, 0, key.length);

/**
 * Spans of one N-Triples/N-Quads line into spans[at…at+8) (s, p, o, g; g empty when absent).
 * Returns -1 for a blank or comment line; else a bit mask of the terms (1 s, 2 p, 4 o, 8 g) whose
 * dump key may differ from their text here. Throws Unparsed for anything else.
 */
function lineSpans(text: string, pos: number, end: number, spans: Int32Array, at: number, quads: boolean): number {
  pos = skipWs(text, pos, end);
  if (pos >= end || text.charCodeAt(pos) === 35 /* # */) return -1;
  let odd = 0;
  // Subject.
  let c = text.charCodeAt(pos);
  let stop: number;
  if (c === 60) {
    stop = iriEnd(text, pos, end);
    if (oddIri(text, pos, stop)) odd |= FLAG_S;
  } else if (c === 95) stop = blankEnd(text, pos, end);
  else throw new Unparsed('subject');
  spans[at] = pos;
  spans[at + 1] = stop;
  pos = skipWs(text, stop, end);
  // Predicate.
  if (text.charCodeAt(pos) !== 60) throw new Unparsed('predicate');
  stop = iriEnd(text, pos, end);
  if (oddIri(text, pos, stop)) odd |= FLAG_P;
  spans[at + 2] = pos;
  spans[at + 3] = stop;
  pos = skipWs(text, stop, end);
  // Object.
  c = text.charCodeAt(pos);
  if (c === 60) {
    stop = iriEnd(text, pos, end);
    if (oddIri(text, pos, stop)) odd |= FLAG_O;
  } else if (c === 95) stop = blankEnd(text, pos, end);
  else if (c === 34) {
    const r = literalEnd(text, pos, end);
    stop = r.end;
    if (r.odd) odd |= FLAG_O;
  } else throw new Unparsed('object');
  spans[at + 4] = pos;
  spans[at + 5] = stop;
  pos = skipWs(text, stop, end);
  // Graph.
  c = text.charCodeAt(pos);
  if (quads && (c === 60 || c === 95)) {
    stop = c === 60 ? iriEnd(text, pos, end) : blankEnd(text, pos, end);
    if (c === 60 && oddIri(text, pos, stop)) odd |= FLAG_G;
    spans[at + 6] = pos;
    spans[at + 7] = stop;
    pos = skipWs(text, stop, end);
  } else {
    spans[at + 6] = 0;
    spans[at + 7] = 0;
  }
  if (text.charCodeAt(pos) !== 46 /* . */) throw new Unparsed('end of statement');
  pos = skipWs(text, pos + 1, end);
  if (pos < end && text.charCodeAt(pos) !== 35) throw new Unparsed('text after the statement');
  return odd;
}

function skipWs(text: string, pos: number, end: number): number {
  while (pos < end) {
    const c = text.charCodeAt(pos);
    if (c !== 32 && c !== 9 && c !== 13) break;
    pos++;
  }
  return pos;
}

function iriEnd(text: string, pos: number, end: number): number {
  const close = text.indexOf('>', pos + 1);
  if (close < 0 || close >= end) throw new Unparsed('IRI');
  return close + 1;
}

function blankEnd(text: string, pos: number, end: number): number {
  if (text.charCodeAt(pos + 1) !== 58 /* : */) throw new Unparsed('blank node');
  let i = pos + 2;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13 || c === 60 || c === 34) break;
    i++;
  }
  // A label never ends with '.': one glued to it ends the statement.
  while (i > pos + 2 && text.charCodeAt(i - 1) === 46) i--;
  if (i === pos + 2) throw new Unparsed('blank node label');
  return i;
}

/**
 * Whether an IRI's dump key may differ from its text (an escape, or a character a lenient parse
 * keeps that the dump might write otherwise). A relative IRI is resolved against the write's
 * base, which this file does not do: Unparsed.
 */
function oddIri(text: string, from: number, to: number): boolean {
  let i = from + 1;
  const first = text.charCodeAt(i);
  if (!((first >= 97 && first <= 122) || (first >= 65 && first <= 90))) throw new Unparsed('relative IRI');
  for (i++; i < to - 1; i++) {
    const c = text.charCodeAt(i);
    if (c === 58 /* : */) break;
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) throw new Unparsed('relative IRI');
  }
  if (i >= to - 1) throw new Unparsed('relative IRI');
  for (; i < to - 1; i++) {
    const c = text.charCodeAt(i);
    if (c <= 32 || c === 92 /* \ */ || c === 34 || c === 123 || c === 125 || c === 124 || c === 94 || c === 96 || c === 60) return true;
  }
  return false;
}

/** The end of a literal starting at `pos`, and whether its dump key may be spelt differently. */
function literalEnd(text: string, pos: number, end: number): { end: number; odd: boolean } {
  let odd = false;
  let i = pos + 1;
  for (;;) {
    if (i >= end) throw new Unparsed('literal');
    const c = text.charCodeAt(i);
    if (c === 34) break;
    if (c === 92) {
      const e = text.charCodeAt(i + 1);
      // oxigraph writes \" \\ \n \r \t \b \f itself; \u and \U escapes of printable characters it writes raw.
      if (e !== 34 && e !== 92 && e !== 110 && e !== 114 && e !== 116 && e !== 98 && e !== 102) odd = true;
      i += 2;
      continue;
    }
    if (c < 32 || c === 127) odd = true;
    i++;
  }
  const lexEnd = i;
  i++;
  const next = text.charCodeAt(i);
  if (next === 64 /* @ */) {
    let j = i + 1;
    for (; j < end && isTagChar(text.charCodeAt(j)); j++) {
      const c = text.charCodeAt(j);
      if (c >= 65 && c <= 90) odd = true; // oxigraph lowers a tag's case
    }
    if (j === i + 1) throw new Unparsed('language tag');
    return { end: j, odd };
  }
  if (next === 94 /* ^ */) {
    if (text.charCodeAt(i + 1) !== 94 || text.charCodeAt(i + 2) !== 60) throw new Unparsed('datatype');
    const dtEnd = iriEnd(text, i + 2, end);
    if (!odd && oddTyped(text, pos + 1, lexEnd, i + 3, dtEnd - 1)) odd = true;
    if (oddIri(text, i + 2, dtEnd)) odd = true;
    return { end: dtEnd, odd };
  }
  return { end: i, odd };
}

const isTagChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45;

const INTEGER = /^(?:0|-?[1-9][0-9]*)$/;
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]{0,16}[1-9])?$/;
const DOUBLE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?$/;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const GYEAR = /^[0-9]{4}$/;

/**
 * May oxigraph store this typed literal under another spelling? Lexical forms are checked against
 * what oxigraph 0.5 writes back for the XSD types it normalizes (measured: "01" → "1", "5.00" →
 * "5", "45.000"^^double → "45", xsd:int → xsd:integer, an explicit xsd:string dropped); anything
 * in the XSD namespace without a rule here is odd. Other datatypes are stored as written.
 */
function oddTyped(text: string, lexFrom: number, lexTo: number, dtFrom: number, dtTo: number): boolean {
  if (!text.startsWith(XSD_NS, dtFrom)) return text.startsWith(RDF.langString, dtFrom) && dtTo - dtFrom === RDF.langString.length;
  const local = text.slice(dtFrom + XSD_NS.length, dtTo);
  const lex = text.slice(lexFrom, lexTo);
  switch (local) {
    case 'integer': return !INTEGER.test(lex) || lex === '-0';
    case 'decimal': return !DECIMAL.test(lex) || lex.startsWith('-0') && !lex.startsWith('-0.');
    case 'boolean': return lex !== 'true' && lex !== 'false';
    case 'date': return !DATE.test(lex);
    case 'gYear': return !GYEAR.test(lex);
    case 'double': {
      if (!DOUBLE.test(lex)) return true;
      // Up to 15 significant digits JavaScript's and Rust's shortest forms agree (measured); past it they may not.
      const digits = lex.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length;
      if (digits > 15) return true;
      const x = Number(lex);
      if (lex !== '0' && (Math.abs(x) < 1e-6 || Math.abs(x) >= 1e21)) return true;
      return String(x) !== lex || lex === '-0';
    }
    default: return true;
  }
}

// oxigraph is loaded when a term first needs canonicalizing, not at import: a static import would
// start its WebAssembly instance before Assay's store module catches it (src/rdf/wasm-image.ts).
const require = createRequire(import.meta.url);
let ox: typeof Ox | undefined;

const C_SUBJECT = 'urn:assay:kept:';
const C_PREDICATE = '<urn:assay:kept>';

/**
 * Dump keys of terms, as oxigraph stores them: each is loaded as the object of a statement into
 * a scratch store and read back. Throws Unparsed when oxigraph refuses one.
 */
function canonicalize(keys: string[]): string[] {
  const oxigraph = (ox ??= require('oxigraph') as typeof Ox);
  const scratch = new oxigraph.Store();
  const lines = keys.map((k, i) => `<${C_SUBJECT}${i}> ${C_PREDICATE} ${k} .\n`).join('');
  try {
    scratch.load(lines, { format: 'application/n-triples', lenient: true });
  } catch (e) {
    throw new Unparsed(`a term oxigraph refuses (${(e as Error).message})`);
  }
  const out = new Array<string>(keys.length);
  const dump = scratch.dump({ format: 'application/n-triples', from_graph_name: oxigraph.defaultGraph() });
  const head = `<${C_SUBJECT}`;
  const mid = `> ${C_PREDICATE} `;
  for (let pos = 0; pos < dump.length;) {
    let end = dump.indexOf('\n', pos);
    if (end < 0) end = dump.length;
    if (end > pos) {
      if (!dump.startsWith(head, pos)) throw new Unparsed('scratch dump');
      const m = dump.indexOf(mid, pos);
      const i = Number(dump.slice(pos + head.length, m));
      out[i] = dump.slice(m + mid.length, dump.lastIndexOf(' .', end));
    }
    pos = end + 1;
  }
  for (let i = 0; i < keys.length; i++) if (out[i] === undefined) throw new Unparsed('a term oxigraph did not keep');
  return out;
}

export { hashKey as keptSampleHash };
