/** Which variant of a measure family a label names, against the words asked (src/answer/variants.ts). */
import { describe, expect, it } from 'vitest';
import { variantNotes, variantOf } from '../../src/answer/variants.ts';
import { renderNote } from '../../src/answer/wording.ts';

describe('variantOf', () => {
  it.each([
    ['Earnings Per Share, Diluted', 'earnings per share', { family: 'Earnings Per Share', qualifier: 'Diluted' }],
    ['Earnings Per Share, Basic (us-gaap)', 'EPS', { family: 'Earnings Per Share', qualifier: 'Basic' }],
    ['Earnings Per Share, Basic and Diluted', 'earnings per share', { family: 'Earnings Per Share', qualifier: 'Basic and Diluted' }],
    ['Property, Plant and Equipment, Net', 'property, plant and equipment', { family: 'Property, Plant and Equipment', qualifier: 'Net' }],
    // the question named the variant: no family is left open
    ['Earnings Per Share, Basic', 'basic earnings per share', undefined],
    ['Earnings Per Share, Diluted', 'diluted EPS', undefined],
    // a label that is not "Head, Qualifier" of the words asked
    ['Revenues', 'revenue', undefined],
    ['Net Income (Loss) Attributable to Parent', 'net income', undefined],
  ])('%s for "%s"', (label, asked, expected) => {
    expect(variantOf(label, asked)).toEqual(expected);
  });
});

describe('variantNotes', () => {
  const plan = [
    { title: 'Earnings Per Share, Diluted (us-gaap)', publisherId: 'sec-edgar', candidateKey: 'sec-edgar/us-gaap/EarningsPerShareDiluted' },
    { title: 'Earnings Per Share, Basic (us-gaap)', publisherId: 'sec-edgar', candidateKey: 'sec-edgar/us-gaap/EarningsPerShareBasic' },
    { title: 'Earnings Per Share, Basic (ifrs-full)', publisherId: 'sec-edgar', candidateKey: 'sec-edgar/ifrs-full/BasicEarningsLossPerShare' },
    { title: 'Earnings Per Share, Pro Forma (us-gaap)', publisherId: 'sec-edgar', candidateKey: 'sec-edgar/us-gaap/X' },
  ];
  const unit = (k: string) => (k.endsWith('/X') ? 'pure' : 'USD/shares');
  const diluted = { measureLabel: 'Earnings Per Share, Diluted', attribute: 'earnings per share', source: 'sec-edgar', measure: 'sec-edgar/us-gaap/EarningsPerShareDiluted' };

  it('names the variant read and the others of the same unit, each once', () => {
    const notes = variantNotes([diluted], plan, unit);
    expect(notes).toEqual([{ code: 'variant_read', attribute: 'earnings per share', family: 'Earnings Per Share', read: 'Diluted', others: ['Basic'] }]);
    expect(renderNote(notes[0]!)).toBe('"earnings per share" does not say which Earnings Per Share is meant: read as "Earnings Per Share, Diluted"; the publisher also has "Earnings Per Share, Basic" (name one in the question to read it)');
  });

  it('says nothing when the question chose the variant, or the plan held no other', () => {
    expect(variantNotes([{ ...diluted, attribute: 'diluted earnings per share' }], plan, unit)).toEqual([]);
    expect(variantNotes([diluted], plan.slice(0, 1), unit)).toEqual([]);
    expect(variantNotes([diluted], plan.map((p) => ({ ...p, publisherId: 'other' })), unit)).toEqual([]);
  });
});
