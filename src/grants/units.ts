/**
 * Units of an organization filed as recipients of their own: "University of Chicago - Urban Labs",
 * a school, center or project of a parent organization, written by the filer as "Parent - Unit"
 * with no EIN of its own. A question about the parent ("Who funds the University of Chicago?")
 * counts its units' grants, and says so; filed apart, they would be other recipients and the
 * answer would miss them.
 *
 * Input: the graph's name-keyed recipients (their filed names and states) and the cities filed in
 * it. Output: one `grants:parentNameKey` statement per unit, in the rollups graph — derived at
 * ingest from what the graph holds, like the rollups, so it is rebuilt with them and a fresh ingest
 * and an upgrade write the same statements.
 *
 * Decides, by the filed name only: a recipient is a unit when it has no EIN, its name splits at the
 * first " - " into a parent and a unit part, and the parent is not
 * - a place (a state's name, or a city some filer gave as an address in the graph: "Minneapolis - St
 *   Paul Regional Economic Development Partnership" names two cities, not a parent),
 * - initials (one word of at most five capitals: "MSU - Community Music School" does not say which
 *   organization MSU is),
 * - made only of legal-form words, nor is the unit part ("Acme - Inc" is Acme's own name).
 * Never: links a recipient filed with an EIN (it is an organization of its own), or decides which
 * units a question counts — that is the reader's (resolve.ts: units in the parent's state only).
 */
import { normaliseName } from '../resolve/registry.ts';
import { litNt, placeCity, TripleWriter } from './model.ts';
import * as Q from './queries.ts';
import { stateCode } from './states.ts';
import type { GrantStore } from './store.ts';
import { G, type GrantIris } from './vocab.ts';

const LEGAL_FORM = /^(?:the|inc|incorporated|corp|corporation|co|company|ltd|limited|llc|plc|\W|\s)*$/i;

/** The parent's and the unit's parts of a name written "Parent - Unit", or null when the name is not one. */
export function splitUnit(name: string): { parent: string; unit: string } | null {
  const at = name.indexOf(' - ');
  if (at < 0) return null;
  const parent = name.slice(0, at).trim();
  const unit = name.slice(at + 3).trim();
  if (!parent || !unit) return null;
  if (LEGAL_FORM.test(parent) || LEGAL_FORM.test(unit)) return null;
  // initials: one word of at most five capitals says no organization a reader could name
  if (/^[A-Z]{1,5}$/.test(parent.replace(/[.\s]/g, '')) && !/\s/.test(parent.replace(/\./g, '').trim())) return null;
  return { parent, unit };
}

/** Whether the parent part names a place rather than an organization: a state, or a city in `cities` (as place.ts keys them). */
export function isPlace(parent: string, cities: ReadonlySet<string>): boolean {
  return stateCode(parent) !== null || cities.has(placeCity(parent));
}

export interface UnitLink { org: string; parentKey: string; parent: string }

/**
 * The unit links the graph's names give: every name-keyed recipient whose filed name is a unit of a
 * parent that is no place. Reads the candidates (names holding " - ", no EIN) and the filed cities
 * among their parents' names: bounded by those names, never every place.
 */
export async function unitLinks(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<UnitLink[]> {
  const rows = await store.select(Q.unitCandidates(iris), signal);
  // a node may carry several spellings of one name: the lowest that splits, so every store agrees
  const byOrg = new Map<string, { parent: string; unit: string; name: string }>();
  for (const r of rows) {
    const name = r.name!.value;
    const s = splitUnit(name);
    if (!s) continue;
    const had = byOrg.get(r.o!.value);
    if (!had || name < had.name) byOrg.set(r.o!.value, { ...s, name });
  }
  if (byOrg.size === 0) return [];
  const parents = [...new Set([...byOrg.values()].map((x) => placeCity(x.parent)))];
  const cities = new Set<string>();
  for (let i = 0; i < parents.length; i += 200) {
    for (const r of await store.select(Q.filedCities(iris, parents.slice(i, i + 200)), signal)) cities.add(r.c!.value);
  }
  return [...byOrg].filter(([, x]) => !isPlace(x.parent, cities)).map(([org, x]) => ({ org, parentKey: normaliseName(x.parent), parent: x.parent }))
    .filter((x) => x.parentKey !== '').sort((a, b) => (a.org < b.org ? -1 : a.org > b.org ? 1 : 0));
}

/** Writes the unit links into the rollups graph (cleared by the rollup rebuild that calls this). */
export async function writeUnitLinks(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<number> {
  const links = await unitLinks(store, iris, signal);
  const w = new TripleWriter();
  for (const l of links) w.t(l.org, G.parentNameKey, litNt(l.parentKey));
  if (links.length > 0) await store.insertTriples(iris.rollups, w.text());
  return links.length;
}
