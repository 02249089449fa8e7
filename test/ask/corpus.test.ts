/**
 * The corpus's keyed-read questions end to end on the offline default: every answer's figures are
 * verified or derived and cited from the graph; everything else is a typed refusal — never an
 * invented answer. The questions the cassettes hold are pinned to their exact values.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import { loadCorpus } from '../../src/understand/corpus.ts';
import { testServices } from './services.ts';

const KEYED = ['point', 'status', 'entity_list', 'comparison', 'timeseries'];
// not_understood: a series whose years the offline interpreter did not read ("the last five years") is not a lack of data
const BOUNDARIES = ['no_access_path', 'no_candidate_source', 'entity_unresolved', 'no_data', 'operationally_blocked', 'unsupported_shape', 'not_understood'];

/** question → [measure, period, value] of each evidence, for every question the cassettes answer. */
const PINNED: Record<string, Array<[string, string, number]>> = {
  "What was Apple's revenue in 2019?": [['RevenueFromContractWithCustomerExcludingAssessedTax', 'FY2019', 260174000000]],
  'Apple gross profit 2022': [['GrossProfit', 'FY2022', 170782000000]],
  "What was Apple's profit in 2023?": [['NetIncomeLoss', 'FY2023', 96995000000]],
  "What was Apple's revenue in calendar year 2022?": [['RevenueFromContractWithCustomerExcludingAssessedTax', 'FY2022', 394328000000]],
  "What is Tesla's net income?": [['NetIncomeLoss', 'FY2021', 5519000000]],
  "What was Tesla's income in 2021?": [['NetIncomeLoss', 'FY2021', 5519000000]],
  // Treasury Fiscal Data, read without entity resolution (src/execute/unkeyed.ts): the dataset's scope, or the currency row named
  'What is the latest total public debt outstanding?': [['tot_pub_debt_out_amt', '2026-10-01', 40260641972390.03]],
  'How much debt is held by the public right now?': [['debt_held_public_amt', '2026-10-01', 32433790394253.86]],
  'What were intragovernmental holdings at the end of 2023?': [['intragov_hold_amt', '2023-12-29', 7062976040880.89]],
  'What was the Japanese yen exchange rate in the second quarter of 2023?': [['exchange_rate', '2023-06-30', 144.62]],
  // College Scorecard school 130794 (Yale University), resolved among schools by its IPEDS UNITID
  "What is Yale's in-state tuition?": [['cost.tuition.in_state', 'latest available (year varies by field)', 51400]],
};

let services: AskServices;
const results = new Map<string, AskResult>();
beforeAll(async () => {
  services = await testServices();
  for (const r of (await loadCorpus()).filter((x) => KEYED.includes(x.shape))) results.set(r.question, await ask(services, { question: r.question }));
}, 300_000);

describe('keyed-read corpus, offline', () => {
  it('every answered question has only verified or derived figures, each cited to a publisher response', () => {
    const answered = [...results.values()].filter((r) => r.status === 'answered');
    expect(answered.length).toBeGreaterThanOrEqual(Object.keys(PINNED).length);
    for (const r of answered) {
      // a status answer is a yes/no read from a code: it writes no measured figure
      if (!r.evidence.every((e) => typeof e.value === 'boolean')) expect(r.figures.length, r.question).toBeGreaterThan(0);
      for (const f of r.figures) expect(['verified', 'derived'], `${r.question}: ${f.text}`).toContain(f.grade);
      expect(r.citations.length, r.question).toBe(r.evidence.length);
      for (const c of r.citations) expect(c.url, r.question).toMatch(/^https:\/\//);
    }
  });

  it('the questions the cassettes hold are answered with the exact published values', () => {
    for (const [q, want] of Object.entries(PINNED)) {
      const r = results.get(q)!;
      expect(r.status, q).toBe('answered');
      expect(r.evidence.map((e) => [e.measure.split('/').pop(), e.period, e.value]), q).toEqual(want);
    }
  });

  it('everything else is a typed refusal with a reason and what would make it answerable, or a name asked back', () => {
    for (const r of results.values()) {
      if (r.status === 'answered') continue;
      if (r.status === 'needs_clarification') {
        // A name several registered names start with: asked back with them, nothing read on a guess.
        expect(r.clarification?.code, r.question).toBe('entity_candidates');
        expect(r.clarification!.options.length, r.question).toBeGreaterThanOrEqual(2);
        for (const o of r.clarification!.options) expect(o.value, r.question).toBeNull();
        expect([r.figures, r.evidence], r.question).toEqual([[], []]);
        continue;
      }
      expect(r.status, r.question).toBe('refused');
      expect(BOUNDARIES, r.question).toContain(r.refusal!.boundary);
      expect(r.refusal!.reason.length).toBeGreaterThan(10);
      expect(r.refusal!.answerable_if.length).toBeGreaterThan(5);
      expect(r.figures).toEqual([]);
      expect(r.evidence).toEqual([]);
    }
  });
});
