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
 *   correlation table (an x and a y column)  → a scatter, one dot per member; a dot is drawn
 *                                               only when both its cells carry a grade, and is
 *                                               coloured by the weaker of the two
 */
import { GRADES, type AskResult, type Figure, type Grade } from './types.ts';
import { readTable } from './table-data.ts';

/** x: the category (a period, an entity); for a scatter, the member's name, with its numeric x in xValue. */
export interface Point { x: string; y: number; series: string; grade: Grade; figure: string; evidence: string; order: number; xValue?: number; xFigure?: string }
export interface ChartSpec {
  kind: 'line' | 'bar' | 'scatter';
  title: string;
  /** A scatter's horizontal axis: its measure and unit. */
  xLabel?: string;
  xUnit?: string | null;
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
  const fromTable = scatterChart(result) ?? tableChart(result);
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

/** The weaker of two grades (later in GRADES: verified is strongest, unverified weakest). */
const weaker = (a: Grade, b: Grade): Grade => (GRADES.indexOf(a) >= GRADES.indexOf(b) ? a : b);

/** A cell's grade: the figure's that states its value alone when there is one, else the code grade of the cell. */
function cellGrade(result: AskResult, c: { evidence: string | null; grade: string | null }): { grade: Grade; figure?: Figure } | undefined {
  const f = c.evidence ? figureFor(result.figures, c.evidence) : undefined;
  const grade = f?.grade ?? (GRADES.includes(c.grade as Grade) ? (c.grade as Grade) : undefined);
  return grade ? { grade, ...(f ? { figure: f } : {}) } : undefined;
}

/** A correlation table (columns with roles x and y): a scatter of the members. */
function scatterChart(result: AskResult): ChartSpec | null {
  const table = readTable(result.table);
  if (!table || table.rows.length < 2) return null;
  const xi = table.columns.findIndex((c) => c.role === 'x');
  const yi = table.columns.findIndex((c) => c.role === 'y');
  if (xi < 0 || yi < 0) return null;
  const li = table.columns.findIndex((c) => c.role === 'entity');
  const points: Point[] = [];
  let omitted = 0;
  table.rows.forEach((row, order) => {
    const cx = row[xi]!;
    const cy = row[yi]!;
    const gx = cellGrade(result, cx);
    const gy = cellGrade(result, cy);
    if (!gx || !gy || !cy.evidence || typeof cx.value !== 'number' || typeof cy.value !== 'number') { omitted++; return; }
    const name = li >= 0 ? String(row[li]!.value) : `#${order + 1}`;
    points.push({
      x: name, xValue: gx.figure?.value ?? cx.value, xFigure: gx.figure?.text ?? cx.value.toLocaleString('en-US'),
      y: gy.figure?.value ?? cy.value, figure: gy.figure?.text ?? cy.value.toLocaleString('en-US'),
      series: name, grade: weaker(gx.grade, gy.grade), evidence: cy.evidence, order,
    });
  });
  if (points.length < 2) return null;
  const [cx, cy] = [table.columns[xi]!, table.columns[yi]!];
  const label = (c: typeof cx) => (c.unit ? `${c.label} (${c.unit})` : c.label);
  const evidence = table.rows.flatMap((r) => [r[xi]!.evidence, r[yi]!.evidence]).filter((e): e is string => !!e);
  return {
    kind: 'scatter',
    title: table.caption ?? `${cy.label} against ${cx.label}`,
    xLabel: label(cx),
    xUnit: cx.unit,
    yLabel: label(cy),
    unit: cy.unit,
    points,
    omitted,
    sources: sourcesOf(result, evidence),
  };
}
