/**
 * Census-derived county poverty and income, on the real samples: the CDC/ATSDR SVI 2018 county file
 * (ACS 2014–2018 5-year estimates, TRIMMED to its poverty/income/population columns) and the ACS
 * 5-year 2021 county rows of the census Python client (a DERIVED cassette in the data API's shape).
 * Every value must say which survey and vintage it comes from; -999 and the Census jam values are
 * markers, never numbers.
 */
import { describe, expect, it } from 'vitest';
import { PublisherError } from '../../src/http/errors.ts';
import { ConnectorInputError } from '../../src/connectors/types.ts';
import { sviNumber } from '../../src/connectors/cdc-svi.ts';
import type { Observation, OperationResult } from '../../src/connectors/records.ts';
import { fails, observations, run } from './harness.ts';

const at = (r: OperationResult, measure: string, fips: string): Observation | undefined =>
  observations(r).find((o) => o.measure === measure && o.geography?.fips === fips);

const SVI_PERIOD = { start: '2014-01-01', end: '2018-12-31', instant: false, basis: 'survey', label: 'ACS 5-year 2014–2018 (republished in CDC/ATSDR SVI 2018)' };

describe('CDC/ATSDR SVI 2018 county poverty (real file, TRIMMED to columns)', () => {
  it('Cook County: poverty rate 15.1 % ± 0.2, 778,020 persons ± 11,257, from the ACS 2014–2018 5-year survey, vintage SVI 2018', async () => {
    const r = await run('cdc-svi', 'county-poverty', { county_fips: '17031' });
    expect(observations(r)).toHaveLength(4);
    expect(at(r, 'svi2018/EP_POV', '17031')).toMatchObject({
      value: 15.1, asPublished: '15.1', status: 'reported', unit: '%', scale: 1, marginOfError: 0.2,
      period: SVI_PERIOD, geography: { level: 'county', fips: '17031', name: 'Cook County, Illinois' },
      attributes: { vintage: 'SVI 2018', survey: 'ACS 5-year 2014–2018', moeColumn: 'MP_POV', moeConfidence: '90%', acsVariable: 'S1701_C03_001E' },
    });
    expect(at(r, 'svi2018/E_POV', '17031')).toMatchObject({ value: 778020, unit: 'count', marginOfError: 11257, attributes: { vintage: 'SVI 2018', moeColumn: 'M_POV' } });
    expect(at(r, 'svi2018/E_PCI', '17031')).toMatchObject({ value: 35575, unit: 'USD', currency: 'USD', marginOfError: 195 });
    expect(at(r, 'svi2018/E_TOTPOP', '17031')).toMatchObject({ value: 5223719, unit: 'count', marginOfError: 0 });
    expect(r.notes[0]).toBe('values are ACS 5-year 2014–2018 estimates as republished in the CDC/ATSDR SVI 2018 county file; margins of error at 90% confidence');
    expect(r.responses[0]).toMatchObject({ url: 'https://svi.cdc.gov/Documents/Data/2018_SVI_Data/CSV/SVI2018_US_COUNTY.csv', origin: { trimmed: true, derived: false, sample: 'cdc-svi/SVI2018_US_COUNTY.poverty-columns.TRIMMED.csv' } });
  });

  it('a county whose FIPS has a leading zero (Autauga 01001: 15.4 % ± 2.1; 8,422 ± 1,137)', async () => {
    const r = await run('cdc-svi', 'county-poverty', { county_fips: '01001' });
    expect(at(r, 'svi2018/EP_POV', '01001')).toMatchObject({ value: 15.4, marginOfError: 2.1, unit: '%', geography: { name: 'Autauga County, Alabama' } });
    expect(at(r, 'svi2018/E_POV', '01001')).toMatchObject({ value: 8422, marginOfError: 1137 });
  });

  it('-999 (Rio Arriba County, NM) is a suppressed marker, never the number -999; its population is still reported', async () => {
    const r = await run('cdc-svi', 'county-poverty', { county_fips: '35039' });
    const rate = at(r, 'svi2018/EP_POV', '35039')!;
    expect(rate).toMatchObject({ value: null, status: 'suppressed', asPublished: '-999.0', marginOfError: null, attributes: { moeStatus: 'suppressed', moeAsPublished: '-999.0' } });
    expect(rate.attributes.statusMeaning).toMatch(/-999/);
    expect(at(r, 'svi2018/E_POV', '35039')).toMatchObject({ value: null, status: 'suppressed', asPublished: '-999' });
    expect(at(r, 'svi2018/E_PCI', '35039')).toMatchObject({ value: null, status: 'suppressed' });
    expect(at(r, 'svi2018/E_TOTPOP', '35039')).toMatchObject({ value: 39307, status: 'reported' });
    expect(sviNumber('-999.0')).toEqual({ value: null, status: 'suppressed' });
    expect(sviNumber('')).toEqual({ value: null, status: 'missing' });
    expect(sviNumber('-9.5')).toEqual({ value: -9.5, status: 'reported' });
  });

  it('every county (3,142 rows, 50 states + DC) in one scan; replayed from a TRIMMED sample it is not claimed complete', async () => {
    const r = await run('cdc-svi', 'county-poverty-all');
    const rates = observations(r).filter((o) => o.measure === 'svi2018/EP_POV');
    expect(rates).toHaveLength(3142);
    expect(new Set(rates.map((o) => o.geography!.fips!.slice(0, 2))).size).toBe(51);
    expect(rates.filter((o) => o.status === 'suppressed').map((o) => o.geography!.fips)).toEqual(['35039']);
    expect(at(r, 'svi2018/EP_POV', '06037')).toMatchObject({ value: 16, asPublished: '16.0', marginOfError: 0.2 });
    expect(r.notes).toContain('poverty suppressed (-999) for Rio Arriba County, New Mexico (35039)');
    expect(r.complete).toBe(false);
    expect(r.notes.join(' ')).toMatch(/incomplete by construction: replayed from TRIMMED sample/);
  });

  it('Puerto Rico is not in the US county file: a precise not_found; a bad FIPS is the caller\'s mistake', async () => {
    const e = await fails('cdc-svi', 'county-poverty', { county_fips: '72001' });
    expect(e.kind).toBe('not_found');
    expect(e.message).toMatch(/^the SVI 2018 county file has no county 72001: Puerto Rico is not in the SVI US county file /);
    await expect(run('cdc-svi', 'county-poverty', { county_fips: '1001' })).rejects.toBeInstanceOf(ConnectorInputError);
    await expect(run('cdc-svi', 'county-poverty', {})).rejects.toThrow(/needs --county_fips/);
    expect(e).toBeInstanceOf(PublisherError);
  });
});

describe('ACS 5-year 2021 county population and income (census client rows, DERIVED cassette)', () => {
  const args = { year: '2021', product: 'acs5', variables: 'B01003_001E,B02001_002E,B19013_001E' };

  it('Cook County: population 5,265,398 and median household income 72,121 USD, ACS 5-year 2017–2021', async () => {
    const r = await run('census-acs', 'acs-all-counties', args);
    expect(at(r, 'acs5-2021/B01003_001E', '17031')).toMatchObject({
      value: 5265398, asPublished: '5265398', unit: 'count', status: 'reported',
      period: { start: '2017-01-01', end: '2021-12-31', basis: 'survey', label: 'ACS 5-year 2017–2021' },
      geography: { level: 'county', fips: '17031', name: 'Cook County, Illinois' },
      attributes: { dataset: '2021/acs/acs5' },
    });
    expect(at(r, 'acs5-2021/B19013_001E', '17031')).toMatchObject({ value: 72121, unit: 'USD', currency: 'USD' });
    expect(at(r, 'acs5-2021/B02001_002E', '01001')).toMatchObject({ value: 43755, unit: 'count' });
    expect(r.notes.join(' ')).toMatch(/replayed from a DERIVED cassette \(census\/data\/county\/acs5_2021_county_B01003-B02001_002-B19013\.census-pypkg\.csv\)/);
    expect(r.responses[0]!.origin).toMatchObject({ derived: true, trimmed: false });
  });

  it('the jam value -666666666 (Loving County, TX median income) is a marker; 3,221 counties including 78 Puerto Rico municipios', async () => {
    const r = await run('census-acs', 'acs-all-counties', args);
    expect(at(r, 'acs5-2021/B19013_001E', '48301')).toMatchObject({ value: null, status: 'not_computable', asPublished: '-666666666' });
    expect(at(r, 'acs5-2021/B01003_001E', '48301')).toMatchObject({ value: 83, status: 'reported' });
    const pop = observations(r).filter((o) => o.measure === 'acs5-2021/B01003_001E');
    expect(pop).toHaveLength(3221);
    expect(pop.filter((o) => o.geography!.fips!.startsWith('72'))).toHaveLength(78);
    expect(r.complete).toBe(true);
  });
});
