/**
 * Keyed reads beyond SEC, end to end on the offline default: states, counties, schools and
 * nonprofits read from their publishers' cassettes, with the exact published value, unit, period
 * (the survey vintage or tax year, disclosed) and source; every figure verified and cited; a year
 * the cassettes do not hold ends as a typed refusal; a county name several states share is asked
 * about or refused, never picked.
 *
 * Values were read from the cassette bodies under fixtures/publishers/:
 *  - census-acs acs-all-states ACS 1-year 2018 group(B19013): Texas (48) 60629, California (06) 75277, Georgia (13) 58756;
 *  - cdc-svi SVI2018_US_COUNTY: Cook County, Illinois (17031) EP_POV 15.1, E_PCI 35575; Los Angeles County (06037) E_TOTPOP 10098052;
 *  - cdc-places county-measure 06059 ARTHRITIS: CrdPrv 19.6 (BRFSS 2021);
 *  - college-scorecard school 130794 (Yale University): latest.cost.tuition.in_state 51400, latest.admissions.admission_rate.overall 0.0693;
 *  - propublica-nonprofits organization 142007220 (Pro Publica Inc): totrevenue by tax_prd 201812 26685933, 201912 39246884,
 *    202012 37513092, 202112 36005300, 202212 44530761; 311124220 (Rural Action Inc): 202012 3714399;
 *    470825376 (Apache Software Foundation): tax_prd 201904 totfuncexpns 1747000.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import { testServices } from './services.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const row = (r: AskResult) => r.evidence.map((e) => ({ measure: e.measure, value: e.value, unit: e.unit, period: e.period, key: e.entity_key, source: e.source }));

function expectCited(r: AskResult): void {
  expect(r.status, r.refusal?.reason).toBe('answered');
  expect(r.figures.length).toBeGreaterThan(0);
  for (const f of r.figures) expect(['verified', 'derived'], f.text).toContain(f.grade);
  expect(r.citations.length).toBe(r.evidence.length);
  for (const c of r.citations) expect(c.url).toMatch(/^https:\/\//);
}

describe('states (Census ACS)', () => {
  it('a state value for a named year reads the ACS 1-year all-states table of that year, and says so', async () => {
    const r = await ask(services, { question: 'What was the median household income in Texas in 2018?' });
    expectCited(r);
    expect(row(r)).toEqual([{ measure: 'census-acs/acs5-2009/B19013_001E', value: 60629, unit: 'USD', period: 'ACS 1-year 2018', key: 'fips=48', source: 'census-acs' }]);
    expect(r.evidence[0]!.measure_label).toBe('Median household income in the past 12 months (in 2018 inflation-adjusted dollars)');
    expect(r.citations[0]!.url).toBe('https://api.census.gov/data/2018/acs/acs1?get=NAME,group(B19013)&for=state:*');
    expect(r.text).toContain('$60,629');
    expect(r.text).toContain('ACS 1-year 2018');
  }, 60_000);

  it('a record without its own label is judged by its catalog label: the child poverty rate is not the poverty rate of everyone', async () => {
    // it answered 14.9% (all ages, S1701_C03_001E) graded verified: the Census record carries no label, so no label was checked
    const r = await ask(services, { question: 'What is the child poverty rate in Texas?' });
    expect(r.status).toBe('refused');
    expect(r.figures).toEqual([]);
    expect(r.refusal!.code).toBe('residual');
    // the people of a universe named in other words still answer
    const s = await ask(services, { question: 'What share of people in Mississippi lived in poverty in 2018?' });
    expectCited(s);
    expect(row(s).map((x) => [x.key, x.value])).toEqual([['fips=28', 19.7]]);
  }, 60_000);

  it('a comparison of two states reads one all-states response and keeps each state\'s own row', async () => {
    const r = await ask(services, { question: 'Compare median household income in Texas and California in 2018.' });
    expectCited(r);
    expect(row(r).map((x) => [x.key, x.value, x.period])).toEqual([['fips=48', 60629, 'ACS 1-year 2018'], ['fips=06', 75277, 'ACS 1-year 2018']]);
    expect(new Set(r.citations.map((c) => c.url)).size).toBe(1);
    expect(r.figures.map((f) => [f.text, f.grade])).toContainEqual(['$60,629', 'verified']);
    expect(r.figures.map((f) => [f.text, f.grade])).toContainEqual(['$75,277', 'verified']);
  }, 60_000);

  it('a name that is also a country or a county\'s state is resolved among states, as the key read implies', async () => {
    const r = await ask(services, { question: 'What was the median household income in Georgia in 2018?' });
    expectCited(r);
    expect(row(r).map((x) => [x.key, x.value, x.period])).toEqual([['fips=13', 58756, 'ACS 1-year 2018']]);
  }, 60_000);

  it('a year the cassettes do not hold is refused as operationally blocked, naming the request; no other year is read', async () => {
    const r = await ask(services, { question: 'What was the median household income in Texas in 2019?' });
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('operationally_blocked');
    expect(r.refusal!.reason).toMatch(/not in the offline snapshot .*https:\/\/api\.census\.gov\/data\/2019\/acs\//);
    expect(r.evidence).toEqual([]);
    expect(r.attempts.every((a) => a.disposition === 'errored')).toBe(true);
  }, 60_000);
});

describe('counties (CDC SVI, CDC PLACES)', () => {
  it('a county value from SVI 2018 is the ACS 5-year 2014–2018 estimate, disclosed as such', async () => {
    const r = await ask(services, { question: 'What was the poverty rate in Cook County, Illinois in 2018?' });
    expectCited(r);
    expect(row(r)).toEqual([{ measure: 'cdc-svi/svi2018/EP_POV', value: 15.1, unit: '%', period: 'ACS 5-year 2014–2018 (republished in CDC/ATSDR SVI 2018)', key: 'fips=17031', source: 'cdc-svi' }]);
    expect(r.evidence[0]!.warnings).toContain('"2018" read as the ACS 5-year 2014–2018 (republished in CDC/ATSDR SVI 2018) estimate (survey vintage 2018)');
  }, 60_000);

  it('per capita income and population from the same county file', async () => {
    const pci = await ask(services, { question: 'What was the per capita income in Cook County, Illinois in 2018?' });
    expectCited(pci);
    expect(row(pci).map((x) => [x.measure, x.value, x.unit, x.key])).toEqual([['cdc-svi/svi2018/E_PCI', 35575, 'USD', 'fips=17031']]);
    const pop = await ask(services, { question: 'What was the population of Los Angeles County in 2018?' });
    expectCited(pop);
    expect(row(pop).map((x) => [x.measure, x.value, x.unit, x.key])).toEqual([['cdc-svi/svi2018/E_TOTPOP', 10098052, 'count', 'fips=06037']]);
  }, 60_000);

  it('a year the SVI file does not hold ends as no data for that year, not the 2018 value', async () => {
    const r = await ask(services, { question: 'What was the poverty rate in Cook County, Illinois in 2019?' });
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('no_data');
    expect(r.refusal!.reason).toContain('2019 asked; the record is the ACS 5-year 2014–2018');
    expect(r.evidence).toEqual([]);
  }, 60_000);

  it('a PLACES county measure is the crude prevalence of the BRFSS year it models', async () => {
    const r = await ask(services, { question: 'What was the arthritis prevalence in Orange County, California in 2021?' });
    expectCited(r);
    expect(row(r)).toEqual([{ measure: 'cdc-places/measureid/ARTHRITIS', value: 19.6, unit: '%', period: 'BRFSS 2021 model-based estimate', key: 'fips=06059', source: 'cdc-places' }]);
  }, 60_000);

  it('a county name several states share is never picked: refused by default, asked with on_ambiguity=ask, answered once chosen', async () => {
    const q = 'What was the poverty rate in Cook County in 2018?';
    const refused = await ask(services, { question: q });
    expect(refused.status).toBe('refused');
    expect(refused.refusal!.boundary).toBe('entity_unresolved');
    expect(refused.refusal!.reason).toBe('"Cook County" is ambiguous: 3 counties have that name (Cook County, Georgia; Cook County, Illinois; Cook County, Minnesota); name the one meant');
    expect(refused.evidence).toEqual([]);

    const asked = await ask(services, { question: q, on_ambiguity: 'ask' });
    expect(asked.status).toBe('needs_clarification');
    expect(asked.clarification!.options.map((o) => o.label)).toEqual(['Cook County, Georgia', 'Cook County, Illinois', 'Cook County, Minnesota']);

    const resumed = await ask(services, { resume: { run: asked.run_id, option: 2 } });
    expectCited(resumed);
    expect(row(resumed).map((x) => [x.value, x.key])).toEqual([[15.1, 'fips=17031']]);
  }, 90_000);
});

describe('schools and nonprofits', () => {
  it('Yale is resolved among schools (not the Yale Club), by its UNITID, from the Scorecard', async () => {
    const tuition = await ask(services, { question: "What is Yale's in-state tuition?" });
    expectCited(tuition);
    expect(row(tuition)).toEqual([{ measure: 'college-scorecard/latest/cost.tuition.in_state', value: 51400, unit: 'USD', period: 'latest available (year varies by field)', key: 'ipeds_unitid=130794', source: 'college-scorecard' }]);
    expect(tuition.evidence[0]!.entity).toBe('Yale University');
    const rate = await ask(services, { question: "What is Yale's admission rate?" });
    expectCited(rate);
    expect(row(rate).map((x) => [x.value, x.unit])).toEqual([[0.0693, 'fraction']]);
  }, 60_000);

  it('a nonprofit\'s 990 figure for a tax year, by EIN, from ProPublica', async () => {
    const r = await ask(services, { question: 'What was total revenue for Pro Publica in 2021?' });
    expectCited(r);
    expect(row(r)).toEqual([{ measure: 'propublica-nonprofits/filing/totrevenue', value: 36005300, unit: 'USD', period: 'FY2021', key: 'ein=142007220', source: 'propublica-nonprofits' }]);
    const apache = await ask(services, { question: 'What were the total functional expenses of the Apache Software Foundation in 2019?' });
    expectCited(apache);
    expect(row(apache).map((x) => [x.value, x.period, x.key])).toEqual([[1747000, 'FY2019', 'ein=470825376']]);
    expect(apache.evidence[0]!.warnings).toContain('"2019" read as the filer\'s fiscal year FY2019 (2019-04-30), not calendar 2019');
  }, 60_000);

  it('nonprofits compared and followed over years, each figure its own filing', async () => {
    const cmp = await ask(services, { question: 'Which had more total revenue in 2020, Pro Publica or Rural Action?' });
    expectCited(cmp);
    expect(row(cmp).map((x) => [x.key, x.period, x.value])).toEqual([['ein=142007220', 'FY2020', 37513092], ['ein=311124220', 'FY2020', 3714399]]);
    const series = await ask(services, { question: "How did Pro Publica's total revenue change from 2018 to 2022?" });
    expectCited(series);
    expect(row(series).map((x) => [x.period, x.value])).toEqual([['FY2018', 26685933], ['FY2019', 39246884], ['FY2020', 37513092], ['FY2021', 36005300], ['FY2022', 44530761]]);
  }, 60_000);

  it('a tax year the response does not hold is no data, not the newest filing', async () => {
    const r = await ask(services, { question: 'What was total revenue for Pro Publica in 2023?' });
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('no_data');
    expect(r.refusal!.reason).toContain('2023 asked; the record covers 2022-12-31 (fiscal 2022)');
  }, 60_000);
});

describe('companies (SEC EDGAR)', () => {
  it('"debt" is not read from a concept that names a debt instrument\'s discount or debt securities held: refused, never that figure', async () => {
    const r = await ask(services, { question: 'How much debt does Apple have?' });
    // it answered "Debt Instrument, Unamortized Discount (Premium) and Debt Issuance Costs, Net" ($309 million), graded verified
    expect(r.status).toBe('refused');
    expect(r.figures).toEqual([]);
    expect(r.evidence.map((e) => e.measure).filter((m) => /DebtInstrument|DebtSecurities/.test(m))).toEqual([]);
    expect(r.refusal!.code).toBe('residual');
  }, 60_000);
});
