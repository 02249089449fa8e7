/**
 * Population reads and result tables as RDF.
 *
 * A population read is stated on the attempt that made it (already a prov:Activity that prov:used
 * the publisher response, src/evidence/rdf.ts): typed assay:PopulationRead, with its grain, scope,
 * member class, measure, period, the counts (rows declared, read, members, usable), the
 * completeness verdict, one assay:Exclusion per reason with its count, and its typed notes as JSON.
 * So "how complete was the population this answer ranked?" is a SPARQL query over the run graph.
 *
 * A result table is a csvw:Table (columns in its csvw:tableSchema, csvw:Row rows with csvw:rownum),
 * each cell an assay:cell node with rdf:value, its column, its grade and prov:wasDerivedFrom the
 * evidence it shows; derived figures (count, sum, mean, r, ρ) hang off the table with their
 * operation and n. IRIs are minted under the table's IRI (no blank nodes: every part is addressable).
 */
import { measureIri } from '../evidence/rdf.ts';
import { factory, type Quad } from '../rdf/store.ts';
import { ASSAY, CSVW, PROV, RDF, XSD } from '../rdf/vocab.ts';
import type { ResultTable } from './table.ts';
import type { PopulationRead } from './types.ts';

const { namedNode: nn, literal: lit, quad } = factory;
type Obj = Parameters<typeof quad>[2];

function writer(graph: string) {
  const out: Quad[] = [];
  const g = nn(graph);
  return { out, add: (s: string, p: string, o: Obj) => out.push(quad(nn(s), nn(p), o, g)) };
}
const int = (n: number) => lit(String(n), nn(XSD.integer));
const num = (v: number) => (Number.isInteger(v) ? int(v) : lit(String(v), nn(XSD.decimal)));

export function populationReadQuads(attemptIri: string, read: PopulationRead, graph: string, base: string, responseIri: (sha256: string) => string): Quad[] {
  const { out, add } = writer(graph);
  const c = read.completeness;
  add(attemptIri, RDF.type, nn(ASSAY.PopulationRead));
  add(attemptIri, ASSAY.populationGrain, lit(read.grain));
  add(attemptIri, ASSAY.populationScope, lit(read.scope.kind === 'nation' ? 'US' : read.scope.fips));
  if (read.memberClass) add(attemptIri, ASSAY.memberClass, lit(read.memberClass));
  if (read.measure.key !== 'members') add(attemptIri, ASSAY.measure, nn(measureIri(base, read.measure.key)));
  add(attemptIri, ASSAY.recordMeasure, lit(read.measure.recordMeasure));
  add(attemptIri, ASSAY.periodLabel, lit(read.period.label));
  if (c.declared !== null) add(attemptIri, ASSAY.rowsDeclared, int(c.declared));
  add(attemptIri, ASSAY.rowsRead, int(c.read));
  add(attemptIri, ASSAY.rowsMembers, int(c.members));
  add(attemptIri, ASSAY.rowsUsable, int(c.usable));
  add(attemptIri, ASSAY.completeness, lit(c.verdict));
  c.excluded.forEach((e, i) => {
    const x = `${attemptIri}/exclusion/${i + 1}`;
    add(attemptIri, ASSAY.exclusion, nn(x));
    add(x, RDF.type, nn(ASSAY.Exclusion));
    add(x, ASSAY.exclusionCode, lit(e.code));
    if (e.detail) add(x, ASSAY.exclusionDetail, lit(e.detail));
    add(x, ASSAY.rowsExcluded, int(e.count));
  });
  for (const n of [...c.reasons, ...read.notes]) add(attemptIri, ASSAY.populationNote, lit(JSON.stringify(n)));
  // the population graph the rows are stored in (a store read prov:used it: src/evidence/rdf.ts)
  if (read.graph) add(attemptIri, ASSAY.populationGraph, nn(read.graph));
  else for (const r of read.responses) add(attemptIri, PROV.used, nn(responseIri(r.sha256)));
  return out;
}

/** Rows of a result table stated in RDF at most; a longer table (every aligned pair of a correlation) keeps the rest in the answer's JSON and says how many rows it has. */
export const RDF_TABLE_ROWS = 200;

export function tableQuads(tableIri: string, answerIri: string, table: ResultTable, graph: string, base: string): Quad[] {
  const { out, add } = writer(graph);
  add(answerIri, ASSAY.resultTable, nn(tableIri));
  add(tableIri, RDF.type, nn(CSVW.Table));
  add(tableIri, ASSAY.tableShape, lit(table.shape));
  const schema = `${tableIri}/schema`;
  add(tableIri, CSVW.tableSchema, nn(schema));
  add(schema, RDF.type, nn(CSVW.Schema));
  const colIri = (id: string) => `${tableIri}/column/${encodeURIComponent(id)}`;
  for (const col of table.columns) {
    const ci = colIri(col.id);
    add(schema, CSVW.column, nn(ci));
    add(ci, RDF.type, nn(CSVW.Column));
    add(ci, CSVW.name, lit(col.id));
    add(ci, ASSAY.columnRole, lit(col.role));
    if (col.unit) add(ci, ASSAY.columnUnit, lit(col.unit));
    if (col.label) add(ci, CSVW.titles, lit(col.label));
    if (col.measure && col.measure !== 'members') add(ci, ASSAY.measure, nn(measureIri(base, col.measure)));
    if (col.period) add(ci, ASSAY.periodLabel, lit(col.period));
  }
  add(tableIri, ASSAY.rowsRead, int(table.rows.length));
  table.rows.slice(0, RDF_TABLE_ROWS).forEach((cells, i) => {
    const ri = `${tableIri}/row/${i + 1}`;
    add(tableIri, CSVW.row, nn(ri));
    add(ri, RDF.type, nn(CSVW.Row));
    add(ri, CSVW.rownum, int(i + 1));
    for (const cell of cells) {
      if (cell.value === null) continue;
      const cc = `${ri}/cell/${encodeURIComponent(cell.column)}`;
      add(ri, ASSAY.cell, nn(cc));
      add(cc, ASSAY.cellColumn, nn(colIri(cell.column)));
      add(cc, RDF.value, typeof cell.value === 'number' ? num(cell.value) : lit(cell.value));
      add(cc, ASSAY.cellGrade, lit(cell.grade));
      if (cell.evidence) add(cc, PROV.wasDerivedFrom, nn(cell.evidence));
    }
  });
  for (const d of table.derived) {
    const di = `${tableIri}/derived/${encodeURIComponent(d.id)}`;
    add(tableIri, ASSAY.derivedValue, nn(di));
    add(di, RDF.value, num(d.value));
    add(di, ASSAY.derivedOp, lit(d.op));
    add(di, ASSAY.derivedN, int(d.n));
    if (d.unit) add(di, ASSAY.columnUnit, lit(d.unit));
    for (const c of d.of) add(di, ASSAY.cellColumn, nn(colIri(c)));
  }
  return out;
}
