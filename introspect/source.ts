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
 * N-Triples and splitting lines is ~4x faster, so the oxigraph adapters use the dump.
 */
import type * as RDFJS from '@rdfjs/types';
import { DataFactory } from 'n3';
import { termKey } from './terms.ts';

export type Visit = (s: string, p: string, o: string) => void;

export interface TripleSource {
  scan(visit: Visit): void;
  scanPredicate?(predicateIri: string, visit: Visit): void;
  readonly groupedBySubject: boolean;
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
  const scanLines = (visit: Visit, from = 0, to = text.length): void => {
    let pos = from;
    while (pos < to) {
      let end = text.indexOf('\n', pos);
      if (end < 0 || end > to) end = to;
      const line = parseLine(text, pos, end);
      if (line && (graphKey === undefined || line[3] === graphKey)) visit(line[0], line[1], line[2]);
      pos = end + 1;
    }
  };
  return {
    groupedBySubject: options.groupedBySubject ?? false,
    scan: (visit) => scanLines(visit),
    scanPredicate(predicateIri, visit) {
      // Substring search is native and far faster than splitting every line.
      const needle = ` <${predicateIri}> `;
      let at = text.indexOf(needle);
      while (at >= 0) {
        const start = text.lastIndexOf('\n', at) + 1;
        let end = text.indexOf('\n', at);
        if (end < 0) end = text.length;
        const line = parseLine(text, start, end);
        if (line && line[1] === `<${predicateIri}>` && (graphKey === undefined || line[3] === graphKey)) visit(line[0], line[1], line[2]);
        at = text.indexOf(needle, end);
      }
    },
  };
}

/** Split one canonical N-Triples/N-Quads line into [s, p, o, g] keys ('' = default graph). */
function parseLine(text: string, start: number, end: number): [string, string, string, string] | undefined {
  while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  if (start >= end || text.charCodeAt(start) === 35 /* # */) return undefined;
  let stop = end;
  while (stop > start && text.charCodeAt(stop - 1) <= 32) stop--;
  if (text.charCodeAt(stop - 1) !== 46 /* . */) return undefined;
  stop--;
  while (stop > start && text.charCodeAt(stop - 1) <= 32) stop--;
  const a = text.indexOf(' ', start);
  const b = text.indexOf(' ', a + 1);
  if (a < 0 || b < 0 || b >= stop) return undefined;
  const s = text.slice(start, a);
  const p = text.slice(a + 1, b);
  const oStart = b + 1;
  let oEnd: number;
  const c = text.charCodeAt(oStart);
  if (c === 34 /* " */) {
    let q = oStart + 1;
    for (;;) {
      q = text.indexOf('"', q);
      if (q < 0 || q >= stop) return undefined;
      let backslashes = 0;
      while (text.charCodeAt(q - 1 - backslashes) === 92) backslashes++;
      if (backslashes % 2 === 0) break;
      q++;
    }
    oEnd = q + 1;
    const next = text.charCodeAt(oEnd);
    if (next === 64 /* @ */ || next === 94 /* ^ */) {
      const sp = text.indexOf(' ', oEnd);
      oEnd = sp < 0 || sp > stop ? stop : sp;
    }
  } else {
    const sp = text.indexOf(' ', oStart);
    oEnd = sp < 0 || sp > stop ? stop : sp;
  }
  const o = text.slice(oStart, oEnd);
  const g = oEnd < stop ? text.slice(oEnd + 1, stop).trim() : '';
  return [s, p, o, g];
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
