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

const THRESHOLD_RE = /\b(more than|over|above|greater than|exceeds?|exceeding|in excess of|at least|no less than|less than|under|below|fewer than|at most|no more than)\s+(\$)?\s?(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion|trillion|bn|k|m|b)?\b\s*(%|percent\b)?/i;

export function findThreshold(question: string): { threshold: Threshold | null; consumed: string[] } {
  const m = question.match(THRESHOLD_RE);
  if (!m) return { threshold: null, consumed: [] };
  const opWords = m[1]!;
  const op = OPS.find(([re]) => re.test(opWords))?.[1] ?? '>';
  const scale = m[4] ? SCALE[m[4].toLowerCase()] ?? 1 : 1;
  const value = Number(m[3]!.replace(/,/g, '')) * scale;
  const unit = m[2] ? 'USD' : m[5] ? '%' : null;
  const text = m[0].trim();
  return { threshold: { op, value, unit, text }, consumed: [m[0]] };
}

/** "top 5", "the 10 counties", "5 largest" → 5. */
export function findLimit(question: string): { limit: number | null; consumed: string[] } {
  const m = question.match(/\btop\s+(\d{1,4})\b/i)
    ?? question.match(/\bthe\s+(\d{1,4})\s+(?=\w+\s+(?:with|by|that)\b|(?:largest|highest|biggest|lowest|smallest)\b)/i)
    ?? question.match(/\b(\d{1,4})\s+(?:largest|highest|biggest|lowest|smallest)\b/i);
  if (!m) return { limit: null, consumed: [] };
  const n = Number(m[1]);
  if (n >= 1800 && n <= 2200) return { limit: null, consumed: [] }; // a year, not a count
  return { limit: n, consumed: [m[0]] };
}
