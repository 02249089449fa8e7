/**
 * Treasury average interest rates, latest record: the real page-size-1 response (record 2026-08-31)
 * replayed through the catalog's avg-interest-rates-latest operation.
 */
import { describe, expect, it } from 'vitest';
import { observations, run } from './harness.ts';

describe('Treasury average interest rates, latest record (real response)', () => {
  it('the rate is a percent decimal from a string, dated and with its federal fiscal year', async () => {
    const r = await run('treasury-fiscal-data', 'avg-interest-rates-latest');
    expect(r.responses).toHaveLength(1);
    expect(r.responses[0]!.url).toBe('https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v2/accounting/od/avg_interest_rates?sort=-record_date&page[size]=1');
    const obs = observations(r);
    // only avg_interest_rate_amt is a number field; src_line_nbr (INTEGER) and the calendar fields are not measures
    expect(obs.map((o) => o.measure)).toEqual(['avg_interest_rates/avg_interest_rate_amt']);
    expect(obs[0]).toMatchObject({
      value: 3.788, asPublished: '3.788', status: 'reported', unit: '%', scale: 1, label: 'Average Interest Rate Amount',
      period: { end: '2026-08-31', instant: true, basis: 'calendar', fiscalYear: 2026 },
      attributes: { series: 'Marketable / Treasury Bills' },
    });
    expect(obs[0]!.currency).toBeUndefined();
  });

  it('says it is one security type of the month, not all of them', async () => {
    const r = await run('treasury-fiscal-data', 'avg-interest-rates-latest');
    expect(r.complete).toBe(true);
    expect(r.notes).toContain('the latest record only (sorted by record_date descending, page size 1)');
    expect(r.notes.join(' ')).toMatch(/one security type for record date 2026-08-31 \(Marketable \/ Treasury Bills\), not every security type/);
    expect(r.notes.join(' ')).not.toContain('DERIVED');
  });
});
