/**
 * Names Assay will not guess (src/ask/names.ts), asked back instead of refused, offline: several
 * registered names start with the name asked ("Amazon", "Yale"), or the name was written in lower
 * case, mistyped or with look-alike letters. Nothing is ever read on the guess; picking an option
 * resumes the question bound to that entity, and its figure is verified like any other. Expected
 * figures are read from the recorded responses on disk (own-questions.cases.ts helpers).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import { editDistance, latinLookalike, questionWords, respelled, typoBound, wordRuns } from '../../src/resolve/near.ts';
import { optionNamed, type ResumeState } from '../../src/ask/resume.ts';
import { testServices } from './services.ts';
import { secAnnual, secYearEndBalance } from './own-questions.cases.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const APPLE_2023 = secAnnual('companyfacts.CIK0000320193.cassette.json', 'RevenueFromContractWithCustomerExcludingAssessedTax', 2023);
const TESLA_2021 = secYearEndBalance('companyfacts.CIK0001318605.cassette.json', 'Assets', 2021);

const labels = (r: AskResult) => r.clarification?.options.map((o) => o.entity?.label) ?? [];
const optionFor = (r: AskResult, label: string) => r.clarification!.options.find((o) => o.entity?.label === label)!.n;
/** No publisher was asked and no figure was produced. */
function nothingRead(r: AskResult) {
  expect(r.figures).toEqual([]);
  expect(r.evidence).toEqual([]);
  expect(r.attempts.filter((a) => a.disposition === 'accepted')).toEqual([]);
}

describe('several registered names start with the name asked: the candidates are listed, none is picked', () => {
  it.each([
    "What was Amazon's revenue in 2023?",
    'How much revenue did Amazon have in 2023?',
    "Amazon's total revenue for fiscal 2023",
  ])('%s', async (q) => {
    for (const on_ambiguity of ['answer', 'ask'] as const) {
      const r = await ask(services, { question: q, on_ambiguity });
      expect(r.status, r.text).toBe('needs_clarification');
      expect(r.clarification).toMatchObject({ code: 'entity_candidates', asked: 'Amazon' });
      expect(labels(r)).toEqual(['AMAZON BIODIVERSITY CENTER', 'AMAZON COM INC', 'AMAZON CONSERVATION ASSOCIATION']);
      const sec = r.clarification!.options.find((o) => o.entity?.label === 'AMAZON COM INC')!;
      expect(sec.entity).toMatchObject({ kinds: ['company'], readable_by: ['cik'] });
      expect(sec.entity!.identifiers.cik).toEqual(['0001018724']);
      expect(r.text).toContain('AMAZON COM INC (company, SEC CIK 1018724; the sources planned read it by SEC CIK)');
      nothingRead(r);
    }
  }, 120_000);

  it('"Yale": the school without a CIK is offered beside the SEC filer, and the filer is never read as Yale', async () => {
    const r = await ask(services, { question: 'How much does Yale cost?' });
    expect(r.status).toBe('needs_clarification');
    expect(labels(r)).toEqual(['YALE CLUB OF WASHINGTON D C', 'Yale Transaction Finders, Inc.', 'Yale University']);
    expect(r.clarification!.options.find((o) => o.entity?.label === 'Yale University')!.entity).toMatchObject({ kinds: ['school'], identifiers: { ipeds_unitid: ['130794'] } });
    nothingRead(r);
  }, 60_000);

  it('picking the SEC registrant reads it by its CIK: offline, its filings are not recorded, which the refusal says (no figure is invented)', async () => {
    const first = await ask(services, { question: "What was Amazon's revenue in 2023?" });
    const r = await ask(services, { resume: { run: first.run_id, option: optionFor(first, 'AMAZON COM INC') } });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'operationally_blocked', code: 'offline' });
    expect(r.refusal!.reason).toContain('CIK0001018724');
    expect(r.refusal!.disclosures).toEqual(['"Amazon" read as AMAZON COM INC (SEC CIK 1018724), the registered entity chosen in answer to the clarification']);
    expect(r.resumed_from).toBe(first.run_id);
    expect(r.figures).toEqual([]);
  }, 60_000);

  it('a name too many registered names start with stays a refusal that says to name it in full', async () => {
    const r = await ask(services, { question: "What was American's revenue in 2023?" });
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('entity_unresolved');
  }, 60_000);
});

describe('a name in lower case: "did you mean", never an answer on the guess; accepting it answers, verified', () => {
  it.each([
    ["what was apple's total revenue in 2023?", 'Apple Inc.', 'apple'],
    ['how much total revenue did apple report in fiscal 2023?', 'Apple Inc.', 'apple'],
    ['what did tesla report as total assets in 2021', 'Tesla, Inc.', 'tesla'],
  ])('%s', async (q, label, asked) => {
    const r = await ask(services, { question: q });
    expect(r.status, r.text).toBe('needs_clarification');
    expect(r.clarification).toMatchObject({ code: 'did_you_mean', asked });
    expect(labels(r)).toEqual([label]);
    expect(r.clarification!.question).toMatch(new RegExp(`^Did you mean ${label.replace(/[.,]/g, '\\$&')} \\(SEC CIK \\d+\\)\\? "${asked}" is written in lower case`));
    nothingRead(r);
  }, 60_000);

  it('resuming "apple\'s total revenue" answers Apple\'s FY2023 revenue, verified, with the pick disclosed', async () => {
    const first = await ask(services, { question: "what was apple's total revenue in 2023?" });
    const r = await ask(services, { resume: { run: first.run_id, option: 1 } });
    expect(r.status, r.text).toBe('answered');
    expect(r.figures.map((f) => [f.value, f.grade])).toEqual([[APPLE_2023, 'verified']]);
    expect(r.qualification!.disclosures).toContain('"apple" read as Apple Inc. (SEC CIK 320193), the registered entity chosen in answer to the clarification');
  }, 60_000);

  it('resuming "tesla\'s total assets" reads Tesla, Inc. by its CIK', async () => {
    const first = await ask(services, { question: "what were tesla's total assets in 2021?" });
    const r = await ask(services, { resume: { run: first.run_id, option: 1 } });
    expect(r.status, r.text).toBe('answered');
    expect(r.evidence.map((e) => [e.entity_key, e.value])).toEqual([['cik=0001318605', TESLA_2021]]);
  }, 60_000);

  it.each([
    // a common noun after an article, a measure without a name, a word no registered name is
    'How much rain falls in the amazon rainforest?',
    'what is the target interest rate?',
    'What is the revenue?',
    'what was the total revenue in 2023?',
  ])('no name-like word: stays as today, never a suggestion (%s)', async (q) => {
    const r = await ask(services, { question: q });
    expect(r.status).toBe('refused');
    expect(r.clarification).toBeUndefined();
  }, 60_000);
});

describe('a mistyped name or look-alike letters: "did you mean"', () => {
  it.each([
    ["What was Appel's total revenue in 2023?", 'Appel'],
    ['What was the total revenue of Appel in 2023?', 'Appel'],
  ])('%s offers Apple Inc., and picking it answers verified', async (q, asked) => {
    const first = await ask(services, { question: q });
    expect(first.status, first.text).toBe('needs_clarification');
    expect(first.clarification).toMatchObject({ code: 'did_you_mean', asked });
    expect(labels(first)).toContain('Apple Inc.');
    expect(first.clarification!.question).toContain('no registered name is "Appel"');
    nothingRead(first);
    const r = await ask(services, { resume: { run: first.run_id, option: optionFor(first, 'Apple Inc.') } });
    expect(r.status, r.text).toBe('answered');
    expect(r.figures.map((f) => [f.value, f.grade])).toEqual([[APPLE_2023, 'verified']]);
  }, 120_000);

  it('"Teslа" with a Cyrillic "а" is asked as Tesla, Inc. before anything is planned; picking it reads Tesla', async () => {
    const first = await ask(services, { question: "What were Teslа's total assets in 2021?" });
    expect(first.status, first.text).toBe('needs_clarification');
    expect(first.clarification).toMatchObject({ code: 'did_you_mean', asked: 'Teslа' });
    expect(labels(first)).toEqual(['Tesla, Inc.']);
    expect(first.plan).toBeNull();
    const r = await ask(services, { resume: { run: first.run_id, option: 1 } });
    expect(r.status, r.text).toBe('answered');
    expect(r.evidence.map((e) => [e.entity_key, e.value])).toEqual([['cik=0001318605', TESLA_2021]]);
  }, 120_000);

  it('a name spelled as registered is answered as before, never asked', async () => {
    const r = await ask(services, { question: "What was Apple's total revenue in 2023?" });
    expect(r.status).toBe('answered');
    expect(r.figures.map((f) => [f.value, f.grade])).toEqual([[383_285_000_000, 'verified']]);
  }, 60_000);
});

describe('near.ts: how far a near name may be', () => {
  it('edits are counted with a swap of neighbours as one, and bounded by the word\'s length', () => {
    expect(editDistance('appel', 'apple', 1)).toBe(1);
    expect(editDistance('tesle', 'tesla', 1)).toBe(1);
    expect(editDistance('amazon', 'amazing', 1)).toBe(2);
    expect([typoBound('gap'), typoBound('appel'), typoBound('microsfot')]).toEqual([0, 1, 2]);
  });
  it('look-alike letters are written in Latin; a word of one script is left alone', () => {
    expect(latinLookalike('Teslа')).toBe('Tesla');
    expect(latinLookalike('Tesla')).toBeUndefined();
    expect(latinLookalike('Москва')).toBeUndefined();
  });
  it('words after an article and words questions measure by start no name; a run ends at its possessive', () => {
    const ws = questionWords("how much did the amazon rainforest and apple's unit earn?");
    expect(ws.find((w) => w.bare === 'amazon')!.afterArticle).toBe(true);
    const runs = wordRuns(ws).map((r) => r.text);
    expect(runs).toContain('apple');
    expect(runs).not.toContain('apple unit');
    expect(runs).not.toContain('much');
    const q = "what was apple's revenue?";
    expect(respelled(q, wordRuns(questionWords(q)).find((r) => r.text === 'apple')!, 'Apple')).toBe("what was Apple's revenue?");
  });
  it('a message picks an offered entity by number, by "yes" when one was offered, or by its registered name written any way', () => {
    const bundle = (label: string, altLabels: string[] = []) => ({ id: label, label, altLabels, types: [], identifiers: {}, from: 'offline-snapshot' as const, match: 'prefix' as const });
    const assumptions = { measure: null, measure_key: null, concept: null, operation: null, entity: '', period: null };
    const state = { intent: {} as ResumeState['intent'], options: [{ assumptions, bundle: bundle('AMAZON BIODIVERSITY CENTER') }, { assumptions, bundle: bundle('AMAZON COM INC') }] };
    expect(optionNamed(state, 'Amazon.com')).toBe(2);
    expect(optionNamed(state, 'AMAZON COM INC')).toBe(2);
    expect(optionNamed(state, '1')).toBe(1);
    expect(optionNamed(state, 'yes')).toBeUndefined();
    expect(optionNamed(state, 'Amazon')).toBeUndefined();
    expect(optionNamed({ ...state, options: [state.options[1]!] }, 'Yes please')).toBe(1);
    expect(optionNamed(state, 'What about Apple?')).toBeUndefined();
  });
});
