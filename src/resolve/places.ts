/**
 * Where a registry entity is: the place its wdt:P131 ("located in the administrative territorial
 * entity", Wikidata's own property) points to, described by that place's label and its FIPS state
 * code (wdt:P5087) when it has one. The offline snapshot places each IRS BMF organization in the
 * state of the extract row it was built from (the row's own STATE column) and each county in its
 * state. A place is data about the entity, never a guess: a bundle without P131 has no place.
 */
import { RDFS, WDT } from '../rdf/vocab.ts';
import type { IdentityBundle, Place } from './bundle.ts';
import { iri, sparql } from './sparql-text.ts';

/** The property an entity's place is read from. */
export const LOCATED_IN = WDT.P131;

/** SPARQL describing places: label and FIPS state code, each optional. */
export function placesQuery(places: readonly string[]): string {
  return sparql`SELECT ?place ?label ?fips WHERE {
  VALUES ?place { ${places.map(iri)} }
  OPTIONAL { ?place ${iri(RDFS.label)} ?label }
  OPTIONAL { ?place ${iri(WDT.P5087)} ?fips }
}`;
}

/**
 * Fills in each bundle's places from `select` (the rows of placesQuery for those places, from the
 * registry's own statements or its SPARQL over the same store): the label
 * and, for a state, its FIPS code and level. Places the store does not describe keep their IRI only.
 */
export async function describePlaces(bundles: readonly IdentityBundle[], select: (places: string[]) => Promise<Array<Record<string, string | undefined>>> | Array<Record<string, string | undefined>>): Promise<void> {
  const iris = [...new Set(bundles.flatMap((b) => (b.locatedIn ?? []).map((p) => p.id)))];
  if (iris.length === 0) return;
  const rows = await select(iris);
  const about = new Map<string, { label?: string; fips?: string }>();
  for (const r of rows) {
    const got = about.get(r.place!) ?? {};
    if (r.label && !got.label) got.label = r.label;
    if (r.fips && !got.fips) got.fips = r.fips;
    about.set(r.place!, got);
  }
  for (const b of bundles) {
    for (const p of b.locatedIn ?? []) {
      const a = about.get(p.id);
      if (a?.label) p.label = a.label;
      if (a?.fips && /^\d{2}$/.test(a.fips)) { p.fips = a.fips; p.level = 'state'; }
    }
  }
}

/** The state an entity is placed in (its first place that is a state), or undefined. */
export function stateOf(bundle: IdentityBundle): Place | undefined {
  return (bundle.locatedIn ?? []).find((p) => p.level === 'state' && p.label);
}
