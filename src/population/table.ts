/**
 * The result table of a population answer: columns with their units, rows whose cells cite the
 * evidence they show, and the figures derived from the rows (a count, a sum, r) with their
 * arithmetic — so a client can draw a table or chart without parsing the answer's text.
 *
 * Grades are fixed by role: a value cell shows an admitted value (`verified`), a rank is list
 * numbering (`exempt`), names and keys are labels; derived figures are `derived` with their
 * operation and n. Column ids and roles are codes; a column's `label` is the publisher's own
 * label of the measure (data, not Assay's wording).
 */
import type { Correlation } from './compute/correlation.ts';
import type { Ranking } from './compute/ranking.ts';
import type { Subset } from './compute/subset.ts';
import type { PopulationRead, PopulationRow } from './types.ts';

export type ColumnRole = 'rank' | 'entity' | 'key' | 'value' | 'x' | 'y' | 'text' | 'date';
export type CellGrade = 'verified' | 'exempt' | 'label';

export interface TableColumn {
  id: string;
  role: ColumnRole;
  /** The catalog measure key a value column shows. */
  measure?: string;
  /** The publisher's label of the measure. */
  label?: string;
  unit: string | null;
  currency?: string;
  /** The period label of the values in the column. */
  period?: string;
  /** The key type of a key column (fips, ein, cik, opportunity_id). */
  keyType?: string;
}

export interface TableCell {
  column: string;
  value: number | string | null;
  grade: CellGrade;
  /** The evidence the cell shows (value cells, and label cells of the same row's evidence). */
  evidence?: string;
}

export interface DerivedFigure {
  id: string;
  op: 'count' | 'sum' | 'mean' | 'divide' | 'pearson' | 'spearman';
  value: number;
  /** Members or aligned pairs it is computed over. */
  n: number;
  unit: string | null;
  /** The value columns it is computed from. */
  of: string[];
}

export interface ResultTable {
  shape: 'ranking' | 'filtered_subset' | 'correlation' | 'topical' | 'aggregate';
  columns: TableColumn[];
  rows: TableCell[][];
  derived: DerivedFigure[];
  /** The population(s) the rows come from, as counted. */
  populations: Array<{ operation: string; declared: number | null; read: number; members: number; usable: number; verdict: string }>;
}

export type EvidenceFor = (read: PopulationRead, row: PopulationRow) => string | undefined;

const population = (r: PopulationRead) => ({ operation: `${r.source}/${r.operation}`, declared: r.completeness.declared, read: r.completeness.read, members: r.completeness.members, usable: r.completeness.usable, verdict: r.completeness.verdict });

function valueColumn(id: string, role: ColumnRole, r: PopulationRead): TableColumn {
  return { id, role, measure: r.measure.key, label: r.measure.label, unit: r.measure.unit, ...(r.measure.currency ? { currency: r.measure.currency } : {}), period: r.period.label };
}

function entityCells(r: PopulationRead, row: PopulationRow, ev: string | undefined): TableCell[] {
  return [
    { column: 'entity', value: row.label, grade: 'label', ...(ev ? { evidence: ev } : {}) },
    { column: 'key', value: row.key, grade: 'label', ...(ev ? { evidence: ev } : {}) },
  ];
}

const keyColumns = (r: PopulationRead): TableColumn[] => [{ id: 'entity', role: 'entity', unit: null }, { id: 'key', role: 'key', unit: null, keyType: r.usable[0]?.keyType ?? r.rows[0]?.keyType ?? 'key' }];

export function rankingTable(read: PopulationRead, ranking: Ranking, evidenceFor: EvidenceFor): ResultTable {
  return {
    shape: 'ranking',
    columns: [{ id: 'rank', role: 'rank', unit: null }, ...keyColumns(read), valueColumn('value', 'value', read)],
    rows: ranking.entries.map((e) => {
      const ev = evidenceFor(read, e.row);
      return [{ column: 'rank', value: e.rank, grade: 'exempt' as const }, ...entityCells(read, e.row, ev), { column: 'value', value: e.row.value, grade: 'verified' as const, ...(ev ? { evidence: ev } : {}) }];
    }),
    derived: [],
    populations: [population(read)],
  };
}

export function subsetTable(read: PopulationRead, s: Subset, evidenceFor: EvidenceFor): ResultTable {
  return {
    shape: 'filtered_subset',
    columns: [...keyColumns(read), valueColumn('value', 'value', read)],
    rows: s.matches.map((row) => {
      const ev = evidenceFor(read, row);
      return [...entityCells(read, row, ev), { column: 'value', value: row.value, grade: 'verified' as const, ...(ev ? { evidence: ev } : {}) }];
    }),
    // an existential subset found some; only an exhaustive one has a count
    derived: s.complete ? [{ id: 'count', op: 'count', value: s.matches.length, n: s.tested, unit: 'count', of: ['value'] }] : [],
    populations: [population(read)],
  };
}

export function correlationTable(x: PopulationRead, y: PopulationRead, c: Correlation, evidenceFor: EvidenceFor): ResultTable {
  return {
    shape: 'correlation',
    columns: [...keyColumns(x), valueColumn('x', 'x', x), valueColumn('y', 'y', y)],
    rows: c.pairs.map((p) => {
      const ex = evidenceFor(x, p.x);
      const ey = evidenceFor(y, p.y);
      return [...entityCells(x, p.x, ex), { column: 'x', value: p.x.value, grade: 'verified' as const, ...(ex ? { evidence: ex } : {}) }, { column: 'y', value: p.y.value, grade: 'verified' as const, ...(ey ? { evidence: ey } : {}) }];
    }),
    derived: [
      { id: 'pearson_r', op: 'pearson', value: c.pearson, n: c.n, unit: null, of: ['x', 'y'] },
      { id: 'spearman_rho', op: 'spearman', value: c.spearman, n: c.n, unit: null, of: ['x', 'y'] },
      { id: 'n', op: 'count', value: c.n, n: c.n, unit: 'count', of: ['x', 'y'] },
    ],
    populations: [population(x), population(y)],
  };
}
