/**
 * Period mentions in a question → `period` / `periods`, keeping fiscal and calendar years apart.
 *
 * Input: the question text. Output: the single period asked about, or the span a timeseries
 * covers (each year expanded), plus the character ranges consumed so the attribute extractor can
 * remove them. Relative spans with no year ("over the last five years") give no periods: the
 * executor chooses them from what the publisher has, rather than this module guessing a calendar.
 */
import type { Grain, Period, Span } from '../intent.ts';

export interface PeriodMatch {
  period: Period | null;
  periods: Period[];
  /** A relative or open span ("the last five years", "since 2025"), with its count and unit. */
  spanOf?: Span;
  /** Text fragments that expressed time, removed before the attribute is read. */
  consumed: string[];
  /** A span was asked for (range, "since", relative span): a timeseries cue. */
  span: boolean;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const QUARTER_WORDS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };

function period(text: string, basis: Period['basis'], year: number | null, extra: Partial<Period> = {}): Period {
  return { text, basis, year, quarter: null, date: null, latest: false, ...extra };
}

function yearsBetween(a: number, b: number, basis: Period['basis']): Period[] {
  const out: Period[] = [];
  for (let y = a; y <= b && out.length < 60; y++) out.push(period(String(y), basis, y));
  return out;
}

export function findPeriods(question: string): PeriodMatch {
  const q = question;
  const consumed: string[] = [];
  const take = (m: RegExpMatchArray | null): RegExpMatchArray | null => { if (m) consumed.push(m[0]); return m; };

  // A day: "March 31, 2024" or "2024-03-31".
  let m = take(q.match(new RegExp(`\\b(?:on\\s+)?(${MONTHS.join('|')})\\s+(\\d{1,2}),?\\s+(\\d{4})\\b`, 'i')));
  if (m) {
    const mm = String(MONTHS.indexOf(m[1]!.toLowerCase()) + 1).padStart(2, '0');
    const dd = m[2]!.padStart(2, '0');
    return { period: period(m[0].replace(/^on\s+/i, ''), 'calendar', Number(m[3]), { date: `${m[3]}-${mm}-${dd}` }), periods: [], consumed, span: false };
  }
  m = take(q.match(/\b(\d{4})-(\d{2})-(\d{2})\b/));
  if (m) return { period: period(m[0], 'calendar', Number(m[1]), { date: m[0] }), periods: [], consumed, span: false };

  // A quarter: "second quarter of 2023", "Q2 2023".
  m = take(q.match(/\b(?:in\s+)?(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\s+(?:of\s+)?(\d{4})\b/i));
  if (m) return { period: period(m[0].replace(/^in\s+/i, ''), 'unspecified', Number(m[2]), { quarter: QUARTER_WORDS[m[1]!.toLowerCase()] ?? null }), periods: [], consumed, span: false };
  m = take(q.match(/\bQ([1-4])\s*(?:of\s+)?(\d{4})\b/));
  if (m) return { period: period(m[0], 'unspecified', Number(m[2]), { quarter: Number(m[1]) }), periods: [], consumed, span: false };

  // A range: "from 2019 to 2024", "between fiscal 2019 and fiscal 2023", "2018-2023".
  m = take(q.match(/\b(?:each\s+year\s+|by\s+year\s+)?(?:from|between)\s+(fiscal\s+(?:year\s+)?|FY\s?)?(\d{4})\s+(?:to|through|until|and|-)\s+(fiscal\s+(?:year\s+)?|FY\s?)?(\d{4})\b/i));
  if (!m) m = take(q.match(/\b()(\d{4})\s*[-–]\s*()(\d{4})\b/));
  if (m) {
    const basis = m[1] || m[3] ? 'fiscal' : 'unspecified';
    const a = Number(m[2]); const b = Number(m[4]);
    const periods = yearsBetween(Math.min(a, b), Math.max(a, b), basis);
    if (basis === 'fiscal') for (const p of periods) p.text = `FY${p.year}`;
    return { period: null, periods, consumed, span: true };
  }
  // A list of years: "in 2020 and 2021", "for fiscal 2019, 2021 and 2023": each year named, not the years between.
  m = take(q.match(/\b(?:(?:in|for|during)\s+)?(fiscal\s+(?:years?\s+)?|FY\s?)?((?:19|20)\d{2}(?:\s*,\s*(?:fiscal\s+|FY\s?)?(?:19|20)\d{2})*\s*,?\s+(?:and|&)\s+(?:fiscal\s+|FY\s?)?(?:19|20)\d{2})\b/i));
  if (m) {
    const basis = m[1] || /fiscal|FY/i.test(m[2]!) ? 'fiscal' : 'unspecified';
    const years = [...new Set([...m[2]!.matchAll(/(?:19|20)\d{2}/g)].map((y) => Number(y[0])))].sort((a, b) => a - b);
    const periods = years.map((y) => period(basis === 'fiscal' ? `FY${y}` : String(y), basis, y));
    return { period: null, periods, consumed, span: false };
  }
  // "since 2020": that year through the latest.
  m = take(q.match(/\bsince\s+(fiscal\s+)?(\d{4})\b/i));
  if (m) {
    const basis = m[1] ? 'fiscal' : 'unspecified';
    return {
      period: null, periods: [period(m[2]!, basis, Number(m[2])), period('latest', 'unspecified', null, { latest: true })], consumed, span: true,
      spanOf: { text: m[0], last: null, unit: 'year', since: Number(m[2]), basis },
    };
  }
  // Relative spans: no years to name; the count and unit are kept for the executor.
  m = take(q.match(/\b(?:over|in|during|for|of)\s+the\s+(?:last|past|previous)\s+(?:(\w+)\s+)?(years?|quarters?|months?|decades?)\b|\bover\s+time\b|\bby\s+year\b|\beach\s+year\b/i));
  const span = m !== null;
  const spanOf = m ? relativeSpan(m) : undefined;

  // Fiscal year: "fiscal 2022", "fiscal year 2022", "FY2023", "FY 2023", "at the end of fiscal 2023" (the words of the period, not of the measure).
  m = take(q.match(/\b(?:(?:for|in|at\s+the\s+end\s+of|as\s+of)\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)(\d{4})\b/i));
  const withSpan = spanOf ? { spanOf } : {};
  if (m) return { period: period(m[0].replace(/^(for|in|at\s+the\s+end\s+of|as\s+of)\s+/i, ''), 'fiscal', Number(m[1])), periods: [], consumed, span, ...withSpan };
  // Calendar year named as such.
  m = take(q.match(/\b(?:in\s+|for\s+)?calendar\s+(?:year\s+)?(\d{4})\b/i));
  if (m) return { period: period(m[0].replace(/^(for|in)\s+/i, ''), 'calendar', Number(m[1])), periods: [], consumed, span, ...withSpan };
  // "latest", "most recent", "right now", "today".
  m = take(q.match(/\b(?:the\s+)?(?:latest|most\s+recent|right\s+now|today)\b/i));
  if (m) return { period: period(m[0], 'unspecified', null, { latest: true }), periods: [], consumed, span, ...withSpan };
  // A bare year: "in 2023", "at the end of 2023", "2021".
  m = take(q.match(/\b(?:(?:in|for|during|at\s+the\s+end\s+of|as\s+of)\s+)?((?:19|20)\d{2})\b/i));
  if (m) return { period: period(m[1]!, 'unspecified', Number(m[1])), periods: [], consumed, span, ...withSpan };
  // A year relative to the question's clock: kept as an offset, the year left to the executor's clock.
  const rel = relativeYearIn(q);
  if (rel && !span) {
    consumed.push(rel.words);
    return { period: period(rel.words, /calendar/i.test(rel.words) ? 'calendar' : 'unspecified', null, { offset: rel.offset }), periods: [], consumed, span };
  }
  return { period: null, periods: [], consumed, span, ...withSpan };
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, fifty: 50, couple: 2, a: 1,
};

/** "the last five years" → last 5, unit year; "the past decade" → last 10 years; "over time" → neither. */
function relativeSpan(m: RegExpMatchArray): Span {
  const text = m[0];
  const unitWord = m[2]?.toLowerCase();
  if (!unitWord) return { text, last: null, unit: /year/i.test(text) ? 'year' : null, since: null, basis: 'unspecified' };
  const countWord = m[1]?.toLowerCase();
  const n = countWord === undefined ? (/s$/.test(unitWord) ? null : 1) : /^\d+$/.test(countWord) ? Number(countWord) : NUMBER_WORDS[countWord] ?? null;
  const decade = /^decade/.test(unitWord);
  const unit: Grain = decade ? 'year' : (unitWord.replace(/s$/, '') as Grain);
  const last = n === null ? null : decade ? n * 10 : n;
  return { text, last: last !== null && last > 0 ? last : null, unit, since: null, basis: 'unspecified' };
}

/**
 * A year named relative to the question's clock ("this year", "so far this year", "last year"):
 * the offsets from the current calendar year. The interpreter has no clock, so the intent keeps no
 * year for it; the executor resolves it against the run's clock and says which year it took.
 */
export function relativeYearIn(question: string): { words: string; offset: number } | null {
  const m = /\b(?:so\s+far\s+)?this\s+(?:calendar\s+)?year\b|\byear\s+to\s+date\b|\blast\s+(?:calendar\s+)?year\b/i.exec(question);
  if (!m) return null;
  return { words: m[0], offset: /^last/i.test(m[0]) ? -1 : 0 };
}
