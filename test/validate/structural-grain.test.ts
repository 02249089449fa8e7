/**
 * The structural period check honours the quarter and the grain asked: a quarter asked is that
 * quarter's value or a balance at its end; an annual value never answers it, nor a quarter a year.
 */
import { describe, expect, it } from 'vitest';
import { checkObservation, type PeriodWanted } from '../../src/validate/structural.ts';
import type { Observation, Period } from '../../src/connectors/records.ts';

const obs = (period: Period, value = 1): Observation => ({
  type: 'observation', source: 'sec-edgar', operation: 'companyconcept', measure: 'us-gaap/Revenues', label: 'Revenues', value, status: 'reported', unit: 'USD', currency: 'USD', scale: 1, period,
  entity: { cik: '0000320193', name: 'Apple Inc.' }, attributes: {}, raw: { source: 'sec-edgar', method: 'GET', url: 'https://data.sec.gov/x', status: 200, sha256: 'x', retrievedAt: 'x' },
});
const check = (period: Period, want: Partial<PeriodWanted>) => checkObservation(obs(period), {
  entity: { keyType: 'cik', key: '0000320193', label: 'Apple Inc.' }, measure: 'us-gaap/Revenues', unit: 'USD', attribute: 'revenues',
  period: { year: 2023, basis: 'unspecified', latest: false, text: 'Q3 2023', ...want },
}).checks.find((c) => c.name === 'period')!;

const FY2023 = { start: '2022-09-25', end: '2023-09-30', instant: false, basis: 'fiscal', fiscalYear: 2023, fiscalPeriod: 'FY' } as const;
const FQ3 = { start: '2023-04-02', end: '2023-07-01', instant: false, basis: 'fiscal', fiscalYear: 2023, fiscalPeriod: 'Q3' } as const;
const YTD9 = { start: '2022-09-25', end: '2023-07-01', instant: false, basis: 'fiscal', fiscalYear: 2023, fiscalPeriod: 'Q3' } as const;

describe('structural period check: quarter and grain', () => {
  it.each([
    ['the fiscal year for Q3', FY2023, { quarter: 3 }, false, /a quarter asked; the record is a year value/],
    ['nine months year to date for Q3', YTD9, { quarter: 3 }, false, /nine months/],
    ['the fiscal Q3 for Q3', FQ3, { quarter: 3 }, true, /fiscal Q3 2023/],
    ['the fiscal Q3 for calendar Q3', FQ3, { quarter: 3, basis: 'calendar' }, false, /Q3 2023 \(calendar\) asked/],
    ['a quarter for the year', FQ3, { text: '2023' }, false, /a year asked; the record is a quarter value/],
    ['the fiscal year for fiscal 2023', FY2023, { basis: 'fiscal', text: 'fiscal 2023' }, true, /fiscal year 2023/],
  ] as const)('%s → passed %s', (_, period, want, passed, detail) => {
    const c = check(period as Period, want);
    expect(c.passed).toBe(passed);
    expect(c.detail).toMatch(detail);
  });

  it('a balance at the end of the quarter answers it', () => {
    expect(check({ end: '2023-07-01', instant: true, basis: 'fiscal', fiscalYear: 2023, fiscalPeriod: 'Q3' }, { quarter: 3 }).passed).toBe(true);
    expect(check({ end: '2023-09-30', instant: true, basis: 'fiscal', fiscalYear: 2023, fiscalPeriod: 'FY' }, { quarter: 3, basis: 'calendar' }).passed).toBe(true);
    expect(check({ end: '2023-12-30', instant: true, basis: 'fiscal', fiscalYear: 2024, fiscalPeriod: 'Q1' }, { quarter: 3 }).passed).toBe(false);
  });
});
