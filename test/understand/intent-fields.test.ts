/**
 * The intent is complete: the kind of quantity, the grain, relative spans, the form type, the
 * status asked and publisher-defined codes are fields, read once by the interpreter, so no later
 * stage reads the question text again. Caller and model intents that leave them null are
 * completed from their own words; a field a producer set is never changed.
 */
import { describe, expect, it } from 'vitest';
import { interpretOffline } from '../../src/understand/offline/interpret.ts';
import { fromCaller, grainAsked, parseIntent, type Intent } from '../../src/understand/index.ts';

function understood(q: string): Intent {
  const u = interpretOffline(q);
  if (u.status !== 'understood') throw new Error(`expected an intent for "${q}", got: ${u.reason}`);
  return u.intent;
}

describe('the kind of quantity asked', () => {
  it.each([
    ['How many employees does Apple have?', 'count'],
    ['What is the population of New York?', 'count'],
    ['What was number of employees for Doctors Without Borders USA in 2020?', 'count'],
    ["What was Apple's revenue in Q3 2023?", 'money'],
    ['What were NVIDIA\'s total assets at the end of fiscal 2023?', 'money'],
    ['How much did Microsoft earn in fiscal 2022?', 'money'],
    ['What is the median household income in Cook County?', 'money'],
    ['What was the poverty rate in Texas in 2018?', 'percent'],
    ["What is Stanford's admission rate?", 'percent'],
    ['What percentage of adults smoke in Ohio?', 'percent'],
    ['What is the exchange rate for the Mexican peso?', 'ratio'],
    ["What is Apple's debt to equity ratio?", 'ratio'],
    ['When did Apple file its latest 10-K?', 'date'],
    ['Is the Sierra Club a 501(c)(3)?', 'yes_no'],
    ["List Apple's SEC filings since 2025", 'records'],
    ['Find education grant opportunities.', 'records'],
    ['What is the median age in Seattle?', null],
  ])('%s → %s', (q, kind) => expect(understood(q).quantity).toBe(kind));

  it('a threshold in dollars makes a money question when the words say nothing else', () => {
    expect(understood('Which nonprofits granted more than $100 million?').quantity).toBe('money');
  });
});

describe('period grain, relative spans and clock-relative years', () => {
  it.each([
    ["What was Apple's revenue in Q3 2023?", 'quarter'],
    ["What was Apple's revenue in the third quarter of 2023?", 'quarter'],
    ["What was Apple's quarterly revenue in 2023?", 'quarter'],
    ["What was Apple's revenue in 2023?", 'year'],
    ['What was the national debt on March 31, 2024?', 'day'],
    ['What is the latest total public debt outstanding?', null],
  ])('%s → grain %s', (q, grain) => expect(understood(q).grain).toBe(grain));

  it('keeps a quarter named end to end: year, quarter and grain', () => {
    const i = understood("What was Apple's revenue in Q3 2023?");
    expect(i.period).toMatchObject({ year: 2023, quarter: 3 });
    expect(grainAsked(i)).toBe('quarter');
  });

  it.each([
    ["How did Apple's revenue change over the last five years?", { last: 5, unit: 'year', since: null }],
    ['How has Texas poverty changed over the past decade?', { last: 10, unit: 'year', since: null }],
    ["How did Apple's revenue change in the last 3 quarters?", { last: 3, unit: 'quarter', since: null }],
    ["List Apple's SEC filings since 2025", { last: null, unit: 'year', since: 2025 }],
  ])('%s → span %o', (q, span) => expect(understood(q).span).toMatchObject(span));

  it('an unnumbered span keeps no count ("over the past years" is not one year)', () => {
    expect(understood("How did Apple's revenue change over the past years?").span).toMatchObject({ last: null, unit: 'year' });
  });

  it('"this year" and "last year" are periods with an offset from the clock, and no year', () => {
    expect(understood('What filings has Tesla submitted to the SEC this year?').period).toMatchObject({ year: null, latest: false, offset: 0, text: 'this year' });
    expect(understood('What filings did Tesla submit last year?').period).toMatchObject({ year: null, offset: -1 });
  });

  it('refuses a quarter named at another grain', () => {
    const r = parseIntent({ question: 'q', shape: 'point', entity: 'Apple', entity_status: 'resolved', attribute: 'revenue', period: { text: 'Q3 2023', basis: 'unspecified', year: 2023, quarter: 3 }, grain: 'year' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]).toMatchObject({ path: 'grain' });
  });
});

describe('form type, status asked and publisher codes', () => {
  it.each([
    ['List the 10-K filings Tesla submitted to the SEC this year', '10-K'],
    ["Show Apple's 8-K/A filings", '8-K/A'],
    ["List Apple's Form 4 filings", '4'],
    ["List Apple's SEC filings since 2025", null],
  ])('%s → form %s', (q, form) => expect(understood(q).form).toBe(form));

  it.each([
    ['Is the Sierra Club a 501(c)(3)?', '501c3'],
    ['Is the Elks Lodge a 501(c)(7) organization?', '501c7'],
    ['Is the Ford Foundation a private foundation?', 'private_foundation'],
    ['Is the Red Cross a public charity?', 'public_charity'],
    ['Is Apple a large accelerated filer?', 'large_accelerated_filer'],
    ['Is Tesla an accelerated filer?', 'accelerated_filer'],
    ['Is the Sierra Club tax-exempt?', 'tax_exempt'],
  ])('%s → status %s', (q, id) => expect(understood(q).status?.id).toBe(id));

  it('a status no vocabulary names stays null (the executor refuses it)', () => {
    expect(understood('Is Apple still an active filer?').status).toBeNull();
  });

  it('reads record numbers with their noun, and named currencies', () => {
    expect(understood('What is the award ceiling of opportunity 362478?').codes).toEqual([{ kind: 'record_id', value: '362478', noun: 'opportunity', text: 'opportunity 362478' }]);
    expect(understood('What is the exchange rate for the Mexican peso?').codes).toEqual([{ kind: 'currency', value: 'Mexican peso', noun: null, text: 'Mexican peso' }]);
    expect(understood("What was Apple's revenue in 2023?").codes).toEqual([]);
  });
});

describe('completing a caller or model intent', () => {
  const base = { question: 'Is the Sierra Club a 501(c)(3)?', shape: 'status', entity: 'Sierra Club', entity_status: 'resolved', attribute: '501(c)(3) status' };

  it('fills what follows from the intent\'s own words', () => {
    const u = fromCaller(base);
    expect(u.status).toBe('understood');
    if (u.status !== 'understood') return;
    expect(u.intent).toMatchObject({ status: { id: '501c3' }, quantity: 'yes_no' });
    expect(u.notes?.join(' ')).toMatch(/completed from the question's words: status, quantity/);
  });

  it('never changes a field the caller set', () => {
    const u = fromCaller({ ...base, status: { id: 'tax_exempt', text: 'exempt' }, quantity: 'yes_no' });
    expect(u.status === 'understood' && u.intent.status).toEqual({ id: 'tax_exempt', text: 'exempt' });
  });

  it('gives a quarter named by the caller the quarter grain', () => {
    const u = fromCaller({ question: 'Apple revenue Q3 2023', shape: 'point', entity: 'Apple', entity_status: 'resolved', attribute: 'revenue', period: { text: 'Q3 2023', basis: 'unspecified', year: 2023, quarter: 3 } });
    expect(u.status === 'understood' && u.intent).toMatchObject({ grain: 'quarter', quantity: 'money' });
  });
});
