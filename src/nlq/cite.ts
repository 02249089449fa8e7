/**
 * Citations from provenance: every supporting binding is joined to the PROV-O the graph asserts —
 * prov:wasDerivedFrom, dcterms:source, and prov:wasGeneratedBy → prov:used — and each source found
 * becomes a numbered footnote. Nothing is generated: a citation exists only for a statement the
 * graph holds (so every citation resolves), and a binding with none is listed as "no source
 * recorded". The same join reads asserted assurance and confidence for qualification.
 *
 * Supporting bindings: the IRIs in the result rows, plus the IRIs the query names as subjects (the
 * named entity of "What is the height of X?"). Queries run in the worker pool, in the answer's graph.
 */
import sparqljs from 'sparqljs';
import type { Query, ValuesPattern } from 'sparqljs';
import { DataFactory } from 'n3';
import type { GraphRunner, QueryResult, RunLimits } from './exec.ts';
import type { SupportRecord } from './qualify.ts';
import { localName } from './text.ts';

const { Parser, Generator } = sparqljs;
const PROV = 'http://www.w3.org/ns/prov#';
const DCT = 'http://purl.org/dc/terms/';

export type CitationVia = 'prov:wasDerivedFrom' | 'dcterms:source' | 'prov:used';
const VIA: Record<string, CitationVia> = { d: 'prov:wasDerivedFrom', s: 'dcterms:source', u: 'prov:used' };

export interface Citation {
  n: number;
  /** The binding (an IRI of the answer or the query) the source supports. */
  subject: string;
  source: string;
  via: CitationVia;
  /** The activity, for prov:wasGeneratedBy → prov:used. */
  activity: string | null;
  title: string | null;
  url: string | null;
  retrievedAt: string | null;
}

export interface Cited {
  citations: Citation[];
  /** Supporting bindings for which the graph records no source. */
  noSourceRecorded: string[];
  support: SupportRecord[];
  /** Supporting IRIs beyond the cap that were not joined. */
  unjoined: number;
}

const SOURCES_QUERY = `
PREFIX prov: <${PROV}>
PREFIX dct: <${DCT}>
SELECT ?s ?via ?src ?act ?title ?url ?when WHERE {
  { ?s prov:wasDerivedFrom ?src BIND("d" AS ?via) }
  UNION { ?s dct:source ?src BIND("s" AS ?via) }
  UNION { ?s prov:wasGeneratedBy ?act . ?act prov:used ?src BIND("u" AS ?via) }
  OPTIONAL { ?src dct:title|<http://www.w3.org/2000/01/rdf-schema#label> ?title }
  OPTIONAL { ?src <https://w3id.org/assay/ns#requestUrl>|<http://schema.org/url>|<http://www.w3.org/ns/dcat#accessURL> ?url }
  OPTIONAL { ?src prov:generatedAtTime ?when }
}`;

function withValues(template: string, subjects: readonly string[], predicates?: readonly string[]): string {
  const ast = new Parser().parse(template) as Query;
  const values: ValuesPattern = { type: 'values', values: subjects.map((s) => ({ '?s': DataFactory.namedNode(s) })) } as unknown as ValuesPattern;
  const extra: ValuesPattern[] = predicates && predicates.length > 0
    ? [{ type: 'values', values: predicates.map((p) => ({ '?q': DataFactory.namedNode(p) })) } as unknown as ValuesPattern]
    : [];
  (ast as { where: unknown[] }).where = [values, ...extra, ...((ast as { where?: unknown[] }).where ?? [])];
  return new Generator().stringify(ast);
}

/** IRIs supporting a result: row IRIs, then the query's subject IRIs, de-duplicated, in order. */
export function supportingIris(result: QueryResult, queryAst: Query): string[] {
  const out = new Set<string>();
  if (result.kind === 'select') for (const row of result.rows) for (const t of Object.values(row)) if (t?.type === 'uri') out.add(t.value);
  const stack: unknown[] = [queryAst];
  while (stack.length) {
    const n = stack.pop();
    if (Array.isArray(n)) { for (const x of n) stack.push(x); continue; }
    if (!n || typeof n !== 'object') continue;
    const node = n as Record<string, unknown>;
    if (Array.isArray(node.triples)) for (const t of node.triples as { subject: { termType: string; value: string } }[]) if (t.subject.termType === 'NamedNode') out.add(t.subject.value);
    for (const c of Object.values(node)) if (c && typeof c === 'object') stack.push(c);
  }
  return [...out];
}

export async function cite(runner: GraphRunner, graph: string | undefined, subjects: readonly string[], options: { limits: RunLimits; maxSubjects: number; assurancePredicates: readonly string[]; confidencePredicates: readonly string[] }): Promise<Cited> {
  const joined = subjects.slice(0, options.maxSubjects);
  const support = new Map<string, SupportRecord>(joined.map((s) => [s, { subject: s, sources: 0, assurance: [], confidence: [] }]));
  const citations: Citation[] = [];
  if (joined.length > 0) {
    const r = await runner.query(withValues(SOURCES_QUERY, joined), graph, options.limits);
    const seen = new Set<string>();
    if (r.kind === 'select') {
      for (const row of r.rows) {
        const s = row.s!.value; const src = row.src!.value; const via = VIA[row.via!.value]!;
        const key = `${s} ${via} ${src}`;
        if (seen.has(key)) continue;
        seen.add(key);
        support.get(s)!.sources++;
        citations.push({ n: 0, subject: s, source: src, via, activity: row.act?.value ?? null, title: row.title?.value ?? null, url: row.url?.value ?? null, retrievedAt: row.when?.value ?? null });
      }
    }
    const preds = [...options.assurancePredicates, ...options.confidencePredicates];
    if (preds.length > 0) {
      const q = await runner.query(withValues('SELECT ?s ?q ?o WHERE { ?s ?q ?o }', joined, preds), graph, options.limits);
      if (q.kind === 'select') {
        for (const row of q.rows) {
          const rec = support.get(row.s!.value)!;
          const o = row.o!;
          if (options.confidencePredicates.includes(row.q!.value)) {
            const x = Number(o.value);
            if (Number.isFinite(x)) rec.confidence.push(x > 1 && x <= 100 ? x / 100 : x);
          } else rec.assurance.push(o.type === 'uri' ? localName(o.value) : o.value);
        }
      }
    }
  }
  // Number citations by source: one footnote per source, in order of first appearance.
  const numbers = new Map<string, number>();
  for (const c of citations) {
    if (!numbers.has(c.source)) numbers.set(c.source, numbers.size + 1);
    c.n = numbers.get(c.source)!;
  }
  const noSourceRecorded = [...support.values()].filter((r) => r.sources === 0).map((r) => r.subject);
  return { citations, noSourceRecorded, support: [...support.values()], unjoined: Math.max(0, subjects.length - joined.length) };
}

/** Share of citations whose statement the graph holds, re-checked one ASK each (1.0 by construction). */
export async function resolutionRate(runner: GraphRunner, graph: string | undefined, citations: readonly Citation[], limits: RunLimits): Promise<number> {
  if (citations.length === 0) return 1;
  let ok = 0;
  for (const c of citations) {
    const s = DataFactory.namedNode(c.subject); const src = DataFactory.namedNode(c.source);
    const patterns = c.via === 'prov:used'
      ? [{ subject: s, predicate: DataFactory.namedNode(`${PROV}wasGeneratedBy`), object: DataFactory.variable('a') }, { subject: DataFactory.variable('a'), predicate: DataFactory.namedNode(`${PROV}used`), object: src }]
      : [{ subject: s, predicate: DataFactory.namedNode(c.via === 'dcterms:source' ? `${DCT}source` : `${PROV}wasDerivedFrom`), object: src }];
    const text = new Generator().stringify({ type: 'query', queryType: 'ASK', prefixes: {}, where: [{ type: 'bgp', triples: patterns }] } as unknown as Query);
    const r = await runner.query(text, graph, limits);
    if (r.kind === 'ask' && r.value) ok++;
  }
  return ok / citations.length;
}
