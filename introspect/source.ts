/**
 * Triple sources: the small interface through which the miner reads a graph, and adapters for
 * the stores and inputs Assay meets.
 *
 * Contract
 * - A source calls `visit(s, p, o)` once per triple of ONE graph (or of a union the caller chose),
 *   every term as an N-Triples key (see terms.ts). `scan` may be called more than once and must
 *   give the same triples each time.
 * - `groupedBySubject` promises that all triples of a subject arrive consecutively. The miner
 *   relies on it to keep per-subject state small; sources that cannot promise it are grouped by
 *   the miner (one sort), never silently miscounted.
 * - `scanPredicate`, when present, visits only the triples with that predicate (an index lookup
 *   or a substring search), so schema triples (rdf:type, rdfs:subClassOf, …) are read without a
 *   full scan.
 *
 * Speed (measured, see bench/introspect.ts): oxigraph's `match()` builds a JS object per quad and
 * every term access crosses into WebAssembly (~20 µs/quad on this machine); dumping the graph as
 * N-Triples is ~4x faster (and faster than a CONSTRUCT serialised as N-Triples), so the oxigraph
 * adapters use the dump, and `fromNTriples` interns its terms in place (`intern`, see intern.ts).
 */
import type * as RDFJS from '@rdfjs/types';
import { DataFactory } from 'n3';
import { Interner, TextInterner, type InternedTriples } from './intern.ts';
import { termKey } from './terms.ts';

export type Visit = (s: string, p: string, o: string) => void;

export interface TripleSource {
  scan(visit: Visit): void;
  scanPredicate?(predicateIri: string, visit: Visit): void;
  /** The same triples as `scan`, interned; sources that can do it faster than `scan` provide it. */
  intern?(): InternedTriples;
  readonly groupedBySubject: boolean;
}

/** The source's triples as integer columns: its own `intern` when it has one, else one `scan`. */
export function internSource(source: TripleSource): InternedTriples {
  if (source.intern) return source.intern();
  const b = new Interner();
  source.scan((s, p, o) => b.add(s, p, o));
  return b.finish();
}

/** Anything with RDF/JS `match` (N3 Store, @rdfjs/dataset, Assay's RdfStore, oxigraph Store). */
export interface MatchableStore {
  match(s?: RDFJS.Term | null, p?: RDFJS.Term | null, o?: RDFJS.Term | null, g?: RDFJS.Term | null): Iterable<RDFJS.Quad>;
}

/** A store that serializes one graph (or everything) as text, like Assay's RdfStore facade. */
export interface DumpableStore {
  dump(options: { format: string; graph?: string }): string;
}

/**
 * Triples of an N-Triples or N-Quads document in canonical form (one statement per line, single
 * spaces between terms, as oxigraph and n3 write them). Hand-written files go through
 * `parseRdfText` instead, which accepts any valid syntax.
 * `graph`: undefined = every line; '' = only lines without a graph term; an IRI = that graph only.
 */
export function fromNTriples(text: string, options: { groupedBySubject?: boolean; graph?: string } = {}): TripleSource {
  const graphKey = options.graph === undefined ? undefined : options.graph === '' ? '' : `<${options.graph}>`;
  return {
    groupedBySubject: options.groupedBySubject ?? false,
    scan(visit) {
      const at = new Int32Array(SPAN_FIELDS);
      forEachLine(text, graphKey, at, () => visit(text.slice(at[0], at[1]), text.slice(at[2], at[3]), text.slice(at[4], at[5])));
    },
    scanPredicate(predicateIri, visit) {
      // Substring search is native and far faster than splitting every line.
      const key = `<${predicateIri}>`;
      const needle = ` ${key} `;
      const at = new Int32Array(SPAN_FIELDS);
      let hit = text.indexOf(needle);
      while (hit >= 0) {
        const start = text.lastIndexOf('\n', hit) + 1;
        let end = text.indexOf('\n', hit);
        if (end < 0) end = text.length;
        if (lineSpans(text, start, end, at) && at[3]! - at[2]! === key.length && text.startsWith(key, at[2]!) && inGraph(text, at, graphKey)) {
          visit(text.slice(at[0], at[1]), key, text.slice(at[4], at[5]));
        }
        hit = text.indexOf(needle, end);
      }
    },
    intern() {
      const b = new TextInterner(text, Math.ceil(text.length / 64));
      const at = new Int32Array(SPAN_FIELDS);
      forEachLine(text, graphKey, at, () => {
        b.push(b.subject(at[0]!, at[1]!), b.pred(at[2]!, at[3]!), b.term(at[4]!, at[5]!, at[8]!));
      });
      return b.finish();
    },
  };
}

/** Spans of one line: subject, predicate, object, graph (start, end) pairs, then a literal's closing quote (else -1). */
const SPAN_FIELDS = 9;

/** Call `visit` for each well-formed line of `graphKey` (undefined = any), with `at` holding its spans. */
function forEachLine(text: string, graphKey: string | undefined, at: Int32Array, visit: () => void): void {
  const length = text.length;
  let pos = 0;
  while (pos < length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = length;
    if (lineSpans(text, pos, end, at) && (graphKey === undefined || inGraph(text, at, graphKey))) visit();
    pos = end + 1;
  }
}

function inGraph(text: string, at: Int32Array, graphKey: string | undefined): boolean {
  if (graphKey === undefined) return true;
  let g0 = at[6]!;
  let g1 = at[7]!;
  while (g0 < g1 && text.charCodeAt(g0) <= 32) g0++;
  while (g1 > g0 && text.charCodeAt(g1 - 1) <= 32) g1--;
  return g1 - g0 === graphKey.length && text.startsWith(graphKey, g0);
}

/**
 * Split one canonical N-Triples/N-Quads line into spans (see SPAN_FIELDS; an empty graph span
 * is the default graph). False for blank, comment and malformed lines.
 */
function lineSpans(text: string, start: number, end: number, at: Int32Array): boolean {
  while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  if (start >= end || text.charCodeAt(start) === 35 /* # */) return false;
  let stop = end;
  while (stop > start && text.charCodeAt(stop - 1) <= 32) stop--;
  if (text.charCodeAt(stop - 1) !== 46 /* . */) return false;
  stop--;
  while (stop > start && text.charCodeAt(stop - 1) <= 32) stop--;
  const a = text.indexOf(' ', start);
  const b = text.indexOf(' ', a + 1);
  if (a < 0 || b < 0 || b >= stop) return false;
  const oStart = b + 1;
  let oEnd: number;
  const c = text.charCodeAt(oStart);
  if (c === 34 /* " */) {
    let q = oStart + 1;
    for (;;) {
      q = text.indexOf('"', q);
      if (q < 0 || q >= stop) return false;
      let backslashes = 0;
      while (text.charCodeAt(q - 1 - backslashes) === 92) backslashes++;
      if (backslashes % 2 === 0) break;
      q++;
    }
    oEnd = q + 1;
    at[8] = q;
    const next = text.charCodeAt(oEnd);
    if (next === 64 /* @ */ || next === 94 /* ^ */) {
      const sp = text.indexOf(' ', oEnd);
      oEnd = sp < 0 || sp > stop ? stop : sp;
    }
  } else {
    const sp = text.indexOf(' ', oStart);
    oEnd = sp < 0 || sp > stop ? stop : sp;
    at[8] = -1;
  }
  at[0] = start;
  at[1] = a;
  at[2] = a + 1;
  at[3] = b;
  at[4] = oStart;
  at[5] = oEnd;
  at[6] = oEnd < stop ? oEnd + 1 : stop;
  at[7] = stop;
  return true;
}

/**
 * One graph of a store that can dump itself (Assay's RdfStore: `dump({format, graph})`).
 * `graph` '' is the default graph; omit it for the union of every graph (triples that occur in
 * several graphs are then counted once per graph).
 * Not grouped by subject, even for one graph: oxigraph's in-memory storage (the only one in its
 * JS build) is hash-based, and its dump was seen to return a blank-node subject's triples apart.
 */
export function fromDumpable(store: DumpableStore, graph?: string): TripleSource {
  if (graph !== undefined) {
    return fromNTriples(store.dump({ format: 'application/n-triples', graph }), { groupedBySubject: false });
  }
  return fromNTriples(store.dump({ format: 'application/n-quads' }), { groupedBySubject: false });
}

/** A raw oxigraph Store (`dump({format, from_graph_name})`). */
export function fromOxigraph(
  store: { dump(options: { format: string; from_graph_name?: RDFJS.Term }): string },
  graph?: string,
): TripleSource {
  return fromDumpable({
    dump: ({ format, graph: g }) => store.dump(g === undefined ? { format }
      : { format, from_graph_name: g === '' ? DataFactory.defaultGraph() : DataFactory.namedNode(g) }),
  }, graph);
}

/**
 * Any RDF/JS store with `match`. `graph`: a graph term to scope to, or null/undefined for all.
 * `groupedBySubject`: true for stores whose full match walks a subject index (N3 Store, oxigraph)
 * when scoped to one graph.
 */
export function fromMatch(store: MatchableStore, options: { graph?: RDFJS.Term | null; groupedBySubject?: boolean; factory?: RDFJS.DataFactory } = {}): TripleSource {
  const f = options.factory ?? DataFactory;
  const g = options.graph ?? null;
  const visitAll = (quads: Iterable<RDFJS.Quad>, visit: Visit) => {
    for (const q of quads) visit(termKey(q.subject), termKey(q.predicate), termKey(q.object));
  };
  return {
    groupedBySubject: options.groupedBySubject ?? false,
    scan: (visit) => visitAll(store.match(null, null, null, g), visit),
    scanPredicate: (p, visit) => visitAll(store.match(null, f.namedNode(p), null, g), visit),
  };
}

/** Quads already in memory (a parsed file). Every quad counts, whatever its graph. */
export function fromQuads(quads: Iterable<RDFJS.Quad>): TripleSource {
  const s: string[] = [];
  const p: string[] = [];
  const o: string[] = [];
  for (const q of quads) {
    s.push(termKey(q.subject));
    p.push(termKey(q.predicate));
    o.push(termKey(q.object));
  }
  return fromArrays(s, p, o, false);
}

/** Parallel arrays of keys; used by the miner to regroup an ungrouped source. */
export function fromArrays(s: readonly string[], p: readonly string[], o: readonly string[], groupedBySubject: boolean): TripleSource {
  return {
    groupedBySubject,
    scan(visit) {
      for (let i = 0; i < s.length; i++) visit(s[i]!, p[i]!, o[i]!);
    },
    scanPredicate(predicateIri, visit) {
      const key = `<${predicateIri}>`;
      for (let i = 0; i < s.length; i++) if (p[i] === key) visit(s[i]!, p[i]!, o[i]!);
    },
  };
}

/** Group any source by subject: one scan into arrays, one sort of indices. */
export function groupBySubject(source: TripleSource): TripleSource {
  if (source.groupedBySubject) return source;
  const s: string[] = [];
  const p: string[] = [];
  const o: string[] = [];
  source.scan((a, b, c) => { s.push(a); p.push(b); o.push(c); });
  const order = Array.from(s.keys());
  order.sort((i, j) => (s[i]! < s[j]! ? -1 : s[i]! > s[j]! ? 1 : i - j));
  return fromArrays(order.map((i) => s[i]!), order.map((i) => p[i]!), order.map((i) => o[i]!), true);
}
