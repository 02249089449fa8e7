// The six computations over real populations (the offline snapshot), each expected value parsed
// from the recorded publisher body in the test itself.
import { describe, expect, it } from 'vitest';
import { NATION, scopeFromText } from '../../src/population/geo.ts';
import { rank } from '../../src/population/compute/ranking.ts';
import { aggregate } from '../../src/population/compute/aggregate.ts';
import { subset } from '../../src/population/compute/subset.ts';
import { correlate } from '../../src/population/compute/correlation.ts';
import { ratio } from '../../src/population/compute/ratio.ts';
import { POPULATION_PROVIDERS } from '../../src/connectors/population/providers.ts';
import { CASSETTES, censusRows, csvRows, isSentinel, midranks, pearson, population } from './helpers.ts';

const y2018 = { year: 2018, latest: false, text: '2018' };
const y2021 = { year: 2021, latest: false, text: '2021' };
const latest = { year: null, latest: true, text: 'latest' };
const TX = scopeFromText('Texas')!;

const states = (g: string, v: string) => censusRows(CASSETTES.states2018(g)).filter((r) => r.state !== '11' && r.state !== '72').map((r) => ({ fips: r.state!, name: r.NAME!, value: Number(r[v]) }));
const counties2021 = () => censusRows(CASSETTES.counties2021).filter((r) => r.state !== '72');
const places = () => csvRows('cdc-places', CASSETTES.places2022);

function ok<T>(c: { ok: true; value: T } | { ok: false; refusal: unknown }): T {
  if (!c.ok) throw new Error(`refused: ${JSON.stringify(c.refusal)}`);
  return c.value;
}

describe('ranking', () => {
  it('the ten states with the largest population in 2018 (ACS 1-year B01001_001E), DC and Puerto Rico excluded and disclosed', async () => {
    const read = await population('census-acs', 'acs-all-states', { measureKey: 'census-acs/acs5-2009/B01001_001E', grain: 'state', scope: NATION, period: y2018 });
    const expected = states('B01001', 'B01001_001E').sort((a, b) => b.value - a.value).slice(0, 10);
    const r = ok(rank(read, { order: 'desc', limit: 10 }));
    expect(r.entries.map((e) => [e.rank, e.row.key, e.row.value])).toEqual(expected.map((s, i) => [i + 1, s.fips, s.value]));
    expect(read.completeness).toMatchObject({ read: 52, members: 50, usable: 50, verdict: 'complete' });
    expect(read.period.label).toBe('ACS 1-year 2018');
    const eq = read.notes.find((n) => n.code === 'state_equivalents_excluded');
    expect(eq && 'rows' in eq ? eq.rows.map((x) => x.key).sort() : []).toEqual(['11', '72']);
  });

  it('the state with the highest median household income in 2018 (DC, higher, is not a state and is said)', async () => {
    const read = await population('census-acs', 'acs-all-states', { measureKey: 'census-acs/acs5-2009/B19013_001E', grain: 'state', scope: NATION, period: y2018 });
    const top = states('B19013', 'B19013_001E').sort((a, b) => b.value - a.value)[0]!;
    const r = ok(rank(read, { order: 'desc', limit: 1 }));
    expect(r.entries.map((e) => [e.row.label, e.row.value])).toEqual([[top.name, top.value]]);
    const dc = censusRows(CASSETTES.states2018('B19013')).find((x) => x.state === '11')!;
    expect(Number(dc.B19013_001E)).toBeGreaterThan(top.value);
    const eq = read.notes.find((n) => n.code === 'state_equivalents_excluded');
    expect(eq && 'rows' in eq ? eq.rows.find((x) => x.key === '11')?.value : null).toBe(Number(dc.B19013_001E));
    // DC counted among states when the question includes it
    const withDc = await population('census-acs', 'acs-all-states', { measureKey: 'census-acs/acs5-2009/B19013_001E', grain: 'state', scope: NATION, period: y2018, includeStateEquivalents: true });
    expect(ok(rank(withDc, { order: 'desc', limit: 1 })).entries[0]!.row.key).toBe('11');
  });

  it('the county with the highest obesity prevalence (PLACES 2022, crude), over every county', async () => {
    const read = await population('cdc-places', 'all-counties-measure', { measureKey: 'cdc-places/measureid/OBESITY', grain: 'county', scope: NATION, period: latest });
    const rows = places().filter((r) => r.OBESITY_CrudePrev !== '').map((r) => ({ fips: r.CountyFIPS!, v: Number(r.OBESITY_CrudePrev) }));
    const max = Math.max(...rows.map((r) => r.v));
    const r = ok(rank(read, { order: 'desc', limit: 1 }));
    expect(r.entries.map((e) => e.row.key).sort()).toEqual(rows.filter((x) => x.v === max).map((x) => x.fips).sort());
    expect(read.operation).toBe('all-counties-wide');
    expect(read.period.label).toBe('PLACES 2022 release');
    expect(read.completeness).toMatchObject({ read: rows.length + places().filter((x) => x.OBESITY_CrudePrev === '').length, verdict: 'complete' });
  });

  it('the five Texas counties with the most people (ACS 5-year 2021), the scope filtering by state FIPS', async () => {
    const read = await population('census-acs', 'acs-all-counties', { measureKey: 'census-acs/acs5-2009/B01003_001E', grain: 'county', scope: TX, period: y2021 });
    const expected = counties2021().filter((r) => r.state === '48').map((r) => ({ fips: `${r.state}${r.county}`, v: Number(r.B01003_001E) })).sort((a, b) => b.v - a.v).slice(0, 5);
    expect(ok(rank(read, { order: 'desc', limit: 5 })).entries.map((e) => [e.row.key, e.row.value])).toEqual(expected.map((x) => [x.fips, x.v]));
    expect(read.completeness.members).toBe(counties2021().filter((r) => r.state === '48').length);
    expect(read.completeness.excluded.find((e) => e.code === 'outside_scope')?.count).toBe(censusRows(CASSETTES.counties2021).length - read.completeness.members);
  });

  it('the five California counties with the highest median household income (2021); the suppressed Loving County value is never ranked', async () => {
    const ca = await population('census-acs', 'acs-all-counties', { measureKey: 'census-acs/acs5-2009/B19013_001E', grain: 'county', scope: scopeFromText('California')!, period: y2021 });
    const expected = counties2021().filter((r) => r.state === '06').map((r) => ({ fips: `06${r.county}`, v: Number(r.B19013_001E) })).sort((a, b) => b.v - a.v).slice(0, 5);
    expect(ok(rank(ca, { order: 'desc', limit: 5 })).entries.map((e) => [e.row.key, e.row.value])).toEqual(expected.map((x) => [x.fips, x.v]));
    const us = await population('census-acs', 'acs-all-counties', { measureKey: 'census-acs/acs5-2009/B19013_001E', grain: 'county', scope: NATION, period: y2021 });
    const sentinel = counties2021().filter((r) => isSentinel(Number(r.B19013_001E)));
    expect(sentinel.map((r) => `${r.state}${r.county}`)).toEqual(['48301']);
    expect(us.usable.some((r) => r.key === '48301')).toBe(false);
    expect(us.completeness.excluded.find((e) => e.code === 'value_suppressed')).toMatchObject({ count: 1, examples: [{ key: '48301', asPublished: '-666666666' }] });
    const bottom = ok(rank(us, { order: 'asc', limit: 1 })).entries[0]!;
    expect(bottom.row.value).toBe(Math.min(...counties2021().map((r) => Number(r.B19013_001E)).filter((v) => !isSentinel(v))));
  });

  it('ties share a rank and a list cut inside a tie extends to every tied member', async () => {
    const read = await population('cdc-places', 'all-counties-measure', { measureKey: 'cdc-places/measureid/OBESITY', grain: 'county', scope: NATION, period: latest });
    const sorted = places().filter((r) => r.OBESITY_CrudePrev !== '').map((r) => Number(r.OBESITY_CrudePrev)).sort((a, b) => b - a);
    const n = [...Array(60).keys()].find((k) => k >= 2 && sorted[k - 1] === sorted[k])!;
    const cut = sorted[n - 1]!;
    const r = ok(rank(read, { order: 'desc', limit: n }));
    expect(r.entries.length).toBe(sorted.filter((v) => v >= cut).length);
    expect(r.extendedForTies).toBeGreaterThan(0);
    const firstTied = sorted.indexOf(cut) + 1;
    expect(r.entries.filter((e) => e.row.value === cut).every((e) => e.rank === firstTied && e.tied)).toBe(true);
  });
});

describe('aggregate', () => {
  it('the number of private foundations in DC (FOUNDATION 02, 03, 04 in the DC extract)', async () => {
    const read = await population('irs-eo-bmf', 'eo-bmf-state', { measureKey: 'members', members: 'private foundations', grain: 'organization', scope: scopeFromText('DC')!, period: latest });
    const expected = csvRows('irs-eo-bmf', CASSETTES.bmf('dc')).filter((r) => ['02', '03', '04'].includes(r.FOUNDATION!)).length;
    expect(ok(aggregate(read, 'count'))).toMatchObject({ op: 'count', value: expected, n: expected });
    expect(read.completeness.excluded).toEqual([expect.objectContaining({ code: 'not_in_class', count: csvRows('irs-eo-bmf', CASSETTES.bmf('dc')).length - expected })]);
  });

  it('sum and mean of Rhode Island organizations\' revenue, non-filers excluded and counted', async () => {
    const read = await population('irs-eo-bmf', 'eo-bmf-state', { measureKey: 'irs-eo-bmf/bmf/REVENUE_AMT', members: 'organizations', grain: 'organization', scope: scopeFromText('Rhode Island')!, period: latest });
    const rows = csvRows('irs-eo-bmf', CASSETTES.bmf('ri'));
    const filed = rows.filter((r) => r.REVENUE_AMT !== '').map((r) => Number(r.REVENUE_AMT));
    const sum = filed.reduce((a, b) => a + b, 0);
    expect(ok(aggregate(read, 'sum'))).toMatchObject({ value: sum, n: filed.length, unit: 'USD' });
    expect(ok(aggregate(read, 'mean')).value).toBeCloseTo(sum / filed.length, 6);
    expect(read.completeness.excluded).toEqual([expect.objectContaining({ code: 'value_missing', count: rows.length - filed.length })]);
  });

  it('"in the United States" over the per-state extracts is a refusal naming the coverage, not a count of the extracts at hand', () => {
    const b = POPULATION_PROVIDERS.get('irs-eo-bmf')!.bind({ measureKey: 'members', members: 'private foundations', grain: 'organization', scope: NATION, period: latest, today: '2026-12-01' }, 'eo-bmf-state');
    expect(b).toEqual({ code: 'scope_not_covered', asked: 'United States', covers: 'one state per extract (eo_{state}.csv)', operation: 'irs-eo-bmf/eo-bmf-state' });
  });

  it('a partial population (the DERIVED SEC frames of two filers) answers no aggregate and no ranking', async () => {
    const read = await population('sec-edgar', 'frames', { measureKey: 'sec-edgar/us-gaap/Revenues', measureUnit: 'USD', grain: 'company', scope: NATION, period: { year: 2023, latest: false, text: '2023' } });
    expect(read.completeness.verdict).toBe('partial');
    expect(read.completeness.reasons.map((r) => r.code)).toEqual(['derived_sample', 'membership_unverified']);
    for (const c of [aggregate(read, 'sum'), rank(read, { order: 'desc', limit: 1 })]) expect(c).toMatchObject({ ok: false, refusal: { code: 'partial_population', verdict: 'partial', usable: 2 } });
  });
});

describe('filtered subset', () => {
  it('every Rhode Island organization with revenue over $100 million (exhaustive: all matches, count derived)', async () => {
    const read = await population('irs-eo-bmf', 'eo-bmf-state', { measureKey: 'irs-eo-bmf/bmf/REVENUE_AMT', members: 'organizations', grain: 'organization', scope: scopeFromText('RI')!, period: latest });
    const expected = csvRows('irs-eo-bmf', CASSETTES.bmf('ri')).filter((r) => r.REVENUE_AMT !== '' && Number(r.REVENUE_AMT) > 100e6).map((r) => [r.EIN, Number(r.REVENUE_AMT)] as const).sort((a, b) => b[1] - a[1]);
    const s = ok(subset(read, { op: '>', value: 100e6, unit: 'USD', text: 'over $100 million' }, 'exhaustive'));
    expect(s.matches.map((m) => [m.key, m.value])).toEqual(expected);
    expect(s).toMatchObject({ complete: true, tested: read.usable.length });
  });

  it('some DC organizations with revenue over $1 billion (existential: stops when it has enough, never complete)', async () => {
    const read = await population('irs-eo-bmf', 'eo-bmf-state', { measureKey: 'irs-eo-bmf/bmf/REVENUE_AMT', members: 'organizations', grain: 'organization', scope: scopeFromText('DC')!, period: latest });
    const all = csvRows('irs-eo-bmf', CASSETTES.bmf('dc')).filter((r) => r.REVENUE_AMT !== '' && Number(r.REVENUE_AMT) > 1e9);
    expect(all.length).toBeGreaterThan(3);
    const s = ok(subset(read, { op: '>', value: 1e9, unit: 'USD', text: 'over $1 billion' }, 'existential', 3));
    expect(s.matches.map((m) => m.key)).toEqual(all.slice(0, 3).map((r) => r.EIN));
    expect(s.complete).toBe(false);
    expect(s.tested).toBeLessThan(read.usable.length);
  });

  it('a threshold in percent does not test a dollar measure', async () => {
    const read = await population('irs-eo-bmf', 'eo-bmf-state', { measureKey: 'irs-eo-bmf/bmf/REVENUE_AMT', members: 'organizations', grain: 'organization', scope: scopeFromText('RI')!, period: latest });
    expect(subset(read, { op: '>', value: 20, unit: '%', text: 'over 20%' }, 'exhaustive')).toMatchObject({ ok: false, refusal: { code: 'threshold_unit_mismatch' } });
  });
});

describe('correlation', () => {
  const pairsOf = (x: Map<string, number>, y: Map<string, number>) => [...x].filter(([k]) => y.has(k)).map(([k, v]) => [v, y.get(k)!] as const);

  it('county median household income (ACS 5-year 2021) with obesity prevalence (PLACES 2022): r, ρ and n', async () => {
    const inc = await population('census-acs', 'acs-all-counties', { measureKey: 'census-acs/acs5-2009/B19013_001E', grain: 'county', scope: NATION, period: y2021 });
    const ob = await population('cdc-places', 'all-counties-measure', { measureKey: 'cdc-places/measureid/OBESITY', grain: 'county', scope: NATION, period: latest });
    const x = new Map(counties2021().filter((r) => !isSentinel(Number(r.B19013_001E))).map((r) => [`${r.state}${r.county}`, Number(r.B19013_001E)]));
    const y = new Map(places().filter((r) => r.OBESITY_CrudePrev !== '').map((r) => [r.CountyFIPS!, Number(r.OBESITY_CrudePrev)]));
    const pairs = pairsOf(x, y);
    const c = ok(correlate(inc, ob));
    expect(c.n).toBe(pairs.length);
    expect(c.pearson).toBeCloseTo(pearson(pairs.map((p) => p[0]), pairs.map((p) => p[1])), 10);
    expect(c.spearman).toBeCloseTo(pearson(midranks(pairs.map((p) => p[0])), midranks(pairs.map((p) => p[1]))), 10);
    expect(c.pearson).toBeLessThan(0);
    expect(c.caveats).toEqual(expect.arrayContaining(['ecological_fallacy', 'spatial_autocorrelation', 'periods_differ']));
    expect(c.onlyX + c.excludedInY).toBe([...x.keys()].filter((k) => !y.has(k)).length);
  });

  it('county poverty (SVI 2018) with diabetes prevalence (PLACES 2022)', async () => {
    const pov = await population('cdc-svi', 'county-poverty-all', { measureKey: 'cdc-svi/svi2018/EP_POV', grain: 'county', scope: NATION, period: latest });
    const dia = await population('cdc-places', 'all-counties-measure', { measureKey: 'cdc-places/measureid/DIABETES', grain: 'county', scope: NATION, period: latest });
    const x = new Map(csvRows('cdc-svi', CASSETTES.svi2018).filter((r) => Number(r.EP_POV) !== -999).map((r) => [r.FIPS!, Number(r.EP_POV)]));
    const y = new Map(places().filter((r) => r.DIABETES_CrudePrev !== '').map((r) => [r.CountyFIPS!, Number(r.DIABETES_CrudePrev)]));
    const pairs = pairsOf(x, y);
    const c = ok(correlate(pov, dia));
    expect(c.n).toBe(pairs.length);
    expect(c.pearson).toBeCloseTo(pearson(pairs.map((p) => p[0]), pairs.map((p) => p[1])), 10);
    expect(c.pearson).toBeGreaterThan(0);
  });

  it('refuses mismatched grains, too few aligned rows, a suppressed series and a partial population', async () => {
    const stateIncome = await population('census-acs', 'acs-all-states', { measureKey: 'census-acs/acs5-2009/B19013_001E', grain: 'state', scope: NATION, period: y2018 });
    const ob = await population('cdc-places', 'all-counties-measure', { measureKey: 'cdc-places/measureid/OBESITY', grain: 'county', scope: NATION, period: latest });
    expect(correlate(stateIncome, ob)).toMatchObject({ ok: false, refusal: { code: 'grain_mismatch', grains: ['state', 'county'] } });

    const dc = scopeFromText('District of Columbia')!;
    const dcIncome = await population('census-acs', 'acs-all-counties', { measureKey: 'census-acs/acs5-2009/B19013_001E', grain: 'county', scope: dc, period: y2021 });
    const dcObesity = await population('cdc-places', 'all-counties-measure', { measureKey: 'cdc-places/measureid/OBESITY', grain: 'county', scope: dc, period: latest });
    expect(correlate(dcIncome, dcObesity)).toMatchObject({ ok: false, refusal: { code: 'too_few_aligned', aligned: 1, minimum: 3 } });

    // S1701_C02_038E is "(X)" (-888888888, not applicable) for every state in the 2018 table
    const na = await population('census-acs', 'acs-all-states', { measureKey: 'census-acs/acs1-2018-subject/S1701_C02_038E', grain: 'state', scope: NATION, period: y2018 });
    expect(censusRows(CASSETTES.states2018('S1701')).every((r) => r.S1701_C02_038E === '-888888888')).toBe(true);
    expect(correlate(na, stateIncome)).toMatchObject({ ok: false, refusal: { code: 'suppressed_series', usable: 0, members: 50 } });

    const frames = await population('sec-edgar', 'frames', { measureKey: 'sec-edgar/us-gaap/Revenues', measureUnit: 'USD', grain: 'company', scope: NATION, period: { year: 2023, latest: false, text: '2023' } });
    const ni = await population('sec-edgar', 'frames', { measureKey: 'sec-edgar/us-gaap/NetIncomeLoss', measureUnit: 'USD', grain: 'company', scope: NATION, period: { year: 2023, latest: false, text: '2023' } });
    expect(correlate(frames, ni)).toMatchObject({ ok: false, refusal: { code: 'partial_population' } });
  });
});

describe('ratio', () => {
  it('private foundations per 100,000 DC residents: two components read independently, divided in code, the period difference warned', async () => {
    const pf = await population('irs-eo-bmf', 'eo-bmf-state', { measureKey: 'members', members: 'private foundations', grain: 'organization', scope: scopeFromText('DC')!, period: latest });
    const pop = await population('census-acs', 'acs-all-states', { measureKey: 'census-acs/acs5-2009/B01001_001E', grain: 'state', scope: NATION, period: y2018, includeStateEquivalents: true });
    const n = ok(aggregate(pf, 'count')).value;
    const dcPop = pop.usable.find((r) => r.key === '11')!;
    const r = ok(ratio(
      { measure: 'count of private foundations', value: n, unit: 'count', period: { label: 'IRS EO BMF extract for DC', end: '2025-03-26' }, about: { grain: 'state', key: '11', label: 'District of Columbia' }, match: 'key', evidence: [] },
      { measure: 'census-acs/acs5-2009/B01001_001E', value: dcPop.value!, unit: 'count', period: { label: pop.period.label, end: pop.period.end! }, about: { grain: 'state', key: '11', label: 'District of Columbia' }, match: 'key', evidence: [] },
      100_000,
    ));
    const expectedPop = Number(censusRows(CASSETTES.states2018('B01001')).find((x) => x.state === '11')!.B01001_001E);
    const expectedCount = csvRows('irs-eo-bmf', CASSETTES.bmf('dc')).filter((x) => ['02', '03', '04'].includes(x.FOUNDATION!)).length;
    expect(r.value).toBeCloseTo((expectedCount / expectedPop) * 100_000, 10);
    expect(r.warnings).toEqual([{ code: 'periods_differ', numerator: 'IRS EO BMF extract for DC', denominator: 'ACS 1-year 2018', years: 7 }]);
  });

  it('refuses a zero denominator, a percentage denominator and components of different grain', () => {
    const c = (value: number, unit: string, grain = 'state') => ({ measure: 'm', value, unit, period: { label: 'p' }, about: { grain, key: '11', label: 'DC' }, match: 'key' as const, evidence: [] });
    expect(ratio(c(1, 'count'), c(0, 'count'))).toMatchObject({ ok: false, refusal: { code: 'zero_denominator' } });
    expect(ratio(c(1, 'USD'), c(5, '%'))).toMatchObject({ ok: false, refusal: { code: 'unit_mismatch' } });
    expect(ratio(c(1, 'USD'), c(5, 'count', 'county'))).toMatchObject({ ok: false, refusal: { code: 'grain_mismatch' } });
  });
});
