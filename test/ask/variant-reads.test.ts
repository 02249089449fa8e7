/**
 * A measure family whose variant the question did not choose is read and said: "earnings per
 * share" reads diluted EPS and discloses it (basic is published too); a question naming basic or
 * diluted reads that one and gets no such note; a variant the cassettes lack for the year asked is
 * refused, never answered with the other variant. Values from the companyfacts cassettes
 * (fixtures/publishers/sec-edgar/bodies/companyfacts): Apple CIK0000320193 FY2023 (2022-09-25…
 * 2023-09-30, accn 0000320193-23-000106) EarningsPerShareDiluted 6.13, EarningsPerShareBasic 6.16;
 * Tesla CIK0001318605 FY2021 (accn 0000950170-22-000796) EarningsPerShareBasic 5.6, Diluted 4.9,
 * and no FY2022 values.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import { testServices } from './services.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const read = (r: AskResult) => r.evidence.map((e) => [e.measure, e.value]);
const variantNote = (r: AskResult) => (r.qualification?.disclosures ?? []).filter((d) => /does not say which/.test(d));
const DILUTED_READ = /^"[^"]+" does not say which Earnings Per Share is meant: read as "Earnings Per Share, Diluted"; the publisher also has "Earnings Per Share, Basic"/;

describe('a variant the question did not choose', () => {
  it.each([
    "What was Apple's earnings per share in 2023?",
    "What was Apple's EPS in 2023?",
    "What were Apple's earnings per share for fiscal 2023?",
  ])('"%s" reads diluted EPS and says so', async (question) => {
    const r = await ask(services, { question });
    expect(r.status, r.refusal?.reason).toBe('answered');
    expect(read(r)).toEqual([['sec-edgar/us-gaap/EarningsPerShareDiluted', 6.13]]);
    expect(variantNote(r)).toHaveLength(1);
    expect(variantNote(r)[0]).toMatch(DILUTED_READ);
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['6.13', 'verified']]);
  }, 60_000);

  it.each([
    ["What was Apple's basic earnings per share in 2023?", 'sec-edgar/us-gaap/EarningsPerShareBasic', 6.16],
    ["What was Apple's basic EPS in 2023?", 'sec-edgar/us-gaap/EarningsPerShareBasic', 6.16],
    ["What was Apple's diluted EPS in 2023?", 'sec-edgar/us-gaap/EarningsPerShareDiluted', 6.13],
    ["What were Tesla's basic earnings per share in 2021?", 'sec-edgar/us-gaap/EarningsPerShareBasic', 5.6],
  ])('"%s" reads the variant named, with no variant note', async (question, measure, value) => {
    const r = await ask(services, { question });
    expect(r.status, r.refusal?.reason).toBe('answered');
    expect(read(r)).toEqual([[measure, value]]);
    expect(variantNote(r)).toEqual([]);
  }, 60_000);

  it('basic asked for a year only diluted could fill is refused, never answered with diluted', async () => {
    const r = await ask(services, { question: "What were Tesla's basic earnings per share in 2022?" });
    expect(r.status).toBe('refused');
    expect(r.figures).toEqual([]);
    expect(r.attempts.filter((a) => a.disposition === 'accepted')).toEqual([]);
  }, 60_000);

  it('the same holds for other families: gross property, plant and equipment is read and said', async () => {
    const r = await ask(services, { question: "What was Apple's property, plant and equipment in 2023?" });
    expect(r.status, r.refusal?.reason).toBe('answered');
    expect(variantNote(r)).toEqual([expect.stringMatching(/read as "Property, Plant and Equipment, Gross"; the publisher also has "Property, Plant and Equipment, Net" \(/)]);
  }, 60_000);
});
