/**
 * Facets: for a candidate set of subjects (an optional class plus `(predicate, value)`
 * constraints, all of which must hold), the distributions of their types, predicates and values.
 *
 * Contract
 * - One grouped scan of the source: each subject's triples are buffered only while they stream
 *   past, tested against the constraints, and counted if the subject is a candidate.
 * - Distributions are ordered by count descending then value ascending; `topK` bounds each one
 *   and `elided` says how many distinct values were left out.
 * - For predicates with numeric literal values (XSD numeric datatypes, finite): min, max, count
 *   and ten equal-width buckets; the last bucket includes max. Other values stay in `values` only.
 */
import { IntrospectError } from './errors.ts';
import { groupBySubject, type TripleSource } from './source.ts';
import { datatypeOf, iriOf, isLiteralKey, lexicalOf } from './terms.ts';
import { NUMERIC_DATATYPES, RDF } from './vocab.ts';

export interface FacetRequest {
  /** Class IRI every candidate must have (rdf:type, as asserted). */
  class?: string;
  /** Predicate IRI and value as an N-Triples term (`<iri>`, `"text"`, `"5"^^<…#integer>`). */
  constraints?: readonly { predicate: string; value: string }[];
  /** Predicates whose values to count; default every predicate the candidates use. */
  predicates?: readonly string[];
  /** Most values per distribution (default 10). */
  topK?: number;
}

export interface Counted {
  value: string;
  count: number;
}

export interface PredicateValues {
  predicate: string;
  values: Counted[];
  elided: number;
}

export interface NumericFacet {
  predicate: string;
  min: number;
  max: number;
  count: number;
  buckets: { lo: number; hi: number; count: number }[];
}

export interface FacetResponse {
  candidates: number;
  types: Counted[];
  /** Predicates by the number of candidates using them. */
  predicates: Counted[];
  values: PredicateValues[];
  numeric: NumericFacet[];
}

export function facets(input: TripleSource, request: FacetRequest): FacetResponse {
  const topK = request.topK ?? 10;
  if (!Number.isInteger(topK) || topK < 1) throw new IntrospectError('bad-facet', `topK must be a positive integer, not ${topK}`);
  const classKey = request.class !== undefined ? `<${request.class}>` : undefined;
  const constraints = (request.constraints ?? []).map((c) => {
    if (!/^(<[^>]*>|_:\S+|".*)$/s.test(c.value)) {
      throw new IntrospectError('bad-facet', `the value for <${c.predicate}> must be an N-Triples term such as <http://…> or "text", not ${c.value}`);
    }
    return { p: `<${c.predicate}>`, o: c.value };
  });
  const wanted = request.predicates ? new Set(request.predicates.map((p) => `<${p}>`)) : undefined;
  const typeKey = `<${RDF.type}>`;
  const source = groupBySubject(input);

  let candidates = 0;
  const types = new Map<string, number>();
  const preds = new Map<string, number>();
  const values = new Map<string, Map<string, number>>();
  const numbers = new Map<string, number[]>();
  let curS: string | undefined;
  let ps: string[] = [];
  let os: string[] = [];

  const flush = () => {
    if (curS === undefined) return;
    const has = (p: string, o: string) => { for (let i = 0; i < ps.length; i++) if (ps[i] === p && os[i] === o) return true; return false; };
    if (classKey && !has(typeKey, classKey)) return;
    for (const c of constraints) if (!has(c.p, c.o)) return;
    candidates++;
    const seen = new Set<string>();
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i]!;
      const o = os[i]!;
      if (!seen.has(p)) { seen.add(p); preds.set(p, (preds.get(p) ?? 0) + 1); }
      if (p === typeKey) types.set(o, (types.get(o) ?? 0) + 1);
      if (wanted && !wanted.has(p)) continue;
      let m = values.get(p);
      if (!m) values.set(p, (m = new Map()));
      m.set(o, (m.get(o) ?? 0) + 1);
      if (isLiteralKey(o) && NUMERIC_DATATYPES.has(datatypeOf(o))) {
        const x = Number(lexicalOf(o).trim());
        if (Number.isFinite(x)) {
          let list = numbers.get(p);
          if (!list) numbers.set(p, (list = []));
          list.push(x);
        }
      }
    }
  };
  source.scan((s, p, o) => {
    if (s !== curS) {
      flush();
      curS = s;
      ps = [];
      os = [];
    }
    ps.push(p);
    os.push(o);
  });
  flush();

  const top = (m: Map<string, number>): { values: Counted[]; elided: number } => {
    const all = [...m].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    return { values: all.slice(0, topK), elided: Math.max(0, all.length - topK) };
  };
  const order = [...values.keys()].sort((a, b) => (preds.get(b) ?? 0) - (preds.get(a) ?? 0) || (a < b ? -1 : 1));
  return {
    candidates,
    types: top(types).values.map((c) => ({ value: iriOrKey(c.value), count: c.count })),
    predicates: [...preds].map(([p, count]) => ({ value: iriOf(p), count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)),
    values: order.map((p) => ({ predicate: iriOf(p), ...top(values.get(p)!) })),
    numeric: order.filter((p) => numbers.has(p)).map((p) => numeric(iriOf(p), numbers.get(p)!)),
  };
}

const iriOrKey = (k: string): string => (k.startsWith('<') ? iriOf(k) : k);

function numeric(predicate: string, xs: number[]): NumericFacet {
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) { if (x < min) min = x; if (x > max) max = x; }
  const width = (max - min) / 10;
  const buckets = Array.from({ length: 10 }, (_, i) => ({ lo: min + i * width, hi: i === 9 ? max : min + (i + 1) * width, count: 0 }));
  for (const x of xs) {
    const i = width === 0 ? 0 : Math.min(9, Math.floor((x - min) / width));
    buckets[i]!.count++;
  }
  return { predicate, min, max, count: xs.length, buckets };
}
