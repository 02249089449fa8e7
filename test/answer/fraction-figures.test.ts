/**
 * A share published as a fraction of 1 (unit `fraction`): the answer reads it as a percent with the
 * published value beside it, the percent is the value × 100 shifted exactly in decimal digits, and
 * grading holds every way of writing it to that: the published digits verified, the percent derived
 * with its arithmetic, a difference in percentage points derived, and the fraction written with a
 * percent sign (a hundredfold misreading) a conflict, never verified. Values are Yale's in the
 * Scorecard cassette (fixtures/publishers/college-scorecard: latest.completion.rate_suppressed.overall
 * 0.9759, latest.admissions.admission_rate.overall 0.0693, latest.student.share_lowincome.0_30000
 * 0.317373461, latest.student.retention_rate_suppressed.four_year.full_time_pooled 0.9901,
 * latest.student.share_highincome.110001plus 0.2517099863); the difference D1 below is computed
 * from two of them, not published.
 */
import { describe, expect, it } from 'vitest';
import { factSheet, formatDifference, formatValue, timesHundred, type FactSheet } from '../../src/answer/factsheet.ts';
import { gradeText, strictBlockers } from '../../src/answer/figures.ts';
import { renderPlain } from '../../src/answer/render.ts';
import type { AdmittedEvidence } from '../../src/evidence/types.ts';

const yale = (value: number, measureLabel: string, unit = 'fraction'): AdmittedEvidence => ({
  index: 1, attemptN: 1, source: 'college-scorecard', operation: 'school', measure: 'college-scorecard/latest/completion.rate_suppressed.overall', measureLabel, attribute: 'graduation rate',
  value, unit, period: { label: 'latest available (year varies by field)', basis: 'survey' },
  entity: { label: 'Yale University', keyType: 'ipeds_unitid', key: '130794', keys: { ipeds_unitid: '130794' } },
  raw: { source: 'college-scorecard', method: 'GET', url: 'https://api.data.gov/ed/collegescorecard/v1/schools?id=130794', status: 200, sha256: 'a'.repeat(64), retrievedAt: '2021-03-18' },
  assurance: { match: 'key', planVerdict: 'exact', warnings: [] },
});
const completion = factSheet([yale(0.9759, 'Completion rate')]);
const grades = (text: string, sheet: FactSheet = completion) => gradeText(text, sheet).figures.map((f) => [f.text, f.grade]);

describe('a fraction of 1 times 100, in decimal digits', () => {
  it.each([
    [0.9759, '97.59'], [0.0693, '6.93'], [0.317373461, '31.7373461'], [1, '100'], [0, '0'],
    [0.5, '50'], [0.0059, '0.59'], [1e-7, '0.00001'], [-0.0123, '-1.23'], [1.25, '125'],
  ])('%s → %s', (v, pct) => {
    expect(timesHundred(v)).toBe(pct);
  });

  it('has no binary-float tail where multiplying has one (Yale\'s published 0.9901 and 0.2517099863)', () => {
    expect(0.9901 * 100).toBe(99.00999999999999);
    expect(timesHundred(0.9901)).toBe('99.01');
    expect(0.2517099863 * 100).toBe(25.170998630000003);
    expect(timesHundred(0.2517099863)).toBe('25.17099863');
  });
});

describe('the value as written', () => {
  it('reads a fraction as a percent with the published value beside it; a difference in percentage points', () => {
    expect(formatValue(0.9759, 'fraction')).toBe('97.59% (published as the fraction 0.9759)');
    expect(formatValue(0.317373461, 'fraction')).toBe('31.7373461% (published as the fraction 0.317373461)');
    expect(formatDifference(0.9066, 'fraction')).toBe('90.66 percentage points (the fractions differ by 0.9066)');
    // other units as before
    expect(formatValue(19.7, 'percent')).toBe('19.7 percent');
    expect(formatDifference(2.5, '%')).toBe('2.5%');
  });

  it('the plain answer states both, and every number in it is graded (the percent derived, the published value verified)', () => {
    const text = renderPlain(completion, { hedge: false });
    expect(text).toBe("Yale University's Completion rate, latest available (year varies by field), was 97.59% (published as the fraction 0.9759), according to the College Scorecard.");
    const g = gradeText(text, completion);
    expect(g.figures.map((f) => [f.text, f.grade, f.arithmetic ?? null])).toEqual([
      ['97.59%', 'derived', 'E1 = 0.9759 (published as a fraction of 1) × 100 = 97.59 percent'],
      ['0.9759', 'verified', null],
    ]);
    expect(strictBlockers(g)).toEqual([]);
  });
});

describe('grading a fraction written in prose', () => {
  it.each([
    ['0.9759', 'verified'],
    ['97.59%', 'derived'],
    ['97.59 percent', 'derived'],
    ['97.6%', 'derived'],
    ['0.98', 'derived'],
    // an unscaled whole percent must be exact, as any unscaled integer
    ['98%', 'unverified'],
    // the fraction with a percent sign is a hundredfold misreading
    ['0.9759%', 'conflict'],
    ['9759%', 'unverified'],
    ['97.59', 'unverified'],
  ])('%s is %s', (text, grade) => {
    expect(grades(`Yale's graduation rate is ${text}.`)).toEqual([[text, grade]]);
  });

  it('a rounded percent says so', () => {
    expect(gradeText('Yale graduates 97.6% of its students.', completion).figures[0]!.arithmetic).toBe('E1 = 0.9759 (published as a fraction of 1) × 100 = 97.59 percent, rounded to 1 decimal place');
  });

  it('a value published in percent is not multiplied again (19.7 percent is not 1970%)', () => {
    const pct = factSheet([yale(19.7, 'Persons below poverty (percent)', 'percent')]);
    expect(grades('It is 19.7%.', pct)).toEqual([['19.7%', 'verified']]);
    expect(grades('It is 1970%.', pct)).toEqual([['1970%', 'unverified']]);
  });

  it('a difference of fractions is in percentage points, not percent', () => {
    const sheet: FactSheet = { ...factSheet([yale(0.9759, 'Completion rate'), { ...yale(0.0693, 'Admission rate'), index: 2 }]), derived: [{ id: 'D1', value: 0.9066, unit: 'fraction', difference: true, arithmetic: 'E1 − E2 = 0.9759 − 0.0693', operands: ['E1', 'E2'], label: 'difference, completion minus admission' }] };
    expect(grades('They differ by 90.66 percentage points.', sheet)).toEqual([['90.66 percentage points', 'derived']]);
    expect(gradeText('They differ by 90.66 percentage points.', sheet).figures[0]!.arithmetic).toBe('D1 = 0.9066 (published as a fraction of 1) × 100 = 90.66 percentage points');
    expect(grades('They differ by 90.66%.', sheet)).toEqual([['90.66%', 'unverified']]);
    expect(grades('They differ by 0.9066.', sheet)).toEqual([['0.9066', 'derived']]);
  });
});
