/**
 * Backtracking across sources (issue 10, rule 5) on the offline default: a candidate that fails on
 * entity resolution, a missing recording, an unusable key or no data advances to the next eligible
 * candidate — another source, another table, another concept — and the refusal, when nothing
 * answers, says every boundary reached instead of "no data after 0 attempts".
 * Values are the cassettes': NVIDIA's FY2023 balance sheet (companyfacts CIK0001045810, Assets
 * 41,182,000,000 at 2023-01-29); the ACS 1-year 2018 S1701 state table (Texas S1701_C03_001E 14.9).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { fixedModel, testServices } from '../ask/services.ts';

let offline: AskServices;
let judged: AskServices;
beforeAll(async () => {
  offline = await testServices();
  // a model that approves the residual label question (it may only reject otherwise) and drafts nothing used here
  judged = await testServices({ model: fixedModel("NVIDIA CORP's Assets for FY2023 (ending 2023-01-29) was $41,182,000,000, according to SEC EDGAR.") });
}, 120_000);

const NVIDIA = "What were NVIDIA's total assets at the end of fiscal 2023?";

describe('NVIDIA total assets at the end of fiscal 2023', () => {
  it('the nonprofit measures fail on entity resolution, and the search goes on to the SEC Assets concept', async () => {
    const r = await ask(judged, { question: NVIDIA });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.source, e.measure, e.period, e.period_end, e.value])).toEqual([['sec-edgar', 'sec-edgar/us-gaap/Assets', 'FY2023', '2023-01-29', 41182000000]]);
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['$41,182,000,000', 'verified']]);
    expect(r.attempts.find((a) => a.disposition === 'accepted')).toMatchObject({ source: 'sec-edgar', measure: 'sec-edgar/us-gaap/Assets' });
  }, 60_000);

  it('on the offline default (no model), "at the end of fiscal 2023" is the period, and the SEC Assets concept answers', async () => {
    const r = await ask(offline, { question: NVIDIA });
    expect(r.intent).toMatchObject({ attribute: 'total assets', period: { basis: 'fiscal', year: 2023 } });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.source, e.measure, e.period, e.period_end, e.value])).toEqual([['sec-edgar', 'sec-edgar/us-gaap/Assets', 'FY2023', '2023-01-29', 41182000000]]);
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['$41,182,000,000', 'verified']]);
    // the nonprofit measures were passed on entity resolution: no nonprofit request was made
    expect(r.attempts.every((a) => a.source === 'sec-edgar')).toBe(true);
  }, 60_000);
});

describe('Texas poverty rate in 2018', () => {
  it('the 2018 data profile has no recording, so the same estimate is read from the recorded S1701 state table', async () => {
    const events: string[] = [];
    const r = await ask(offline, { question: 'What was the poverty rate in Texas in 2018?' }, { onProgress: (e) => events.push(e.message) });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.source, e.entity_key, e.period, e.value, e.unit])).toEqual([['census-acs', 'fips=48', 'ACS 1-year 2018', 14.9, '%']]);
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['14.9%', 'verified']]);
    expect(r.citations[0]!.url).toBe('https://api.census.gov/data/2018/acs/acs1/subject?get=NAME,group(S1701)&for=state:*');
    expect(r.qualification!.disclosures[0]).toMatch(/^read as S1701_C03_001E of the ACS 1-year 2018 subject table S1701/);
    // the profile reads were tried first and are in the trace as errored (not recorded)
    expect(r.attempts.filter((a) => a.disposition === 'errored').length).toBeGreaterThan(0);
    expect(r.attempts.filter((a) => a.disposition === 'accepted')).toHaveLength(1);
  }, 60_000);
});
