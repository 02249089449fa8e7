/**
 * The pure rules the search engine calls before admitting a candidate: kind of quantity vs unit,
 * period grain, and "latest means latest". Tables of cases; each asserts codes and parameters.
 */
import { describe, expect, it } from 'vitest';
import { checkQuantity, unitKind } from '../../src/validate/quantity.ts';
import { checkGrain, checkGrainAvailable, grainsIn, readGrain } from '../../src/validate/grain.ts';
import { byNewest, checkLatestOrder, latestDisclosure, newestEnd, type DeclaredPeriod } from '../../src/validate/latest.ts';
import type { Period } from '../../src/connectors/records.ts';

describe('kind of quantity vs unit', () => {
  it.each([
    ['USD', undefined, 'money'], ['USD/shares', undefined, 'money'], ['USD-per-shares', undefined, 'money'], ['EUR', undefined, 'money'],
    ['shares', undefined, 'count'], ['count', undefined, 'count'], ['%', undefined, 'percent'], ['percent', 'percent', 'percent'],
    ['ratio', undefined, 'ratio'], ['pure', undefined, 'ratio'], ['foreign currency units per USD', undefined, 'exchange_rate'], ['EUR per USD', undefined, 'exchange_rate'],
    ['1', undefined, 'number'], ['date', 'date', 'date'], ['years', undefined, 'duration'], ['sqft', undefined, 'physical'],
    ['Plaintiff', undefined, 'unknown'],
  ] as const)('%s (%s) is %s', (unit, valueType, kind) => expect(unitKind({ unit, ...(valueType ? { valueType } : {}) })).toBe(kind));

  it.each([
    ['count', 'USD', false], ['count', 'shares', true], ['count', 'count', true], ['count', '%', false], ['count', '1', true],
    ['money', 'USD', true], ['money', 'USD/shares', true], ['money', 'count', false], ['money', '%', false], ['money', 'shares', false],
    ['percent', '%', true], ['percent', 'ratio', true], ['percent', 'USD', false], ['percent', 'count', false],
    ['ratio', 'foreign currency units per USD', true], ['ratio', 'USD', false],
    // an exchange rate is the price of a currency, never the share a percent asks ("the unemployment rate" read the rates of exchange)
    ['percent', 'foreign currency units per USD', false],
    ['date', 'USD', false], ['yes_no', 'USD', false], ['records', 'USD', false], ['records', 'count', false],
  ] as const)('%s asked, unit %s → ok %s', (asked, unit, ok) => expect(checkQuantity(asked, { unit }).ok).toBe(ok));

  it('a dollar liability cannot answer "how many employees": the code names the kinds', () => {
    expect(checkQuantity('count', { unit: 'USD', currency: 'USD' })).toEqual({ ok: false, code: 'quantity_mismatch', asked: 'count', unit: 'USD', unitKind: 'money' });
  });

  it('lets an unknown unit through for the later checks, and no kind asked rejects nothing', () => {
    expect(checkQuantity('count', { unit: 'Plaintiff' })).toEqual({ ok: true, unitKind: 'unknown', note: 'unit_unknown' });
    expect(checkQuantity(null, { unit: 'USD' })).toEqual({ ok: true, unitKind: 'money' });
    expect(checkQuantity('percent', { unit: 'ratio' })).toMatchObject({ ok: true, note: 'ratio_as_percent' });
  });
});

const dur = (start: string, end: string, extra: Partial<Period> = {}): Period => ({ start, end, instant: false, basis: 'fiscal', ...extra });

describe('period grain', () => {
  it.each([
    [dur('2022-09-25', '2023-09-30'), 'year'],
    [dur('2023-07-02', '2023-09-30'), 'quarter'],
    [dur('2022-09-25', '2023-07-01'), 'nine_months'],
    [dur('2023-01-01', '2023-06-30'), 'half'],
    [dur('2023-03-01', '2023-03-31'), 'month'],
    [dur('2017-01-01', '2021-12-31', { basis: 'survey' }), 'multi_year'],
    [{ end: '2023-09-30', instant: true, basis: 'fiscal' } as Period, 'instant'],
    [{ instant: false, basis: 'fiscal', fiscalPeriod: 'FY' } as Period, 'year'],
    [{ instant: false, basis: 'fiscal' } as Period, null],
  ] as const)('%o reads as %s', (p, g) => expect(readGrain(p)).toBe(g));

  it('an annual value never answers a quarter, and names the grain it is', () => {
    const r = checkGrain({ grain: 'quarter', year: 2023, quarter: 3 }, dur('2022-09-25', '2023-09-30', { fiscalYear: 2023, fiscalPeriod: 'FY' }));
    expect(r).toMatchObject({ ok: false, code: 'grain_mismatch', asked: 'quarter', read: 'year' });
  });

  it('a year-to-date nine months is not the quarter either', () => {
    expect(checkGrain({ grain: 'quarter', year: 2023, quarter: 3 }, dur('2022-09-25', '2023-07-01', { fiscalYear: 2023, fiscalPeriod: 'Q3' }))).toMatchObject({ ok: false, read: 'nine_months' });
  });

  it('a quarter never answers a year; an instant and a survey vintage may', () => {
    expect(checkGrain({ grain: 'year', year: 2023 }, dur('2023-07-02', '2023-09-30'))).toMatchObject({ ok: false, code: 'grain_mismatch', asked: 'year', read: 'quarter' });
    expect(checkGrain({ grain: 'year', year: 2023 }, { end: '2023-09-30', instant: true, basis: 'fiscal' })).toMatchObject({ ok: true, read: 'instant' });
    expect(checkGrain({ grain: 'year', year: 2021 }, dur('2017-01-01', '2021-12-31', { basis: 'survey' }))).toMatchObject({ ok: true, read: 'multi_year' });
  });

  it('reads which quarter by the basis asked', () => {
    const fiscalQ3 = dur('2023-04-02', '2023-07-01', { fiscalYear: 2023, fiscalPeriod: 'Q3' });
    expect(checkGrain({ grain: 'quarter', year: 2023, quarter: 3, basis: 'fiscal' }, fiscalQ3)).toEqual({ ok: true, read: 'quarter', quarterReading: 'fiscal' });
    expect(checkGrain({ grain: 'quarter', year: 2023, quarter: 3, basis: 'unspecified' }, fiscalQ3)).toEqual({ ok: true, read: 'quarter', quarterReading: 'fiscal' });
    // the same record is calendar Q2, so a calendar Q3 question does not take it
    expect(checkGrain({ grain: 'quarter', year: 2023, quarter: 3, basis: 'calendar' }, fiscalQ3)).toMatchObject({ ok: false, code: 'quarter_mismatch' });
    expect(checkGrain({ grain: 'quarter', year: 2023, quarter: 2, basis: 'calendar' }, fiscalQ3)).toMatchObject({ ok: true, quarterReading: 'calendar' });
    expect(checkGrain({ grain: 'quarter', year: 2023, quarter: 3, basis: 'calendar' }, dur('2023-07-01', '2023-09-30', { basis: 'calendar', frame: 'CY2023Q3' }))).toMatchObject({ ok: true, quarterReading: 'calendar' });
  });

  it('refuses a quarter when a source has annual values only, naming what it has', () => {
    const annual = [dur('2021-09-26', '2022-09-24'), dur('2022-09-25', '2023-09-30'), { end: '2023-09-30', instant: true, basis: 'fiscal' } as Period];
    expect(grainsIn(annual)).toEqual(['instant', 'year']);
    // an instant would answer a quarter end, so a balance source is not "unavailable"
    expect(checkGrainAvailable('quarter', annual)).toEqual({ ok: true });
    expect(checkGrainAvailable('quarter', annual.slice(0, 2))).toEqual({ ok: false, code: 'grain_unavailable', asked: 'quarter', available: ['year'] });
    expect(checkGrainAvailable('year', [dur('2023-07-02', '2023-09-30')])).toEqual({ ok: false, code: 'grain_unavailable', asked: 'year', available: ['quarter'] });
    expect(checkGrainAvailable(null, annual)).toEqual({ ok: true });
  });
});

describe('latest means latest', () => {
  const svi: DeclaredPeriod = { candidate: 'cdc-svi/county-poverty/svi2018/E_TOTPOP', source: 'cdc-svi', end: '2018-12-31', label: 'ACS 5-year 2014–2018' };
  const acs: DeclaredPeriod = { candidate: 'census-acs/acs-county/B01003_001E', source: 'census-acs', end: '2021-12-31', label: 'ACS 5-year 2017–2021' };
  const acs24: DeclaredPeriod = { candidate: 'census-acs/acs-county/B01003_001E@2024', source: 'census-acs', end: '2024', label: 'ACS 5-year 2020–2024' };

  it('orders candidates newest first, keeping discovery order among equals', () => {
    expect(byNewest([svi, acs, acs24]).map((d) => d.candidate)).toEqual([acs24.candidate, acs.candidate, svi.candidate]);
    const twin = { ...acs, candidate: 'twin' };
    expect(byNewest([acs, twin]).map((d) => d.candidate)).toEqual([acs.candidate, 'twin']);
    expect(newestEnd([svi, acs])).toBe('2021-12-31');
    expect(newestEnd([])).toBeUndefined();
  });

  it('"latest available" only when nothing newer is declared', () => {
    expect(latestDisclosure(acs, [svi, acs])).toEqual({ code: 'latest_available', period: 'ACS 5-year 2017–2021', source: 'census-acs' });
  });

  it('an older vintage read says which newer ones exist and why each was not read', () => {
    expect(latestDisclosure(svi, [svi, acs, acs24], new Map([[acs24.candidate, 'offline']]))).toEqual({
      code: 'older_vintage_read',
      read: { candidate: svi.candidate, source: 'cdc-svi', period: 'ACS 5-year 2014–2018' },
      newer: [
        { candidate: acs24.candidate, source: 'census-acs', period: 'ACS 5-year 2020–2024', reason: 'offline' },
        { candidate: acs.candidate, source: 'census-acs', period: 'ACS 5-year 2017–2021', reason: 'not_attempted' },
      ],
    });
  });

  it('a read that skipped a newer candidate without trying it is out of order', () => {
    expect(checkLatestOrder(svi, [svi, acs], new Set([svi.candidate]))).toEqual({ ok: false, code: 'newer_not_tried', read: svi.candidate, newer: [acs.candidate] });
    expect(checkLatestOrder(svi, [svi, acs], new Set([svi.candidate, acs.candidate]))).toEqual({ ok: true });
    expect(checkLatestOrder(acs, [svi, acs], new Set([acs.candidate]))).toEqual({ ok: true });
  });
});
