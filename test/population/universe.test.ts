// The universe a measure counts (people, families, households) is part of candidate eligibility:
// a persons' poverty-rate question never reads the families' poverty percent (ACS DP03_0119PE).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 180_000 });
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { Assessment } from '../../src/plan/plan.ts';
import { targetsFor } from '../../src/population/choices.ts';
import { NATION } from '../../src/population/geo.ts';
import { checkUniverse, measureUniverse } from '../../src/population/universe.ts';
import { testServices } from '../ask/services.ts';

/** The catalog's own titles of the DP03 poverty lines (the generated measures file). */
let entries: Array<{ identifier: string; displayName: string }> | undefined;
function title(id: string): string {
  entries ??= (JSON.parse(readFileSync('ard-okf/generated/census-acs.variables.measures.json', 'utf8')) as { entries: Array<{ identifier: string; displayName: string }> }).entries;
  return entries.find((e) => e.identifier.endsWith(`:acs5-2019-profile:${id}`))!.displayName;
}

describe('measure universes', () => {
  it('read from the measure\'s own label, not the concept heading its siblings share', () => {
    expect(title('DP03_0119PE')).toMatch(/FAMILIES AND PEOPLE/);
    expect(measureUniverse(title('DP03_0119PE'))).toBe('families');
    expect(measureUniverse(title('DP03_0128PE'))).toBe('people');
    expect(measureUniverse('Poverty rate, all ages (SAIPE)')).toBeNull();
    expect(measureUniverse('B19013_001E: Median household income in the past 12 months')).toBe('households');
  });

  it('families never stand for an unnamed universe; a named universe must match', () => {
    expect(checkUniverse('poverty rate', title('DP03_0119PE'))).toEqual({ ok: false, asked: null, measure: 'families' });
    expect(checkUniverse('poverty rate', title('DP03_0128PE'))).toEqual({ ok: true });
    expect(checkUniverse('family poverty rate', title('DP03_0119PE'))).toEqual({ ok: true });
    expect(checkUniverse('share of people in poverty', title('DP03_0119PE'))).toEqual({ ok: false, asked: 'people', measure: 'families' });
    // "median income" names no universe: a households measure stays eligible
    expect(checkUniverse('median income', 'Median household income')).toEqual({ ok: true });
    expect(checkUniverse('median income of people', 'Median household income')).toEqual({ ok: false, asked: 'people', measure: 'households' });
  });

  it('an ineligible candidate is a typed boundary naming the universe, not a target', () => {
    const op = { key: 'census-acs/acs-all-counties', publisherId: 'census-acs', operationId: 'acs-all-counties', kind: 'population_scan', accepts: [], grain: 'one county', complete: true, coverageOf: '', title: '' } as unknown as NonNullable<Assessment['operation']>;
    const cand = (id: string): Assessment => ({ candidateKey: `census-acs/acs5-2019-profile/${id}`, kind: 'measure', publisherId: 'census-acs', title: title(id), discoveryRank: 1, verdict: 'exact', reason: '', operation: op, complete: true } as Assessment);
    const t = { attribute: 'poverty rate', grain: 'county' as const, scope: NATION, period: { year: 2019, latest: false, text: '2019' }, today: '2026-12-01' };
    const { targets, boundaries } = targetsFor([cand('DP03_0119PE'), cand('DP03_0128PE')], t);
    expect(targets.map((x) => x.binding.recordMeasure)).not.toContainEqual(expect.stringContaining('DP03_0119PE'));
    expect(targets.some((x) => x.binding.recordMeasure.includes('DP03_0128PE'))).toBe(true);
    expect(boundaries).toEqual([expect.objectContaining({ boundary: 'no_access_path', code: 'universe_mismatch', params: expect.objectContaining({ universe: 'families', measures: ['census-acs/acs5-2019-profile/DP03_0119PE'] }) })]);
    // asked for families, the families measure is the one read
    const fam = targetsFor([cand('DP03_0119PE'), cand('DP03_0128PE')], { ...t, attribute: 'family poverty rate' });
    expect(fam.targets.every((x) => x.binding.recordMeasure.includes('DP03_0119PE'))).toBe(true);
    expect(fam.boundaries[0]).toMatchObject({ code: 'universe_mismatch', params: { universe: 'people', asked: 'families' } });
  });
});

describe('end to end (offline default)', () => {
  let services: AskServices;
  beforeAll(async () => { services = await testServices(); }, 120_000);

  it('"Which county has the highest poverty rate?" reads no families measure', async () => {
    const r = await ask(services, { question: 'Which county has the highest poverty rate?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    expect(r.attempts.map((a) => a.measure ?? '')).not.toContainEqual(expect.stringMatching(/DP03_0119PE/));
  });

  it('"the highest family poverty rate" reads the families measure only', async () => {
    const r = await ask(services, { question: 'Which county has the highest family poverty rate?' });
    const measures = r.attempts.map((a) => a.measure ?? '').filter((m) => /DP03_01/.test(m));
    expect(measures.length).toBeGreaterThan(0);
    expect(measures.every((m) => /DP03_0119PE/.test(m))).toBe(true);
  });
});
