/**
 * RDF output for the gateway's description surfaces, and content negotiation.
 *
 * Contract
 * - `serializeRdf(quads, mediaType)` writes Turtle, N-Triples, N-Quads, TriG or JSON-LD.
 *   Triple formats (Turtle, N-Triples) have no graph names: quads are written as triples and a
 *   triple held in several graphs appears once. Quad formats keep graph names.
 * - Turtle/TriG use Assay's PREFIXES (only those the data uses); JSON-LD is compacted against a
 *   context made of the same prefixes, with typed literals kept as typed values (no native
 *   numbers) so the output round-trips to exactly the same graph.
 * - `negotiateRdf(accept, allowed)` picks the media type an `Accept` header prefers among
 *   `allowed` (q-values, `type/*` and `*\/*` wildcards, most specific range wins); a missing or
 *   empty header gets Turtle. Returns null when nothing allowed is acceptable (answer 406).
 * Never touches a store or the network (the JSON-LD context is inline, so nothing is fetched).
 */
import { Writer } from 'n3';
import type * as RDFJS from '@rdfjs/types';
import jsonld from 'jsonld';
import { PREFIXES } from './vocab.ts';

/** The RDF media types the description surfaces can write. */
export const RDF_OUTPUT = {
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  trig: 'application/trig',
  jsonld: 'application/ld+json',
} as const;
export type RdfOutputType = (typeof RDF_OUTPUT)[keyof typeof RDF_OUTPUT];

/** Every output type, Turtle first (the default). */
export const ALL_RDF_OUTPUT: readonly RdfOutputType[] = [
  RDF_OUTPUT.turtle, RDF_OUTPUT.ntriples, RDF_OUTPUT.nquads, RDF_OUTPUT.trig, RDF_OUTPUT.jsonld,
];
/** Output types without graph names plus JSON-LD: for single-graph documents such as /catalog. */
export const TRIPLE_RDF_OUTPUT: readonly RdfOutputType[] = [RDF_OUTPUT.turtle, RDF_OUTPUT.ntriples, RDF_OUTPUT.jsonld];

const N3_FORMAT: Record<Exclude<RdfOutputType, 'application/ld+json'>, string> = {
  'text/turtle': 'Turtle',
  'application/n-triples': 'N-Triples',
  'application/n-quads': 'N-Quads',
  'application/trig': 'TriG',
};

/** The value for a Content-Type header: RDF text is always UTF-8. */
export function contentTypeOf(mediaType: RdfOutputType): string {
  return `${mediaType}; charset=utf-8`;
}

export function isQuadOutput(mediaType: RdfOutputType): boolean {
  return mediaType === RDF_OUTPUT.nquads || mediaType === RDF_OUTPUT.trig || mediaType === RDF_OUTPUT.jsonld;
}

export interface SerializeOptions {
  /** Prefixes to use instead of Assay's PREFIXES (Turtle, TriG, JSON-LD context). */
  prefixes?: Readonly<Record<string, string>>;
  /** Write every quad into the default graph (deduplicated), whatever the format. */
  dropGraphs?: boolean;
}

export async function serializeRdf(quads: Iterable<RDFJS.Quad>, mediaType: RdfOutputType, options: SerializeOptions = {}): Promise<string> {
  const prefixes = options.prefixes ?? PREFIXES;
  if (mediaType === RDF_OUTPUT.jsonld) return toJsonLd(quads, prefixes, !options.dropGraphs);
  const keepGraphs = isQuadOutput(mediaType) && !options.dropGraphs;
  const ordered = orderQuads(quads, keepGraphs);
  const usePrefixes = mediaType === RDF_OUTPUT.turtle || mediaType === RDF_OUTPUT.trig;
  return write(ordered, N3_FORMAT[mediaType], usePrefixes ? usedPrefixes(ordered, prefixes) : undefined);
}

/** JSON-LD as a JavaScript value (compacted), for callers that embed it. */
export async function toJsonLdDocument(
  quads: Iterable<RDFJS.Quad>, prefixes: Readonly<Record<string, string>> = PREFIXES, keepGraphs = true,
): Promise<Record<string, unknown>> {
  const ordered = orderQuads(quads, keepGraphs);
  const nquads = await write(ordered, 'N-Quads');
  const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads', useNativeTypes: false });
  const context = usedPrefixes(ordered, prefixes);
  return jsonld.compact(expanded, { ...context });
}

async function toJsonLd(quads: Iterable<RDFJS.Quad>, prefixes: Readonly<Record<string, string>>, keepGraphs: boolean): Promise<string> {
  return JSON.stringify(await toJsonLdDocument(quads, prefixes, keepGraphs), null, 2) + '\n';
}

function write(quads: readonly RDFJS.Quad[], format: string, prefixes?: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const writer = new Writer({ format, ...(prefixes ? { prefixes } : {}) });
    writer.addQuads(quads as RDFJS.Quad[]);
    writer.end((err: Error | null, result: string) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * Sort by graph, subject, predicate so the writers group statements (`;` and `,` in Turtle,
 * one block per graph in TriG), and drop graph names (then duplicates) for triple formats.
 */
function orderQuads(quads: Iterable<RDFJS.Quad>, keepGraphs: boolean): RDFJS.Quad[] {
  const seen = new Map<string, RDFJS.Quad>();
  for (const q of quads) {
    const graph = keepGraphs ? q.graph : DEFAULT_GRAPH;
    const key = `${termKey(graph)} ${termKey(q.subject)} ${termKey(q.predicate)} ${termKey(q.object)}`;
    if (!seen.has(key)) seen.set(key, keepGraphs ? q : stripGraph(q));
  }
  return [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, q]) => q);
}

const DEFAULT_GRAPH: RDFJS.DefaultGraph = {
  termType: 'DefaultGraph',
  value: '',
  equals: (other: RDFJS.Term | null | undefined) => !!other && other.termType === 'DefaultGraph',
};

function stripGraph(q: RDFJS.Quad): RDFJS.Quad {
  return {
    termType: 'Quad', value: '', subject: q.subject, predicate: q.predicate, object: q.object, graph: DEFAULT_GRAPH,
    equals: (other: RDFJS.Term | null | undefined) => other?.termType === 'Quad'
      && other.subject.equals(q.subject) && other.predicate.equals(q.predicate) && other.object.equals(q.object)
      && other.graph.termType === 'DefaultGraph',
  };
}

/** A string that identifies a term exactly (RDF term equality), used for sorting and dedup. */
export function termKey(t: RDFJS.Term): string {
  switch (t.termType) {
    case 'NamedNode': return `<${t.value}>`;
    case 'BlankNode': return `_:${t.value}`;
    case 'Literal': return `"${t.value}"${t.language ? '@' + t.language : '^^<' + t.datatype.value + '>'}`;
    case 'DefaultGraph': return '';
    default: return `${t.termType}:${t.value}`;
  }
}

/** The subset of `prefixes` whose namespace some IRI in the data starts with. */
function usedPrefixes(quads: readonly RDFJS.Quad[], prefixes: Readonly<Record<string, string>>): Record<string, string> {
  const entries = Object.entries(prefixes);
  const used: Record<string, string> = {};
  const check = (t: RDFJS.Term): void => {
    if (t.termType === 'NamedNode') {
      for (const [p, ns] of entries) if (!(p in used) && t.value.startsWith(ns)) used[p] = ns;
    } else if (t.termType === 'Literal' && !t.language) {
      check(t.datatype);
    }
  };
  for (const q of quads) {
    check(q.subject); check(q.predicate); check(q.object); check(q.graph);
  }
  return used;
}

// ---------------------------------------------------------------- content negotiation

/** Media types clients send for RDF that mean one of ours. */
const ALIASES: Readonly<Record<string, RdfOutputType>> = {
  'application/x-turtle': RDF_OUTPUT.turtle,
  'application/turtle': RDF_OUTPUT.turtle,
  'text/plain': RDF_OUTPUT.ntriples, // the N-Triples media type before RDF 1.1
  'application/json': RDF_OUTPUT.jsonld,
  'application/x-trig': RDF_OUTPUT.trig,
  'text/x-nquads': RDF_OUTPUT.nquads,
};

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  /** Position in the header; earlier wins a tie. */
  order: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  header.split(',').forEach((part, order) => {
    const [range, ...params] = part.split(';').map((s) => s.trim());
    if (!range) return;
    const slash = range.indexOf('/');
    if (slash <= 0 || slash === range.length - 1) return; // not a media range: ignore it
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*(.*)$/i.exec(p);
      // A malformed qvalue (RFC 9110 §12.4.2) makes the range count for nothing.
      if (m) q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(m[1]!) ? Number(m[1]) : 0;
    }
    ranges.push({ type: range.slice(0, slash).toLowerCase(), subtype: range.slice(slash + 1).toLowerCase(), q, order });
  });
  return ranges;
}

/** How specifically `range` matches `mediaType`: 3 exact, 2 `type/*`, 1 `*\/*`, 0 alias, -1 none. */
function specificity(range: MediaRange, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  if (range.type === '*' && range.subtype === '*') return 1;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === type && range.subtype === subtype) return 3;
  if (ALIASES[`${range.type}/${range.subtype}`] === mediaType) return 0;
  return -1;
}

/**
 * The media type in `allowed` that `accept` prefers, or null if none is acceptable.
 * Each allowed type takes the q of the most specific range matching it (RFC 9110 §12.5.1);
 * ties go to the range listed first, then to the order of `allowed`. With no header, or one
 * that names no media range, the answer is Turtle (or the first allowed type).
 */
export function negotiateRdf(accept: string | undefined, allowed: readonly RdfOutputType[] = ALL_RDF_OUTPUT): RdfOutputType | null {
  const fallback = allowed.includes(RDF_OUTPUT.turtle) ? RDF_OUTPUT.turtle : allowed[0] ?? null;
  const ranges = accept ? parseAccept(accept) : [];
  if (ranges.length === 0) return fallback;
  let best: { type: RdfOutputType; q: number; order: number; rank: number } | null = null;
  allowed.forEach((type, rank) => {
    let match: { q: number; order: number; spec: number } | null = null;
    for (const r of ranges) {
      const spec = specificity(r, type);
      if (spec < 0) continue;
      // An exact range beats a wildcard; an alias counts as exact unless the type itself is named.
      const s = spec === 0 ? 2.5 : spec;
      if (!match || s > match.spec) match = { q: r.q, order: r.order, spec: s };
    }
    if (!match || match.q <= 0) return;
    if (!best || match.q > best.q || (match.q === best.q && (match.order < best.order || (match.order === best.order && rank < best.rank)))) {
      best = { type, q: match.q, order: match.order, rank };
    }
  });
  return (best as { type: RdfOutputType } | null)?.type ?? null;
}
