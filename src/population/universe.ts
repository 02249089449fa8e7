/**
 * The universe a measure is counted over — people, families or households — as part of whether a
 * candidate measure can answer the question. "Poverty rate" is the share of people below the
 * poverty level; the share of *families* below it (ACS DP03_0119PE, "All families") is another
 * statistic over another universe, and is never read for it. A candidate is ineligible when
 *   - its label counts families and the question does not ask about families (families are never
 *     the default universe of a rate or a count), or
 *   - the question names a universe and the label names a different one ("people" asked, a
 *     households measure offered).
 * A label that names no universe ("Poverty rate, all ages") and a question that names none over a
 * households measure ("median income", commonly household income) stay eligible.
 *
 * The universe is read from the measure's own label (the last segment of a catalog title, the
 * publisher's line label), never from the concept heading it shares with its siblings
 * ("PERCENTAGE OF FAMILIES AND PEOPLE WHOSE INCOME …").
 */
import { labelWords } from './choices.ts';

export type Universe = 'people' | 'families' | 'households';

const WORDS: ReadonlyArray<[Universe, RegExp]> = [
  ['families', /\bfamil(y|ies)\b/i],
  ['households', /\bhouseholds?\b/i],
  ['people', /\b(people|persons?|individuals?|population|residents?)\b/i],
];

/** The universe some words name, when they name exactly one. */
export function universeOf(words: string): Universe | null {
  const named = WORDS.filter(([, re]) => re.test(words)).map(([u]) => u);
  return named.length === 1 ? named[0]! : null;
}

/** The universe of a catalog measure, from its own label ("… — All families (selected economic characteristics)" → families). */
export const measureUniverse = (title: string): Universe | null => universeOf(labelWords(title));

export type UniverseCheck = { ok: true } | { ok: false; asked: Universe | null; measure: Universe };

/** Whether a measure over `measure`'s universe can answer a question whose measure words are `asked`. */
export function checkUniverse(askedWords: string, title: string): UniverseCheck {
  const measure = measureUniverse(title);
  if (!measure) return { ok: true };
  const asked = universeOf(askedWords);
  if (measure === 'families' && asked !== 'families') return { ok: false, asked, measure };
  if (asked && asked !== measure) return { ok: false, asked, measure };
  return { ok: true };
}
