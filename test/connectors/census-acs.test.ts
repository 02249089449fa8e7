import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.ts';
import { callContext } from '../../src/http/context.ts';
import { PublisherError } from '../../src/http/errors.ts';
import { connectorRegistry, runOperation } from '../../src/connectors/registry.ts';
import { parseCensusNumber } from '../../src/connectors/census-acs.ts';
import { entities, fails, observations, offline, run } from './harness.ts';

const cell = (r: Awaited<ReturnType<typeof run>>, variable: string, fips: string) =>
  observations(r).find((o) => o.measure.endsWith(`/${variable}`) && o.geography?.fips === fips);

describe('Census ACS connector (real samples)', () => {
  it('county population, values arriving as strings, geography from the trailing FIPS columns', async () => {
    const r = await run('census-acs', 'acs-county', { year: '2021', product: 'acs5', variables: 'B01001_001E', state: '17', county: '*' });
    expect(observations(r)).toHaveLength(102);
    expect(cell(r, 'B01001_001E', '17001')).toMatchObject({
      value: 65878, asPublished: '65878', unit: 'count', status: 'reported', measure: 'acs5-2021/B01001_001E',
      geography: { level: 'county', fips: '17001', name: 'Adams County, Illinois' },
      period: { basis: 'survey', start: '2017-01-01', end: '2021-12-31', label: 'ACS 5-year 2017–2021' },
    });
    expect(r.notes.join(' ')).toContain('ACS 5-year 2017–2021');
  });

  it('percent vs count, with margins of error (S1701, Illinois 2018: 12.1 % ± 0.3)', async () => {
    const r = await run('census-acs', 'acs-all-states', { year: '2018', product: 'acs1/subject', variables: 'group(S1701)' });
    expect(cell(r, 'S1701_C03_001E', '17')).toMatchObject({ value: 12.1, unit: '%', marginOfError: 0.3, geography: { level: 'state', name: 'Illinois' } });
    expect(cell(r, 'S1701_C02_001E', '17')).toMatchObject({ unit: 'count' });
    expect(r.responses[0]!.origin?.derived).toBe(true);
  });

  it('jam values become markers with reasons, never numbers', async () => {
    const r = await run('census-acs', 'acs-all-states', { year: '2018', product: 'acs1/subject', variables: 'group(S1701)' });
    const obs = observations(r);
    const wy = cell(r, 'S1701_C03_049E', '56')!;
    expect(wy).toMatchObject({ value: null, status: 'not_computable', asPublished: '-666666666.0', attributes: { estimateAnnotation: '-', moeStatus: 'not_computable', moeAnnotation: '**' } });
    expect(wy.marginOfError).toBeNull();
    const na = obs.filter((o) => o.status === 'not_applicable');
    expect(na.length).toBeGreaterThan(100);
    expect(na.every((o) => o.value === null && o.attributes.estimateAnnotation === '(X)')).toBe(true);
    expect(obs.filter((o) => o.status === 'too_few_cases').every((o) => o.attributes.estimateAnnotation === 'N')).toBe(true);
    // no sentinel survives as a number anywhere
    expect(obs.some((o) => o.value !== null && o.value <= -222222222)).toBe(false);
    const pop = await run('census-acs', 'acs-all-states', { year: '2018', product: 'acs1', variables: 'group(B01001)' });
    expect(cell(pop, 'B01001_001E', '17')).toMatchObject({ value: 12741080, marginOfError: null, attributes: { moeStatus: 'controlled', moeAnnotation: '*****' } });
  });

  it('sentinels are matched numerically, int or float spelling', () => {
    for (const s of ['-888888888', '-888888888.0', '-999999999', '-666666666.0', '-222222222', '-333333333', '-555555555']) {
      expect(parseCensusNumber(s).value, s).toBeNull();
    }
    expect(parseCensusNumber('-5.2')).toEqual({ value: -5.2, status: 'reported' });
    expect(parseCensusNumber('null').status).toBe('missing');
  });

  it('dollars: median household income in USD (B19013 DC 85203; DP03_0062E Cook County 80579)', async () => {
    const b = await run('census-acs', 'acs-all-states', { year: '2018', product: 'acs1', variables: 'group(B19013)' });
    expect(cell(b, 'B19013_001E', '11')).toMatchObject({ value: 85203, unit: 'USD', currency: 'USD', marginOfError: 3414 });
    const dp = await run('census-acs', 'acs-all-counties', { year: '2023', product: 'acs1/profile', variables: 'DP03_0062E' });
    expect(observations(dp)).toHaveLength(854);
    expect(cell(dp, 'DP03_0062E', '17031')).toMatchObject({ value: 80579, unit: 'USD', period: { label: 'ACS 1-year 2023' } });
    expect(dp.notes.join(' ')).toMatch(/65,000\+ people: 854 rows/);
  });

  it('ACS 1-year 2020 (never released) is not found, with the reason', async () => {
    const e = await fails('census-acs', 'acs-all-counties', { year: '2020', product: 'acs1/profile', variables: 'DP03_0062E' });
    expect(e.kind).toBe('not_found');
    expect(e.status).toBe(404);
    expect(e.message).toMatch(/not released.*5-year/);
  });

  it('variables metadata: labels without trailing colons, units from labels', async () => {
    const r = await run('census-acs', 'acs-variables', { year: '2019', product: 'acs1/profile', variable: 'DP03_0062' });
    const e = entities(r).find((x) => x.keys.census_variable === 'DP03_0062E')!;
    expect(e.label).toMatch(/Median household income \(dollars\)$/);
    expect(e.attributes.unit).toBe('USD');
    expect(entities(r).find((x) => x.keys.census_variable === 'DP03_0062PE')?.attributes.unit).toBe('%');
  });
});

describe('Census ACS connector (failure kinds, driven by a fault-injecting fetch)', () => {
  // These responses are SYNTHETIC (written in this test), not publisher data.
  async function live(status: number, body: string, contentType: string, env: Record<string, string> = {}) {
    const fetchImpl = (async () => new Response(status === 204 ? null : body, { status, headers: { 'content-type': contentType } })) as typeof fetch;
    const base = await offline();
    const http = new HttpClient({ mode: 'live', fetch: fetchImpl, credentials: env, retry: { maxAttempts: 1 } });
    return { ...base, ...callContext({ timeoutMs: 10_000 }), http };
  }

  it('a keyless request answered with an HTML page is operationally blocked, naming the key', async () => {
    const ctx = await live(200, '<html><head><title>Invalid Key</title></head><body>A valid key must be included</body></html>', 'text/html');
    const e = await runOperation(connectorRegistry(), 'census-acs', 'acs-state', { year: '2021', product: 'acs5', variables: 'B01001_001E', state: '17' }, ctx).catch((x) => x);
    expect(e).toBeInstanceOf(PublisherError);
    expect(e.kind).toBe('blocked');
    expect(e.message).toContain('CENSUS_API_KEY');
  });

  it('with a key configured the same page is a malformed response, and the key is not in the message', async () => {
    const ctx = await live(200, '<html><head><title>Oops</title></head></html>', 'text/html', { CENSUS_API_KEY: 'sekrit-key-123' });
    const e = await runOperation(connectorRegistry(), 'census-acs', 'acs-state', { year: '2021', product: 'acs5', variables: 'B01001_001E', state: '17' }, ctx).catch((x) => x);
    expect(e.kind).toBe('malformed');
    expect(e.message).not.toContain('sekrit-key-123');
  });

  it('acs1 for a small county: not published by the 1-year survey, pointing to acs5', async () => {
    const ctx = await live(204, '', 'application/json');
    const e = await runOperation(connectorRegistry(), 'census-acs', 'acs-county', { year: '2019', product: 'acs1', variables: 'B01001_001E', state: '17', county: '003' }, ctx).catch((x) => x);
    expect(e.kind).toBe('not_found');
    expect(e.message).toMatch(/65,000.*acs5/);
  });

  it('an unknown variable (400 text body) is not found, quoting Census', async () => {
    const ctx = await live(400, "error: unknown variable 'B99999_001E'", 'text/plain');
    const e = await runOperation(connectorRegistry(), 'census-acs', 'acs-state', { year: '2021', product: 'acs5', variables: 'B99999_001E', state: '17' }, ctx).catch((x) => x);
    expect(e.kind).toBe('not_found');
    expect(e.message).toContain("unknown variable 'B99999_001E'");
  });
});
