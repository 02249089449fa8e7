/**
 * Thresholds with units ("more than $100 million", "below 10%", "at least 15 percent") and
 * "top N" limits, read from the question text alone.
 */
import type { Threshold } from '../intent.ts';

const OPS: [RegExp, Threshold['op']][] = [
  [/^(?:more than|over|above|greater than|exceeds?|exceeding|in excess of)$/i, '>'],
  [/^(?:at least|no less than)$/i, '>='],
  [/^(?:less than|under|below|fewer than)$/i, '<'],
  [/^(?:at most|no more than)$/i, '<='],
];
const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, billion: 1e9, bn: 1e9, b: 1e9, trillion: 1e12 };

const THRESHOLD_RE = /\b(more than|over|above|greater than|exceeds?|exceeding|in excess of|at least|no less than|less than|under|below|fewer than|at most|no more than)\s+(\$)?\s?(\d[\d,]*(?:\.\d+)?|an?|one)\s*(thousand|million|billion|trillion|bn|k|m|b)?\b\s*(%|percent\b|(?:US\s+)?dollars\b|USD\b)?/i;
/** People named after the number ("more than 10 million people"): a count of people, which the measure must be. */
const PEOPLE_AFTER = /^\s*(people|persons|residents|inhabitants)\b/i;

export function findThreshold(question: string): { threshold: Threshold | null; consumed: string[] } {
  const m = question.match(THRESHOLD_RE);
  if (!m) return null_();
  // "a million" is a number only with its scale word ("over a decade" is not a threshold)
  if (/^(?:an?|one)$/i.test(m[3]!) && !m[4]) return null_();
  const opWords = m[1]!;
  const op = OPS.find(([re]) => re.test(opWords))?.[1] ?? '>';
  const scale = m[4] ? SCALE[m[4].toLowerCase()] ?? 1 : 1;
  const value = (/^(?:an?|one)$/i.test(m[3]!) ? 1 : Number(m[3]!.replace(/,/g, ''))) * scale;
  // the unit is written as a sign ("$", "%") or a word after the number ("dollars", "percent", "people")
  const people = !m[2] && !m[5] ? PEOPLE_AFTER.exec(question.slice(m.index! + m[0].length)) : null;
  const unit = m[2] || (m[5] && /dollars|usd/i.test(m[5])) ? 'USD' : m[5] ? '%' : people ? 'count' : null;
  const text = `${m[0].trim()}${people ? ` ${people[1]}` : ''}`;
  // the people stay in the question's words: they name the measure tested (the total population)
  return { threshold: { op, value, unit, text }, consumed: [m[0]] };
}
const null_ = () => ({ threshold: null, consumed: [] as string[] });

/** Number words a limit is written in ("the ten most populous states"); "one" is left out ("which one"). */
const NUMBER_WORDS: Record<string, number> = {
  two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, 'twenty-five': 25, thirty: 30, fifty: 50, hundred: 100,
};
const N = `(\\d{1,4}|${Object.keys(NUMBER_WORDS).join('|')})`;
const SUPERLATIVE = '(?:most|least|largest|highest|biggest|lowest|smallest|richest|poorest|fewest)';
const MEMBERS = '(?:count(?:y|ies)|states?|cit(?:y|ies)|towns?|places?|organi[sz]ations?|nonprofits?|charit(?:y|ies)|foundations?|compan(?:y|ies)|hospitals?|universit(?:y|ies)|schools?)';
const LIMITS = [
  new RegExp(`\\btop\\s+${N}\\b`, 'i'),
  new RegExp(`\\b(?:the|which|what)\\s+${N}\\s+(?=\\w+\\s+(?:with|by|that)\\b|${SUPERLATIVE}\\b|(?:[A-Za-z.-]+\\s+){0,2}${MEMBERS}\\b)`, 'i'),
  new RegExp(`\\b${N}\\s+${SUPERLATIVE}\\b`, 'i'),
];

/** "top 5", "the 10 counties", "5 largest", "the ten most populous states", "which five Texas counties" → the number. */
export function findLimit(question: string): { limit: number | null; consumed: string[] } {
  let m: RegExpMatchArray | null = null;
  for (const re of LIMITS) { m = question.match(re); if (m) break; }
  if (!m) return { limit: null, consumed: [] };
  const word = m[1]!.toLowerCase();
  const n = NUMBER_WORDS[word] ?? Number(word);
  if (n >= 1800 && n <= 2200) return { limit: null, consumed: [] }; // a year, not a count
  return { limit: n, consumed: [m[0]] };
}
