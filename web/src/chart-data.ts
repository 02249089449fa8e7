/**
 * What a chart of an answer plots, decided from the result's data — never from its text. Each
 * plotted value is a graded figure of the answer: an evidence value (or table cell) is plotted
 * only when a figure of the answer stands on that evidence alone, and the point carries that
 * figure's value and grade (a table cell without such a figure keeps the grade code gave the cell).
 * Values with no grade are counted as left out, and said.
 *
 *   timeseries  → a line over the periods, one series per entity
 *   comparison  → bars, one per entity (and period)
 *   ranking / table with a numeric column → bars in the table's order
 */
import { GRADES, type AskResult, type Figure, type Grade } from './types.ts';
import { readTable } from './table-data.ts';

export interface Point { x: string; y: number; series: string; grade: Grade; figure: string; evidence: string; order: number }
export interface ChartSpec {
  kind: 'line' | 'bar';
  title: string;
  /** Axis label for the values: the measure and its unit. */
  yLabel: string;
  unit: string | null;
  points: Point[];
  /** Values in the data that no figure of the answer stands on, so they are not plotted. */
  omitted: number;
  sources: Array<{ publisher: string | null; url: string }>;
}

/** The figure that states exactly one evidence value, if any. */
function figureFor(figures: readonly Figure[], evidence: string): Figure | undefined {
  return figures.find((f) => f.evidence.length === 1 && f.evidence[0] === evidence);
}

function sourcesOf(result: AskResult, evidence: Iterable<string>): ChartSpec['sources'] {
  const wanted = new Set(evidence);
  const seen = new Map<string, string | null>();
  for (const c of result.citations) if (wanted.has(c.evidence) && c.url && !seen.has(c.url)) seen.set(c.url, c.publisher);
  return [...seen].map(([url, publisher]) => ({ url, publisher }));
}

const shapeOf = (r: AskResult): string | null => (typeof r.intent?.shape === 'string' ? r.intent.shape : null);

export function chartFor(result: AskResult): ChartSpec | null {
  if (result.status !== 'answered') return null;
  const shape = shapeOf(result);
  const fromTable = tableChart(result);
  if (fromTable) return fromTable;
  const numeric = result.evidence.filter((e) => typeof e.value === 'number');
  if (numeric.length < 2) return null;
  const units = new Set(numeric.map((e) => e.unit));
  if (units.size !== 1) return null; // values in different units do not share an axis
  const periods = new Set(numeric.map((e) => e.period));
  const entities = new Set(numeric.map((e) => e.entity));
  const kind: ChartSpec['kind'] | null = shape === 'timeseries' || (shape !== 'comparison' && periods.size > 1 && entities.size === 1)
    ? 'line' : shape === 'comparison' || shape === 'ranking' ? 'bar' : null;
  if (!kind) return null;
  const points: Point[] = [];
  let omitted = 0;
  numeric.forEach((e, order) => {
    const f = figureFor(result.figures, e.iri);
    if (!f) { omitted++; return; }
    const x = kind === 'line' ? e.period : periods.size > 1 ? `${e.entity} (${e.period})` : e.entity;
    points.push({ x, y: f.value, series: e.entity, grade: f.grade, figure: f.text, evidence: e.iri, order });
  });
  if (kind === 'line') points.sort((a, b) => periodKey(a.x).localeCompare(periodKey(b.x)) || a.order - b.order);
  if (points.length < 2) return null;
  const unit = [...units][0] ?? null;
  const labels = [...new Set(numeric.map((e) => e.measure_label))];
  const measure = labels.length === 1 ? labels[0]! : labels.join(' / ');
  const who = [...entities].join(', ');
  return {
    kind,
    title: kind === 'line' ? `${who}: ${measure}, by period` : `${measure}${periods.size === 1 ? `, ${[...periods][0]}` : ''}`,
    yLabel: unit ? `${measure} (${unit})` : measure,
    unit,
    points,
    omitted,
    sources: sourcesOf(result, points.map((p) => p.evidence)),
  };
}

/** FY2019 and CY2019 and 2019-09-28 order by their year first. */
function periodKey(p: string): string {
  const m = /(\d{4})(.*)$/.exec(p);
  return m ? `${m[1]}${m[2]}` : p;
}

function tableChart(result: AskResult): ChartSpec | null {
  const table = readTable(result.table);
  if (!table || table.rows.length < 2) return null;
  const numericAt = (i: number) => table.rows.every((r) => typeof r[i]?.value === 'number' || r[i]?.value === null);
  const byRole = (role: string) => table.columns.findIndex((c) => c.role === role);
  // A value column (a ranking's or a subset's measure); tables of two value columns (x, y) are not bar charts.
  let valueCol = byRole('value');
  if (valueCol < 0 && byRole('x') < 0) valueCol = table.columns.findIndex((c, i) => c.unit !== null && c.role !== 'rank' && numericAt(i));
  if (valueCol < 0 || !numericAt(valueCol)) return null;
  let labelCol = byRole('entity');
  if (labelCol < 0) labelCol = table.columns.findIndex((c, i) => i !== valueCol && table.rows.some((r) => typeof r[i]?.value === 'string'));
  if (labelCol < 0) return null;
  const points: Point[] = [];
  let omitted = 0;
  table.rows.forEach((row, order) => {
    const c = row[valueCol]!;
    const f = c.evidence ? figureFor(result.figures, c.evidence) : undefined;
    // The figure's grade when the text states the value; else the grade code gave the cell itself.
    const grade = f?.grade ?? (GRADES.includes(c.grade as Grade) ? (c.grade as Grade) : undefined);
    if (!grade || !c.evidence || typeof c.value !== 'number') { omitted++; return; }
    const x = String(row[labelCol]!.value);
    points.push({ x, y: f?.value ?? c.value, series: table.columns[valueCol]!.label, grade, figure: f?.text ?? c.value.toLocaleString('en-US'), evidence: c.evidence, order });
  });
  if (points.length < 2) return null;
  const col = table.columns[valueCol]!;
  return {
    kind: 'bar',
    title: table.caption ?? `${col.label}${col.period ? `, ${col.period}` : ''}`,
    yLabel: col.unit ? `${col.label} (${col.unit})` : col.label,
    unit: col.unit,
    points,
    omitted,
    sources: sourcesOf(result, points.map((p) => p.evidence)),
  };
}
