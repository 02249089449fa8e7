/** Figure extraction and grading by code: every number in a text gets a grade or a stated exemption. */
import { describe, expect, it } from 'vitest';
import { factSheet } from '../../src/answer/factsheet.ts';
import { gradeText, strictBlockers } from '../../src/answer/figures.ts';
import type { AdmittedEvidence } from '../../src/evidence/types.ts';

const ev = (index: number, value: number, label: string, end: string): AdmittedEvidence => ({
  index, attemptN: index, source: 'sec-edgar', operation: 'companyfacts', measure: 'sec-edgar/us-gaap/Revenues', measureLabel: 'Revenues', attribute: 'revenue',
  value, unit: 'USD', currency: 'USD', period: { label, end, basis: 'fiscal', fiscalYear: Number(label.slice(2)) },
  entity: { label: 'Apple Inc.', keyType: 'cik', key: '0000320193', keys: { cik: '0000320193' } },
  raw: { source: 'sec-edgar', method: 'GET', url: 'https://x', status: 200, sha256: 'a'.repeat(64), retrievedAt: '2026-01-01' },
  assurance: { match: 'key', planVerdict: 'exact', warnings: [] },
});
const sheet = factSheet([ev(1, 260174000000, 'FY2019', '2019-09-28'), ev(2, 383285000000, 'FY2023', '2023-09-30')]);
const grades = (text: string) => gradeText(text, sheet).figures.map((f) => [f.text, f.grade]);

describe('grading', () => {
  it.each([
    ['$383,285,000,000', 'verified'],
    ['383285000000', 'verified'],
    ['$383.3 billion', 'derived'],
    ['$123,111,000,000', 'derived'],
    ['47.3%', 'derived'],
    ['$400 billion', 'unverified'],
    ['12', 'unverified'],
  ])('%s is %s', (text, grade) => {
    expect(grades(`Revenue: ${text}.`)).toEqual([[text, grade]]);
  });

  it('period labels, years and dates on the sheet are exempt, not figures', () => {
    const g = gradeText('In FY2023 (2023, ending 2023-09-30) revenue was $383,285,000,000.', sheet);
    expect(g.figures.map((f) => f.text)).toEqual(['$383,285,000,000']);
    expect(g.exempt.map((e) => e.text)).toEqual(['2023-09-30', '2023']);
  });

  it('list numbering is exempt; a follow-up figure is guarded, not listed', () => {
    const g = gradeText('1. FY2019: $260,174,000,000\n2. FY2023: $383,285,000,000\nFollow-up: what about the 999 stores?', sheet);
    expect(g.figures.map((f) => f.grade)).toEqual(['verified', 'verified']);
    expect(g.exempt.filter((e) => e.why === 'list numbering')).toHaveLength(2);
    expect(g.guarded.map((f) => [f.text, f.grade])).toEqual([['999', 'unverified']]);
    expect(strictBlockers(g).map((f) => f.text)).toEqual(['999']);
  });

  it('a figure tied to a fact with a different value is a conflict', () => {
    expect(grades('Revenue was $380,000,000,000 [E2].')).toEqual([['$380,000,000,000', 'conflict']]);
  });

  it('a number the model explains itself carries the note and does not block strict mode', () => {
    const g = gradeText('Apple has about 161,000 [note: headcount from the question, not a published value] employees.', sheet);
    expect(g.figures[0]).toMatchObject({ text: '161,000', grade: 'unverified', note: 'headcount from the question, not a published value' });
    expect(strictBlockers(g)).toEqual([]);
  });
});
