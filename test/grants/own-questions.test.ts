// Grant questions its authors wrote for themselves (test/grants/own-questions.cases.ts), asked on
// the offline default (the offline interpreter, the embedded store seeded with the bundled
// extract), each judged against figures computed from the extract file: right, or refused where the
// graph cannot answer as asked. A wrong figure graded verified fails the case; so does a refusal
// where the extract answers the question.
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { testServices } from '../ask/services.ts';
import { extractRows } from './helpers.ts';
import { judge, ownCases } from './own-questions.cases.ts';

describe('grant questions in the phrasings people type (offline default, figures from the extract file)', () => {
  const rows = extractRows();
  const funders = new Set(rows.map((r) => r.foundation_ein)).size;
  const cases = ownCases(rows);
  let services: AskServices;
  beforeAll(async () => { services = await testServices(); }, 240_000);

  it('holds at least 60 questions, of every kind', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map((c) => c.kind))).toEqual(new Set(['forward', 'top recipients', 'reverse', 'pair', 'intersection', 'graph-wide', 'geographic', 'cause', 'year', 'open direction', 'not held',
      'average', 'largest', 'count ranking', 'two funders', 'common funders', 'state ranking', 'ambiguous', 'units', 'threshold', 'placeholder']));
  });

  it.each(cases.map((c) => [c.kind, `${c.q}${c.onAmbiguity ? ` (on_ambiguity=${c.onAmbiguity})` : ''}`, c] as const))('%s: %s', async (_kind, q, c) => {
    const r = await ask(services, { question: c.q, ...(c.onAmbiguity ? { on_ambiguity: c.onAmbiguity } : {}) });
    const j = judge(c.expect, { status: r.status, figures: r.figures, disclosures: r.qualification?.disclosures ?? [], refusalCode: r.refusal?.code, options: r.clarification?.options.length }, funders);
    expect(j, `${r.status}: ${r.refusal?.reason ?? r.text}`).toEqual({ outcome: 'right', why: expect.any(String) });
    // paid and approved-for-future are never one figure; the match method is disclosed on every answer
    if (r.status === 'answered') expect(r.qualification!.disclosures.join(' ')).toMatch(/matched|among the \d+ funders/);
  }, 120_000);
});

describe('the judge itself: a wrong figure, a missing disclosure or an answer where a refusal is due is never "right"', () => {
  const answered = (values: number[], disclosures: string[] = []) => ({ status: 'answered', figures: values.map((value) => ({ value, grade: 'verified' })), disclosures });
  it.each([
    ['another question\'s total', { answer: [10], never: [99] }, answered([10, 99]), 'wrong_figure'],
    ['the expected figure missing', { answer: [10] }, answered([11]), 'wrong_figure'],
    ['an unverified figure', { answer: [10] }, { ...answered([10]), figures: [{ value: 10, grade: 'verified' }, { value: 3, grade: 'unverified' }] }, 'wrong_figure'],
    ['coverage not disclosed', { answer: [10], coverage: true }, answered([10]), 'wrong_figure'],
    ['an answer where a refusal is due', { refuse: true }, answered([10]), 'wrong_figure'],
    ['a refusal where an answer is due', { answer: [10] }, { status: 'refused', figures: [], disclosures: [] }, 'refused'],
    ['the right figures and disclosures', { answer: [10], coverage: true }, answered([10], ['among the 15 funders whose filings the graph holds']), 'right'],
    ['a derived figure published as verified', { answer: [10], derived: [5] }, answered([10, 5]), 'wrong_figure'],
    ['a derived figure missing', { answer: [10], derived: [5] }, answered([10]), 'wrong_figure'],
    ['an answer where a clarification is due', { clarify: true, options: 2 }, answered([10]), 'wrong_figure'],
    ['a clarification with too few options', { clarify: true, options: 3 }, { status: 'needs_clarification', figures: [], disclosures: [], options: 2 }, 'clarified'],
    ['a clarification with its options', { clarify: true, options: 2 }, { status: 'needs_clarification', figures: [], disclosures: [], options: 3 }, 'right'],
  ] as const)('%s', (_what, e, r, outcome) => {
    expect(judge(e as never, r, 15).outcome).toBe(outcome);
  });
});
