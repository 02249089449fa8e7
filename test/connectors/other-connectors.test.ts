import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { HttpClient, type RawResponse } from '../../src/http/client.ts';
import { callContext } from '../../src/http/context.ts';
import { connectorRegistry, runOperation } from '../../src/connectors/registry.ts';
import { awardRows, categoryRows, normaliseRecipientId } from '../../src/connectors/usaspending.ts';
import { nihProjects } from '../../src/connectors/nih-reporter.ts';
import { nsfAwards } from '../../src/connectors/nsf-awards.ts';
import { parseCi, placesWide } from '../../src/connectors/cdc-places.ts';
import { entities, fails, observations, offline, run } from './harness.ts';
import { VirtualClock } from '../http/virtual-clock.ts';

/** A pointer for bodies tested without a cassette (their exact request is unknown). */
function unkeyed(source: string, file: string, json?: unknown): RawResponse {
  return { source, method: 'POST', url: `https://example.invalid/${file}`, status: 200, sha256: 'n/a', retrievedAt: 'unknown', contentType: 'application/json', text: '', json, attempts: 0, keyless: false };
}
const body = async (source: string, file: string) => JSON.parse(await readFile(`fixtures/publishers/${source}/unkeyed/${file}`, 'utf8'));

describe('USAspending connector', () => {
  it('award by id (real response): obligations and outlays in USD, recipient keyed by UEI', async () => {
    const r = await run('usaspending', 'award', { award_id: 'ASST_NON_NNM11AA01A_080' });
    expect(entities(r)[0]).toMatchObject({ kind: 'award:grant', keys: { award_id: 'ASST_NON_NNM11AA01A_080' } });
    expect(observations(r).find((o) => o.measure === 'award/total_obligation')).toMatchObject({ value: 156725919.62, unit: 'USD', entity: { uei: 'HB6KNGVNJRU1', name: 'THE UNIVERSITY OF ALABAMA IN HUNTSVILLE' }, period: { start: '2011-04-01' } });
  });

  it('recipient by id (real response)', async () => {
    const r = await run('usaspending', 'recipient', { recipient_id: '0b441d38-e3c0-de89-ee08-69fc9e6ee58a-C' });
    expect(entities(r)[0]!.keys).toMatchObject({ uei: 'Z1H9VJS8NG16', name: 'THE UNIVERSITY OF IOWA' });
    expect(observations(r)[0]!.value).toBe(267039000.14);
  });

  it('search pages (real bodies): display-cased fields, hasNext, odd recipient_id spelling normalised', async () => {
    const awards = awardRows(unkeyed('usaspending', 'x', await body('usaspending', 'spending_by_award_contracts.json')), 'spending-by-award');
    expect(awards.more).toBe(true);
    expect(awards.records[0]).toMatchObject({ value: 4345585999.01, entity: { name: 'NORTHROP GRUMMAN SYSTEMS CORPORATION', uei: 'VSBAFMDKTWL4' } });
    const recips = categoryRows(unkeyed('usaspending', 'x', await body('usaspending', 'spending_by_recipient.json')), 'spending-by-recipient', 'recipient');
    expect(recips.records[0]).toMatchObject({ value: 13313681655, entity: { name: 'THE BOEING COMPANY', recipient_id: '3632dc26-45b8-9d0e-1128-63e866708c8f-C' }, attributes: { recipientIdAsPublished: "3632dc26-45b8-9d0e-1128-63e866708c8f-['C']" } });
    expect(normaliseRecipientId("abc-['P']")).toBe('abc-P');
  });

  it('paging to the publisher\'s last page (SYNTHETIC pages via a fake fetch), with its warnings as notes', async () => {
    const pages = [1, 2, 3].map((p) => JSON.stringify({ results: [{ 'Award ID': `SYN-${p}`, 'Recipient Name': 'SYNTHETIC', 'Award Amount': p }], page_metadata: { page: p, hasNext: p < 3 }, messages: ['SYNTHETIC warning'] }));
    let n = 0;
    const fetchImpl = (async () => new Response(pages[n++]!, { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const ctx = { ...(await offline()), ...callContext(), http: new HttpClient({ mode: 'live', fetch: fetchImpl }) };
    const r = await runOperation(connectorRegistry(), 'usaspending', 'spending-by-award', { start: '2024-01-01', end: '2024-12-31', pages: '10' }, ctx);
    expect(r.complete).toBe(true);
    expect(observations(r).map((o) => o.value)).toEqual([1, 2, 3]);
    expect(r.notes).toContain('USAspending says: SYNTHETIC warning');
    n = 0;
    const one = await runOperation(connectorRegistry(), 'usaspending', 'spending-by-award', { start: '2024-01-01', end: '2024-12-31' }, ctx);
    expect(one.complete).toBe(false);
    expect(one.notes.join(' ')).toMatch(/more pages exist/);
  });
});

describe('NIH RePORTER connector', () => {
  it('project awards in USD for the federal fiscal year, names tidied (real results array)', async () => {
    const results = await body('nih-reporter', 'v2_projects_search.results-array.json');
    const obs = nihProjects(results, unkeyed('nih-reporter', 'x'), 'projects-search');
    expect(obs).toHaveLength(20);
    expect(obs[0]).toMatchObject({ value: 957843, unit: 'USD', period: { fiscalYear: 2025, start: '2024-04-01', end: '2025-03-31' }, entity: { name: 'UNIVERSITY OF SOUTHERN CALIFORNIA', uei: 'G88KLJR3KYT5' }, attributes: { contactPi: 'PAPPAS , IOANNIS', ic: 'NIA' } });
  });

  it('stops at the declared 15,000-row boundary (SYNTHETIC pages) and says so', async () => {
    const page = JSON.stringify({ meta: { total: 40000 }, results: Array.from({ length: 500 }, (_, i) => ({ appl_id: i, award_amount: 1, fiscal_year: 2024, organization: { org_name: 'SYNTHETIC' } })) });
    const fetchImpl = (async () => new Response(page, { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const clock = new VirtualClock(); // RePORTER is paced at 1 request/s: run on virtual time
    const ctx = { ...(await offline()), ...callContext({ clock }), http: new HttpClient({ mode: 'live', fetch: fetchImpl }) };
    const r = await clock.run(runOperation(connectorRegistry(), 'nih-reporter', 'projects-search', { text: 'x', pages: '100' }, ctx));
    expect(r.records).toHaveLength(15000);
    expect(r.complete).toBe(false);
    expect(r.notes.join(' ')).toMatch(/declared boundary of 15000 rows/);
  });
});

describe('NSF Awards connector', () => {
  it('amounts and ids arrive as strings, dates MM/DD/YYYY (real 2015 response)', async () => {
    const b = await body('nsf-awards', 'v1_awards.json_awardee-UCAR_2015.json');
    const obs = nsfAwards(b.response.award, unkeyed('nsf-awards', 'x'), 'awards-by-awardee');
    expect(obs).toHaveLength(21);
    expect(obs[0]).toMatchObject({ value: 608513, asPublished: '608513', unit: 'USD', attributes: { awardId: '1513102', awardDate: '2015-09-17' }, entity: { name: 'University Corporation For Atmospheric Res' } });
  });
});

describe('College Scorecard connector', () => {
  it('school by UNITID (TRIMMED real mock): values, units, and a trimmed snapshot is never complete', async () => {
    const r = await run('college-scorecard', 'school', { unitid: '130794' });
    expect(entities(r)[0]).toMatchObject({ label: 'Yale University', keys: { ipeds_unitid: '130794', ope6_id: '001426' } });
    expect(observations(r).find((o) => o.measure === 'latest.cost.tuition.in_state')).toMatchObject({ value: 51400, unit: 'USD' });
    expect(observations(r).find((o) => o.measure === 'latest.earnings.10_yrs_after_entry.median')?.value).toBe(83200);
    expect(r.complete).toBe(false);
  });

  it('null is suppressed, not zero', async () => {
    const r = await run('college-scorecard', 'school', { unitid: '130794', fields: 'latest.cost.tuition.program_year' });
    expect(observations(r)[0]).toMatchObject({ value: null, status: 'suppressed' });
  });
});

describe('CDC PLACES connector', () => {
  it('long Socrata form: strings → percent with confidence interval, FIPS with leading zero', async () => {
    const r = await run('cdc-places', 'county-measure', { county_fips: '06059', measure: 'ARTHRITIS' });
    expect(observations(r)[0]).toMatchObject({ value: 19.6, unit: '%', confidenceInterval: { low: 17.1, high: 22.4 }, geography: { level: 'county', fips: '06059' }, period: { label: 'BRFSS 2021 model-based estimate' }, attributes: { valueType: 'CrdPrv', population: 3167809 } });
    const all = await run('cdc-places', 'all-counties-measure', { measure: 'ARTHRITIS', value_type: 'CrdPrv' });
    expect(observations(all)).toHaveLength(58);
    expect(all.complete).toBe(false); // the snapshot is the repo author's 58-row cut
  });

  it('wide county file: padded CI strings, blank = not published (real excerpt)', async () => {
    const csv = await readFile('fixtures/publishers/cdc-places/excerpts/PLACES_County_GIS_Friendly_2022.TRIMMED-excerpt.csv', 'utf8');
    const obs = placesWide(csv, unkeyed('cdc-places', 'x'), 'wide', 'PLACES 2022 release');
    const kershaw = obs.filter((o) => o.geography?.fips === '45055');
    expect(kershaw.find((o) => o.measure === 'measureid/ACCESS2' && o.attributes.valueType === 'CrdPrv')).toMatchObject({ value: 16.8, confidenceInterval: { low: 14.5, high: 19.3 } });
    expect(parseCi('( 7.1,  7.8)')).toEqual({ low: 7.1, high: 7.8 });
    const blanks = obs.filter((o) => o.status === 'not_published');
    expect(blanks.length).toBeGreaterThan(0);
    expect(blanks.every((o) => o.value === null && o.asPublished === '')).toBe(true);
  });
});

describe('Grants.gov connector (unrecorded shapes: SYNTHETIC stub)', () => {
  it('offline, a request the snapshot has not recorded says so', async () => {
    const ctx = await offline();
    const http = new HttpClient({ mode: 'replay', cassettes: { keys: () => [], lookup: async () => undefined, record: async () => '' } });
    const e = await runOperation(connectorRegistry(), 'grants-gov', 'search-opportunities', { keyword: 'water' }, { ...ctx, http }).catch((x) => x);
    expect(e.kind).toBe('blocked');
    expect(e.message).toContain('no recording of this Grants.gov request');
  });

  it('parses the documented search2 shape (against the SYNTHETIC stub)', async () => {
    const stub = await readFile('test/connectors/fixtures/grants-gov.search2.SYNTHETIC.json', 'utf8');
    const fetchImpl = (async () => new Response(stub, { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const ctx = { ...(await offline()), ...callContext(), http: new HttpClient({ mode: 'live', fetch: fetchImpl }) };
    const r = await runOperation(connectorRegistry(), 'grants-gov', 'search-opportunities', { keyword: 'water', rows: '2' }, ctx);
    expect(entities(r).map((e) => e.keys.opportunity_id)).toEqual(['900001', '900002']);
    expect(entities(r)[0]!.attributes).toMatchObject({ openDate: '2026-01-02', closeDate: null, status: 'posted' });
    expect(r.complete).toBe(false);
  });

  it('errorcode ≠ 0 with HTTP 200 is a failure, not data', async () => {
    const fetchImpl = (async () => new Response('{"errorcode":1,"msg":"SYNTHETIC failure"}', { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const ctx = { ...(await offline()), ...callContext(), http: new HttpClient({ mode: 'live', fetch: fetchImpl }) };
    const e = await runOperation(connectorRegistry(), 'grants-gov', 'fetch-opportunity', { opportunity_id: '1' }, ctx).catch((x) => x);
    expect(e.kind).toBe('transport');
    expect(e.message).toContain('errorcode 1');
  });
});

it('every catalog operation has a connector implementation', async () => {
  const ctx = await offline();
  const registry = connectorRegistry();
  const missing = ctx.declarations.all().filter((d) => !registry.get(d.publisherId)?.operations[d.id]).map((d) => `${d.publisherId}/${d.id}`);
  // wikidata's operations are served by the identity registry (src/resolve), the grant graph's by
  // the store's materialized index (src/grants); neither is a connector
  expect(missing.filter((m) => !m.startsWith('wikidata/') && !m.startsWith('assay-grant-graph/'))).toEqual([]);
  void fails;
});
