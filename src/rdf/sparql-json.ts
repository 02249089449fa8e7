/**
 * SPARQL 1.1 Query Results JSON from a remote engine → Assay's terms, and Assay's terms → query
 * syntax trees for that engine.
 *
 * Engines differ in small ways this module absorbs:
 * - Virtuoso writes datatyped literals as `"type": "typed-literal"` (the 2007 draft) — read as a
 *   literal with its datatype; `normalizeResults` rewrites them for clients.
 * - Blank nodes: SPARQL has no syntax to name a blank node the engine returned. Virtuoso gives
 *   them as `nodeID://b123` and accepts `<nodeID://b123>` back in a query; those are carried as
 *   blank-node label `nodeID_b123` and written back as that IRI. A blank node from any other
 *   engine cannot be used as a query constant (`queryTerm` says so).
 */
import type { JsonResults, JsonTerm } from '../server/sparql/results.ts';
import { factory, type Bindings, type Term } from './store.ts';
import { XSD } from './vocab.ts';

const VIRTUOSO_BNODE = /^nodeID:\/\/([A-Za-z0-9_]+)$/;
const VIRTUOSO_LABEL = /^nodeID_([A-Za-z0-9_]+)$/;

interface RawTerm {
  type: string;
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

/** SELECT solutions or an ASK boolean, in the SPARQL 1.1 JSON object model. */
export type RemoteResults = (JsonResults & { boolean?: undefined }) | { head: Record<string, never>; boolean: boolean; results?: undefined };

export function parseResultsJson(body: string, where: string): RemoteResults {
  let r: unknown;
  try {
    r = JSON.parse(body);
  } catch (e) {
    throw new Error(`${where} sent a body that is not SPARQL results JSON (${(e as Error).message}): ${body.slice(0, 200)}`);
  }
  const o = r as { boolean?: unknown; results?: { bindings?: unknown } } | null;
  if (typeof o !== 'object' || o === null || (typeof o.boolean !== 'boolean' && !Array.isArray(o.results?.bindings))) {
    throw new Error(`${where} sent JSON that is neither a SELECT nor an ASK result: ${body.slice(0, 200)}`);
  }
  return normalizeResults(o as RemoteResults);
}

/** Standard SPARQL JSON: `typed-literal` → `literal`, Virtuoso blank nodes → stable labels, no engine extras in head. */
export function normalizeResults(r: RemoteResults): RemoteResults {
  if (typeof r.boolean === 'boolean') return { head: {}, boolean: r.boolean };
  const vars = r.head?.vars ?? [];
  const bindings = r.results.bindings.map((b) => {
    const out: Record<string, JsonTerm> = {};
    for (const [k, t] of Object.entries(b)) out[k] = normalizeTerm(t as unknown as RawTerm);
    return out;
  });
  return { head: { vars }, results: { bindings } };
}

function normalizeTerm(t: RawTerm): JsonTerm {
  if (t.type === 'typed-literal') {
    return (t.datatype === XSD.string ? { type: 'literal', value: t.value } : { type: 'literal', value: t.value, datatype: t.datatype }) as JsonTerm;
  }
  if (t.type === 'bnode') {
    const v = VIRTUOSO_BNODE.exec(t.value);
    return { type: 'bnode', value: v ? `nodeID_${v[1]}` : t.value } as JsonTerm;
  }
  if (t.type === 'literal' && t.datatype === XSD.string) return { type: 'literal', value: t.value } as JsonTerm;
  return t as unknown as JsonTerm;
}

export function jsonToTerm(t: JsonTerm): Term {
  const raw = t as unknown as RawTerm;
  switch (raw.type) {
    case 'uri':
      return factory.namedNode(raw.value);
    case 'bnode':
      return factory.blankNode(raw.value);
    case 'literal':
      if (raw['xml:lang']) return factory.literal(raw.value, raw['xml:lang']);
      return raw.datatype ? factory.literal(raw.value, factory.namedNode(raw.datatype)) : factory.literal(raw.value);
    default:
      throw new Error(`unknown term type "${raw.type}" in SPARQL results JSON`);
  }
}

export function toBindings(r: RemoteResults): Bindings[] {
  return (r.results?.bindings ?? []).map((b) => {
    const m = new Map<string, Term>();
    for (const [k, t] of Object.entries(b)) m.set(k, jsonToTerm(t));
    return m;
  });
}

/** A term as a sparqljs syntax-tree node for the remote engine (see the blank-node note above). */
export function queryTerm(t: Term): Term {
  if (t.termType !== 'BlankNode') return t;
  const v = VIRTUOSO_LABEL.exec(t.value);
  if (v) return factory.namedNode(`nodeID://${v[1]}`);
  throw new Error(`the blank node _:${t.value} cannot be named in a query to this store (SPARQL has no syntax for it); start from an IRI`);
}

/** An ASK result as SPARQL results JSON, or XML when `mediaType` says so. */
export function serializeBoolean(value: boolean, mediaType: string): string {
  if (mediaType === 'application/sparql-results+xml') {
    return `<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n  <head/>\n  <boolean>${value}</boolean>\n</sparql>\n`;
  }
  return JSON.stringify({ head: {}, boolean: value });
}
