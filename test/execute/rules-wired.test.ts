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

describe('What is the population of Los Angeles County, California? (rule 4, latest means latest)', () => {
  it('the source declaring the newest period is tried first; the older SVI vintage read says which newer one exists and why it was not read', async () => {
    const r = await ask(offline, { question: 'What is the population of Los Angeles County, California?' });
    // the ACS (declared through 2024) before CDC/ATSDR SVI 2018 (ACS 2014–2018 republished)
    expect(r.attempts[0]!.source).toBe('census-acs');
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.source, e.entity_key, e.value])).toEqual([['cdc-svi', 'fips=06037', 10098052]]);
    const d = r.qualification!.disclosures;
    expect(d.some((x) => /^latest available/.test(x))).toBe(false);
    expect(d).toContain('"latest" read as ACS 5-year 2014–2018 (republished in CDC/ATSDR SVI 2018); 1 newer declared period not read: American Community Survey estimates (through 2024-12-31), the Census Bureau (ACS): not in the offline snapshot');
  }, 120_000);

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
