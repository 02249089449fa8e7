/**
 * The rules of issue 10 wired into the keyed search, on the offline default (cassettes as recorded):
 * rule 1 (kind of quantity: a dollar figure never answers "how many") and rule 2 (period grain: a
 * quarter asked is that quarter's own value, never the fiscal year's). Values are the cassettes':
 * Apple's companyfacts (CIK0000320193) RevenueFromContractWithCustomerExcludingAssessedTax for the
 * quarter ending 2023-07-01 is 81,797,000,000; its FY2023 total is 383,285,000,000.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { testServices } from '../ask/services.ts';

let offline: AskServices;
beforeAll(async () => { offline = await testServices(); }, 120_000);

describe('How many employees does Apple have?', () => {
  it('every USD concept is a quantity_mismatch boundary before it is fetched; no dollar figure is published', async () => {
    const r = await ask(offline, { question: 'How many employees does Apple have?' });
    expect(r.status).toBe('refused');
    expect(r.figures).toEqual([]);
    expect(r.evidence).toEqual([]);
    const codes = (r.refusal!.reached ?? []).flatMap((g) => g.boundaries.map((b) => b.code));
    expect(codes).toContain('quantity_mismatch');
    // nothing in USD was even requested for a count
    expect(r.attempts.some((a) => /Liabilit/.test(a.measure ?? ''))).toBe(false);
  }, 120_000);
});

describe("What was Apple's revenue in Q3 2023?", () => {
  it("reads the fiscal Q3 2023 value (2023-04-02…2023-07-01), not the FY2023 total", async () => {
    const r = await ask(offline, { question: "What was Apple's revenue in Q3 2023?" });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.source, e.period, e.period_end, e.value])).toEqual([['sec-edgar', 'FY2023Q3', '2023-07-01', 81797000000]]);
    expect(r.evidence.some((e) => e.value === 383285000000)).toBe(false);
    expect(r.qualification!.disclosures[0]).toMatch(/fiscal Q3 2023/);
  }, 120_000);
});

describe('latest means latest (rule 4)', () => {
  // Los Angeles County's "latest" population (the ACS's newest recorded vintage, before the SVI 2018 republication) is tested in latest-vintages.test.ts

  it('a read of the newest period its source declares, with no newer one declared, is "latest available"', async () => {
    const r = await ask(offline, { question: "What is Apple's revenue?" });
    expect(r.status).toBe('answered');
    expect(r.qualification!.disclosures.filter((x) => x.startsWith('latest available: '))).toHaveLength(1);
  }, 120_000);
});

describe('Which company earned more in 2022, Apple or NVIDIA?', () => {
  it('"earned" is compared on its first reading (net income) for both, said; never no_candidate_source, never a per-share figure', async () => {
    const r = await ask(offline, { question: 'Which company earned more in 2022, Apple or NVIDIA?' });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.entity_key, e.measure, e.period, e.value])).toEqual([
      ['cik=0000320193', 'sec-edgar/us-gaap/NetIncomeLoss', 'FY2022', 99803000000],
      ['cik=0001045810', 'sec-edgar/us-gaap/NetIncomeLoss', 'FY2022', 9752000000],
    ]);
    expect(r.qualification!.disclosures).toContain('"earnings" compared as net income, the first of its readings (net income, revenue); name another to compare on it');
  }, 120_000);
});

describe("What was Apple's revenue? (latest means latest within one response too)", () => {
  it('a concept the filer stopped using is passed over for the later one the same companyfacts response holds', async () => {
    const r = await ask(offline, { question: "What was Apple's revenue?" });
    expect(r.status).toBe('answered');
    // us-gaap/Revenues ends FY2018 in Apple's companyfacts; RevenueFromContractWithCustomerExcludingAssessedTax runs to FY2025 there
    expect(r.evidence.map((e) => [e.source, e.period, e.period_end, e.value])).toEqual([['sec-edgar', 'FY2025', '2025-09-27', 416161000000]]);
    expect(r.evidence.some((e) => e.value === 265595000000)).toBe(false);
    const revenues = r.attempts.find((a) => a.measure === 'sec-edgar/us-gaap/Revenues');
    expect(revenues).toMatchObject({ disposition: 'rejected' });
    expect(revenues!.reason).toMatch(/us-gaap\/Revenues ends 2018-09-29; the same response holds .* to 2025-09-27/);
    expect(revenues!.failure).toBe('newer_in_response');
    // the ranking is disclosed: the concept read, the period it reaches, and the one passed over with its own
    expect(r.qualification!.disclosures).toContain('"latest" read from us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax, the candidate concept with the newest period in the response (to 2025-09-27); passed over: us-gaap/Revenues (to 2018-09-29) and us-gaap/SalesRevenueNet (to 2017-09-30)');
  }, 120_000);

  it('"What is Apple\'s revenue?" (no period, present tense) is the same latest read', async () => {
    const r = await ask(offline, { question: "What is Apple's revenue?" });
    expect(r.evidence.map((e) => [e.measure, e.period])).toEqual([['sec-edgar/us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax', 'FY2025']]);
    expect(r.attempts.find((a) => a.measure === 'sec-edgar/us-gaap/Revenues')?.failure).toBe('newer_in_response');
  }, 120_000);

  it('a year asked is still that year, whichever concept is newest', async () => {
    const r = await ask(offline, { question: "What was Apple's total revenue in 2018?" });
    expect(r.status).toBe('answered');
    expect(r.evidence[0]!.period).toBe('FY2018');
  }, 120_000);
});

describe('Which company earned more in 2022, Apple or NVIDIA? under ask', () => {
  it('the reading compared is asked, as any other ambiguity, before any request; resuming binds it for both sides', async () => {
    const q = { question: 'Which company earned more in 2022, Apple or NVIDIA?', on_ambiguity: 'ask' as const };
    const first = await ask(offline, q);
    expect(first.status).toBe('needs_clarification');
    expect(first.clarification!.options.map((o) => o.assumptions.measure)).toEqual(['net income', 'revenue']);
    expect(first.attempts).toEqual([]);
    const net = await ask(offline, { resume: { run: first.run_id, option: 1 } });
    // the same two net-income records the answer mode compares (read there from the same companyfacts responses)
    const answered = await ask(offline, { question: q.question });
    expect(net.status).toBe('answered');
    expect(net.evidence.map((e) => [e.entity_key, e.measure, e.period, e.value])).toEqual(answered.evidence.map((e) => [e.entity_key, e.measure, e.period, e.value]));
    expect(net.qualification!.disclosures.some((d) => d.startsWith('"earnings" compared as'))).toBe(false);
  }, 240_000);
});
