/**
 * Rates the publisher writes as fractions of 1, end to end on the offline default: Yale's
 * graduation (completion) and admission rates from the College Scorecard cassette
 * (fixtures/publishers/college-scorecard, Yale UNITID 130794: latest.completion.rate_suppressed.overall
 * 0.9759, latest.admissions.admission_rate.overall 0.0693). Each phrasing is answered with the
 * published value, unit `fraction`, read as a percent with the published value beside it and cited;
 * none is refused on its unit, and a draft that misreads the fraction as a percent is never verified.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import { fixedModel, testServices } from './services.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const SCORECARD = 'https://api.data.gov/ed/collegescorecard/v1/schools?id=130794';
const read = (r: AskResult) => r.evidence.map((e) => [e.measure, e.value, e.unit]);

describe('a rate published as a fraction of 1', () => {
  it.each([
    "What is Yale's graduation rate?",
    'What share of Yale students graduate?',
    'completion rate at Yale University',
    'What percent of Yale students graduate?',
    'What is the graduation rate at Yale University?',
  ])('"%s" is Yale\'s completion rate, 97.59% as the fraction 0.9759', async (question) => {
    const r = await ask(services, { question });
    expect(r.status, r.refusal?.reason).toBe('answered');
    expect(read(r)).toEqual([['college-scorecard/latest/completion.rate_suppressed.overall', 0.9759, 'fraction']]);
    expect(r.text).toContain('97.59% (published as the fraction 0.9759)');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['97.59%', 'derived'], ['0.9759', 'verified']]);
    expect(r.citations.map((c) => c.url)).toEqual([SCORECARD]);
  }, 60_000);

  it.each(["What is Yale's admission rate?", 'Yale acceptance rate', "What is Yale's acceptance rate?"])('"%s" is 6.93% as the fraction 0.0693', async (question) => {
    const r = await ask(services, { question });
    expect(r.status, r.refusal?.reason).toBe('answered');
    expect(read(r)).toEqual([['college-scorecard/latest/admissions.admission_rate.overall', 0.0693, 'fraction']]);
    expect(r.text).toContain('6.93% (published as the fraction 0.0693)');
  }, 60_000);

  it('a draft writing the fraction with a percent sign is a conflict and strict mode refuses it; the exact percent is derived', async () => {
    const q = "What is Yale's graduation rate?";
    const seen: string[] = [];
    const wrong = { ...services, model: fixedModel("Yale's graduation rate is 0.9759%.", seen) };
    const loose = await ask(wrong, { question: q });
    expect(loose.figures.map((f) => [f.text, f.grade])).toEqual([['0.9759%', 'conflict']]);
    expect((await ask(wrong, { question: q, strict: true })).refusal?.boundary).toBe('unverified_figures');
    // the drafting call was shown the percent and the published fraction
    expect(seen[0]).toContain('97.59% (published as the fraction 0.9759)');
    const right = await ask({ ...services, model: fixedModel("Yale's graduation rate is 97.59% [E1].") }, { question: q, strict: true });
    expect(right.status).toBe('answered');
    expect(right.figures.map((f) => [f.text, f.grade])).toEqual([['97.59%', 'derived']]);
  }, 90_000);
});
