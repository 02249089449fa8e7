/**
 * A name in a grant question → organizations of the grant graph, in the role the direction needs
 * (the funder of a forward question, the recipient of a reverse one).
 *
 * Order, and the method each step discloses:
 * 1. `ein` — an EIN given in the question, or an EIN the identity registry holds for the name
 *    (exact or prefix name match only), that the graph holds in that role;
 *    recipients the filers named without an EIN but with exactly that name are added as `name_exact`;
 * 2. `name_exact` — organizations whose normalized name equals the name's;
 * 3. `name_words` — organizations whose name holds every distinctive word of the name (a funder's
 *    filed name may omit words like Foundation or Fund; a recipient's may not).
 * A recipient found at step 1 or 2 is counted with its units (units.ts: recipients filed as
 * "Parent - Unit", no EIN of their own) in its state; units in another state are left out and
 * named. A name no recipient has but units are filed under is those units (in one state).
 * Several organizations at one step that are not the same one (different EINs; the same name in
 * different states) are candidates, returned as an ambiguity for the caller to ask or disclose.
 * Never: picks among candidates silently, or widens to words when an EIN or exact name matched.
 */
import { normaliseName, nameWords, type IdentityRegistry } from '../resolve/registry.ts';
import { canonical } from '../resolve/identifiers.ts';
import { orgLocal } from './model.ts';
import { stateCode } from './states.ts';
import { orgDetails, orgsByEin, orgsByNameKey, orgsByWords, orgsWithDetails, unitsOf } from './queries.ts';
import type { GrantStore, Row } from './store.ts';
import { G, SDO, type GrantIris } from './vocab.ts';

export type MatchMethod = 'ein' | 'name_exact' | 'name_words';
export type Role = 'funder' | 'recipient';

export interface OrgHit { iri: string; ein: string | null; names: string[]; city: string | null; state: string | null; ntee: string | null; method: MatchMethod; /** A unit of the organization asked for, filed as "Parent - Unit" (units.ts). */ unit?: true }

/**
 * The units filed under the name asked for ("University of Chicago - Urban Labs" for "University of
 * Chicago"): those in the parent's state, counted with it (they are in `orgs` too), and those filed
 * in another state, left out (another organization of that name may be meant). `parentHeld`: the
 * parent itself has a node of its own (else only its units received grants).
 */
export interface UnitsFound { included: OrgHit[]; otherState: OrgHit[]; parentHeld: boolean }

export type OrgResolution =
  | { status: 'found'; asked: string; role: Role; orgs: OrgHit[]; method: MatchMethod; einSource?: 'question' | 'registry'; units?: UnitsFound }
  | { status: 'ambiguous'; asked: string; role: Role; candidates: OrgHit[] }
  | { status: 'not_found'; asked: string; role: Role };

/** Words that say what kind of organization, not which one. */
const GENERIC = new Set(['foundation', 'foundations', 'fund', 'trust', 'charitable', 'of', 'and', 'for', 'org', 'organization', 'organizations']);

export async function orgDetailsOf(store: GrantStore, iris: GrantIris, orgIris: readonly string[], method: MatchMethod): Promise<OrgHit[]> {
  if (orgIris.length === 0) return [];
  return hitsOf(await store.select(orgDetails(iris, orgIris)), orgIris, method);
}

/**
 * The organizations a query selects (`SELECT DISTINCT ?o …`), with their details, in one round
 * trip; in IRI order.
 */
async function selectOrgs(store: GrantStore, iris: GrantIris, inner: string, method: MatchMethod, signal?: AbortSignal): Promise<OrgHit[]> {
  const rows = await store.select(orgsWithDetails(iris, inner), signal);
  // IRI order: the same on every store (a join's row order is each engine's own)
  return hitsOf(rows, [...new Set(rows.map((r) => r.o!.value))].sort(), method);
}

function hitsOf(rows: readonly Row[], orgIris: readonly string[], method: MatchMethod): OrgHit[] {
  const by = new Map<string, OrgHit>();
  for (const r of rows) {
    const o = r.o!.value;
    const h = by.get(o) ?? { iri: o, ein: null, names: [], city: null, state: null, ntee: null, method };
    const p = r.p!.value;
    const v = r.v!.value;
    if (p === SDO.name) { if (!h.names.includes(v)) h.names.push(v); }
    // several values (a filer wrote another address): the lowest, the same rule the state rollups use, so every store agrees
    else if (p === SDO.taxID) h.ein = min(h.ein, v);
    else if (p === SDO.addressLocality) h.city = min(h.city, v);
    else if (p === SDO.addressRegion) h.state = min(h.state, v);
    else if (p === G.nteeCode) h.ntee = min(h.ntee, v);
    by.set(o, h);
  }
  return orgIris.map((o) => by.get(o) ?? { iri: o, ein: null, names: [], city: null, state: null, ntee: null, method }).map((h) => ({ ...h, names: h.names.sort() }));
}

const min = (a: string | null, b: string): string => (a === null || b < a ? b : a);

/** Whether the hits are one organization: at most one EIN, and name-keyed hits in one state. */
function oneOrganization(hits: readonly OrgHit[]): boolean {
  const eins = new Set(hits.map((h) => h.ein).filter(Boolean));
  const states = new Set(hits.filter((h) => !h.ein).map((h) => h.state ?? ''));
  if (eins.size > 1) return false;
  if (states.size > 1) return false;
  if (eins.size === 1 && states.size === 1) {
    const einState = hits.find((h) => h.ein)?.state ?? '';
    return [...states][0] === einState || [...states][0] === '';
  }
  return true;
}

/**
 * What a name selects when the name alone decides it, before any query: an EIN written in the
 * question is that organization's node; otherwise the organizations whose name key is the name's
 * (`inner`, a `SELECT DISTINCT ?o`, over the name key `key`). `resolveOrg` selects with these same texts, so a caller may
 * read ahead over them and keep the reads only if the resolution ended on that selection.
 */
export function nameSelection(iris: GrantIris, name: string, role: Role): { asked: string; ein: string | null; einNode: string | null; key: string; inner: string } {
  const asked = name.trim();
  const ein = canonical('ein', asked) ?? null;
  const key = normaliseName(asked);
  return { asked, ein, einNode: ein ? iris.org(orgLocal({ kind: 'ein', ein })) : null, key, inner: orgsByNameKey(iris, [key], role) };
}

export async function resolveOrg(store: GrantStore, iris: GrantIris, name: string, role: Role, registry?: IdentityRegistry, signal?: AbortSignal): Promise<OrgResolution> {
  // the units of the name as asked are read beside the resolution (one round trip, not two)
  const asked = role === 'recipient' ? normaliseName(name.trim()) : '';
  const early = asked ? unitsNamed(store, iris, [asked], 'name_exact', signal) : undefined;
  early?.catch(() => {});
  const found = await resolveNamed(store, iris, name, role, registry, signal);
  if (role !== 'recipient' || found.status === 'ambiguous') return found;
  return withUnits(store, iris, found, { key: asked, units: early! }, signal);
}

/**
 * A recipient's units (units.ts): the recipients filed as "Parent - Unit" whose parent's name key is
 * the name asked or a name the organization found was filed under. Units in the organization's
 * state are counted with it; those in another state are left out, and said. With no organization of
 * the name itself, its units alone are the answer when they are in one state, and candidates when not.
 */
async function withUnits(store: GrantStore, iris: GrantIris, r: Exclude<OrgResolution, { status: 'ambiguous' }>, read: { key: string; units: Promise<OrgHit[]> }, signal?: AbortSignal): Promise<OrgResolution> {
  if (r.status !== 'found' || r.orgs.some((o) => o.unit)) return r;
  // the name as asked was read already; a name the organization was filed under that differs is read now
  const others = [...new Set(r.orgs.flatMap((o) => o.names.map(normaliseName)))].filter((k) => k && k !== read.key);
  const held = new Set(r.orgs.map((o) => o.iri));
  const all = [...(read.key ? await read.units : []), ...(others.length ? await unitsNamed(store, iris, others, r.method, signal) : [])];
  const units = [...new Map(all.map((u) => [u.iri, { ...u, method: r.method }])).values()].filter((u) => !held.has(u.iri)).sort((a, b) => (a.iri < b.iri ? -1 : 1));
  if (units.length === 0) return r;
  const states = new Set(r.orgs.map((o) => o.state).filter((x): x is string => !!x));
  const inState = units.filter((u) => states.size === 0 || u.state === null || states.has(u.state));
  const otherState = units.filter((u) => !inState.includes(u));
  return { ...r, orgs: [...r.orgs, ...inState], units: { included: inState, otherState, parentHeld: true } };
}

const unitsNamed = async (store: GrantStore, iris: GrantIris, keys: readonly string[], method: MatchMethod, signal?: AbortSignal): Promise<OrgHit[]> =>
  (keys.length === 0 ? [] : (await selectOrgs(store, iris, unitsOf(iris, keys), method, signal)).map((u) => ({ ...u, unit: true as const })));

/** No organization of the name itself, but units of it: they are the answer when they are in one state (one organization's), candidates when not. */
async function unitsAlone(store: GrantStore, iris: GrantIris, asked: string, key: string, signal?: AbortSignal): Promise<OrgResolution | null> {
  const units = await unitsNamed(store, iris, [key], 'name_exact', signal);
  if (units.length === 0) return null;
  if (new Set(units.map((u) => u.state ?? '')).size > 1) return { status: 'ambiguous', asked, role: 'recipient', candidates: units.slice(0, 5) };
  return { status: 'found', asked, role: 'recipient', orgs: units, method: 'name_exact', units: { included: units, otherState: [], parentHeld: false } };
}

async function resolveNamed(store: GrantStore, iris: GrantIris, name: string, role: Role, registry?: IdentityRegistry, signal?: AbortSignal): Promise<OrgResolution> {
  const { asked, ein: given, inner, key } = nameSelection(iris, name, role);
  let exactHits: Promise<OrgHit[]> | undefined;
  const exactNameKeyed = (): Promise<OrgHit[]> => (exactHits ??= selectOrgs(store, iris, inner, 'name_exact', signal));
  // 1. EINs: in the question, or from the registry for this name
  let einSource: 'question' | 'registry' | undefined = given ? 'question' : undefined;
  let eins = given ? [given] : [];
  if (!given && registry) {
    const bundles = await registry.lookup(asked, {}, signal).catch(() => []);
    eins = [...new Set(bundles.filter((b) => b.match !== 'words').flatMap((b) => b.identifiers.ein ?? []))];
    einSource = 'registry';
  }
  if (eins.length > 0) {
    // a registry EIN: the exact-name read is needed either way (name-keyed rows of the same
    // organization, or step 2 when the graph lacks the EIN), so it goes beside the EIN read
    if (!given) exactNameKeyed().catch(() => {});
    const byEin = await selectOrgs(store, iris, orgsByEin(iris, eins.map((e) => iris.org(orgLocal({ kind: 'ein', ein: e }))), role), 'ein', signal);
    if (byEin.length > 0) {
      if (byEin.length > 1) return { status: 'ambiguous', asked, role, candidates: byEin };
      const named = given ? [] : (await exactNameKeyed()).filter((h) => !h.ein && (h.state === null || byEin[0]!.state === null || h.state === byEin[0]!.state));
      return { status: 'found', asked, role, orgs: [...byEin, ...named], method: 'ein', ...(einSource ? { einSource } : {}) };
    }
    if (given) return { status: 'not_found', asked, role };
  }
  // 2. the exact normalized name
  const exact = await exactNameKeyed();
  if (exact.length > 0) {
    return oneOrganization(exact) ? { status: 'found', asked, role, orgs: exact, method: 'name_exact' } : { status: 'ambiguous', asked, role, candidates: exact };
  }
  // 2b. no recipient of that name, but units filed under it ("University of Minnesota - Sponsored Projects Administration")
  if (role === 'recipient') {
    const units = await unitsAlone(store, iris, asked, key, signal);
    if (units) return units;
  }
  // 3. every distinctive word. Only a filer's name may drop the words that say what kind of
  // organization it is (its return says "THE FRED A & BARBARA M ERB FAMILY" for the Erb Family
  // Foundation); a recipient must carry every word ("Ford Foundation" is not "THE HENRY FORD").
  // a state's name is a place, not some words of a recipient's ("Michigan" is not "MICHIGAN STREET … COMMISSION")
  if (role === 'recipient' && stateCode(asked) !== null) return { status: 'not_found', asked, role };
  const all = nameWords(asked);
  const words = role === 'funder' ? all.filter((w) => !GENERIC.has(w)) : all.filter((w) => w !== 'of' && w !== 'and' && w !== 'for');
  if (words.length === 0) return { status: 'not_found', asked, role };
  const hits = await selectOrgs(store, iris, orgsByWords(iris, words, role), 'name_words', signal);
  if (hits.length === 0) return { status: 'not_found', asked, role };
  if (hits.length === 1 || oneOrganization(hits)) return { status: 'found', asked, role, orgs: hits, method: 'name_words' };
  return { status: 'ambiguous', asked, role, candidates: hits.slice(0, 5) };
}
