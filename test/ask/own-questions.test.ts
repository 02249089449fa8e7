// Questions about Treasury, Census, CDC PLACES, SEC EDGAR and NSF its authors wrote for themselves
// (test/ask/own-questions.cases.ts), asked on the offline default (the offline interpreter, the
// bundled cassettes), each judged against figures read from the recorded responses on disk: right,
// or refused where the snapshot cannot answer as asked. A wrong figure graded verified fails.
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { testServices } from './services.ts';
import { judge, ownCases, secAnnual } from './own-questions.cases.ts';

describe('questions in the phrasings people type (offline default, figures from the recorded responses)', () => {
  const cases = ownCases();
  let services: AskServices;
  beforeAll(async () => { services = await testServices(); }, 240_000);

  it.each(cases.map((c) => [c.kind, c.q, c] as const))('%s: %s', async (_kind, q, c) => {
    const r = await ask(services, { question: q });
    const j = judge(c.expect, { status: r.status, figures: r.figures, boundary: r.refusal?.boundary, disclosures: r.qualification?.disclosures ?? [] });
    expect(j, `${r.status}: ${r.refusal?.reason ?? r.text}`).toEqual({ outcome: 'right', why: expect.any(String) });
  }, 120_000);
});

describe('a year relative to the clock', () => {
  it('"Apple\'s revenue last year" is the fiscal year of the clock year before this one, said with the clock date', async () => {
    const services = await testServices();
    const y = new Date().getUTCFullYear() - 1;
    let want: number | undefined;
    try { want = secAnnual('companyfacts.CIK0000320193.cassette.json', 'RevenueFromContractWithCustomerExcludingAssessedTax', y); } catch { want = undefined; }
    const r = await ask(services, { question: "What was Apple's revenue last year?" });
    if (want === undefined) { expect(r.status).toBe('refused'); return; }
    expect(r.evidence.map((e) => [e.period, e.value])).toEqual([[`FY${y}`, want]]);
    expect(r.qualification!.disclosures.join('\n')).toMatch(new RegExp(`"last year" read as ${y}, by the question's clock \\(${y + 1}-`));
  }, 120_000);
});

describe('the judge itself: a wrong figure or an answer where a refusal is due is never "right"', () => {
  const answered = (values: number[]) => ({ status: 'answered', figures: values.map((value) => ({ value, grade: 'verified' })) });
  it.each([
    ['another measure\'s value beside the right one', { answer: [10], never: [99] }, answered([10, 99]), 'wrong_figure'],
    ['the expected figure missing', { answer: [10] }, answered([11]), 'wrong_figure'],
    ['an unverified figure', { answer: [10] }, { status: 'answered', figures: [{ value: 10, grade: 'verified' }, { value: 3, grade: 'unverified' }] }, 'wrong_figure'],
    ['an answer where a refusal is due', { refuse: true }, answered([10]), 'wrong_figure'],
    ['a refusal where an answer is due', { answer: [10] }, { status: 'refused', figures: [] }, 'refused'],
    ['a refusal with another boundary', { refuse: true, boundary: 'no_data' }, { status: 'refused', figures: [], boundary: 'operationally_blocked' }, 'refused'],
    ['a disclosure missing', { answer: [10], disclose: /newer/ }, answered([10]), 'wrong_figure'],
    ['the right figures', { answer: [10] }, answered([10]), 'right'],
  ] as const)('%s', (_what, e, r, outcome) => {
    expect(judge(e as never, r as never).outcome).toBe(outcome);
  });
});
