/**
 * Argument binding is owned by each connector, and the executor (src/execute/bind.ts,
 * bind-records.ts) reads through those binders: the calls bound for a measure, key and period are
 * pinned here, and "latest" comes from the validated descriptors.
 */
import { describe, expect, it } from 'vitest';
import { boundOperations, crossCheckBinderOf, keyedBinderOf, recordBinderOf } from '../../src/connectors/registry.ts';
import { calendarFrame } from '../../src/connectors/sec-edgar.ts';
import { loadDescriptors } from '../../src/connectors/catalog.ts';
import { bindReadings, entityTypeFor, KEYED_OPERATIONS } from '../../src/execute/bind.ts';
import { bindRecordOperation, RECORD_OPERATIONS, recordKeyTypes } from '../../src/execute/bind-records.ts';
import type { PeriodAsked } from '../../src/connectors/binding.ts';

const Y2021: PeriodAsked = { year: 2021, basis: 'unspecified', latest: false, text: '2021' };
const LATEST: PeriodAsked = { year: null, basis: 'unspecified', latest: true, text: 'the latest period' };
const strip = (r: unknown) => JSON.parse(JSON.stringify(r));

const KEYED_CASES: Array<[string, string, { keyType: string; value: string }, PeriodAsked]> = [
  ['sec-edgar/companyfacts', 'sec-edgar/us-gaap/Assets', { keyType: 'cik', value: '0000320193' }, Y2021],
  ['sec-edgar/companyconcept', 'sec-edgar/us-gaap/Assets', { keyType: 'cik', value: '0000320193' }, Y2021],
  ['sec-edgar/companyconcept', 'sec-edgar/us-gaap/Assets', { keyType: 'ein', value: '942404110' }, Y2021],
  ['census-acs/acs-state', 'census-acs/acs5-2009/B17001_002E', { keyType: 'fips', value: '48' }, { ...Y2021, year: 2018 }],
  ['census-acs/acs-county', 'census-acs/acs5-2009/B01003_001E', { keyType: 'fips', value: '06037' }, Y2021],
  ['census-acs/acs-county', 'census-acs/acs5-2009/B01003_001E', { keyType: 'fips', value: '06037' }, LATEST],
  ['census-acs/acs-place', 'census-acs/acs5-2009/S1701_C03_001E', { keyType: 'fips', value: '1714000' }, Y2021],
  ['census-acs/acs-county', 'census-acs/acs5-2009/B01003_001E', { keyType: 'fips', value: '06' }, Y2021],
  ['cdc-svi/county-poverty', 'cdc-svi/svi2018/E_TOTPOP', { keyType: 'fips', value: '06037' }, LATEST],
  ['cdc-places/county-measure', 'cdc-places/measureid/DIABETES', { keyType: 'fips', value: '17031' }, LATEST],
  ['propublica-nonprofits/organization', 'propublica-nonprofits/filing/totrevenue', { keyType: 'ein', value: '131624100' }, Y2021],
  ['college-scorecard/school', 'college-scorecard/latest/cost.tuition.in_state', { keyType: 'ipeds_unitid', value: '130794' }, LATEST],
];

describe('connectors own their argument binding', () => {
  it('bind the same keyed operations as the executor\'s table', () => {
    expect(boundOperations('keyedBinders').sort()).toEqual([...KEYED_OPERATIONS].sort());
    expect(boundOperations('recordBinders').sort()).toEqual([...RECORD_OPERATIONS].sort());
  });

  // The calls each connector binds, pinned (a snapshot reviewed when a binding changes): the
  // executor's bindReadings now is the connector's binder, so comparing the two could not fail.
  it.each(KEYED_CASES)('%s %s %o: the calls bound', async (op, measure, key, period) => {
    const declared = await loadDescriptors('ard-okf');
    const ours = keyedBinderOf(op)!.bind({ measureKey: measure, key, period, declared });
    expect(strip(ours)).toMatchSnapshot();
    expect(keyedBinderOf(op)!.entityType).toBe(entityTypeFor(op));
    // the executor reads through the same binder (and adds only its empty-result error)
    expect(strip(bindReadings(op, measure, key, period, declared))).toEqual(strip(ours));
    if (Array.isArray(ours) && ours[0]?.labelFor) {
      const t = 'B19013_001E: Median household income in the past 12 months (in 2009 inflation-adjusted dollars)';
      expect(ours[0].labelFor(t)).toMatchSnapshot();
    }
  });

  it('"latest" for the ACS is the newest vintage the descriptors given declare, and needs them', () => {
    const r = keyedBinderOf('census-acs/acs-county')!.bind({ measureKey: 'census-acs/acs5-2009/B01003_001E', key: { keyType: 'fips', value: '06037' }, period: LATEST, declared: { newestDeclaredYear: () => 2031 } });
    expect(Array.isArray(r) && r[0]!.fetchArgs.year).toBe('2031');
    expect(keyedBinderOf('census-acs/acs-county')!.bind({ measureKey: 'census-acs/acs5-2009/B01003_001E', key: { keyType: 'fips', value: '06037' }, period: LATEST })).toMatchObject({ error: expect.stringMatching(/from the catalog/) });
  });

  it.each([
    ['sec-edgar/submissions', { keyType: 'cik', value: '0000320193' }, { form: '10-K' }],
    ['sec-edgar/submissions-identity', { keyType: 'cik', value: '0000320193' }, {}],
    ['propublica-nonprofits/organization', { keyType: 'ein', value: '131624100' }, {}],
    ['nsf-awards/awards-by-awardee', { keyType: 'name', value: 'University Corporation for Atmospheric Research' }, {}],
    ['nih-reporter/projects-by-organization', { keyType: 'name', value: 'Johns Hopkins University' }, { year: 2024 }],
    ['usaspending/spending-by-award', { keyType: 'name', value: 'Lockheed Martin' }, { awardGroup: 'contracts' as const, today: '2026-11-30' }],
    ['usaspending/spending-by-award', { keyType: 'name', value: 'Lockheed Martin' }, {}],
    ['irs-eo-bmf/eo-bmf-ein-lookup', { keyType: 'ein', value: '530196605' }, { state: 'dc' }],
    ['irs-eo-bmf/eo-bmf-state', { keyType: 'ein', value: '530196605' }, { registryState: { code: 'dc', label: 'District of Columbia' } }],
    ['irs-eo-bmf/eo-bmf-state', { keyType: 'ein', value: '530196605' }, {}],
  ] as const)('%s %o %o: the record read bound', (op, key, hints) => {
    // pinned (a snapshot reviewed when a binding changes); the executor reads through this binder
    expect(strip(recordBinderOf(op)!.bind(key, hints))).toMatchSnapshot();
    expect(recordBinderOf(op)!.takes).toMatchSnapshot();
    expect(bindRecordOperation(op, key, hints)).toEqual(recordBinderOf(op)!.bind(key, hints));
    expect(recordKeyTypes(op)).toEqual(recordBinderOf(op)!.takes);
  });

  it('SEC frames bind a cross-check of admitted evidence by its calendar frame', () => {
    expect(calendarFrame({ start: '2022-09-25', end: '2023-09-30' })).toBe('CY2023');
    expect(calendarFrame({ end: '2023-01-29' })).toBe('CY2022Q4I');
    expect(calendarFrame({ start: '2022-09-25', end: '2023-07-01' })).toBeUndefined();
    expect(crossCheckBinderOf('sec-edgar/frames')!({ measure: 'sec-edgar/us-gaap/Assets', unit: 'USD', period: { end: '2023-09-30' } })).toEqual({ fetchArgs: { taxonomy: 'us-gaap', tag: 'Assets', unit: 'USD', period: 'CY2023Q3I' }, measure: 'us-gaap/Assets' });
  });
});
