/**
 * A list question with a period keeps only the records dated in it, and says so: "this year" is
 * the question clock's calendar year (the interpreter has no clock; the executor resolves it).
 * Tesla's submissions cassette (1,000 recent + 720 on the overflow page) has 6 filings dated 2026
 * (filingDate 2026-01-02 … 2026-01-29, counted from the JSON body).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { listPeriod } from '../../src/execute/shapes/records.ts';
import type { Intent } from '../../src/understand/index.ts';
import { relativeYearIn } from '../../src/understand/offline/periods.ts';
import { testServices } from './services.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);
afterAll(() => { vi.useRealTimers(); });

const intentOf = (question: string, period: Intent['period'], periods: Intent['periods'] = []) => ({ question, period, periods } as Intent);

describe('list periods', () => {
  it('resolves "this year", "last year", a named year and "since" against the clock', () => {
    expect(relativeYearIn('What filings has Tesla submitted to the SEC this year?')).toEqual({ words: 'this year', offset: 0 });
    // the intent's period offset is read (understand/ read the words), not the question text
    const rel = (text: string, offset: number) => ({ text, basis: 'unspecified' as const, year: null, quarter: null, date: null, latest: false, offset });
    expect(listPeriod(intentOf('What filings has Tesla submitted this year?', rel('this year', 0)), '2026-11-30')).toEqual({ from: 2026, to: 2026, words: '"this year", by the question\'s clock (2026-11-30)' });
    expect(listPeriod(intentOf('Tesla filings last year', rel('last year', -1)), '2026-11-30')).toMatchObject({ from: 2025, to: 2025 });
    expect(listPeriod(intentOf('Tesla filings last year', null), '2026-11-30')).toBeUndefined();
    expect(listPeriod(intentOf('Apple filings in 2024', { text: '2024', basis: 'unspecified', year: 2024, quarter: null, date: null, latest: false }), '2026-11-30')).toMatchObject({ from: 2024, to: 2024 });
    const since = [{ text: '2023', basis: 'unspecified' as const, year: 2023, quarter: null, date: null, latest: false }, { text: 'latest', basis: 'unspecified' as const, year: null, quarter: null, date: null, latest: true }];
    expect(listPeriod(intentOf('Apple filings since 2023', null, since), '2026-11-30')).toMatchObject({ from: 2023, to: 2026 });
    expect(listPeriod(intentOf("Show Tesla's SEC filings.", null), '2026-11-30')).toBeUndefined();
  });

  it("lists Tesla's 6 filings dated 2026 for \"this year\" (clock 2026-11-30), and says the filter", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-30T12:00:00Z') });
    const r = await ask(services, { question: 'What filings has Tesla submitted to the SEC this year?' });
    vi.useRealTimers();
    expect(r.status).toBe('answered');
    if (r.status !== 'answered') return;
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('SEC EDGAR lists 6 filings dated 2026 for Tesla, Inc. (CIK 0001318605):');
    expect(lines[1]).toBe('1. 10-K filed 2026-01-29, report date 2025-12-31 (accession_number 0001628280-26-003952)');
    expect(r.evidence).toHaveLength(6);
    expect(r.evidence.every((e) => e.period.startsWith('filingDate 2026-'))).toBe(true);
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['6', 'derived']]);
    expect(r.qualification!.disclosures).toContain('list period: filingDate in 2026 ("this year", by the question\'s clock (2026-11-30)); 6 of the 1720 filing records read');
  });
});

describe('a one-record list', () => {
  it("counts its one record as E1, not (E1…E1): Tesla's 10-K filings this year", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-30T12:00:00Z') });
    const r = await ask(services, { question: 'List the 10-K filings Tesla submitted to the SEC this year' });
    vi.useRealTimers();
    expect(r.status).toBe('answered');
    if (r.status !== 'answered') return;
    expect(r.text.split('\n').slice(0, 2)).toEqual([
      'SEC EDGAR lists 1 filing dated 2026 for Tesla, Inc. (CIK 0001318605):',
      '1. 10-K filed 2026-01-29, report date 2025-12-31 (accession_number 0001628280-26-003952)',
    ]);
    expect(r.figures.map((f) => [f.text, f.grade, f.arithmetic])).toEqual([['1', 'derived', 'D1 number of records: count of records matching the question in the publisher response(s) (E1)']]);
  });
});

describe('a list over a span', () => {
  it('"since 2025" is still a list, of the records dated 2025 through the clock year: Apple has 80 + 22 = 102', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-30T12:00:00Z') });
    const r = await ask(services, { question: "List Apple's SEC filings since 2025" });
    vi.useRealTimers();
    expect(r.status).toBe('answered');
    if (r.status !== 'answered') return;
    expect(r.text.split('\n')[0]).toBe('SEC EDGAR lists 102 filings dated 2025–2026 for Apple Inc. (CIK 0000320193); the 100 most recent:');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['102', 'derived'], ['100', 'derived']]);
    // the unread overflow page (1994–2015) is outside the span: the list is whole, the page disclosed once
    expect(r.text).not.toContain('Note:');
    expect(r.qualification!.disclosures.filter((d) => d.includes('CIK0000320193-submissions-001.json'))).toHaveLength(1);
  });
});
