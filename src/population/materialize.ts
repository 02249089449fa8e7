/**
 * Population graphs: a population read whose response holds more rows than one answer shows is
 * materialized once per vintage (source, operation, request, measure) as a named graph in the
 * store — an RDF Data Cube data set of one qb:Observation per row (its key, label, value or the
 * status why it has none, the publisher's spelling), prov:wasDerivedFrom the publisher response —
 * instead of per question. The graph IRI is derived from what was asked, not from the run, so a
 * later question reading the same population finds it and writes nothing. Rows are kept lean (their
 * data set, key, label, value or status): every row of every county is a few quads.
 */
import { createHash } from 'node:crypto';
import { factory, type Quad } from '../rdf/store.ts';
import { ASSAY, PROV, QB, RDF, RDFS, XSD, ensureSlash, graphIri } from '../rdf/vocab.ts';
import type { PopulationRead } from './types.ts';

const { namedNode: nn, literal: lit, quad } = factory;

/** Rows above which a population is materialized as a graph rather than kept only per question. */
export const MATERIALIZE_ROWS = 1000;

export function populationGraphIri(base: string, read: Pick<PopulationRead, 'source' | 'operation' | 'args' | 'measure'>): string {
  const key = createHash('sha256').update(JSON.stringify([read.source, read.operation, Object.entries(read.args).sort(), read.measure.recordMeasure])).digest('hex').slice(0, 24);
  return graphIri(ensureSlash(base), `population/${encodeURIComponent(read.source)}/${key}`);
}

export function populationGraphQuads(read: PopulationRead, base: string, responseIri: (sha256: string) => string): Quad[] {
  const g = populationGraphIri(base, read);
  const G = nn(g);
  const out: Quad[] = [];
  const add = (s: string, p: string, o: Parameters<typeof quad>[2]) => out.push(quad(nn(s), nn(p), o, G));
  add(g, RDF.type, nn(QB.DataSet));
  add(g, RDFS.label, lit(`${read.source}/${read.operation} ${read.measure.recordMeasure} · ${read.period.label}`));
  add(g, ASSAY.operation, lit(`${read.source}/${read.operation}`));
  add(g, ASSAY.recordMeasure, lit(read.measure.recordMeasure));
  add(g, ASSAY.periodLabel, lit(read.period.label));
  add(g, ASSAY.populationGrain, lit(read.grain));
  add(g, ASSAY.rowsRead, lit(String(read.rows.length), nn(XSD.integer)));
  add(g, ASSAY.unit, lit(read.measure.unit));
  for (const r of read.responses) add(g, PROV.wasDerivedFrom, nn(responseIri(r.sha256)));
  for (const row of read.rows) {
    const o = `${g}/row/${encodeURIComponent(row.key)}`;
    add(o, QB.dataSet, G);
    add(o, ASSAY.rowKey, lit(`${row.keyType}=${row.key}`));
    add(o, RDFS.label, lit(row.label));
    if (row.status !== 'reported') add(o, ASSAY.valueStatus, lit(row.status));
    if (row.value !== null && Number.isFinite(row.value)) add(o, ASSAY.value, lit(String(row.value), nn(Number.isInteger(row.value) ? XSD.integer : XSD.decimal)));
    if (row.asPublished !== undefined && row.status !== 'reported') add(o, ASSAY.asPublished, lit(row.asPublished));
  }
  return out;
}
