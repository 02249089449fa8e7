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
import { KIND_BNODE, KIND_IRI, KIND_LITERAL, grow, type InternedTriples } from './intern.ts';
import { hashKey } from './sample.ts';
import { RDF, XSD } from './vocab.ts';

export interface KeptLimits {
  /** Triples kept over every graph of the store; a graph that would pass it is not kept. */
  maxTriples: number;
  /** Characters of write text waiting to be folded; past it, the graphs they touch are forgotten. */
  maxPendingChars: number;
}

/**
 * Defaults. A store kept from empty (opted in: its opener means to introspect what it loads) may
 * queue a large load; one kept since it was first introspected (a query worker's replica) queues
 * only writes to graphs it keeps, and less of them.
 */
export const DEFAULT_KEPT_LIMITS: Record<'all' | 'asked', KeptLimits> = {
  all: { maxTriples: 4_000_000, maxPendingChars: 256 * 1024 * 1024 },
  asked: { maxTriples: 2_000_000, maxPendingChars: 32 * 1024 * 1024 },
};

/** The whole-dataset clear targets of SPARQL's CLEAR. */
export type ClearWhich = 'DEFAULT' | 'NAMED' | 'ALL';

type Pending =
  | { kind: 'load'; data: string | Uint8Array; quads: boolean; graph: string; scope: number }
  | { kind: 'delta'; remove: boolean; nquads: string }
  | { kind: 'clear'; graph: string }
  | { kind: 'clearWhich'; which: ClearWhich }
  | { kind: 'unknown'; graph: string };

const FNV_PRIME = 0x01000193;

/** The text of a term held as chars[at, at + n). */
export function termText(chars: Uint16Array, at: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += 8192) s += String.fromCharCode.apply(null, chars.subarray(at + i, at + Math.min(n, i + 8192)) as unknown as number[]);
  return s;
}

/** What a keeper reports of itself (KeptStore.stats). */
export interface KeptStats { graphs: number; triples: number; bytes: number; pendingWrites: number; pendingChars: number; adopted: number }

/**
 * A keeper of a store's graphs: KeptStore itself, or one that runs a KeptStore in a thread of its
 * own (kept-thread.ts). Writes are told in order after the store applied them; reads are synchronous.
 */
export interface Keeper {
  readonly mode: 'all' | 'asked';
  readonly generation: number;
  load(data: string | Uint8Array, format: 'n-triples' | 'n-quads', graph?: string): void;
  delta(step: 'insert' | 'delete', nquads: string): void;
  clear(graph: string): void;
  clearWhich(which: ClearWhich): void;
  unknown(graph?: string): void;
  interned(graph: string): InternedTriples | null;
  adopt(graph: string, triples: InternedTriples): void;
  stats(): KeptStats;
  /** Let go of what the keeper holds (its thread, if it has one); it keeps nothing after. */
  close(): void;
}

/**
 * One graph's interned columns as plain arrays, each its own buffer (so they can be moved to
 * another thread): what `KeptStore.exported` gives and `fromExported` reads.
 */
export interface KeptExport {
  n: number; s: Int32Array; p: Int32Array; o: Int32Array;
  termCount: number; chars: Uint16Array; start: Int32Array; length: Int32Array;
  kind: Uint8Array; sampleHash: Uint32Array; datatype: Int32Array; datatypes: string[]; preds: string[];
}

/** The triples of an export, as the miner reads them. */
export function fromExported(x: KeptExport): InternedTriples {
  return {
    n: x.n, s: x.s, p: x.p, o: x.o, termCount: x.termCount, term: (id) => termText(x.chars, x.start[id]!, x.length[id]!),
    kind: x.kind, sampleHash: x.sampleHash, datatype: x.datatype, datatypes: x.datatypes, preds: x.preds,
  };
}

/** The buffers of an export (to transfer it rather than copy it). */
export function exportBuffers(x: KeptExport): ArrayBuffer[] {
  return [x.s, x.p, x.o, x.chars, x.start, x.length, x.kind, x.sampleHash, x.datatype].map((a) => a.buffer as ArrayBuffer);
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

  /**
   * Id of the term text[from, to), added if new; unless `odd` says the new term's text may not be
   * its dump key: then -1, and nothing is added.
   */
  idOf(text: string, from: number, to: number, odd?: (text: string, from: number, to: number) => boolean): number {
    const length = to - from;
    let h = (0x811c9dc5 ^ length) >>> 0;
    // The first 64 code units give the sample hash (sample.ts hashKey); the rest extend it.
    const prefixEnd = from + (length < 64 ? length : 64);
    let i = from;
    for (; i < prefixEnd; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    const sampleHash = h >>> 0;
    for (; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
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
    if (odd && odd(text, from, to)) return -1;
    const id = this.#add(text, from, to, h, sampleHash);
    table[slot] = id + 1;
    if (this.count * 2 > table.length) this.#rehash();
    return id;
  }

  key(id: number): string {
    return termText(this.chars, this.start[id]!, this.length[id]!);
  }

  #same(id: number, text: string, from: number, length: number): boolean {
    const chars = this.chars;
    const at = this.start[id]!;
    for (let i = 0; i < length; i++) if (chars[at + i] !== text.charCodeAt(from + i)) return false;
    return true;
  }

  #add(text: string, from: number, to: number, h: number, sampleHash: number): number {
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
    this.sampleHash[id] = sampleHash;
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

  /** Predicates by their characters, as terms are (ids equal to their index in `preds`). */
  #predTable = new TermTable();
  #lastPred = '';
  #lastPredId = -1;

  /** Id of the predicate text[from, to); -1 (nothing added) when new and `odd` says its dump key may differ. */
  pred(text: string, from: number, to: number, odd?: (text: string, from: number, to: number) => boolean): number {
    const len = to - from;
    // Runs of one predicate are common: the last one is compared in place first.
    if (len === this.#lastPred.length && text.startsWith(this.#lastPred, from)) return this.#lastPredId;
    const before = this.#predTable.count;
    const id = this.#predTable.idOf(text, from, to, odd);
    if (id < 0) return -1;
    if (id === before) this.preds.push(text.slice(from, to));
    this.#lastPred = this.preds[id]!;
    this.#lastPredId = id;
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
    this.#predTable = new TermTable();
    this.#lastPred = '';
    for (const k of kept) {
      this.#predTable.idOf(k, 0, k.length);
      this.preds.push(k);
    }
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

  /** The columns as copies (each its own buffer, sized to what is used). */
  exported(): KeptExport {
    this.compact();
    this.#dropUnusedPreds();
    const t = this.terms;
    const n = this.rows;
    const c = t.count;
    return {
      n, s: this.s.slice(0, n), p: this.p.slice(0, n), o: this.o.slice(0, n),
      termCount: c, chars: t.chars.slice(0, t.used), start: t.start.slice(0, c), length: t.length.slice(0, c),
      kind: t.kind.slice(0, c), sampleHash: t.sampleHash.slice(0, c), datatype: t.datatype.slice(0, c),
      datatypes: [...t.datatypes], preds: [...this.preds],
    };
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

const XSD_NS = 'http://www.w3.org/2001/XMLSchema#';

/**
 * The keeper of one store's graphs. One per store instance (each query worker's replica has its
 * own); not shared between threads.
 * Two modes: `all` (made on an empty store: every graph is kept from its first write) and `asked`
 * (made on a store already holding data: only graphs adopted after a read are kept, and writes to
 * other graphs are not even queued).
 */
export class KeptStore implements Keeper {
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
    this.limits = { ...DEFAULT_KEPT_LIMITS[mode], ...limits };
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

  /** As `interned`, but the columns copied into buffers of their own (kept-thread.ts moves them). */
  exported(graph: string): KeptExport | null {
    this.#fold();
    const g = this.#graphs.get(graph);
    if (g) return g.exported();
    if (this.#isUnknown(graph)) return null;
    return new KeptGraph().exported();
  }

  /** Fold what is queued now rather than at the next read (a keeper thread folds as writes arrive). */
  foldNow(): void {
    this.#fold();
  }

  close(): void {
    this.#forgetAll();
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
  stats(): KeptStats {
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

/**
 * Fold the statements of one document into the graphs `target` gives. Terms are interned from
 * their spans in place; a term not seen before whose text may not be its dump key ("odd", see
 * oddTerm) is not interned from its text: its line waits until the end of the batch, when the odd
 * terms of the batch are canonicalized together (one scratch store) and the waiting lines added
 * with the keys oxigraph gave them. Oddness is checked once per new term, not per occurrence.
 */
function foldLines(text: string, quads: boolean, graph: string, scope: number, remove: boolean,
  target: (graph: string) => KeptGraph | null, shared: () => void): void {
  const spans = new Int32Array(BATCH * F);
  const waiting = new Int32Array(BATCH);
  const waitingGraph: (KeptGraph | null)[] = [];
  let scopeGraph: string | null = null;
  const length = text.length;
  let pos = 0;
  let lastG: KeptGraph | null = null;
  let lastKey: string | null = null;
  let lastName = '';
  let lastGraphOdd = false;
  let lastSG: KeptGraph | null = null;
  let lastS0 = 0;
  let lastSLen = -1;
  let lastSId = -1;
  const blankKey = (a: number, b: number) => (scope > 0 ? `_:#${scope}#${text.slice(a + 2, b)}` : text.slice(a, b));
  while (pos < length) {
    let lines = 0;
    let nWaiting = 0;
    waitingGraph.length = 0;
    while (pos < length && lines < BATCH) {
      let end = text.indexOf('\n', pos);
      if (end < 0) end = length;
      const at = lines * F;
      if (!lineSpans(text, pos, end, spans, at, quads)) {
        pos = end + 1;
        continue;
      }
      pos = end + 1;
      lines++;
      let g: KeptGraph | null;
      let graphOdd = false;
      if (quads) {
        const a = spans[at + 6]!;
        const b = spans[at + 7]!;
        if (a < b && text.charCodeAt(a) === 95) throw new Unparsed('a blank-node graph name');
        const same = lastKey !== null && (a < b ? b - a === lastKey.length && text.startsWith(lastKey, a) : lastKey === '');
        if (same) {
          g = lastG;
          graphOdd = lastGraphOdd;
        } else {
          const key = a === b ? '' : text.slice(a, b);
          graphOdd = a < b && oddIri(text, a, b);
          lastName = graphOdd ? '' : key === '' ? '' : key.slice(1, -1);
          g = graphOdd ? null : target(lastName);
          lastG = g;
          lastKey = key;
          lastGraphOdd = graphOdd;
        }
        if (scope > 0 && !graphOdd && (text.charCodeAt(spans[at]!) === 95 || text.charCodeAt(spans[at + 4]!) === 95)) {
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
      if (graphOdd) {
        waiting[nWaiting++] = at;
        waitingGraph.push(null);
        continue;
      }
      if (!g) continue;
      const s0 = spans[at]!;
      const o0 = spans[at + 4]!;
      const sBlank = text.charCodeAt(s0) === 95;
      const oBlank = text.charCodeAt(o0) === 95;
      if (sBlank || oBlank) {
        if (scope > 0) g.synthetic = true;
        // The store's own label of a node this graph holds under one of its own: not matchable here.
        else if (remove && g.synthetic) throw new Unparsed('a deleted blank node known under another label');
      }
      let sid: number;
      if (sBlank) sid = keyId(g, blankKey(s0, spans[at + 1]!));
      else {
        // A subject's statements usually follow one another: the last subject is compared first.
        const len = spans[at + 1]! - s0;
        if (g === lastSG && len === lastSLen && sameSpan(text, lastS0, s0, len)) sid = lastSId;
        else {
          sid = g.terms.idOf(text, s0, s0 + len, oddTerm);
          if (sid >= 0) {
            lastSG = g;
            lastS0 = s0;
            lastSLen = len;
            lastSId = sid;
          }
        }
      }
      const pid = g.pred(text, spans[at + 2]!, spans[at + 3]!, oddIri);
      const oid = oBlank ? keyId(g, blankKey(o0, spans[at + 5]!)) : g.terms.idOf(text, o0, spans[at + 5]!, oddTerm);
      if (sid < 0 || pid < 0 || oid < 0) {
        waiting[nWaiting++] = at;
        waitingGraph.push(g);
        continue;
      }
      if (remove) g.remove(sid, pid, oid);
      else g.add(sid, pid, oid);
    }
    if (nWaiting === 0) continue;
    // The waiting lines: their odd terms canonicalized together, then added under those keys.
    const oddKeys = new Map<string, string>();
    const keyOf = (a: number, b: number, graphTerm: boolean): string => {
      if (!graphTerm && text.charCodeAt(a) === 95) return blankKey(a, b);
      const raw = text.slice(a, b);
      if (!(graphTerm || text.charCodeAt(a) === 60 ? oddIri(text, a, b) : oddTerm(text, a, b))) return raw;
      if (!oddKeys.has(raw)) oddKeys.set(raw, raw);
      return raw;
    };
    const rows: string[][] = [];
    for (let w = 0; w < nWaiting; w++) {
      const at = waiting[w]!;
      rows.push([keyOf(spans[at]!, spans[at + 1]!, false), keyOf(spans[at + 2]!, spans[at + 3]!, true), keyOf(spans[at + 4]!, spans[at + 5]!, false),
        spans[at + 6]! < spans[at + 7]! ? keyOf(spans[at + 6]!, spans[at + 7]!, true) : '']);
    }
    if (oddKeys.size > 0) {
      const raw = [...oddKeys.keys()];
      const canonical = canonicalize(raw);
      raw.forEach((k, i) => oddKeys.set(k, canonical[i]!));
    }
    const canon = (k: string) => oddKeys.get(k) ?? k;
    for (let w = 0; w < nWaiting; w++) {
      const [sk, pk, ok, gk] = rows[w]!;
      let g: KeptGraph | null = waitingGraph[w] ?? null;
      if (g === null) {
        const name = canon(gk!).slice(1, -1);
        g = target(name);
        if (!g) continue;
        if (scope > 0 && (sk!.startsWith('_:') || ok!.startsWith('_:'))) {
          if (scopeGraph === null) scopeGraph = name;
          else if (scopeGraph !== name) shared();
        }
      }
      const sid = keyId(g, canon(sk!));
      const pid = predId(g, canon(pk!));
      const oid = keyId(g, canon(ok!));
      if (remove) g.remove(sid, pid, oid);
      else g.add(sid, pid, oid);
    }
  }
}

function sameSpan(text: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

const keyId = (g: KeptGraph, key: string): number => g.terms.idOf(key, 0, key.length);
const predId = (g: KeptGraph, key: string): number => g.pred(key, 0, key.length);

/**
 * Spans of one N-Triples/N-Quads line into spans[at…at+8) (s, p, o, g; g empty when absent).
 * False for a blank or comment line; throws Unparsed for anything this file does not read.
 */
function lineSpans(text: string, pos: number, end: number, spans: Int32Array, at: number, quads: boolean): boolean {
  pos = skipWs(text, pos, end);
  if (pos >= end || text.charCodeAt(pos) === 35 /* # */) return false;
  let c = text.charCodeAt(pos);
  let stop: number;
  if (c === 60) stop = iriEnd(text, pos, end);
  else if (c === 95) stop = blankEnd(text, pos, end);
  else throw new Unparsed('subject');
  spans[at] = pos;
  spans[at + 1] = stop;
  pos = skipWs(text, stop, end);
  if (text.charCodeAt(pos) !== 60) throw new Unparsed('predicate');
  stop = iriEnd(text, pos, end);
  spans[at + 2] = pos;
  spans[at + 3] = stop;
  pos = skipWs(text, stop, end);
  c = text.charCodeAt(pos);
  if (c === 60) stop = iriEnd(text, pos, end);
  else if (c === 95) stop = blankEnd(text, pos, end);
  else if (c === 34) stop = literalEnd(text, pos, end);
  else throw new Unparsed('object');
  spans[at + 4] = pos;
  spans[at + 5] = stop;
  pos = skipWs(text, stop, end);
  c = text.charCodeAt(pos);
  if (quads && (c === 60 || c === 95)) {
    stop = c === 60 ? iriEnd(text, pos, end) : blankEnd(text, pos, end);
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
  return true;
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

/** The closing quote of the literal opening at `pos`. */
function closingQuote(text: string, pos: number, end: number): number {
  let q = pos + 1;
  for (;;) {
    q = text.indexOf('"', q);
    if (q < 0 || q >= end) throw new Unparsed('literal');
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return q;
    q++;
  }
}

/** The end of the literal starting at `pos` (its tag or datatype included). */
function literalEnd(text: string, pos: number, end: number): number {
  const i = closingQuote(text, pos, end) + 1;
  const next = text.charCodeAt(i);
  if (next === 64 /* @ */) {
    let j = i + 1;
    while (j < end && isTagChar(text.charCodeAt(j))) j++;
    if (j === i + 1) throw new Unparsed('language tag');
    return j;
  }
  if (next === 94 /* ^ */) {
    if (text.charCodeAt(i + 1) !== 94 || text.charCodeAt(i + 2) !== 60) throw new Unparsed('datatype');
    return iriEnd(text, i + 2, end);
  }
  return i;
}

/** May the dump key of the term text[a, b) (an IRI or a literal) differ from its text? Exported for its test. */
export function oddTerm(text: string, a: number, b: number): boolean {
  if (text.charCodeAt(a) === 60) return oddIri(text, a, b);
  const q = closingQuote(text, a, b);
  for (let i = a + 1; i < q; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) {
      const e = text.charCodeAt(i + 1);
      // oxigraph writes \" \\ \n \r \t \b \f itself; \u and \U escapes of printable characters it writes raw.
      if (e !== 34 && e !== 92 && e !== 110 && e !== 114 && e !== 116 && e !== 98 && e !== 102) return true;
      i++;
    } else if (c < 32 || c === 127) return true;
  }
  const next = text.charCodeAt(q + 1);
  if (next === 64) {
    for (let j = q + 2; j < b; j++) {
      const c = text.charCodeAt(j);
      if (c >= 65 && c <= 90) return true; // oxigraph lowers a tag's case
    }
    return false;
  }
  if (next === 94) return oddIri(text, q + 3, b) || oddTyped(text, a + 1, q, q + 4, b - 1);
  return false;
}

const isTagChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * The canonical decimal shape [-](0|[1-9][0-9]*)[.[0-9]*[1-9]] of text[a, b), not "-0"; at most
 * `maxFraction` fraction digits. Returns the significant digits, or -1 when not that shape.
 */
function decimalShape(text: string, a: number, b: number, fraction: boolean, maxFraction: number): number {
  let i = a;
  if (text.charCodeAt(i) === 45 /* - */) i++;
  if (i >= b) return -1;
  const intStart = i;
  if (text.charCodeAt(i) === 48) i++;
  else {
    if (!isDigit(text.charCodeAt(i)) ) return -1;
    while (i < b && isDigit(text.charCodeAt(i))) i++;
  }
  let digits = text.charCodeAt(intStart) === 48 ? 0 : i - intStart;
  if (i === b) return i - intStart === 1 && text.charCodeAt(intStart) === 48 && intStart > a ? -1 : digits; // "-0"
  if (!fraction || text.charCodeAt(i) !== 46 /* . */) return -1;
  const fracStart = ++i;
  while (i < b && isDigit(text.charCodeAt(i))) i++;
  if (i !== b || i === fracStart || i - fracStart > maxFraction || text.charCodeAt(b - 1) === 48) return -1;
  if (digits === 0) {
    let z = fracStart;
    while (text.charCodeAt(z) === 48) z++;
    digits = b - z;
  } else digits += b - fracStart;
  return digits;
}

function digitsAt(text: string, a: number, n: number): boolean {
  for (let i = a; i < a + n; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/**
 * May oxigraph store this typed literal under another spelling? Lexical forms are checked against
 * what oxigraph 0.5 writes back for the XSD types it normalizes (measured: "01" → "1", "5.00" →
 * "5", "45.000"^^double → "45", xsd:int → xsd:integer, an explicit xsd:string dropped); anything
 * in the XSD namespace without a rule here is odd. Other datatypes are stored as written.
 */
function oddTyped(text: string, a: number, b: number, dtFrom: number, dtTo: number): boolean {
  if (!text.startsWith(XSD_NS, dtFrom)) return dtTo - dtFrom === RDF.langString.length && text.startsWith(RDF.langString, dtFrom);
  const local = dtFrom + XSD_NS.length;
  const is = (name: string) => dtTo - local === name.length && text.startsWith(name, local);
  if (is('integer')) return decimalShape(text, a, b, false, 0) < 0;
  if (is('decimal')) return decimalShape(text, a, b, true, 17) < 0;
  if (is('boolean')) return !(b - a === 4 && text.startsWith('true', a)) && !(b - a === 5 && text.startsWith('false', a));
  if (is('date')) return !(b - a === 10 && digitsAt(text, a, 4) && text.charCodeAt(a + 4) === 45 && digitsAt(text, a + 5, 2) && text.charCodeAt(a + 7) === 45 && digitsAt(text, a + 8, 2));
  if (is('gYear')) return !(b - a === 4 && digitsAt(text, a, 4));
  if (is('double')) {
    // Up to 15 significant digits JavaScript's and Rust's shortest forms agree (measured); past it they may not.
    const digits = decimalShape(text, a, b, true, 400);
    if (digits < 0 || digits > 15) return true;
    const lex = text.slice(a, b);
    const x = Number(lex);
    if (lex !== '0' && (Math.abs(x) < 1e-6 || Math.abs(x) >= 1e21)) return true;
    return String(x) !== lex;
  }
  return true;
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
