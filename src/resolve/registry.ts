/**
 * The identity registry: entity name (+ optional type) → candidate identity bundles.
 *
 * One SPARQL query, written against Wikidata's vocabulary, runs either against Wikidata's endpoint
 * (live, through Comunica) or against the bundled snapshot (offline, oxigraph), so both paths read
 * the same shape. Offline, names match as whole words anywhere in a label or alternative label
 * (regex over a small store); live, WDQS cannot scan labels, so the name must equal a label or
 * alternative label exactly (several spellings are tried).
 *
 * Results are memoised per question in the ResolveContext passed in (never per process): two
 * questions in flight never share a memo.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { RdfStore, RDF_FORMATS, factory, type Bindings } from '../rdf/store.ts';
import { RDF, RDFS, SCHEMA, SKOS, WD } from '../rdf/vocab.ts';
import { PROPERTY_ID, canonical } from './identifiers.ts';
import { LOCATED_IN, describePlaces } from './places.ts';
import type { EntityType, IdentityBundle } from './bundle.ts';
import { iri, lit, regexEscape, sparql } from './sparql-text.ts';

export const DEFAULT_SNAPSHOT = fileURLToPath(new URL('../../fixtures/registry/identity-snapshot.ttl', import.meta.url));

export interface ResolveOptions { type?: EntityType }

export interface ResolveContext {
  readonly signal?: AbortSignal;
  /** Per-question memo: key = type + normalised name. */
  readonly resolutionMemo: Map<string, Promise<IdentityBundle[]>>;
}

export function resolveContext(signal?: AbortSignal): ResolveContext {
  return { signal, resolutionMemo: new Map() };
}

export interface IdentityRegistry {
  readonly kind: 'offline-snapshot' | 'wikidata';
  lookup(name: string, options: ResolveOptions, signal?: AbortSignal): Promise<IdentityBundle[]>;
}

/** Candidates for a name, memoised in the question's context. */
export function resolveName(registry: IdentityRegistry, name: string, options: ResolveOptions, ctx: ResolveContext): Promise<IdentityBundle[]> {
  const key = `${registry.kind}|${options.type ?? '*'}|${normaliseName(name)}`;
  let p = ctx.resolutionMemo.get(key);
  if (!p) {
    p = registry.lookup(name, options, ctx.signal);
    ctx.resolutionMemo.set(key, p);
    p.catch(() => ctx.resolutionMemo.delete(key)); // a failure is not an answer worth remembering
  }
  return p;
}

const SUFFIXES = /\b(incorporated|inc|corporation|corp|company|co|ltd|limited|llc|plc|the)\b/g;
export function normaliseName(s: string): string {
  return s.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9 ]+/g, ' ').replace(SUFFIXES, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * The words a name is matched on: lower case, split at anything not a letter or digit, legal-form
 * words dropped (so "Coca-Cola" finds "COCA COLA CO" and "Ford Motor Company" finds "FORD MOTOR CO").
 * A name made only of such words keeps them (else "The Company" would match everything).
 */
export function nameWords(name: string): string[] {
  const all = name.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const kept = all.filter((w) => !LEGAL_FORM.has(w));
  return kept.length > 0 ? kept : all;
}
const LEGAL_FORM = new Set(['incorporated', 'inc', 'corporation', 'corp', 'company', 'co', 'ltd', 'limited', 'llc', 'plc', 'the']);

/** The words in order, as whole words, separated by any run of non-alphanumerics (regex text). */
function wordsPattern(ws: readonly string[]): string {
  return `(^|[^a-z0-9])${ws.map(regexEscape).join('[^a-z0-9]+')}([^a-z0-9]|$)`;
}

const TYPE_OF_CLASS: ReadonlyMap<string, EntityType> = new Map([
  [SCHEMA.Corporation, 'company'], [SCHEMA.Organization, 'organization'], [SCHEMA.Person, 'person'],
  [SCHEMA.State, 'state'], [SCHEMA.AdministrativeArea, 'county'], [SCHEMA.CollegeOrUniversity, 'school'],
]);

/** The query both paths run; `match` is the part that differs (whole-word regex vs exact labels). */
export function candidateQuery(name: string, mode: 'words' | 'exact', limit = 5000): string {
  const props = [RDF.type, RDFS.label, SKOS.altLabel, ...PROPERTY_ID.keys()].map(iri);
  if (mode === 'words') {
    const ws = nameWords(name);
    const pattern = ws.length ? wordsPattern(ws) : '(?!)';
    return sparql`SELECT ?item ?p ?v WHERE {
  { ?item ${iri(RDFS.label)} ?label } UNION { ?item ${iri(SKOS.altLabel)} ?label }
  FILTER(CONTAINS(LCASE(STR(?label)), ${lit(ws[0] ?? '')}) && REGEX(LCASE(STR(?label)), ${lit(pattern)}))
  VALUES ?p { ${props} }
  ?item ?p ?v .
} LIMIT ${limit}`;
  }
  const spellings = [...new Set([name.trim(), `${name.trim()} Inc.`, name.trim().toUpperCase()])].map((s) => lit(s, 'en'));
  return sparql`SELECT ?item ?p ?v WHERE {
  VALUES ?label { ${spellings} }
  { ?item ${iri(RDFS.label)} ?label } UNION { ?item ${iri(SKOS.altLabel)} ?label }
  VALUES ?p { ${props} }
  ?item ?p ?v .
} LIMIT 500`;
}

/** Rows of (item, property, value) → bundles, ranked: exact name, then prefix, then whole words. */
export function bundlesFromRows(rows: Array<{ item: string; p: string; v: string; vIsIri?: boolean }>, name: string, from: IdentityBundle['from'], type?: EntityType): IdentityBundle[] {
  const byItem = new Map<string, IdentityBundle>();
  for (const r of rows) {
    let b = byItem.get(r.item);
    if (!b) {
      const qid = r.item.startsWith(WD.ns) ? r.item.slice(WD.ns.length) : undefined;
      b = { id: qid ?? r.item, ...(qid ? { qid } : {}), label: '', altLabels: [], types: [], identifiers: qid ? { qid: [qid] } : {}, from, match: 'words' };
      byItem.set(r.item, b);
    }
    if (r.p === RDF.type) { const t = TYPE_OF_CLASS.get(r.v); if (t && !b.types.includes(t)) b.types.push(t); continue; }
    if (r.p === RDFS.label) { if (!b.label) b.label = r.v; else if (!b.altLabels.includes(r.v)) b.altLabels.push(r.v); continue; }
    if (r.p === SKOS.altLabel) { if (!b.altLabels.includes(r.v)) b.altLabels.push(r.v); continue; }
    if (r.p === LOCATED_IN) { if (!(b.locatedIn ??= []).some((p) => p.id === r.v)) b.locatedIn.push({ id: r.v }); continue; }
    const id = PROPERTY_ID.get(r.p);
    if (!id) continue;
    const value = canonical(id.type, r.v);
    if (!value) continue;
    const list = (b.identifiers[id.type] ??= []);
    if (!list.includes(value)) list.push(value);
    if (id.level) b.fipsLevel = id.level;
  }
  const wanted = normaliseName(name);
  const out: IdentityBundle[] = [];
  for (const b of byItem.values()) {
    // types implied by identifiers (live results carry no schema.org classes)
    if (b.identifiers.cik && !b.types.includes('company') && !b.types.includes('person')) b.types.push('company');
    if (b.identifiers.ein && !b.types.includes('organization') && !b.types.includes('company')) b.types.push('organization');
    if (b.fipsLevel && !b.types.includes(b.fipsLevel === 'county' ? 'county' : b.fipsLevel)) b.types.push(b.fipsLevel);
    if (b.identifiers.ipeds_unitid && !b.types.includes('school')) b.types.push('school');
    if (type && !b.types.includes(type)) continue;
    const labels = [b.label, ...b.altLabels].map(normaliseName);
    b.match = labels.includes(wanted) ? 'exact' : labels.some((l) => l.startsWith(`${wanted} `)) ? 'prefix' : 'words';
    b.altLabels.sort();
    out.push(b);
  }
  const rank = { exact: 0, prefix: 1, words: 2 } as const;
  return out.sort((a, b) => rank[a.match] - rank[b.match] || a.label.localeCompare(b.label));
}

/** SPARQL for everything the snapshot says about known items (the label index did the matching);
 *  bundlesFromRows keeps the identifier properties and ignores the rest. */
export function identifiersQuery(items: readonly string[]): string {
  return sparql`SELECT ?item ?p ?v WHERE {
  VALUES ?item { ${items.map(iri)} }
  ?item ?p ?v .
}`;
}

const words = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/**
 * The offline registry: the bundled snapshot in an in-memory oxigraph store, plus a word index over
 * its labels built once at open (a regex scan of every label per question took about a second).
 * Matching is the same as candidateQuery(name, 'words') — the name's words (legal forms such as Inc
 * or Company dropped) in order as whole words, case-insensitive, any punctuation between them — a
 * test holds the two to the same answers; identifiers are then read with SPARQL.
 */
export async function openOfflineRegistry(file = DEFAULT_SNAPSHOT): Promise<IdentityRegistry> {
  const store = new RdfStore();
  store.load(await readFile(file, 'utf8'), { format: RDF_FORMATS.turtle });
  const labels = new Map<string, string[]>();
  const byWord = new Map<string, Set<string>>();
  for (const p of [RDFS.label, SKOS.altLabel]) {
    for (const q of store.match(null, factory.namedNode(p), null, null)) {
      const item = q.subject.value;
      const text = q.object.value;
      labels.set(item, [...(labels.get(item) ?? []), text.toLowerCase()]);
      for (const w of words(text)) {
        let set = byWord.get(w);
        if (!set) { set = new Set(); byWord.set(w, set); }
        set.add(item);
      }
    }
  }
  return {
    kind: 'offline-snapshot',
    async lookup(name, options, signal) {
      signal?.throwIfAborted();
      const ws = nameWords(name);
      if (name.trim().length < 2 || ws.length === 0) return [];
      let candidates: Set<string> | undefined;
      for (const w of ws) {
        const set = byWord.get(w) ?? new Set<string>();
        candidates = candidates ? new Set([...candidates].filter((x) => set.has(x))) : new Set(set);
      }
      const pattern = new RegExp(wordsPattern(ws));
      const matched = [...(candidates ?? [])].filter((item) => (labels.get(item) ?? []).some((l) => pattern.test(l)));
      if (matched.length === 0) return [];
      const rows = store.select(identifiersQuery(matched.slice(0, 5000))).map((b: Bindings) => ({ item: b.get('item')!.value, p: b.get('p')!.value, v: b.get('v')!.value }));
      const bundles = bundlesFromRows(rows, name, 'offline-snapshot', options.type);
      await describePlaces(bundles, (q) => store.select(q).map((b: Bindings) => ({ place: b.get('place')?.value, label: b.get('label')?.value, fips: b.get('fips')?.value })));
      return bundles;
    },
  };
}
