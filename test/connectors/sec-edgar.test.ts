import { describe, expect, it } from 'vitest';
import { entities, fails, observations, offline, run } from './harness.ts';
import { HttpClient } from '../../src/http/client.ts';
import { openCassettes } from '../../src/http/cassette.ts';
import { connectorRegistry, runOperation } from '../../src/connectors/registry.ts';
import { conceptObservations, fiscalCalendar } from '../../src/connectors/sec-edgar.ts';
import { measureRecords } from '../../src/connectors/records.ts';
import { readFileSync } from 'node:fs';

describe('SEC EDGAR connector (real samples)', () => {
  it('ticker → CIK: AAPL is CIK 0000320193, padded to 10 digits', async () => {
    const r = await run('sec-edgar', 'company-tickers', { ticker: 'aapl' });
    expect(entities(r).map((e) => e.keys)).toEqual([{ cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.' }]);
    expect(r.responses[0]!.cassette).toBe('fixtures/publishers/sec-edgar/company-tickers.company_tickers.cassette.json');
  });

  it('one CIK can have several tickers (share classes)', async () => {
    const r = await run('sec-edgar', 'company-tickers', { cik: '1652044' });
    expect(entities(r).map((e) => e.keys.ticker).sort()).toEqual(['GOOG', 'GOOGL']);
  });

  it('companyfacts: Apple FY2023 revenue is 383,285,000,000 USD for the period ending 2023-09-30', async () => {
    const r = await run('sec-edgar', 'companyfacts', { cik: '320193', taxonomy: 'us-gaap', concept: 'RevenueFromContractWithCustomerExcludingAssessedTax' });
    const fy2023 = observations(r).filter((o) => o.period.fiscalYear === 2023 && o.period.fiscalPeriod === 'FY' && o.attributes.current);
    expect(fy2023).toHaveLength(1);
    const o = fy2023[0]!;
    expect(o.value).toBe(383_285_000_000);
    expect(o).toMatchObject({ unit: 'USD', currency: 'USD', scale: 1, measure: 'us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax', entity: { cik: '0000320193', name: 'Apple Inc.' } });
    expect(o.period).toMatchObject({ start: '2022-09-25', end: '2023-09-30', instant: false, basis: 'fiscal', frame: 'CY2023' });
    // the latest filing (FY2025 10-K) repeats it: fy names the filing, not the period
    expect(o.attributes).toMatchObject({ fy: 2025, form: '10-K', filed: '2025-10-31', current: true, restated: false, filingsReportingPeriod: 3 });
    expect(o.raw).toMatchObject({ url: 'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json', status: 200 });
    expect(o.raw.sha256).toMatch(/^[0-9a-f]{64}$/);
    // the original report of the same period: not current
    const original = observations(r).find((x) => x.period.end === '2023-09-30' && x.attributes.fy === 2023 && x.attributes.form === '10-K');
    expect(original).toMatchObject({ value: 383_285_000_000, attributes: { current: false, filed: '2023-11-03' }, period: { fiscalYear: 2023 } });
  });

  it('a period only ever reported as a prior-year comparative gets its fiscal year from the filer\'s calendar, marked inferred', async () => {
    const r = observations(await run('sec-edgar', 'companyfacts', { cik: '320193', concept: 'RevenueFromContractWithCustomerExcludingAssessedTax', form: '10-K' }));
    const fy2017 = r.find((o) => o.period.start === '2016-09-25' && o.period.end === '2017-09-30')!;
    expect(fy2017).toMatchObject({ value: 229_234_000_000, period: { fiscalYear: 2017, fiscalPeriod: 'FY' }, attributes: { fiscalYearInferred: true } });
    const fy2023 = r.find((o) => o.period.end === '2023-09-30' && o.attributes.current)!;
    expect(fy2023.attributes.fiscalYearInferred).toBeUndefined();
    // quarters are never given an inferred fiscal year
    expect(r.filter((o) => o.attributes.fiscalYearInferred).every((o) => o.period.fiscalPeriod === 'FY')).toBe(true);
  });

  it('units: shares, USD/shares and instants', async () => {
    const eps = observations(await run('sec-edgar', 'companyfacts', { cik: '320193', concept: 'EarningsPerShareDiluted', form: '10-K' }));
    expect(eps.length).toBeGreaterThan(0);
    expect(eps.every((o) => o.unit === 'USD/shares' && o.currency === 'USD')).toBe(true);
    const assets = observations(await run('sec-edgar', 'companyfacts', { cik: '320193', concept: 'Assets' }));
    expect(assets.every((o) => o.period.instant && o.period.start === undefined)).toBe(true);
    const shares = observations(await run('sec-edgar', 'companyfacts', { cik: '320193', taxonomy: 'dei', concept: 'EntityCommonStockSharesOutstanding' }));
    expect(shares.every((o) => o.unit === 'shares' && o.currency === undefined)).toBe(true);
  });

  it('restatements: when filings disagree about a period, the latest filing is current', async () => {
    const r = observations(await run('sec-edgar', 'companyfacts', { cik: '320193', taxonomy: 'us-gaap' }));
    const restated = r.filter((o) => o.attributes.restated);
    expect(restated.length).toBeGreaterThan(0);
    const byPeriod = new Map<string, typeof r>();
    for (const o of restated) {
      const k = `${o.measure}|${o.unit}|${o.period.start}|${o.period.end}`;
      byPeriod.set(k, [...(byPeriod.get(k) ?? []), o]);
    }
    for (const group of byPeriod.values()) {
      const current = group.filter((o) => o.attributes.current);
      expect(current).toHaveLength(1);
      const latest = group.map((o) => String(o.attributes.filed)).sort().at(-1);
      expect(current[0]!.attributes.filed).toBe(latest);
    }
  });

  it('companyfacts makes a concept\'s observations when that concept is read: the same records, in the same order, as converting every concept up front', async () => {
    const body = JSON.parse(readFileSync('fixtures/publishers/sec-edgar/bodies/companyfacts/CIK0000320193.json', 'utf8')) as { facts: Record<string, Record<string, Parameters<typeof conceptObservations>[3]>> };
    const lazy = await run('sec-edgar', 'companyfacts', { cik: '320193' });
    // a few concepts read one at a time, before anything reads the whole list
    const asked = ['us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax', 'us-gaap/Assets', 'dei/EntityCommonStockSharesOutstanding', 'us-gaap/NoSuchConcept'];
    const early = asked.map((m) => measureRecords(lazy, m));
    expect(early[0]!.length).toBeGreaterThan(0);
    expect(early[3]).toEqual([]);
    // the eager reference: every concept converted, in the response's order, with the filer's calendar from all of them
    const calendar = fiscalCalendar(Object.values(body.facts).flatMap((t) => Object.values(t)));
    const raw = lazy.responses[0]! as Parameters<typeof conceptObservations>[4];
    const eager = Object.entries(body.facts).flatMap(([taxonomy, concepts]) => Object.entries(concepts).map(([tag, c]) => conceptObservations({ cik: '0000320193', name: 'Apple Inc.' }, taxonomy, tag, c, raw, 'companyfacts', { calendar }))).flat();
    expect(lazy.records).toHaveLength(eager.length);
    expect(JSON.stringify(lazy.records)).toBe(JSON.stringify(eager));
    // the per-measure reader and the whole list hold the same objects
    asked.forEach((m, i) => {
      const fromAll = lazy.records.filter((r) => r.type === 'observation' && r.measure === m);
      expect(early[i]!).toHaveLength(fromAll.length);
      early[i]!.forEach((o, k) => expect(o).toBe(fromAll[k]));
    });
    // a result whose records were replaced is read through what replaced them
    const copy = { ...lazy };
    expect(copy.records).toBe(lazy.records);
    lazy.records = lazy.records.filter((r) => r.type === 'observation' && r.measure === asked[1]);
    expect(measureRecords(lazy, asked[0]!)).toEqual([]);
    expect(measureRecords(lazy, asked[1]!)).toHaveLength(lazy.records.length);
  });

  it('IFRS filer: ifrs-full concepts with their own units', async () => {
    const r = observations(await run('sec-edgar', 'companyfacts', { cik: '1997711' }));
    expect(new Set(r.map((o) => o.measure.split('/')[0]))).toContain('ifrs-full');
    expect(r.some((o) => o.measure.startsWith('us-gaap/'))).toBe(false);
    expect(r[0]!.entity!.cik).toBe('0001997711');
  });

  it('a concept the filer never reported is not found, naming what it does file', async () => {
    const e = await fails('sec-edgar', 'companyfacts', { cik: '1997711', taxonomy: 'us-gaap', concept: 'Revenues' });
    expect(e.kind).toBe('not_found');
    expect(e.message).toContain('ifrs-full');
    const e404 = await fails('sec-edgar', 'companyconcept', { cik: '320193', taxonomy: 'us-gaap', tag: 'InterestExpenseBorrowings' });
    expect(e404.kind).toBe('not_found');
    expect(e404.status).toBe(404);
    expect(e404.message).toContain('NoSuchKey');
  });

  it('companyconcept (DERIVED sample) gives the same value and says it was derived', async () => {
    const r = await run('sec-edgar', 'companyconcept', { cik: '0000320193', taxonomy: 'us-gaap', tag: 'RevenueFromContractWithCustomerExcludingAssessedTax', form: '10-K' });
    const o = observations(r).find((x) => x.period.end === '2023-09-30' && x.attributes.current);
    expect(o?.value).toBe(383_285_000_000);
    expect(r.notes.join(' ')).toContain('DERIVED');
    expect(r.responses[0]!.origin?.derived).toBe(true);
  });

  it('frames: one value per filer for a calendar period, calendar basis', async () => {
    const r = await run('sec-edgar', 'frames', { taxonomy: 'us-gaap', tag: 'RevenueFromContractWithCustomerExcludingAssessedTax', unit: 'USD', period: 'CY2023' });
    const obs = observations(r);
    expect(obs).toHaveLength(4);
    expect(obs.find((o) => o.entity?.cik === '0000320193')).toMatchObject({ value: 383_285_000_000, period: { basis: 'calendar', frame: 'CY2023', end: '2023-09-30' } });
    const eps = observations(await run('sec-edgar', 'frames', { taxonomy: 'us-gaap', tag: 'EarningsPerShareDiluted', unit: 'USD/shares', period: 'CY2023' }));
    expect(eps.every((o) => o.unit === 'USD/shares')).toBe(true);
    const inst = observations(await run('sec-edgar', 'frames', { taxonomy: 'us-gaap', tag: 'Assets', unit: 'USD', period: 'CY2023Q4I' }));
    expect(inst.every((o) => o.period.instant)).toBe(true);
  });

  it('submissions: identity with EIN, filings as records, overflow pages followed', async () => {
    const apple = await run('sec-edgar', 'submissions-identity', { cik: '320193' });
    expect(entities(apple)[0]!.keys).toEqual({ cik: '0000320193', name: 'Apple Inc.', ein: '942404110', ticker: 'AAPL' });
    const tesla = await run('sec-edgar', 'submissions', { cik: '1318605', form: '10-K' });
    expect(tesla.complete).toBe(true);
    expect(tesla.responses).toHaveLength(2);
    expect(entities(tesla).filter((e) => e.kind === 'filing').length).toBeGreaterThan(5);
  });

  it('an overflow page missing from the snapshot makes the result incomplete, not an error', async () => {
    // strict test mode throws on a missing cassette, so this runs with the offline default (block)
    const ctx = await offline();
    const http = new HttpClient({ mode: 'replay', cassettes: await openCassettes('fixtures/publishers') });
    const msft = await runOperation(connectorRegistry(), 'sec-edgar', 'submissions', { cik: '789019' }, { ...ctx, http });
    expect(msft.complete).toBe(false);
    expect(msft.notes.join(' ')).toContain('CIK0000789019-submissions-001.json');
    expect(msft.notes.join(' ')).toContain('not in the offline snapshot');
    expect(entities(msft).filter((e) => e.kind === 'filing').length).toBeGreaterThan(100);
  });

  it('an individual filer has no ticker', async () => {
    const r = await run('sec-edgar', 'submissions-identity', { cik: '315090' });
    expect(entities(r)[0]!.keys.ticker).toBeUndefined();
    expect(entities(r)[0]!.kind).toBe('filer:other');
  });

  it('a malformed CIK is refused before any request', async () => {
    await expect(run('sec-edgar', 'submissions-identity', { cik: '-1' })).rejects.toThrow(/CIK is 1 to 10 digits/);
  });
});
