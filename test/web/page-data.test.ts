/** The page's pure parts: where figures sit in the text, what a chart plots, how a table is read. */
import { describe, expect, it } from 'vitest';
import { segments } from '../../web/src/marks.ts';
import { chartFor } from '../../web/src/chart-data.ts';
import { readTable } from '../../web/src/table-data.ts';
import type { AskResult, Figure } from '../../web/src/types.ts';

const fig = (text: string, value: number, evidence: string[], grade: Figure['grade'] = 'verified'): Figure => ({ text, value, unit: 'USD', grade, evidence });

function result(over: Partial<AskResult>): AskResult {
  return {
    status: 'answered', run: 'http://a/run/r', run_id: 'r', question: 'q', text: '', rendering: 'plain', rendering_label: null,
    figures: [], citations: [], qualification: null, evidence: [], intent: null, interpreter: 'offline', plan: null, attempts: [], ...over,
  };
}

const ev = (n: number, period: string, value: number, entity = 'Apple Inc.') => ({
  iri: `http://a/evidence/r/${n}`, entity, entity_key: 'cik=1', measure: 'm', measure_label: 'Revenue', value, unit: 'USD',
  currency: 'USD', period, period_end: null, source: 'sec-edgar', assurance: 'key_match', warnings: [],
});

describe('segments', () => {
  it('marks each figure where it appears, in order, and keeps the text around it', () => {
    const s = segments('A was $1 and B was $1 (up 5%).', [fig('$1', 1, ['e1']), fig('$1', 1, ['e2']), fig('5%', 5, [])]);
    expect(s.map((x) => (x.kind === 'figure' ? `[${x.text}#${x.index}]` : x.text)).join('')).toBe('A was [$1#0] and B was [$1#1] (up [5%#2]).');
  });
  it('leaves out a figure whose text is not found after the previous one', () => {
    const s = segments('only $2 here', [fig('$9', 9, []), fig('$2', 2, [])]);
    expect(s.filter((x) => x.kind === 'figure').map((x) => x.text)).toEqual(['$2']);
  });
});

describe('chartFor', () => {
  const series = result({
    intent: { shape: 'timeseries' },
    evidence: [ev(2, 'FY2020', 20), ev(1, 'FY2019', 10), ev(3, 'FY2021', 30)],
    figures: [fig('$10', 10, ['http://a/evidence/r/1']), fig('$20', 20, ['http://a/evidence/r/2'], 'conflict'), fig('$20', 20, ['http://a/evidence/r/1', 'http://a/evidence/r/2'], 'derived')],
    citations: [{ evidence: 'http://a/evidence/r/1', publisher: 'http://a/publisher/sec-edgar', url: 'https://data.sec.gov/x.json', retrieved_at: null, content_hash: 'h', response: 'http://a/response/h' }],
  });

  it('a timeseries plots only values a figure stands on alone, with that figure\'s grade, in period order', () => {
    const spec = chartFor(series)!;
    expect(spec.kind).toBe('line');
    expect(spec.points.map((p) => [p.x, p.y, p.grade])).toEqual([['FY2019', 10, 'verified'], ['FY2020', 20, 'conflict']]);
    expect(spec.omitted).toBe(1); // FY2021 has no figure of its own
    expect(spec.unit).toBe('USD');
    expect(spec.sources).toEqual([{ url: 'https://data.sec.gov/x.json', publisher: 'http://a/publisher/sec-edgar' }]);
  });

  it('a comparison is bars, one per entity; a refusal or a single value draws nothing', () => {
    const cmp = chartFor(result({
      intent: { shape: 'comparison' },
      evidence: [ev(1, 'FY2023', 10, 'Apple Inc.'), ev(2, 'FY2023', 7, 'Alphabet Inc.')],
      figures: [fig('$10', 10, ['http://a/evidence/r/1']), fig('$7', 7, ['http://a/evidence/r/2'])],
    }))!;
    expect(cmp.kind).toBe('bar');
    expect(cmp.points.map((p) => p.x)).toEqual(['Apple Inc.', 'Alphabet Inc.']);
    expect(chartFor({ ...series, status: 'refused' })).toBeNull();
    expect(chartFor(result({ intent: { shape: 'point' }, evidence: [ev(1, 'FY2023', 10)], figures: [fig('$10', 10, ['http://a/evidence/r/1'])] }))).toBeNull();
  });

  it('values in different units share no axis', () => {
    const mixed = { ...series, evidence: [ev(1, 'FY2019', 10), { ...ev(2, 'FY2020', 20), unit: '%' }] };
    expect(chartFor(mixed)).toBeNull();
  });

  it('a population ranking table charts its value column by entity; a cell with no figure keeps its own code grade', () => {
    const cell = (column: string, value: unknown, grade: string, evidence?: string) => ({ column, value, grade, ...(evidence ? { evidence } : {}) });
    const spec = chartFor(result({
      intent: { shape: 'ranking' },
      table: {
        shape: 'ranking',
        columns: [{ id: 'rank', role: 'rank', unit: null }, { id: 'entity', role: 'entity', unit: null }, { id: 'key', role: 'key', unit: null }, { id: 'value', role: 'value', label: 'Population', unit: 'people', period: '2018' }],
        rows: [
          [cell('rank', 1, 'exempt'), cell('entity', 'California', 'label', 'e1'), cell('key', '06', 'label', 'e1'), cell('value', 39, 'verified', 'e1')],
          [cell('rank', 2, 'exempt'), cell('entity', 'Texas', 'label', 'e2'), cell('key', '48', 'label', 'e2'), cell('value', 29, 'verified', 'e2')],
        ],
        derived: [], populations: [],
      },
      figures: [fig('39', 39, ['e1'], 'conflict')],
    }))!;
    expect(spec.points.map((p) => [p.x, p.y, p.grade])).toEqual([['California', 39, 'conflict'], ['Texas', 29, 'verified']]);
    expect(spec.title).toBe('Population, 2018');
  });

  it('a correlation table (src/population/table.ts) is a scatter: a dot only where both cells are graded, coloured by the weaker', () => {
    const cell = (column: string, value: unknown, grade: string, evidence?: string) => ({ column, value, grade, ...(evidence ? { evidence } : {}) });
    const row = (name: string, x: number | null, y: number, n: number, gx = 'verified', gy = 'verified') => [
      cell('entity', name, 'label', `e${n}x`), cell('key', String(n), 'label', `e${n}x`), cell('x', x, gx, `e${n}x`), cell('y', y, gy, `e${n}y`),
    ];
    const spec = chartFor(result({
      intent: { shape: 'correlation' },
      table: {
        shape: 'correlation',
        columns: [{ id: 'entity', role: 'entity', unit: null }, { id: 'key', role: 'key', unit: null },
          { id: 'x', role: 'x', label: 'Poverty rate', unit: '%', period: '2022' }, { id: 'y', role: 'y', label: 'Diabetes prevalence', unit: '%', period: '2022' }],
        rows: [row('Adams County', 12.5, 9.1, 1), row('Baker County', 20.25, 11.4, 2), row('Clark County', 15, 10, 3, 'verified', 'not-a-grade'), row('Dale County', null, 8, 4)],
        derived: [{ id: 'pearson_r', op: 'pearson', value: 0.9, n: 2, unit: null, of: ['x', 'y'] }], populations: [],
      },
      // The text states Baker's y value, graded conflict: that dot takes the weaker grade.
      figures: [fig('11.4%', 11.4, ['e2y'], 'conflict')],
    }))!;
    expect(spec.kind).toBe('scatter');
    expect(spec.points.map((p) => [p.x, p.xValue, p.y, p.grade])).toEqual([['Adams County', 12.5, 9.1, 'verified'], ['Baker County', 20.25, 11.4, 'conflict']]);
    expect(spec.omitted).toBe(2); // Clark's y has no grade; Dale has no x value
    expect([spec.xLabel, spec.yLabel, spec.title]).toEqual(['Poverty rate (%)', 'Diabetes prevalence (%)', 'Diabetes prevalence against Poverty rate']);
  });

  it('a ranking table is bars in the table\'s order, each cell matched to its figure by evidence', () => {
    const spec = chartFor(result({
      intent: { shape: 'ranking' },
      table: { columns: [{ key: 'state', label: 'State' }, { key: 'pop', label: 'Population', unit: 'people' }], rows: [
        { state: { value: 'California' }, pop: { value: 39, evidence: 'http://a/evidence/r/1' } },
        { state: { value: 'Texas' }, pop: { value: 29, evidence: 'http://a/evidence/r/2' } },
        { state: { value: 'Florida' }, pop: { value: 21, evidence: 'http://a/evidence/r/3' } },
      ] },
      figures: [fig('39', 39, ['http://a/evidence/r/1']), fig('29', 29, ['http://a/evidence/r/2'])],
    }))!;
    expect(spec.kind).toBe('bar');
    expect(spec.points.map((p) => p.x)).toEqual(['California', 'Texas']);
    expect(spec.omitted).toBe(1);
    expect(spec.yLabel).toBe('Population (people)');
  });
});

describe('readTable', () => {
  it('reads columns as names or objects, rows as arrays, objects or {cells}', () => {
    expect(readTable({ columns: ['a', { name: 'b', unit: 'USD' }], rows: [[1, { value: 2, evidence: ['e'] }], { cells: [3, 4] }, { a: 5, b: { value: 6, evidence_iri: 'f' } }] })).toEqual({
      caption: null,
      columns: [{ key: 'a', label: 'a', unit: null, role: null, period: null }, { key: 'b', label: 'b', unit: 'USD', role: null, period: null }],
      rows: [
        [{ value: 1, evidence: null, grade: null }, { value: 2, evidence: 'e', grade: null }],
        [{ value: 3, evidence: null, grade: null }, { value: 4, evidence: null, grade: null }],
        [{ value: 5, evidence: null, grade: null }, { value: 6, evidence: 'f', grade: null }],
      ],
    });
  });
  it('reads a population answer\'s table (src/population/table.ts): cells placed by the column they name', () => {
    const t = readTable({
      shape: 'ranking',
      columns: [{ id: 'rank', role: 'rank', unit: null }, { id: 'entity', role: 'entity', unit: null }, { id: 'value', role: 'value', label: 'Total population', unit: 'people', period: '2018' }],
      rows: [[{ column: 'value', value: 39557045, grade: 'verified', evidence: 'e1' }, { column: 'rank', value: 1, grade: 'exempt' }, { column: 'entity', value: 'California', grade: 'label', evidence: 'e1' }]],
      derived: [], populations: [],
    })!;
    expect(t.columns.map((c) => [c.label, c.role, c.unit, c.period])).toEqual([['#', 'rank', null, null], ['entity', 'entity', null, null], ['Total population', 'value', 'people', '2018']]);
    expect(t.rows[0]!.map((c) => c.value)).toEqual([1, 'California', 39557045]);
  });

  it('says it cannot read what is not a table', () => {
    expect(readTable(null)).toBeNull();
    expect(readTable({ columns: 'a', rows: [] })).toBeNull();
    expect(readTable({ columns: ['a'], rows: [7] })).toBeNull();
  });
});
