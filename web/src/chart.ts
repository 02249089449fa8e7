/**
 * Charts with Observable Plot, drawn from what chart-data.ts chose (the result's table or its
 * graded figures; never its text). Each mark is coloured by its figure's grade, titled with the
 * figure as written, and the units and sources are printed under the chart. The chart is an image
 * for screen readers with a summary label; the same values are in the figures table beside it.
 */
import { h, link } from './dom.ts';
import { chartFor, type ChartSpec } from './chart-data.ts';
import { GRADES, type AskResult } from './types.ts';

export const GRADE_COLOURS: Record<string, string> = {
  verified: '#1a7f37', derived: '#0b5cad', corroborated: '#6f42c1', conflict: '#c62828', unverified: '#b35900',
};

/** Axis ticks in the words a reader uses: $350B, not 350G. */
export function tick(v: number, unit: string | null): string {
  const abs = Math.abs(v);
  const [d, s] = abs >= 1e12 ? [1e12, 'T'] : abs >= 1e9 ? [1e9, 'B'] : abs >= 1e6 ? [1e6, 'M'] : abs >= 1e3 ? [1e3, 'k'] : [1, ''];
  const n = `${Number((v / d).toFixed(2))}${s}`;
  return unit === 'USD' ? `$${n}` : unit === '%' ? `${n}%` : n;
}

function summary(spec: ChartSpec): string {
  const values = spec.points.map((p) => `${p.x}: ${p.figure} (${p.grade})`).join('; ');
  if (spec.kind === 'scatter') {
    // A population can have thousands of members: the label names the first few; the table beside the chart has them all.
    const shown = spec.points.slice(0, 5).map((p) => `${p.x}: ${p.xFigure}, ${p.figure} (${p.grade})`).join('; ');
    return `Scatter plot, ${spec.title}, ${spec.points.length} members (${spec.xLabel ?? 'x'} across, ${spec.yLabel} up). ${shown}${spec.points.length > 5 ? '; …' : ''}.`;
  }
  return `${spec.kind === 'line' ? 'Line' : 'Bar'} chart, ${spec.title}. ${values}.`;
}

export async function drawChart(container: HTMLElement, result: AskResult): Promise<void> {
  const spec = chartFor(result);
  if (!spec) return;
  const Plot = await import('@observablehq/plot');
  const used = GRADES.filter((g) => spec.points.some((p) => p.grade === g));
  const color = { type: 'ordinal' as const, domain: used, range: used.map((g) => GRADE_COLOURS[g]!), legend: true, label: 'grade' };
  const title = (d: ChartSpec['points'][number]) => `${d.x}: ${d.xFigure !== undefined ? `${d.xFigure}, ` : ''}${d.figure} — ${d.grade}\n${d.evidence}`;
  if (spec.kind === 'scatter') {
    const svg = Plot.plot({
      width: Math.min(720, Math.max(360, container.clientWidth || 640)),
      height: 360,
      marginLeft: 80,
      x: { label: spec.xLabel ?? null, grid: true, tickFormat: (v: number) => tick(v, spec.xUnit ?? null) },
      y: { label: spec.yLabel, grid: true, tickFormat: (v: number) => tick(v, spec.unit) },
      color,
      marks: [Plot.dot(spec.points, { x: 'xValue', y: 'y', fill: 'grade', r: 4, title })],
    });
    return place(container, spec, svg);
  }
  const marks = spec.kind === 'line'
    ? [
        Plot.ruleY([0]),
        Plot.line(spec.points, { x: 'x', y: 'y', z: 'series', stroke: '#888' }),
        Plot.dot(spec.points, { x: 'x', y: 'y', fill: 'grade', r: 5, title }),
      ]
    : [
        Plot.ruleY([0]),
        Plot.barY(spec.points, { x: 'x', y: 'y', fill: 'grade', title }),
      ];
  const svg = Plot.plot({
    width: Math.min(720, Math.max(360, container.clientWidth || 640)),
    height: 320,
    marginLeft: 80,
    x: spec.kind === 'line'
      ? { type: 'point', label: null, domain: spec.points.map((p) => p.x), padding: 0.3 }
      : { type: 'band', label: null, domain: spec.points.map((p) => p.x), padding: 0.2 },
    y: { label: spec.yLabel, grid: true, tickFormat: (v: number) => tick(v, spec.unit) },
    color,
    marks,
  });
  place(container, spec, svg);
}

function place(container: HTMLElement, spec: ChartSpec, svg: Element): void {
  const figure = h('figure', { class: 'chart', role: 'img', 'aria-label': summary(spec), 'data-kind': spec.kind, 'data-points': spec.points.length });
  figure.append(svg);
  const units = spec.kind === 'scatter' ? `across ${spec.xUnit ?? 'none stated'}, up ${spec.unit ?? 'none stated'}` : (spec.unit ?? 'none stated');
  const caption = h('figcaption', {},
    h('div', { class: 'chart-title' }, spec.title),
    h('div', {}, `Units: ${units}. Every plotted value is a graded value of the answer, coloured by its grade${spec.kind === 'scatter' ? ' (the weaker of a dot\'s two)' : ''}.`),
    spec.omitted ? h('div', {}, `${spec.omitted} value(s) in the data are not figures of the answer and are not plotted.`) : null,
    spec.sources.length ? h('div', { class: 'chart-sources' }, 'Source: ', ...spec.sources.flatMap((s, i) => [i ? '; ' : '', `${s.publisher?.split('/').pop() ?? 'publisher'} `, link(s.url, s.url)])) : null);
  figure.append(caption);
  container.replaceChildren(figure);
}
