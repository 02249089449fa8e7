// Why a grant question has no reading is decided as a typed code (execute.ts) and worded here
// once (render.ts): every code has a sentence that says what was asked and what to ask instead.
import { describe, expect, it } from 'vitest';
import type { Unmappable } from '../../src/grants/execute.ts';
import { renderShapeFailure, renderUnmappable } from '../../src/grants/render.ts';

/** One of each code: a code added without a sentence fails to compile here. */
const EACH: { [K in Unmappable['code']]: Extract<Unmappable, { code: K }> } = {
  median: { code: 'median' },
  ranked_by_average: { code: 'ranked_by_average' },
  too_many_funders: { code: 'too_many_funders', count: 3 },
  no_name: { code: 'no_name', role: 'recipient' },
  measure_in_state: { code: 'measure_in_state', measure: 'average', scope: 'funder', name: 'the Joyce Foundation' },
  not_a_state: { code: 'not_a_state', place: 'Narnia' },
  difference: { code: 'difference' },
  intersection_arity: { code: 'intersection_arity', count: 3, of: 'funders' },
  no_direction: { code: 'no_direction' },
  measure_direction_open: { code: 'measure_direction_open', measure: 'average', name: 'Ford Foundation' },
};

describe('unmappable grant questions, worded from their codes', () => {
  it.each(Object.values(EACH).map((u) => [u.code, u] as const))('%s', (_code, u) => {
    const text = renderUnmappable(u);
    expect(text.length).toBeGreaterThan(30);
    expect(renderShapeFailure({ code: 'unmappable', reason: u })).toBe(text);
    // the parameters the code carries are in its sentence
    for (const v of Object.values(u)) if (typeof v === 'number' || (typeof v === 'string' && /\s|\p{Lu}/u.test(v))) expect(text).toContain(String(v));
  });
  it('the three scopes of a measure asked within a state each say what to ask instead', () => {
    expect(renderUnmappable({ code: 'measure_in_state', measure: 'average', scope: 'funder', name: 'the Joyce Foundation' })).toMatch(/ask for the Joyce Foundation's grants to organizations in that state, or for its average grant overall/);
    expect(renderUnmappable({ code: 'measure_in_state', measure: 'largest', scope: 'recipient', name: 'X' })).toMatch(/a recipient's largest grants within a state .* ask without the place/);
    expect(renderUnmappable({ code: 'measure_in_state', measure: 'average', scope: 'graph', name: null })).toMatch(/the average grant to one state's organizations/);
  });
});
