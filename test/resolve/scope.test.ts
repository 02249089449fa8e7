/**
 * Scope ambiguity of place names, by rule over the offline registry: a name shared by geographies
 * of different grain, one within the other (or both exact), is ambiguous with each candidate's grain,
 * unless the intent's words settle the grain; a grain asked that the registry does not hold is
 * reported, never read at another grain.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openOfflineRegistry, resolveContext, type IdentityRegistry } from '../../src/resolve/registry.ts';
import { coreName, grainOfWord, resolveScope, type ScopeReading } from '../../src/resolve/scope.ts';

let registry: IdentityRegistry;
beforeAll(async () => { registry = await openOfflineRegistry(); });
const read = (name: string, hints = {}) => resolveScope(registry, name, hints, resolveContext());
const grains = (r: ScopeReading) => r.status === 'ambiguous' ? r.candidates.map((c) => [c.grain, c.fips]) : r.status;

describe('scope ambiguity of place names', () => {
  it('"New York" is the state and the county within it: ambiguous, state first, each with its grain and FIPS', async () => {
    expect(grains(await read('New York'))).toEqual([['state', '36'], ['county', '36061']]);
  });

  it.each([
    ['District of Columbia', [['state', '11'], ['county', '11001']]],
    ['Iowa', [['state', '19'], ['county', '19095']]],
    ['Utah', [['state', '49'], ['county', '49049']]],
  ])('%s is found by the same rule', async (name, expected) => expect(grains(await read(name))).toEqual(expected));

  it.each(['Texas', 'Ohio', 'Cook County', 'Los Angeles County'])('%s is not a scope question (a same-named county elsewhere is another place)', async (name) => {
    expect((await read(name)).status).toBe('not_scope');
  });

  it.each([
    ['the state of New York', {}, 'state', '36'],
    ['New York State', {}, 'state', '36'],
    ['New York County', {}, 'county', '36061'],
    ['New York', { level: 'state' }, 'state', '36'],
    ['New York', { level: 'county' }, 'county', '36061'],
    ['New York', { type: 'state' }, 'state', '36'],
  ])('%s %o is settled as the %s', async (name, hints, grain, fips) => {
    const r = await read(name, hints);
    expect(r.status).toBe('settled');
    if (r.status !== 'settled') return;
    expect([r.chosen.grain, r.chosen.fips, r.by.grain]).toEqual([grain, fips, grain]);
    expect(r.alternatives.length).toBe(1);
  });

  it('"New York City" asks for a city the registry does not hold: reported with what it has, never the state or county', async () => {
    const r = await read('New York City');
    expect(r).toMatchObject({ status: 'grain_missing', asked: 'place', words: 'City' });
    if (r.status === 'grain_missing') expect(r.available.map((c) => c.grain)).toEqual(['state', 'county']);
  });

  it('reads grain words and enclosing states off a name', () => {
    expect(coreName('New York County, New York')).toEqual({ core: 'new york', grain: 'county', words: 'County' });
    expect(coreName('the state of New York')).toMatchObject({ core: 'new york', grain: 'state' });
    expect(coreName('Washington (state)')).toMatchObject({ core: 'washington', grain: 'state' });
    expect(coreName('Ohio')).toEqual({ core: 'ohio' });
    expect([grainOfWord('county'), grainOfWord('city'), grainOfWord('states'), grainOfWord('metro')]).toEqual(['county', 'place', 'state', undefined]);
  });
});
