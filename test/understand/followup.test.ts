/** Follow-up questions read against the previous turn's intent (src/understand/followup.ts). */
import { describe, expect, it } from 'vitest';
import { ellipsisOf, readFollowup, describeFollowup, type FollowupReading } from '../../src/understand/followup.ts';
import { interpretOffline } from '../../src/understand/offline/interpret.ts';
import type { Intent } from '../../src/understand/intent.ts';

function intentOf(q: string): Intent {
  const u = interpretOffline(q);
  if (u.status !== 'understood') throw new Error(`the offline interpreter did not understand ${q}: ${u.reason}`);
  return u.intent;
}
const followup = (r: FollowupReading) => {
  if (r.kind !== 'followup') throw new Error(`expected a follow-up, got ${JSON.stringify(r)}`);
  return r;
};
const fields = (list: Array<{ field: string }>) => list.map((f) => f.field).sort();

const APPLE_2023 = intentOf("What was Apple's total revenue in 2023?");

describe('which questions are follow-ups', () => {
  it.each([
    ['and in 2022?', 'in 2022'],
    ['And for fiscal 2021?', 'for fiscal 2021'],
    ['what about Microsoft?', 'Microsoft'],
    ['How about Microsoft in 2022?', 'Microsoft in 2022'],
    ['and its net income?', 'its net income'],
    ['In 2022?', 'In 2022'],
    ['compare that with Alphabet', 'Alphabet'],
    ['And compare it to Microsoft and Alphabet.', 'Microsoft and Alphabet'],
    ['versus Alphabet?', 'Alphabet'],
  ])('%j is elliptical (fragment %j)', (q, fragment) => {
    expect(ellipsisOf(q)?.fragment).toBe(fragment);
  });
  it.each([
    "What was Apple's total revenue in 2023?",
    "And what was Microsoft's revenue in 2022?",
    'Compare Apple and Alphabet revenue in 2023',
    'Which states have the highest poverty rate?',
    'and how many employees did it have at the end of its last fiscal year in the United States?',
  ])('%j stands on its own', (q) => {
    expect(ellipsisOf(q)).toBeNull();
    expect(readFollowup(q, APPLE_2023)).toEqual({ kind: 'standalone' });
  });
});

describe('reading a follow-up with the previous intent', () => {
  it('a year change keeps the entity and the measure', () => {
    const r = followup(readFollowup('and in 2022?', APPLE_2023));
    expect(r.parts).toEqual(['period']);
    expect(r.intent).toMatchObject({ question: 'and in 2022?', shape: 'point', entity: 'Apple', attribute: 'total revenue', period: { year: 2022, basis: 'unspecified' } });
    expect(fields(r.carried)).toEqual(expect.arrayContaining(['attribute', 'entity', 'shape']));
    expect(fields(r.replaced)).toEqual(['period']);
  });

  it('a fiscal year keeps its basis', () => {
    expect(followup(readFollowup('what about fiscal 2021?', APPLE_2023)).intent.period).toMatchObject({ year: 2021, basis: 'fiscal' });
  });

  it('an entity change keeps the measure and the period', () => {
    const r = followup(readFollowup('what about Microsoft?', APPLE_2023));
    expect(r.parts).toEqual(['entity']);
    expect(r.intent).toMatchObject({ entity: 'Microsoft', canonical_entity: 'Microsoft', entity_status: 'resolved', attribute: 'total revenue', period: { year: 2023 } });
    expect(fields(r.carried)).toEqual(expect.arrayContaining(['attribute', 'period']));
    expect(fields(r.replaced)).toEqual(['entity']);
  });

  it('a measure change keeps the entity and the period', () => {
    const r = followup(readFollowup('and its net income?', APPLE_2023));
    expect(r.parts).toEqual(['measure']);
    expect(r.intent).toMatchObject({ entity: 'Apple', attribute: 'net income', period: { year: 2023 }, quantity: 'money' });
    expect(fields(r.replaced)).toEqual(['attribute']);
  });

  it('an entity and a year together', () => {
    const r = followup(readFollowup('How about Microsoft in 2022?', APPLE_2023));
    expect(r.parts).toEqual(['period', 'entity']);
    expect(r.intent).toMatchObject({ entity: 'Microsoft', period: { year: 2022 }, attribute: 'total revenue' });
  });

  it('"compare that with Alphabet" makes a comparison of the previous entity and the new one', () => {
    const r = followup(readFollowup('compare that with Alphabet', APPLE_2023));
    expect(r.parts).toEqual(['comparison']);
    expect(r.intent).toMatchObject({ shape: 'comparison', entities: ['Apple', 'Alphabet'], entity: null, entity_status: 'none', attribute: 'total revenue', period: { year: 2023 } });
  });

  it('a range after a point question makes a timeseries; a single year after a timeseries a point', () => {
    const series = followup(readFollowup('and from 2019 to 2021?', APPLE_2023));
    expect(series.intent.shape).toBe('timeseries');
    expect(series.intent.periods.map((p) => p.year)).toEqual([2019, 2020, 2021]);
    const back = followup(readFollowup('and in 2020?', series.intent));
    expect(back.intent).toMatchObject({ shape: 'point', period: { year: 2020 }, periods: [] });
  });

  it('says which fields were carried, in one sentence', () => {
    const r = followup(readFollowup('and in 2022?', APPLE_2023));
    expect(describeFollowup(r, APPLE_2023.question)).toBe(`Read as a follow-up to "What was Apple's total revenue in 2023?": carried over entity "Apple", attribute "total revenue"; this turn set period "2022".`);
  });
});

describe('follow-ups that cannot be read', () => {
  it('with no previous turn: not understood, saying so', () => {
    expect(readFollowup('and in 2022?', null)).toEqual({ kind: 'not_understood', code: 'no_previous_turn', parts: ['period'] });
    expect(readFollowup('what about Microsoft?', null)).toMatchObject({ kind: 'not_understood', code: 'no_previous_turn' });
    expect(readFollowup('compare that with Alphabet', null)).toMatchObject({ kind: 'not_understood', code: 'no_previous_turn' });
  });
  it('with nothing readable in the fragment', () => {
    expect(readFollowup('and?', APPLE_2023)).toEqual({ kind: 'standalone' });
    expect(readFollowup('what about it?', APPLE_2023)).toMatchObject({ kind: 'not_understood', code: 'nothing_read' });
  });
});

describe('describeFollowup', () => {
  it('does not list a field the turn emptied (a series\' periods when one year is asked)', () => {
    const series = intentOf('How did Apple revenue change from 2019 to 2023?');
    const r = followup(readFollowup('and in 2022?', series));
    expect(describeFollowup(r, series.question)).toBe(`Read as a follow-up to "How did Apple revenue change from 2019 to 2023?": carried over entity "Apple", attribute "revenue"; this turn set shape "point", period "2022".`);
  });
});
