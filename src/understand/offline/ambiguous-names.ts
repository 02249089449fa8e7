/**
 * A small gazetteer of bare names that are ambiguous in general English usage: "Springfield" is a
 * city in several states, "Washington" a state, a city and a person, "Georgia" a state and a
 * country, "Delta" several companies. General knowledge, kept here in code; it is not built from
 * the catalog or the registry, names no source, and says nothing about which reading a publisher
 * holds (interpretation is blind to the corpus).
 *
 * An entry applies only to the bare name as written; a qualified mention ("Springfield, Illinois",
 * "Delta Air Lines", "Georgia Tech", "University of Washington") is a different, unambiguous name.
 * A cue in the question that settles the reading ("the state of Washington", "Delta flights")
 * resolves it instead of asking.
 */

export interface AmbiguousName {
  /** 2–5 full names, most likely first. */
  candidates: string[];
  /** Words in the question that settle the reading: pattern → index into candidates. */
  cues?: [RegExp, number][];
}

export const AMBIGUOUS_NAMES: ReadonlyMap<string, AmbiguousName> = new Map<string, AmbiguousName>([
  ['Springfield', { candidates: ['Springfield, Illinois', 'Springfield, Massachusetts', 'Springfield, Missouri'] }],
  ['Washington', { candidates: ['Washington (state)', 'Washington, D.C.'], cues: [[/\bstate of Washington\b|\bWashington state\b/i, 0], [/\bD\.?C\.?\b|\bdistrict\b/i, 1]] }],
  ['Georgia', { candidates: ['Georgia (U.S. state)', 'Georgia (country)'], cues: [[/\bcount(y|ies)\b|\bstates?\b|\bU\.?S\.?\b/i, 0], [/\b(countries|country|nation|Tbilisi|Caucasus)\b/i, 1]] }],
  ['Kansas City', { candidates: ['Kansas City, Missouri', 'Kansas City, Kansas'] }],
  ['Portland', { candidates: ['Portland, Oregon', 'Portland, Maine'] }],
  ['Columbia', { candidates: ['Columbia, South Carolina', 'Columbia, Missouri', 'Columbia University'], cues: [[/\b(university|college|students?|tuition|enrollment|graduat\w*)\b/i, 2]] }],
  ['Charleston', { candidates: ['Charleston, South Carolina', 'Charleston, West Virginia'] }],
  ['Arlington', { candidates: ['Arlington, Virginia', 'Arlington, Texas'] }],
  ['Rochester', { candidates: ['Rochester, New York', 'Rochester, Minnesota'] }],
  ['Jefferson County', { candidates: ['Jefferson County, Kentucky', 'Jefferson County, Alabama', 'Jefferson County, Colorado'] }],
  ['Washington County', { candidates: ['Washington County, Oregon', 'Washington County, Minnesota', 'Washington County, Pennsylvania'] }],
  ['Delta', { candidates: ['Delta Air Lines, Inc.', 'Delta Apparel, Inc.'], cues: [[/\b(airlines?|flights?|aviation)\b/i, 0]] }],
  ['Mercury', { candidates: ['Mercury General Corporation', 'Mercury Systems, Inc.'], cues: [[/\binsur\w*\b/i, 0], [/\bdefen[cs]e\b/i, 1]] }],
  ['Ford', { candidates: ['Ford Motor Company', 'Ford Foundation'], cues: [[/\b(cars?|vehicles?|auto\w*|trucks?)\b/i, 0], [/\b(grants?|grantees?|philanthrop\w*)\b/i, 1]] }],
  ['Dominion', { candidates: ['Dominion Energy, Inc.', 'Dominion Resources Black Warrior Trust'] }],
]);

export type NameReading =
  | { status: 'resolved'; canonical: string; cue?: string }
  | { status: 'ambiguous'; candidates: string[] }
  | { status: 'unknown' };

/** Reads a bare name against the gazetteer, using cues in the rest of the question. */
export function readName(name: string, question: string): NameReading {
  const entry = AMBIGUOUS_NAMES.get(name.trim());
  if (!entry) return { status: 'unknown' };
  const rest = question.split(name).join(' ');
  for (const [cue, i] of entry.cues ?? []) {
    const m = rest.match(cue) ?? question.match(cue);
    if (m && cue.test(name) === false) return { status: 'resolved', canonical: entry.candidates[i]!, cue: m[0] };
  }
  return { status: 'ambiguous', candidates: [...entry.candidates] };
}
