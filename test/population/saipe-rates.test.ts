// SAIPE state poverty (the Census time series), per-capita phrasing read from the question itself,
// and computations that do not add up. Expected values are computed here from the recorded bodies.
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 180_000 });
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import { aggregate } from '../../src/population/compute/aggregate.ts';
import { readFirst } from '../../src/population/read.ts';
import { POPULATION_PROVIDERS } from '../../src/connectors/population/providers.ts';
import { NATION } from '../../src/population/geo.ts';
import { computeRefusalText } from '../../src/population/wording.ts';
import { interpretOffline } from '../../src/understand/offline/interpret.ts';
import { testServices } from '../ask/services.ts';
import { CASSETTES, censusRows, csvRows, popContext, population } from './helpers.ts';

const SAIPE_2023 = 'saipe-states.timeseries_saipe_SAEPOVRTALL_PT_state-all_time-2023.wrapped.cassette.json';
const MEASURE = 'census-acs/saipe/SAEPOVRTALL_PT';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const keys = (r: AskResult) => (r.table?.rows ?? []).map((row) => row.find((c) => c.column === 'key')?.value);
const values = (r: AskResult) => (r.table?.rows ?? []).map((row) => row.find((c) => c.column === 'value')?.value);

describe('SAIPE state poverty (timeseries/poverty/saipe)', () => {
  it('ranks the states by the SAIPE 2023 poverty rate: DC excluded and disclosed, the estimate said to be model-based', async () => {
    const r = await ask(services, { question: 'Which five states had the highest poverty rate in 2023?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const rows = censusRows(SAIPE_2023);
    expect(rows).toHaveLength(51);
    const expected = rows.filter((x) => x.state !== '11').sort((a, b) => Number(b.SAEPOVRTALL_PT) - Number(a.SAEPOVRTALL_PT));
    // a cut inside a tie extends over it: compare the members at or above the fifth value
    const fifth = Number(expected[4]!.SAEPOVRTALL_PT);
    const top = expected.filter((x) => Number(x.SAEPOVRTALL_PT) >= fifth);
    expect(keys(r)).toEqual(top.map((x) => x.state));
    expect(values(r)).toEqual(top.map((x) => Number(x.SAEPOVRTALL_PT)));
    for (const f of r.figures) expect(['verified', 'derived']).toContain(f.grade);
    expect(r.populations![0]).toMatchObject({ operation: 'census-acs/saipe-states', read: 51, usable: 50, verdict: 'complete', period: 'SAIPE 2023' });
    const d = r.qualification!.disclosures.join(' ');
    expect(d).toMatch(/model-based/);
    expect(d).toMatch(/District of Columbia/);
    // credited to the program read, not to the ACS
    expect(r.text).toContain('according to the Census Bureau (SAIPE)');
    expect(r.text).not.toContain('(ACS)');
    expect(r.citations.some((c) => /timeseries\/poverty\/saipe\?get=NAME,SAEPOVRTALL_PT&for=state:\*&time=2023/.test(c.url ?? ""))).toBe(true);
  });

  it('"latest" over sources: the newer declared ACS vintage is tried first, and the answer from SAIPE 2023 says it was not read and why', async () => {
    const r = await ask(services, { question: 'Which states have the highest poverty rate?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    expect(r.populations![0]).toMatchObject({ operation: 'census-acs/saipe-states', period: 'SAIPE 2023' });
    const latest = r.qualification!.disclosures.find((d) => d.startsWith('"latest" read as SAIPE 2023'));
    expect(latest, r.qualification!.disclosures.join('\n')).toBeDefined();
    expect(latest).toMatch(/ACS 1-year 2024, the Census Bureau \(ACS\): not in the offline snapshot/);
    // the newer vintage was attempted before the older one answered (latest means latest), each attempt in the trace
    const acs = r.attempts.filter((a) => a.operation === 'acs-all-states');
    const saipe = r.attempts.find((a) => a.operation === 'saipe-states')!;
    expect(acs.length).toBeGreaterThan(0);
    expect(acs.every((a) => a.n < saipe.n && a.disposition === 'errored')).toBe(true);
  });

  it('a year after the newest the catalog declares is no population; the publisher\'s 204 for 2025 is no data, never a parse error', async () => {
    const p = POPULATION_PROVIDERS.get('census-acs')!;
    const b = p.bind({ measureKey: MEASURE, grain: 'state', scope: NATION, period: { year: 2025, latest: false, text: '2025' }, today: '2026-12-01' }, 'saipe-states');
    expect(b).toMatchObject({ code: 'no_period', asked: '2025' });
    // the recorded 204 itself, read through a binding made by hand for that year
    const ask2025 = { measureKey: MEASURE, grain: 'state' as const, scope: NATION, period: { year: 2023, latest: false, text: '2023' }, today: '2026-12-01' };
    const [b2023] = p.bind(ask2025, 'saipe-states') as Exclude<ReturnType<typeof p.bind>, { code: string }>;
    const forced = { ...b2023!, args: { ...b2023!.args, year: '2025' }, recordMeasure: 'saipe-2025/SAEPOVRTALL_PT' };
    const out = await readFirst(await popContext(), p, [forced], ask2025);
    expect(out.read).toBeUndefined();
    expect(out.failures[0]!.failure).toMatchObject({ code: 'no_data' });
  });

  it('a mean of the states\' rates is disclosed as unweighted; their sum is refused as not additive', async () => {
    const read = await population('census-acs', 'saipe-states', { measureKey: MEASURE, grain: 'state', scope: NATION, period: { year: 2023, latest: false, text: '2023' } });
    const vals = censusRows(SAIPE_2023).filter((x) => x.state !== '11').map((x) => Number(x.SAEPOVRTALL_PT));
    const mean = aggregate(read, 'mean');
    expect(mean.ok && mean.value.value).toBeCloseTo(vals.reduce((a, b) => a + b, 0) / vals.length, 10);
    expect(mean.ok && mean.value.unweighted).toBe('rate');
    const sum = aggregate(read, 'sum');
    expect(sum).toMatchObject({ ok: false, refusal: { code: 'not_additive', kind: 'rate' } });
    // worded once, from the code and its parameters
    if (!sum.ok) expect(computeRefusalText(sum.refusal)).toMatch(/a rate: the members' own rates do not add up/);
  });
});

describe('per-capita phrasing, read from the question', () => {
  it('the offline interpreter reads "per 100,000 residents" as a ratio of the count to the total population', () => {
    const u = interpretOffline('How many private foundations per 100,000 residents are there in DC?');
    expect(u.status).toBe('understood');
    if (u.status !== 'understood') return;
    expect(u.intent.shape).toBe('ratio');
    expect(u.intent.attributes).toEqual(['number of private foundations', 'total population']);
    expect(u.intent.attribute).toMatch(/per 100,000 residents/);
    const c = interpretOffline('What is the number of nonprofits per capita in Rhode Island?');
    expect(c.status === 'understood' && c.intent.shape).toBe('ratio');
    expect(c.status === 'understood' && c.intent.attributes).toEqual(['number of nonprofits', 'total population']);
  });

  it('answers the per-100,000 question as asked: the figure derived from the two components read independently', async () => {
    const r = await ask(services, { question: 'How many private foundations per 100,000 residents were there in DC in 2018?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const n = csvRows('irs-eo-bmf', CASSETTES.bmf('dc')).filter((x) => ['02', '03', '04'].includes(x.FOUNDATION!)).length;
    const dcPop = Number(censusRows(CASSETTES.states2018('B01001')).find((x) => x.state === '11')!.B01001_001E);
    const fig = r.figures.find((f) => f.grade === 'derived' && Math.abs(f.value - Number(((n / dcPop) * 100_000).toFixed(2))) < 1e-9);
    expect(fig, JSON.stringify(r.figures)).toBeDefined();
    expect(fig!.arithmetic).toMatch(/× 100000/);
  });
});

describe('a share of a class among members', () => {
  it('"what share of Rhode Island nonprofits are 501(c)(3) organizations": the class code is part of the members counted, not an entity', async () => {
    const u = interpretOffline('What share of Rhode Island nonprofits are 501(c)(3) organizations?');
    expect(u.status === 'understood' && u.intent.attributes).toEqual(['number of 501(c)(3) organizations', 'number of nonprofits']);
    expect(u.status === 'understood' && u.intent.entity).toBe('Rhode Island');
    const r = await ask(services, { question: 'What share of Rhode Island nonprofits are 501(c)(3) organizations?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const all = csvRows('irs-eo-bmf', CASSETTES.bmf('ri'));
    const share = Number(((all.filter((x) => x.SUBSECTION === '03').length / all.length) * 100).toFixed(2));
    expect(r.figures.find((f) => f.grade === 'derived' && f.value === share), JSON.stringify(r.figures)).toBeDefined();
    expect(r.text).toContain(`${share}%`);
  });
});

describe('the kind of quantity asked decides which measures a ranking can use', () => {
  it('"the largest number of people below the poverty level" is never ranked by a poverty percentage', async () => {
    const r = await ask(services, { question: 'List the five states with the largest number of people below the poverty level in 2018.' });
    // the percent measures discovery ranks first are skipped for their unit, as one typed boundary
    expect(r.figures.filter((f) => f.unit === '%')).toEqual([]);
    if (r.status === 'answered') {
      expect(r.table!.columns.find((c) => c.id === 'value')?.unit).not.toBe('%');
    } else {
      const codes = (r.refusal!.reached ?? []).flatMap((s) => s.boundaries.map((b) => b.code));
      expect(codes).toContain('quantity_mismatch');
    }
  });
});
