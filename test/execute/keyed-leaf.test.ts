/**
 * The leaf search on real cassettes for a county ACS read the discovery ranking does not reach
 * today: Cook County, Illinois (17031) B01001_001E from the ACS 5-year 2021 "counties of Illinois"
 * response (fixtures/publishers/census-acs/acs-county.acs5_2021_NAME_B01001_001E_county-all_in-state-17:
 * "Cook County, Illinois", 5265398). The row is found by its FIPS code among the state's 102 counties,
 * and the 5-year reading is disclosed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskServices } from '../../src/ask/services.ts';
import { queryContext, type QueryContext } from '../../src/execute/context.ts';
import { searchLeaf } from '../../src/execute/leaf.ts';
import type { Assessment } from '../../src/plan/plan.ts';
import { testServices } from '../ask/services.ts';

let services: AskServices;
let ctx: QueryContext;
beforeAll(async () => { services = await testServices(); }, 120_000);
afterAll(() => ctx?.dispose());

const countyRead: Assessment = {
  candidateKey: 'census-acs/acs5-2009/B01001_001E', kind: 'measure', publisherId: 'census-acs', title: 'B01001_001E: Total (sex by age)', discoveryRank: 1, verdict: 'exact', reason: 'test',
  operation: { key: 'census-acs/acs-county', publisherId: 'census-acs', operationId: 'acs-county', kind: 'keyed_read', accepts: ['fips'], grain: 'one county', complete: true, coverageOf: 'county', title: 'ACS county' },
};

describe('county ACS read', () => {
  it('reads the 5-year estimate for the counties of the state and keeps the county asked, by FIPS', async () => {
    ctx = queryContext({ id: 'k1', runtime: services.runtime, registry: services.registry, timeoutMs: Infinity });
    let n = 0;
    const r = await searchLeaf(ctx, {
      // (no attribute words: this read's mechanics are under test; whether a label means the words asked is test/validate's)
      question: 'Cook County, Illinois population in 2021', entity: 'Cook County, Illinois', attribute: null, period: { year: 2021, basis: 'unspecified', latest: false, text: '2021' },
      candidates: [countyRead], units: new Map([['census-acs/acs5-2009/B01001_001E', 'count']]), nextAttempt: () => ++n,
    });
    expect(r.failure).toBeUndefined();
    expect(r.evidence).toMatchObject({
      source: 'census-acs', operation: 'acs-county', value: 5265398, unit: 'count',
      period: { label: 'ACS 5-year 2017–2021', start: '2017-01-01', end: '2021-12-31', basis: 'survey' },
      entity: { label: 'Cook County, Illinois', keyType: 'fips', key: '17031', keys: { fips: '17031', name: 'Cook County, Illinois' } },
    });
    expect(r.evidence!.raw.url).toBe('https://api.census.gov/data/2021/acs/acs5?get=NAME,B01001_001E&for=county:*&in=state:17');
    expect(r.evidence!.assurance.warnings).toContain('"2021" read as the ACS 5-year 2017–2021 estimate (survey vintage 2021)');
    expect(r.attempts.map((a) => [a.operation, a.disposition, a.bindings.reading])).toEqual([['acs-county', 'accepted', 'ACS 5-year 2017–2021']]);
  }, 60_000);

  it('a county vintage not recorded is blocked, naming the request, and no other vintage is read', async () => {
    ctx = queryContext({ id: 'k2', runtime: services.runtime, registry: services.registry, timeoutMs: Infinity });
    let n = 0;
    const r = await searchLeaf(ctx, {
      question: 'Cook County, Illinois population in 2020', entity: 'Cook County, Illinois', attribute: 'total', period: { year: 2020, basis: 'unspecified', latest: false, text: '2020' },
      candidates: [countyRead], units: new Map(), nextAttempt: () => ++n,
    });
    expect(r.evidence).toBeUndefined();
    expect(r.failure?.boundary).toBe('operationally_blocked');
    expect(r.failure?.message).toContain('https://api.census.gov/data/2020/acs/acs5?get=NAME,B01001_001E&for=county:*&in=state:17');
    // after the county table's miss, the operation's other requests (the same total population from B01003, B02001, the
    // data profile) are tried only if the snapshot records them; the all-counties request form is another operation
    expect(r.attempts.map((a) => [a.bindings.vintage, a.failure])).toEqual([['ACS 5-year 2016–2020', 'offline'], ['ACS 5-year 2016–2020', 'offline']]);
    expect(r.attempts.map((a) => a.operation)).toEqual(['acs-county', 'acs-all-counties']);
  }, 60_000);
});
