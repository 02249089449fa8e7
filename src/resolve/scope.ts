/**
 * Scope ambiguity of place names: one name that designates geographies of different grain — New
 * York the state and New York County within it; the District of Columbia as a state-equivalent and
 * as a county-equivalent — is ambiguous exactly as an entity name is, and is settled the same way:
 * by words that say the grain ("the state of New York", "New York County", "New York City", the
 * intent's geography level or type), else asked (`on_ambiguity: ask`) or answered under the first
 * reading with the others disclosed (`answer`).
 *
 * Input: the entity name as the intent gives it, the registry's bundles for it, and the intent's
 * geography level and type. Output: a typed reading — `not_scope` (fewer than two grains share the
 * name), `settled` (one grain, chosen by the words, with the alternatives), `ambiguous` (several
 * grains, none chosen: the candidates with their grain, most likely first), or `grain_missing` (the
 * words ask for a grain the registry holds no geography of, e.g. a city: never another grain in its
 * place).
 *
 * By rule, not by list: geographies are namesakes when the name, with grain words and the enclosing
 * state set aside ("New York County, New York" → "New York"), is the asked name, and the geography is
 * either an exact match for the name or lies within one that is (New York County in New York; Texas
 * County, Missouri, does not lie in Texas and is not a reading of "Texas").
 */
import type { IdentityBundle } from './bundle.ts';
import { normaliseName, resolveName, type IdentityRegistry, type ResolveContext } from './registry.ts';

export type ScopeGrain = 'state' | 'county' | 'place';

export interface ScopeCandidate {
  grain: ScopeGrain;
  label: string;
  fips: string;
  /** The bundle's id (QID or registry IRI). */
  id: string;
  bundle: IdentityBundle;
}

export type ScopeReading =
  | { status: 'not_scope' }
  | { status: 'settled'; chosen: ScopeCandidate; by: { grain: ScopeGrain; words: string }; alternatives: ScopeCandidate[] }
  | { status: 'ambiguous'; name: string; candidates: ScopeCandidate[] }
  | { status: 'grain_missing'; name: string; asked: ScopeGrain; words: string; available: ScopeCandidate[] };

export interface ScopeHints {
  /** intent.geography.level (state, county, city, …), open. */
  level?: string | null;
  /** intent.type (an open noun phrase: state, county, city, …). */
  type?: string | null;
}

/** Most likely reading first: a bare place name means the state, then the city, then the county. */
const ORDER: Readonly<Record<ScopeGrain, number>> = { state: 0, place: 1, county: 2 };

const GRAIN_WORDS: ReadonlyArray<[RegExp, ScopeGrain]> = [
  [/^(?:the\s+)?state\s+of\s+|\s+state$/i, 'state'],
  [/^(?:the\s+)?city\s+of\s+|\s+city$/i, 'place'],
  [/\s+(?:county|parish|borough)$/i, 'county'],
];

/** The grain a level or type word names (state, county, parish, city, town, village, place). */
export function grainOfWord(word: string | null | undefined): ScopeGrain | undefined {
  const w = (word ?? '').toLowerCase().trim();
  if (/^(?:u\.?s\.?\s+)?states?$/.test(w)) return 'state';
  if (/^(?:count(?:y|ies)|parish(?:es)?|boroughs?)$/.test(w)) return 'county';
  if (/^(?:cit(?:y|ies)|towns?|villages?|places?|municipalit(?:y|ies))$/.test(w)) return 'place';
  return undefined;
}

/** A place name without its grain words and enclosing state: "New York County, New York" → "new york". */
export function coreName(name: string): { core: string; grain?: ScopeGrain; words?: string } {
  let n = name.trim().replace(/\s*\((?:state|u\.s\. state|city|county)\)$/i, (m) => ` ${m.replace(/[()]/g, '').trim()}`);
  n = n.replace(/,\s*[^,]+$/, ''); // "…, New York": the enclosing state
  for (const [re, grain] of GRAIN_WORDS) {
    const m = re.exec(n);
    if (m) return { core: normaliseName(n.replace(re, ' ')), grain, words: m[0].trim() };
  }
  return { core: normaliseName(n) };
}

function candidateOf(b: IdentityBundle): ScopeCandidate | undefined {
  const fips = b.identifiers.fips?.[0];
  if (!fips || !b.fipsLevel) return undefined;
  return { grain: b.fipsLevel, label: b.label, fips, id: b.id, bundle: b };
}

/** The geographies among `bundles` that are readings of `name` (see the module comment for the rule). */
export function namesakes(name: string, bundles: readonly IdentityBundle[]): ScopeCandidate[] {
  const asked = coreName(name).core;
  const geo = bundles.map(candidateOf).filter((c): c is ScopeCandidate => !!c)
    .filter((c) => [c.label, ...c.bundle.altLabels].some((l) => coreName(l).core === asked));
  const exact = geo.filter((c) => [c.label, ...c.bundle.altLabels].some((l) => normaliseName(l) === asked) || c.bundle.match === 'exact');
  const within = (inner: ScopeCandidate, outer: ScopeCandidate) => inner !== outer && ORDER[outer.grain] < ORDER[inner.grain]
    && (inner.fips.startsWith(outer.fips) || (inner.bundle.locatedIn ?? []).some((p) => p.fips === outer.fips || p.id === outer.id));
  const kept = geo.filter((c) => exact.includes(c) || exact.some((e) => within(c, e)));
  return kept.sort((a, b) => ORDER[a.grain] - ORDER[b.grain] || a.label.localeCompare(b.label));
}

/**
 * The scope reading of a name over the bundles the registry returned for it (look up the core name:
 * "New York City" is looked up as "New York", see `resolveScope`).
 */
export function scopeReading(name: string, bundles: readonly IdentityBundle[], hints: ScopeHints = {}): ScopeReading {
  const own = coreName(name);
  const candidates = namesakes(name, bundles);
  const asked = own.grain ?? grainOfWord(hints.level) ?? grainOfWord(hints.type);
  const words = own.words ?? hints.level ?? hints.type ?? '';
  if (asked) {
    const ofGrain = candidates.filter((c) => c.grain === asked);
    if (ofGrain.length === 0) return candidates.length > 0 ? { status: 'grain_missing', name, asked, words, available: candidates } : { status: 'not_scope' };
    if (ofGrain.length === 1) {
      const alternatives = candidates.filter((c) => c !== ofGrain[0]);
      return alternatives.length > 0 ? { status: 'settled', chosen: ofGrain[0]!, by: { grain: asked, words }, alternatives } : { status: 'not_scope' };
    }
    return { status: 'ambiguous', name, candidates: ofGrain };
  }
  const grains = new Set(candidates.map((c) => c.grain));
  return grains.size >= 2 ? { status: 'ambiguous', name, candidates } : { status: 'not_scope' };
}

/** Looks the name's core up in the registry (memoised per question) and reads its scope. */
export async function resolveScope(registry: IdentityRegistry, name: string, hints: ScopeHints, ctx: ResolveContext): Promise<ScopeReading> {
  const { core, words } = coreName(name);
  const lookupName = words ? name.replace(/,\s*[^,]+$/, '').replace(new RegExp(words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'), ' ').replace(/^\s*(?:the\s+)?(?:of\s+)?/i, '').trim() : name;
  const bundles = await resolveName(registry, lookupName || core, {}, ctx);
  return scopeReading(name, bundles, hints);
}
