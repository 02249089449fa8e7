/**
 * Population graphs: a population whose response holds more rows than one answer shows is
 * materialized once per vintage as a named graph in the store, and a later question over the same
 * population reads it back from the store instead of asking the publisher again.
 *
 * What the graph is keyed by — what decides its rows, nothing else: the operation, the request's
 * arguments, the measure as the records carry it, the record attributes that select it (PLACES'
 * crude prevalence), the grain and the period (`populationGraphIri`). The scope, the member class
 * and whether DC and Puerto Rico count among "states" are NOT in the graph: every row the response
 * held is kept with the attributes those tests read (state FIPS, subsection, foundation code), and
 * they are applied when the graph is read (read.ts `examineRows`), exactly as on a fresh response.
 *
 * What the graph states about itself (on its own IRI, so it is queryable by SPARQL): an RDF Data
 * Cube data set (qb:DataSet, one qb:Observation per row: key, label, value or the status why it has
 * none, the publisher's spelling), assay:PopulationGraph and prov:Entity; its completeness — rows
 * declared, rows read, rows per value status (suppressed, sentinel, blank); prov:wasDerivedFrom
 * the publisher response(s) it came from, each with its URL, retrieval time and content hash; and
 * when Assay stored it (prov:generatedAtTime). The exact rows and response pointers needed to
 * rebuild the population travel in JSON literals beside the RDF terms (assay:rowData,
 * assay:storedData), so a read-back is byte-for-byte the population first read.
 *
 * A stored graph is used only when it is whole (the rows found equal the rows it declares it
 * read: a write cut short or a page of results cut by an endpoint is never reused as complete),
 * of this format, and younger than the population connector's freshness policy; otherwise the
 * publisher is asked again and the graph replaced (`replaceGraph`, one atomic write).
 */
import { createHash } from 'node:crypto';
import type { RawPointer } from '../http/client.ts';
import type { OperationResult } from '../connectors/records.ts';
import type { RdfReader } from '../rdf/backend.ts';
import { factory, type Quad } from '../rdf/store.ts';
import { ASSAY, PROV, QB, RDF, RDFS, XSD, ensureSlash, graphIri } from '../rdf/vocab.ts';
import { iri, sparql } from '../resolve/sparql-text.ts';
import type { PopulationBinding, ProviderRows } from '../connectors/population/provider.ts';
import type { PopulationRow } from './types.ts';

const { namedNode: nn, literal: lit, quad } = factory;

/** Rows above which a population is materialized as a graph rather than kept only per question. */
export const MATERIALIZE_ROWS = 1000;

/** The layout of a stored population graph; a graph of another format is read again from the publisher. */
export const GRAPH_FORMAT = 2;

/** Rows read back per SPARQL request (a remote endpoint's result-size limit never cuts a page short unnoticed: rows are counted). */
const PAGE_ROWS = 5000;

/** What decides a population's rows (a binding's request and record selection). */
export type GraphKey = Pick<PopulationBinding, 'source' | 'operation' | 'args' | 'recordMeasure' | 'grain' | 'attributes' | 'period'>;

export function populationGraphIri(base: string, b: GraphKey): string {
  const sorted = (o: Record<string, string> | undefined) => Object.entries(o ?? {}).sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0));
  const key = createHash('sha256').update(JSON.stringify([GRAPH_FORMAT, b.source, b.operation, sorted(b.args), b.recordMeasure, b.grain, sorted(b.attributes), b.period.label])).digest('hex').slice(0, 24);
  return graphIri(ensureSlash(base), `population/${encodeURIComponent(b.source)}/${key}`);
}

/** A row's IRI in its population graph (the first row of a key; a repeated key gets its position). */
export const rowIriOf = (graph: string, key: string, dup = 0) => `${graph}/row/${encodeURIComponent(key)}${dup ? `/${dup}` : ''}`;

/** The parts of an operation result a population is rebuilt from. */
export type ResponseParts = Pick<OperationResult, 'responses' | 'unreadPages'>;

/** Everything stored to rebuild the population exactly, in the graph's assay:storedData. */
interface StoredData {
  format: number;
  declared: number | null;
  rows: number;
  unit: string;
  currency?: string;
  label: string;
  notes: ProviderRows['notes'];
  period?: ProviderRows['period'];
  responses: RawPointer[];
  unreadPages?: OperationResult['unreadPages'];
}

/** A population graph read back from the store. */
export interface StoredPopulation {
  graph: string;
  got: ProviderRows;
  parts: ResponseParts;
  /** When Assay stored the graph (ISO). */
  storedAt: string;
}

/** Why a stored graph was not used. */
export type StoredProblem =
  | { code: 'stored_graph_stale'; graph: string; storedAt: string; maxAgeDays: number }
  | { code: 'stored_graph_incomplete'; graph: string; declared: number; found: number }
  | { code: 'stored_graph_format'; graph: string; format: number };

const num = (v: number) => (Number.isInteger(v) ? lit(String(v), nn(XSD.integer)) : /^-?\d+\.\d+$/.test(String(v)) ? lit(String(v), nn(XSD.decimal)) : lit(String(v), nn(XSD.double)));

export function populationGraphQuads(b: GraphKey, got: ProviderRows, parts: ResponseParts, base: string, responseIri: (sha256: string) => string, storedAt: string): Quad[] {
  const g = populationGraphIri(base, b);
  const G = nn(g);
  const out: Quad[] = [];
  const add = (s: string, p: string, o: Parameters<typeof quad>[2]) => out.push(quad(nn(s), nn(p), o, G));
  add(g, RDF.type, nn(QB.DataSet));
  add(g, RDF.type, nn(ASSAY.PopulationGraph));
  add(g, RDF.type, nn(PROV.Entity));
  add(g, RDFS.label, lit(`${b.source}/${b.operation} ${b.recordMeasure} · ${b.period.label}`));
  add(g, ASSAY.operation, lit(`${b.source}/${b.operation}`));
  add(g, ASSAY.bindings, lit(JSON.stringify(b.args)));
  add(g, ASSAY.recordMeasure, lit(b.recordMeasure));
  add(g, ASSAY.periodLabel, lit(b.period.label));
  add(g, ASSAY.populationGrain, lit(b.grain));
  add(g, ASSAY.unit, lit(got.unit));
  add(g, PROV.generatedAtTime, lit(storedAt, nn(XSD.dateTime)));
  // completeness, on the graph itself
  if (got.declared !== null) add(g, ASSAY.rowsDeclared, num(got.declared));
  add(g, ASSAY.rowsRead, num(got.rows.length));
  const byStatus = new Map<string, number>();
  for (const r of got.rows) if (r.status !== 'reported') byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  for (const [status, n] of byStatus) {
    const x = `${g}/status/${encodeURIComponent(status)}`;
    add(g, ASSAY.exclusion, nn(x));
    add(x, RDF.type, nn(ASSAY.Exclusion));
    add(x, ASSAY.valueStatus, lit(status));
    add(x, ASSAY.rowsExcluded, num(n));
  }
  // the publisher response(s) the rows came from
  for (const r of parts.responses) {
    const ri = responseIri(r.sha256);
    add(g, PROV.wasDerivedFrom, nn(ri));
    add(g, ASSAY.contentHash, lit(r.sha256));
    add(ri, RDF.type, nn(ASSAY.PublisherResponse));
    add(ri, ASSAY.requestUrl, lit(r.url, nn(XSD.anyURI)));
    add(ri, ASSAY.contentHash, lit(r.sha256));
    if (/^\d{4}-\d{2}-\d{2}/.test(r.retrievedAt)) add(ri, PROV.generatedAtTime, lit(r.retrievedAt, nn(/^\d{4}-\d{2}-\d{2}$/.test(r.retrievedAt) ? XSD.date : XSD.dateTime)));
  }
  const data: StoredData = {
    format: GRAPH_FORMAT, declared: got.declared, rows: got.rows.length, unit: got.unit, ...(got.currency ? { currency: got.currency } : {}), label: got.label,
    notes: got.notes, ...(got.period ? { period: got.period } : {}), responses: parts.responses, ...(parts.unreadPages ? { unreadPages: parts.unreadPages } : {}),
  };
  add(g, ASSAY.storedData, lit(JSON.stringify(data)));
  const seen = new Map<string, number>();
  got.rows.forEach((row, i) => {
    const dup = seen.get(row.key) ?? 0;
    seen.set(row.key, dup + 1);
    const o = rowIriOf(g, row.key, dup);
    add(o, RDF.type, nn(QB.Observation));
    add(o, QB.dataSet, G);
    add(o, ASSAY.rowIndex, num(i));
    add(o, ASSAY.rowKey, lit(`${row.keyType}=${row.key}`));
    add(o, RDFS.label, lit(row.label));
    if (row.status !== 'reported') add(o, ASSAY.valueStatus, lit(row.status));
    if (row.value !== null && Number.isFinite(row.value)) add(o, ASSAY.value, num(row.value));
    if (row.asPublished !== undefined && row.status !== 'reported') add(o, ASSAY.asPublished, lit(row.asPublished));
    add(o, ASSAY.rowData, lit(JSON.stringify(row)));
  });
  return out;
}

/** When each of these graphs was stored, for those the store holds (one request for every candidate of a search). */
export function storedGraphs(rdf: RdfReader, graphs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (graphs.length === 0) return out;
  const values = graphs.map((g) => `<${iri(g).value}>`).join(' ');
  const q = `SELECT ?g ?at WHERE { VALUES ?g { ${values} } GRAPH ?g { ?g <${PROV.generatedAtTime}> ?at ; <${ASSAY.storedData}> ?d } }`;
  for (const b of rdf.select(q)) out.set(b.get('g')!.value, b.get('at')!.value);
  return out;
}

/** The stored population of a graph, or why it may not stand for the population (absent: undefined). */
export function loadStored(rdf: RdfReader, graph: string): StoredPopulation | StoredProblem | undefined {
  const head = rdf.select(sparql`SELECT ?d ?at WHERE { GRAPH ${iri(graph)} { ${iri(graph)} ${iri(ASSAY.storedData)} ?d ; ${iri(PROV.generatedAtTime)} ?at } }`);
  if (head.length !== 1) return undefined;
  const data = JSON.parse(head[0]!.get('d')!.value) as StoredData;
  if (data.format !== GRAPH_FORMAT) return { code: 'stored_graph_format', graph, format: data.format };
  const rows: Array<PopulationRow | undefined> = new Array(data.rows);
  let found = 0;
  for (let from = 0; from < data.rows; from += PAGE_ROWS) {
    const g = `<${iri(graph).value}>`;
    const page = rdf.select(`SELECT ?i ?r WHERE { GRAPH ${g} { ?o <${QB.dataSet}> ${g} ; <${ASSAY.rowIndex}> ?i ; <${ASSAY.rowData}> ?r . FILTER(?i >= ${from} && ?i < ${from + PAGE_ROWS}) } }`);
    for (const b of page) {
      const i = Number(b.get('i')!.value);
      if (!Number.isInteger(i) || i < 0 || i >= data.rows || rows[i]) continue;
      rows[i] = JSON.parse(b.get('r')!.value) as PopulationRow;
      found++;
    }
  }
  if (found !== data.rows) return { code: 'stored_graph_incomplete', graph, declared: data.rows, found };
  return {
    graph, storedAt: head[0]!.get('at')!.value,
    got: { rows: rows as PopulationRow[], declared: data.declared, unit: data.unit, ...(data.currency ? { currency: data.currency } : {}), label: data.label, notes: data.notes, ...(data.period ? { period: data.period } : {}) },
    parts: { responses: data.responses, ...(data.unreadPages ? { unreadPages: data.unreadPages } : {}) },
  };
}

/** Whether a graph stored at `storedAt` is past the freshness policy at `now` (ms). */
export function isStale(storedAt: string, now: number, maxAgeDays: number): boolean {
  const t = Date.parse(storedAt);
  return !Number.isFinite(t) || now - t > maxAgeDays * 86_400_000;
}
