/** Structural validation decides; a model may only reject, and only in the residual case code marks. */
import { describe, expect, it, vi } from 'vitest';
import type { Observation } from '../../src/connectors/records.ts';
import { checkObservation, headMatches, surveyLabelCovers, type Expectation } from '../../src/validate/structural.ts';
import { adjudicate, type SemanticJudge } from '../../src/validate/adjudicate.ts';

const raw = { source: 'sec-edgar', method: 'GET', url: 'https://data.sec.gov/x', status: 200, sha256: 'a'.repeat(64), retrievedAt: '2026-03-25' };
function obs(over: Partial<Observation> = {}): Observation {
  return {
    type: 'observation', source: 'sec-edgar', operation: 'companyfacts', measure: 'us-gaap/Revenues', label: 'Revenues',
    value: 100, status: 'reported', unit: 'USD', currency: 'USD', scale: 1,
    period: { start: '2022-09-25', end: '2023-09-30', instant: false, basis: 'fiscal', fiscalYear: 2023, fiscalPeriod: 'FY' },
    entity: { cik: '0000320193', name: 'Apple Inc.' }, attributes: { current: true }, raw, ...over,
  };
}
const want: Expectation = { entity: { keyType: 'cik', key: '0000320193', label: 'Apple Inc.' }, measure: 'us-gaap/Revenues', unit: 'USD', period: { year: 2023, basis: 'unspecified', latest: false, text: '2023' }, attribute: 'total revenue' };
const approving: SemanticJudge = { judge: vi.fn(async () => ({ answers: true, reason: 'looks right to me' })) };
const signal = new AbortController().signal;

describe('structural checks', () => {
  it.each([
    ['another entity (prunes the source)', obs({ entity: { cik: '0000789019', name: 'MICROSOFT CORP' } }), 'entity', true],
    ['another concept (that concept only)', obs({ measure: 'us-gaap/CostOfRevenue' }), 'measure', false],
    ['a suppressed value', obs({ value: null, status: 'suppressed', asPublished: '-666666666' }), 'sentinel', false],
    ['another unit (that concept only)', obs({ unit: 'shares', currency: undefined }), 'unit', false],
    ['another fiscal year', obs({ period: { start: '2021-09-26', end: '2022-09-24', instant: false, basis: 'fiscal', fiscalYear: 2022, fiscalPeriod: 'FY' } }), 'period', false],
  ] as const)('rejects %s', (_, rec, failing, prune) => {
    const v = checkObservation(rec, want);
    expect(v.passed).toBe(false);
    expect(v.checks.find((c) => !c.passed)?.name).toBe(failing);
    expect(v.prune).toBe(prune);
  });

  it('a calendar year is not satisfied by a fiscal year ending in September', () => {
    const v = checkObservation(obs(), { ...want, period: { year: 2023, basis: 'calendar', latest: false, text: 'calendar 2023' } });
    expect(v.passed).toBe(false);
    expect(v.reason).toMatch(/calendar 2023 asked/);
  });

  it('a bare year read as a fiscal year is admitted with the reading disclosed', () => {
    const v = checkObservation(obs(), want);
    expect(v.passed).toBe(true);
    expect(v.warnings.join()).toMatch(/read as the filer's fiscal year FY2023/);
  });

  it('a name match passes but is disclosed and weaker', () => {
    const v = checkObservation(obs({ entity: { name: 'Apple Inc' } }), want);
    expect(v.passed).toBe(true);
    expect(v.match).toBe('name');
  });

  it('labels must lead with the words asked for, else a residual semantic question is marked', () => {
    expect(headMatches('total revenue', 'Revenues')).toBe(true);
    expect(headMatches('net income', 'Net Income (Loss) Attributable to Parent')).toBe(true);
    expect(headMatches('total revenue', 'Deferred Revenue')).toBe(false);
    expect(checkObservation(obs({ label: 'Contract with Customer, Liability, Revenue Recognized' }), want).residual).toMatch(/does/);
  });

  it.each([
    ['debt', 'Debt Instrument, Unamortized Discount (Premium) and Debt Issuance Costs, Net', false],
    ['debt', 'Debt Securities, Available-for-sale', false],
    ['debt', 'Debt and Equity Securities, Gain (Loss)', false],
    ['debt', 'Debt, Current', true],
    ['cash', 'Cash and Cash Equivalents, at Carrying Value', true],
    ['revenue', 'Revenue from Contract with Customer, Excluding Assessed Tax', true],
    ['earnings per share', 'Earnings Per Share, Diluted', true],
    ['cost of revenue', 'Cost of Revenue', true],
  ])('"%s" heads "%s": %s (the words asked lead a label only as its head noun, not as a modifier of another)', (attribute, label, heads) => {
    expect(headMatches(attribute, label)).toBe(heads);
  });
});

describe('survey labels', () => {
  it.each([
    ['child poverty rate', false],
    ['poverty rate', true],
    ['share people poverty', true],
  ])('"%s" covered by the ACS percent below poverty level (the people of its universe in its parentheses): %s', (attribute, covered) => {
    expect(surveyLabelCovers(attribute, 'Percent below poverty level (population for whom poverty status is determined)', '%')).toBe(covered);
  });
});

describe('adjudication: the model may reject, never admit', () => {
  it('a model "approving" a structurally rejected record cannot admit it (and is not even asked)', async () => {
    const structural = checkObservation(obs({ entity: { cik: '0000789019', name: 'MICROSOFT CORP' } }), want);
    const v = await adjudicate(structural, 'q', signal, approving);
    expect(v.passed).toBe(false);
    expect(v.decidedBy).toBe('code');
    expect(approving.judge).not.toHaveBeenCalled();
  });

  it('the model is consulted only on a residual, and its rejection is final', async () => {
    const structural = checkObservation(obs({ label: 'Deferred Revenue' }), want);
    expect(structural.passed).toBe(true);
    const rejecting: SemanticJudge = { judge: async () => ({ answers: false, reason: 'deferred revenue is a liability' }) };
    const v = await adjudicate(structural, 'q', signal, rejecting);
    expect(v).toMatchObject({ passed: false, decidedBy: 'code+model' });
    expect(v.reason).toMatch(/liability/);
  });

  it('with no model, a residual semantic question is not admitted', async () => {
    const v = await adjudicate(checkObservation(obs({ label: 'Deferred Revenue' }), want), 'q', signal);
    expect(v.passed).toBe(false);
    expect(v.reason).toMatch(/no model is configured/);
  });

  it('a clean structural pass needs no model', async () => {
    const judge: SemanticJudge = { judge: vi.fn(async () => ({ answers: false, reason: 'x' })) };
    const v = await adjudicate(checkObservation(obs(), want), 'q', signal, judge);
    expect(v.passed).toBe(true);
    expect(judge.judge).not.toHaveBeenCalled();
  });
});
