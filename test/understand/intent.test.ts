import { describe, expect, it } from 'vitest';
import { intentJsonSchema, parseIntent, partJsonSchemas, periodLabel, SHAPES } from '../../src/understand/intent.ts';

const base = { question: 'What was Apple\'s total revenue in 2023?', shape: 'point', entity: 'Apple', canonical_entity: 'Apple Inc.', entity_status: 'resolved', attribute: 'total revenue', period: { text: '2023', basis: 'unspecified', year: 2023 } };

describe('intent schema', () => {
  it('accepts a caller intent and fills defaults', () => {
    const r = parseIntent(base);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.intent.entities).toEqual([]);
    expect(r.intent.interpretations).toEqual([]);
    expect(r.intent.threshold).toBeNull();
    expect(periodLabel(r.intent.period)).toBe('2023');
  });

  it.each([
    [{ ...base, shape: 'histogram' }, 'shape'],
    [{ ...base, entity_status: 'ambiguous', entity_candidates: ['Apple Inc.'] }, 'entity_candidates'],
    [{ ...base, entity_status: 'none' }, 'entity_status'],
    [{ ...base, shape: 'comparison', entities: ['Apple'] }, 'entities'],
    [{ ...base, shape: 'filtered_subset' }, 'threshold'],
    [{ ...base, sources: ['anything'] }, '(root)'],
    [{ ...base, period: { text: 'fy', basis: 'fiscal', year: 20230 } }, 'period.year'],
  ])('rejects %j at %s with a message', (value, path) => {
    const r = parseIntent(value);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.path)).toContain(path);
    for (const i of r.issues) expect(i.message.length).toBeGreaterThan(5);
  });

  it('keeps fiscal and calendar years apart in labels', () => {
    expect(periodLabel({ text: 'fiscal 2022', basis: 'fiscal', year: 2022, quarter: null, date: null, latest: false })).toBe('FY2022');
    expect(periodLabel({ text: 'calendar 2022', basis: 'calendar', year: 2022, quarter: null, date: null, latest: false })).toBe('CY2022');
    expect(periodLabel({ text: 'latest', basis: 'unspecified', year: null, quarter: null, date: null, latest: true })).toBe('latest');
  });

  it('exports JSON Schema for the intent and both model calls, with no sources field', () => {
    const s = intentJsonSchema() as { properties: Record<string, { enum?: string[] }>; required?: string[] };
    expect(Object.keys(s.properties)).toEqual(expect.arrayContaining(['shape', 'entity', 'canonical_entity', 'entity_status', 'entity_candidates', 'entities', 'type', 'attribute', 'interpretations', 'period', 'periods', 'quantifier', 'threshold', 'direction', 'geography']));
    expect(s.properties.sources).toBeUndefined();
    expect(s.properties.shape!.enum).toEqual([...SHAPES]);
    expect(s.required).toEqual(['question', 'shape']);
    const parts = partJsonSchemas() as { structure: { properties: object }; measure: { properties: object } };
    expect(Object.keys(parts.structure.properties)).toContain('entity_status');
    expect(Object.keys(parts.measure.properties)).toContain('threshold');
    expect(Object.keys(parts.measure.properties)).not.toContain('shape');
  });
});
