/** Structural checks on reads keyed by FIPS, UNITID and EIN: the key may sit on the geography, a survey is named by its vintage, a jam value is never a number. */
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/connectors/records.ts';
import { checkObservation, type Expectation } from '../../src/validate/structural.ts';

const raw = { source: 'census-acs', method: 'GET', url: 'https://api.census.gov/data/2018/acs/acs1', status: 200, sha256: 'b'.repeat(64), retrievedAt: '2020-07-17' };
function acs(over: Partial<Observation> = {}): Observation {
  return {
    type: 'observation', source: 'census-acs', operation: 'acs-all-states', measure: 'acs1-2018/B19013_001E',
    value: 60629, status: 'reported', asPublished: '60629', unit: 'USD', currency: 'USD', scale: 1,
    period: { start: '2018-01-01', end: '2018-12-31', instant: false, basis: 'survey', label: 'ACS 1-year 2018' },
    geography: { level: 'state', fips: '48', name: 'Texas' }, attributes: {}, raw, ...over,
  };
}
const want = (over: Partial<Expectation> = {}): Expectation => ({
  entity: { keyType: 'fips', key: '48', label: 'Texas' }, measure: 'acs1-2018/B19013_001E', unit: 'USD',
  period: { year: 2018, basis: 'unspecified', latest: false, text: '2018' }, attribute: null, ...over,
});

describe('keyed reads beyond SEC', () => {
  it('matches a FIPS key on the record geography', () => {
    const v = checkObservation(acs(), want());
    expect(v.passed).toBe(true);
    expect(v.match).toBe('key');
    expect(v.checks.find((c) => c.name === 'entity')?.detail).toBe('fips 48 equals the resolved key of Texas');
  });

  it('another state\'s row is another entity (prunes)', () => {
    const v = checkObservation(acs({ geography: { level: 'state', fips: '06', name: 'California' } }), want());
    expect(v.passed).toBe(false);
    expect(v.prune).toBe(true);
    expect(v.reason).toMatch(/California \(fips 06\), not Texas \(fips 48\)/);
  });

  it('a Census jam value is never admitted, even if it arrives as a number', () => {
    const v = checkObservation(acs({ value: -666666666 }), want());
    expect(v.passed).toBe(false);
    expect(v.checks.find((c) => !c.passed)?.name).toBe('sentinel');
    const marked = checkObservation(acs({ value: null, status: 'not_computable', asPublished: '-666666666' }), want());
    expect(marked.reason).toBe('sentinel: no usable value: not_computable (published as "-666666666")');
  });

  it('a 5-year survey is its end year, and the reading is disclosed', () => {
    const five = acs({ period: { start: '2017-01-01', end: '2021-12-31', instant: false, basis: 'survey', label: 'ACS 5-year 2017–2021' }, measure: 'acs5-2021/B19013_001E' });
    const v = checkObservation(five, want({ measure: 'acs5-2021/B19013_001E', period: { year: 2021, basis: 'unspecified', latest: false, text: '2021' } }));
    expect(v.passed).toBe(true);
    expect(v.warnings).toEqual(['"2021" read as the ACS 5-year 2017–2021 estimate (survey vintage 2021)']);
    const other = checkObservation(five, want({ measure: 'acs5-2021/B19013_001E', period: { year: 2019, basis: 'unspecified', latest: false, text: '2019' } }));
    expect(other.passed).toBe(false);
    expect(other.reason).toBe('period: 2019 asked; the record is the ACS 5-year 2017–2021');
  });

  it('a 990 filing year without a start date is the filer\'s tax year', () => {
    const filing: Observation = {
      ...acs(), source: 'propublica-nonprofits', operation: 'organization', measure: 'filing/totrevenue', value: 36005300,
      period: { end: '2021-12-31', instant: false, basis: 'fiscal', fiscalYear: 2021, fiscalPeriod: 'FY' }, geography: undefined,
      entity: { ein: '142007220', name: 'Pro Publica Inc' },
    };
    const w = want({ entity: { keyType: 'ein', key: '142007220', label: 'Pro Publica Inc' }, measure: 'filing/totrevenue', period: { year: 2021, basis: 'unspecified', latest: false, text: '2021' } });
    expect(checkObservation(filing, w).passed).toBe(true);
    expect(checkObservation(filing, { ...w, period: { year: 2022, basis: 'unspecified', latest: false, text: '2022' } }).passed).toBe(false);
  });

  it('a catalog unit "percent" accepts a record in %', () => {
    const pct = acs({ unit: '%', currency: undefined, value: 14.9, measure: 'acs1-subject-2018/S1701_C03_001E' });
    expect(checkObservation(pct, want({ unit: 'percent', measure: 'acs1-subject-2018/S1701_C03_001E' })).passed).toBe(true);
  });
});
