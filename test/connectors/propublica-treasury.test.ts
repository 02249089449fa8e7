import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.ts';
import { openCassettes } from '../../src/http/cassette.ts';
import { connectorRegistry, runOperation } from '../../src/connectors/registry.ts';
import { entities, observations, offline, run } from './harness.ts';

describe('ProPublica Nonprofit Explorer connector (real responses)', () => {
  it('organization by EIN: filings as USD observations for the tax period', async () => {
    const r = await run('propublica-nonprofits', 'organization', { ein: '31-1124220' });
    expect(entities(r)[0]).toMatchObject({ label: 'RURAL ACTION INC', keys: { ein: '311124220' }, attributes: { subsection: '03', ntee: 'S320' } });
    const rev2020 = observations(r).find((o) => o.measure === 'filing/totrevenue' && o.period.fiscalYear === 2020)!;
    expect(rev2020).toMatchObject({ value: 3714399, unit: 'USD', period: { end: '2020-12-31', basis: 'fiscal' }, attributes: { form: '990', taxPeriod: '202012' } });
  });

  it('EINs returned as integers are re-padded to 9 digits', async () => {
    const r = await run('propublica-nonprofits', 'search', { q: 'rural', page: '0' });
    expect(entities(r).every((e) => /^\d{9}$/.test(e.keys.ein!))).toBe(true);
    const short = entities(r).filter((e) => e.keys.ein!.startsWith('0'));
    expect(short.length).toBeGreaterThan(0);
  });

  it('paging to the declared boundary: one-page result is complete; a lone last page is not', async () => {
    const oh = await run('propublica-nonprofits', 'search', { q: 'rural', state: 'OH', all: 'yes' });
    expect(oh.complete).toBe(true);
    expect(entities(oh)).toHaveLength(68);
    const last = await run('propublica-nonprofits', 'search', { q: 'athens', state: 'OH', page: '3' });
    expect(last.complete).toBe(false);
    expect(last.notes[0]).toMatch(/50 of 350 matches, pages 3–3 of 0–3/);
    expect(last.notes[0]).toMatch(/not a population/);
  });

  it('paging past the snapshot stops at the first missing page and says so', async () => {
    const ctx = await offline();
    const http = new HttpClient({ mode: 'replay', cassettes: await openCassettes('fixtures/publishers') });
    const r = await runOperation(connectorRegistry(), 'propublica-nonprofits', 'search', { q: 'rural', all: 'yes' }, { ...ctx, http });
    expect(r.complete).toBe(false);
    expect(entities(r)).toHaveLength(100);
    expect(r.notes.join(' ')).toMatch(/stopped before page 1: .*not in the offline snapshot/);
  });
});

describe('Treasury Fiscal Data connector', () => {
  it('debt to the penny (real response): strings → USD decimals, federal fiscal year kept', async () => {
    const r = await run('treasury-fiscal-data', 'debt-to-penny-latest');
    expect(r.responses).toHaveLength(1);
    expect(observations(r).find((o) => o.measure === 'debt_to_penny/tot_pub_debt_out_amt')).toMatchObject({
      value: 40260641972390.03, asPublished: '40260641972390.03', unit: 'USD', currency: 'USD', label: 'Total Public Debt Outstanding',
      period: { end: '2026-10-01', instant: true, basis: 'calendar', fiscalYear: 2027 },
    });
    expect(observations(r).some((o) => o.measure.endsWith('src_line_nbr'))).toBe(false);
  });

  it('a range (DERIVED from the CSV download) is one complete page, newest first', async () => {
    const r = await run('treasury-fiscal-data', 'debt-to-penny-range', { start: '2025-01-01', end: '2025-03-06' });
    expect(r.complete).toBe(true);
    const total = observations(r).filter((o) => o.measure === 'debt_to_penny/tot_pub_debt_out_amt');
    expect(total[0]).toMatchObject({ value: 36218587006168.51, period: { end: '2025-03-06' } });
    expect(r.notes.join(' ')).toContain('DERIVED');
  });

  it('rates of exchange: several rows per country when amended mid-quarter, effective date kept', async () => {
    const r = await run('treasury-fiscal-data', 'rates-of-exchange-range', { start: '2025-01-01', end: '2025-12-31' });
    const euro = observations(r).filter((o) => o.attributes.series === 'Euro Zone-Euro');
    expect(euro.map((o) => o.value)).toEqual([0.851, 0.852, 0.853, 0.924]);
    expect(euro[0]!.unit).toBe('foreign currency units per USD');
    const amended = observations(r).filter((o) => o.attributes.effectiveDate !== o.period.end);
    expect(amended.length).toBeGreaterThan(0);
  });

  it('"null" is missing, never zero', async () => {
    const { treasuryObservations } = await import('../../src/connectors/treasury.ts');
    // SYNTHETIC row (written here) in the documented shape: the string "null" for a missing amount
    const obs = treasuryObservations({ data: [{ record_date: '1999-01-04', debt_held_public_amt: 'null', tot_pub_debt_out_amt: '5614217633939.43' }] }, { source: 'treasury-fiscal-data', method: 'GET', url: 'https://example.invalid/', status: 200, sha256: 'x', retrievedAt: 'x' } as never, 'debt-to-penny-range', 'debt_to_penny');
    expect(obs.find((o) => o.measure.endsWith('debt_held_public_amt'))).toMatchObject({ value: null, status: 'missing', asPublished: 'null' });
  });
});
