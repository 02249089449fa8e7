/** Argument binders beyond SEC, period selection by the record's period basis, and typed entity choice. */
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/connectors/records.ts';
import { bindReadings, entityTypeFor } from '../../src/execute/bind.ts';
import { chooseBundles, selectRecords } from '../../src/execute/leaf.ts';
import type { IdentityBundle } from '../../src/resolve/bundle.ts';
import type { PeriodWanted } from '../../src/validate/structural.ts';

const y = (year: number): PeriodWanted => ({ year, basis: 'unspecified', latest: false, text: String(year) });
const latest: PeriodWanted = { year: null, basis: 'unspecified', latest: true, text: 'the latest period' };
const raw = { source: 'x', method: 'GET', url: 'https://x.test/', status: 200, sha256: 'c'.repeat(64), retrievedAt: '2026-01-01' };

describe('binders', () => {
  it('a state ACS value reads the all-states table of the year asked: 1-year first, then 5-year', () => {
    expect(bindReadings('census-acs/acs-state', 'census-acs/acs5-2009/B19013_001E', { keyType: 'fips', value: '48' }, y(2018))).toMatchObject([
      { operation: 'acs-all-states', fetchArgs: { year: '2018', product: 'acs1', variables: 'group(B19013)' }, measure: 'acs1-2018/B19013_001E', reading: 'ACS 1-year 2018' },
      { operation: 'acs-all-states', fetchArgs: { year: '2018', product: 'acs5', variables: 'group(B19013)' }, measure: 'acs5-2018/B19013_001E', reading: 'ACS 5-year 2014–2018' },
    ]);
  });

  it('subject-table variables read the subject product; "latest" is the newest declared vintage first, then each older declared one, each reading naming its vintage', () => {
    const r = bindReadings('census-acs/acs-state', 'census-acs/acs5-2019-subject/S1701_C03_001E', { keyType: 'fips', value: '48' }, latest);
    if ('error' in r) throw new Error(r.error);
    expect(r.slice(0, 2)).toMatchObject([
      { fetchArgs: { year: '2024', product: 'acs1/subject', variables: 'group(S1701)' }, measure: 'acs1-subject-2024/S1701_C03_001E', period: { end: '2024-12-31', label: 'ACS 1-year 2024' } },
      { fetchArgs: { year: '2024', product: 'acs5/subject' }, period: { label: 'ACS 5-year 2020–2024' } },
    ]);
    const ends = r.map((b) => b.period!.end);
    expect(ends).toEqual([...ends].sort().reverse());
    // the 1-year 2020 standard estimates were not released: "latest" passes over them, never asks for them
    expect(r.some((b) => b.fetchArgs.year === '2020' && b.fetchArgs.product === 'acs1/subject')).toBe(false);
    expect(r.some((b) => b.fetchArgs.year === '2020' && b.fetchArgs.product === 'acs5/subject')).toBe(true);
    expect(Math.min(...r.map((b) => Number(b.fetchArgs.year)))).toBe(2005);
  });

  it('the newest declared vintage is the descriptor\'s own temporal end, and a descriptor without one is a clear error', async () => {
    const { readFile, writeFile, mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { pathToFileURL } = await import('node:url');
    const { ACS_NEWEST_VINTAGE, newestDeclaredYear } = await import('../../src/execute/binders/places.ts');
    const doc = JSON.parse(await readFile('ard-okf/census-acs.json', 'utf8'));
    const ends = JSON.stringify(doc).match(/"temporal":\{"start":"[^"]+","end":"(\d{4})/g)!.map((m) => Number(m.slice(-4)));
    expect(ACS_NEWEST_VINTAGE).toBe(Math.max(...ends));
    const dir = await mkdtemp(join(tmpdir(), 'assay-acs-'));
    const moved = join(dir, 'later.json');
    await writeFile(moved, JSON.stringify(doc).replace(/("temporal":\{"start":"[^"]+","end":")\d{4}/, '$12031'));
    expect(newestDeclaredYear(pathToFileURL(moved))).toBe(2031);
    const none = join(dir, 'none.json');
    await writeFile(none, JSON.stringify({ entries: [] }));
    expect(() => newestDeclaredYear(pathToFileURL(none))).toThrow(/declares no dataset temporal end.*add temporal.end/);
  });

  it('a county ACS value reads the 5-year estimate for the counties of its state', () => {
    const r = bindReadings('census-acs/acs-county', 'census-acs/acs5-2009/B01001_001E', { keyType: 'fips', value: '17031' }, y(2021));
    if ('error' in r) throw new Error(r.error);
    expect(r[0]).toMatchObject({ operation: 'acs-county', fetchArgs: { year: '2021', product: 'acs5', variables: 'B01001_001E', state: '17', county: '*' }, measure: 'acs5-2021/B01001_001E', reading: 'ACS 5-year 2017–2021' });
    // the same total population from the other tables that publish it, the headline variable also in the all-counties request form
    expect(r.slice(1).map((b) => [b.operation, b.fetchArgs.variables, b.fetchArgs.year])).toEqual([
      ['acs-county', 'B01003_001E', '2021'], ['acs-all-counties', 'B01003_001E,B02001_002E,B19013_001E', '2021'],
      ['acs-county', 'B02001_001E', '2021'], ['acs-county', 'DP05_0001E', '2021'], ['acs-county', 'DP05_0033E', '2021'],
    ]);
    expect(r.slice(1).every((b) => /^read as \S+ of the ACS 5-year 2017–2021 table \w+, the same total population estimate as B01001_001E/.test(b.note ?? ''))).toBe(true);
    expect(bindReadings('census-acs/acs-county', 'census-acs/acs5-2009/B01001_001E', { keyType: 'fips', value: '17' }, y(2021))).toEqual({ error: 'acs-county takes a 5-digit county FIPS code, not fips 17' });
  });

  it('SVI, PLACES, Scorecard and ProPublica bind their keys', () => {
    expect(bindReadings('cdc-svi/county-poverty', 'cdc-svi/svi2018/EP_POV', { keyType: 'fips', value: '17031' })).toMatchObject([{ fetchArgs: { county_fips: '17031' }, measure: 'svi2018/EP_POV' }]);
    expect(bindReadings('cdc-places/county-measure', 'cdc-places/measureid/ARTHRITIS', { keyType: 'fips', value: '06059' })).toMatchObject([{ fetchArgs: { county_fips: '06059', measure: 'ARTHRITIS' }, measure: 'measureid/ARTHRITIS', attributes: { valueType: 'CrdPrv' } },
      // then the county's row of the wide file of every county (one recorded download; the keyed request may not be recorded)
      { operation: 'all-counties-wide', fetchArgs: {}, measure: 'measureid/ARTHRITIS', attributes: { valueType: 'CrdPrv' } }]);
    expect(bindReadings('college-scorecard/school', 'college-scorecard/latest/cost.tuition.in_state', { keyType: 'ipeds_unitid', value: '130794' })).toMatchObject([{ fetchArgs: { unitid: '130794', fields: 'latest.cost.tuition.in_state' }, measure: 'latest.cost.tuition.in_state' }]);
    expect(bindReadings('propublica-nonprofits/organization', 'propublica-nonprofits/filing/totrevenue', { keyType: 'ein', value: '142007220' })).toMatchObject([{ fetchArgs: { ein: '142007220' }, measure: 'filing/totrevenue' }]);
    expect(bindReadings('propublica-nonprofits/organization', 'propublica-nonprofits/filing/totrevenue', { keyType: 'cik', value: '0000320193' })).toEqual({ error: 'organization takes an EIN, not a cik' });
  });

  it('the key an operation takes says what kind of entity to resolve', () => {
    expect(['census-acs/acs-state', 'census-acs/acs-county', 'cdc-places/county-measure', 'college-scorecard/school', 'propublica-nonprofits/organization', 'sec-edgar/companyfacts'].map(entityTypeFor))
      .toEqual(['state', 'county', 'county', 'school', 'organization', undefined]);
  });
});

function obs(over: Partial<Observation>): Observation {
  return { type: 'observation', source: 'x', operation: 'op', measure: 'm/v', value: 1, status: 'reported', unit: 'USD', scale: 1, period: { instant: false, basis: 'survey' }, attributes: {}, raw, ...over };
}

describe('period selection by the record\'s period basis', () => {
  const filings = [2022, 2021, 2020].map((yr) => obs({ measure: 'filing/totrevenue', value: yr, entity: { ein: '142007220' }, period: { end: `${yr}-12-31`, instant: false, basis: 'fiscal', fiscalYear: yr, fiscalPeriod: 'FY' } }));
  it('990 filings: the tax year asked, or the newest the response holds', () => {
    expect(selectRecords(filings, 'filing/totrevenue', y(2021)).matches.map((o) => o.value)).toEqual([2021]);
    expect(selectRecords(filings, 'filing/totrevenue', latest).matches.map((o) => o.value)).toEqual([2022]);
    expect(selectRecords(filings, 'filing/totrevenue', y(2019)).matches).toEqual([]);
  });

  it('a population extract read for one entity keeps that entity\'s row only', () => {
    const states = [['48', 60629], ['06', 75277]].map(([fips, v]) => obs({ measure: 'acs1-2018/B19013_001E', value: v as number, geography: { level: 'state', fips: fips as string }, period: { start: '2018-01-01', end: '2018-12-31', instant: false, basis: 'survey', label: 'ACS 1-year 2018' } }));
    const r = selectRecords(states, 'acs1-2018/B19013_001E', y(2018), { keyType: 'fips', value: '48' });
    expect(r.matches.map((o) => o.value)).toEqual([60629]);
    expect(selectRecords(states, 'acs1-2018/B19013_001E', y(2017), { keyType: 'fips', value: '48' }).matches).toEqual([]);
  });

  it('attribute filters pick the crude-prevalence row', () => {
    const rows = ['AgeAdjPrv', 'CrdPrv'].map((t, i) => obs({ measure: 'measureid/ARTHRITIS', value: i, attributes: { valueType: t }, period: { start: '2021-01-01', end: '2021-12-31', instant: false, basis: 'survey' } }));
    expect(selectRecords(rows, 'measureid/ARTHRITIS', latest, undefined, { valueType: 'CrdPrv' }).matches.map((o) => o.value)).toEqual([1]);
  });
});

const bundle = (label: string, fips: string, match: IdentityBundle['match'] = 'exact'): IdentityBundle => ({ id: `reg:${fips}`, label, altLabels: [], types: ['county'], identifiers: { fips: [fips] }, fipsLevel: 'county', from: 'offline-snapshot', match });

describe('typed entity choice', () => {
  it('several counties of one name stay ambiguous; none is picked', () => {
    const r = chooseBundles([bundle('Cook County, Georgia', '13075'), bundle('Cook County, Illinois', '17031'), bundle('Cook County, Minnesota', '27031')], ['fips'], 'county');
    expect(r.chosen).toEqual([]);
    expect(r.ambiguous).toEqual(['Cook County, Georgia', 'Cook County, Illinois', 'Cook County, Minnesota']);
  });

  it('the same entity listed twice (one key) is one candidate, not an ambiguity', () => {
    const r = chooseBundles([bundle('Texas', '48'), { ...bundle('Texas', '48'), id: 'wd:Q1439' }], ['fips'], 'state');
    expect(r.ambiguous).toBeUndefined();
    expect(r.chosen).toHaveLength(1);
  });

  it('one county of that name is chosen', () => {
    expect(chooseBundles([bundle('Cook County, Illinois', '17031')], ['fips'], 'county').chosen.map((b) => b.label)).toEqual(['Cook County, Illinois']);
  });

  it('by name, only a label that starts with the name is taken; a name inside a longer name is not', () => {
    const org = (label: string, ein: string, match: IdentityBundle['match']): IdentityBundle => ({ id: `reg:ein-${ein}`, label, altLabels: [], types: ['organization'], identifiers: { ein: [ein] }, from: 'offline-snapshot', match });
    // SYNTHETIC bundles (labels from the registry snapshot, placeholder EINs but the retirees' real one)
    // the only candidate with an EIN is a retirees' association that merely contains the name
    const inner = chooseBundles([org('ASSOCIATION OF AMERICAN RED CROSS RETIREES', '591748379', 'words')], ['ein']);
    expect(inner.chosen).toEqual([]);
    expect(inner.note).toMatch(/appears only inside longer names/);
    const prefixed = chooseBundles([org('AMAZON COM INC', '000000002', 'prefix'), org('FRIENDS OF THE AMAZON', '000000001', 'words')], ['ein']);
    expect(prefixed.chosen.map((b) => b.label)).toEqual(['AMAZON COM INC']);
    expect(prefixed.byName).toBe(true);
  });
});
