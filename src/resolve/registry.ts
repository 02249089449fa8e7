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
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Parser as N3Parser } from 'n3';
import { fileURLToPath } from 'node:url';
import { RdfStore, RDF_FORMATS, factory, type Bindings } from '../rdf/store.ts';
import { RDF, RDFS, SCHEMA, SKOS, WD, WDT } from '../rdf/vocab.ts';
import { PROPERTY_ID, canonical } from './identifiers.ts';
import { LOCATED_IN, describePlaces, placesQuery } from './places.ts';
import type { EntityType, IdentityBundle } from './bundle.ts';
import { iri, lit, regexEscape, sparql } from './sparql-text.ts';
import { editDistance } from './near.ts';
import { encodeBinaryCache, readBinaryCache, TextReader, TextWriter } from '../binary-cache.ts';

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
  /**
   * Words of registered labels within `max` edits of `word` (resolve/near.ts editDistance), nearest
   * first: what a mistyped name may have meant. Only a registry that holds its labels can say; the
   * live one (WDQS cannot scan labels) has none.
   */
  nearWords?(word: string, max: number): string[];
}

/** Label words within `max` edits of `word`, nearest first, then alphabetically. */
export function nearIn(vocabulary: Iterable<string>, word: string, max: number): string[] {
  const w = word.toLowerCase();
  const found: Array<{ v: string; d: number }> = [];
  for (const v of vocabulary) {
    if (Math.abs(v.length - w.length) > max) continue;
    const d = editDistance(w, v, max);
    if (d <= max) found.push({ v, d });
  }
  return found.sort((a, b) => a.d - b.d || (a.v < b.v ? -1 : a.v > b.v ? 1 : 0)).map((x) => x.v);
}

/** Candidates for a name, memoised in the question's context. */
export function resolveName(registry: IdentityRegistry, name: string, options: ResolveOptions, ctx: ResolveContext): Promise<IdentityBundle[]> {
  const key = `${registry.kind}|${options.type ?? '*'}|${normaliseName(name)}`;
  let p = ctx.resolutionMemo.get(key);
  if (!p) {
    p = registry.lookup(name, options, ctx.signal).then((found) => (found.length > 0 || !CAMEL.test(name) ? found : spellingVariant(registry, name, options, ctx.signal)));
    ctx.resolutionMemo.set(key, p);
    p.catch(() => ctx.resolutionMemo.delete(key)); // a failure is not an answer worth remembering
  }
  return p;
}

/** A name written as one word with inner capitals ("ProPublica", "GlaxoSmithKline"). */
const CAMEL = /[a-z][A-Z]/;

/**
 * A name written as one word that the registry holds as several ("ProPublica" → "Pro Publica Inc"):
 * looked up split at its inner capitals when the name as written finds nothing. What it finds is a
 * match on another spelling, never an exact one, so it is chosen by name and said (leaf.ts chooseBundles).
 */
async function spellingVariant(registry: IdentityRegistry, name: string, options: ResolveOptions, signal?: AbortSignal): Promise<IdentityBundle[]> {
  const split = name.replace(/([a-z])([A-Z])/g, '$1 $2');
  const found = await registry.lookup(split, options, signal);
  return found.map((b) => ({ ...b, spelledAs: split, ...(b.match === 'exact' ? { match: 'prefix' as const } : {}) }));
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
  // the id last, so equal labels come in one order whatever order the rows came in
  return out.sort((a, b) => rank[a.match] - rank[b.match] || a.label.localeCompare(b.label) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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

/** Bump when the shape of the cached registry index changes. */
export const REGISTRY_CACHE_FORMAT = 'assay-registry-index/3';
const DEFAULT_REGISTRY_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/assay/', import.meta.url));

/**
 * What the offline registry reads from its snapshot, in plain arrays: every subject's statements
 * (property index, value), the lower-cased labels of each labelled item and the
 * word index over them, all in document order. Built once by parsing the snapshot (N3), then kept on
 * disk keyed by the snapshot's SHA-256: loading the 4.8 MB of Turtle into oxigraph and scanning its
 * labels cost ~2 s CPU per process on the loaded machine; reading this back costs a JSON parse.
 */
export interface RegistryIndex {
  format: typeof REGISTRY_CACHE_FORMAT;
  sha256: string;
  subjects: string[];
  props: string[];
  /** Per subject (parallel to `subjects`): [property index, value, property index, value, …]. */
  statements: Array<Array<number | string>>;
  /** Subject index → its labels and alternative labels, lower case. */
  labels: Record<string, string[]>;
  /** Word → subject indices whose labels contain it. */
  words: Record<string, number[]>;
}

/** The index of a snapshot loaded into a store (see RegistryIndex). */
export function registryIndexOf(turtle: string, sha256: string): RegistryIndex {
  const subjects: string[] = [];
  const at = new Map<string, number>();
  const props: string[] = [];
  const propAt = new Map<string, number>();
  const statements: Array<Array<number | string>> = [];
  const labels: Record<string, string[]> = {};
  const byWord = new Map<string, Set<number>>();
  const labelProps = new Set<string>([RDFS.label, SKOS.altLabel]);
  // Document order throughout: a subject's statements, its labels and each word's items.
  for (const q of new N3Parser({ format: 'text/turtle' }).parse(turtle)) {
    if (q.subject.termType !== 'NamedNode' || q.graph.termType !== 'DefaultGraph') continue;
    let i = at.get(q.subject.value);
    if (i === undefined) { i = subjects.length; subjects.push(q.subject.value); at.set(q.subject.value, i); statements.push([]); }
    let p = propAt.get(q.predicate.value);
    if (p === undefined) { p = props.length; props.push(q.predicate.value); propAt.set(q.predicate.value, p); }
    statements[i]!.push(p, q.object.value);
    if (!labelProps.has(q.predicate.value)) continue;
    (labels[i] ??= []).push(q.object.value.toLowerCase());
    for (const w of words(q.object.value)) {
      let set = byWord.get(w);
      if (!set) { set = new Set(); byWord.set(w, set); }
      set.add(i);
    }
  }
  const wordsOut: Record<string, number[]> = {};
  for (const [w, set] of byWord) wordsOut[w] = [...set];
  return { format: REGISTRY_CACHE_FORMAT, sha256, subjects, props, statements, labels, words: wordsOut };
}

/**
 * The registry index as a process keeps it: the same content as RegistryIndex in typed arrays over
 * one text (src/binary-cache.ts), so that loading it is a read rather than a parse of ~30,000
 * subjects' statements into heap arrays (the JSON form cost ~60 MB of RSS and a quarter of a second
 * of an `assay ask` on the loaded machine). Strings are made only for the subjects a lookup reads.
 * `s…` arrays hold [start, end) spans into `text`.
 */
export interface RegistryTables {
  format: typeof REGISTRY_CACHE_FORMAT;
  sha256: string;
  props: string[];
  subjectCount: number;
  subjects: Uint32Array;
  /** Subject numbers in code-unit order of their IRIs (a binary search finds a subject). */
  subjectOrder: Uint32Array;
  /** Statements of subject i: statementStart[i] … statementStart[i + 1] (property number, value span). */
  statementStart: Uint32Array; statementProp: Uint16Array; statementValue: Uint32Array;
  /** Lower-cased labels of subject i: labelStart[i] … labelStart[i + 1]. */
  labelStart: Uint32Array; labelValue: Uint32Array;
  /** Words (spans) and the subjects whose labels hold each: wordStart[w] … wordStart[w + 1] in wordItems. */
  words: Uint32Array; wordStart: Uint32Array; wordItems: Uint32Array;
  text: TextReader;
}

const REGISTRY_MAGIC = 'AREG';

/** The compact tables of a registry index (in its orders: statements, labels and words as built). */
export function registryTables(index: RegistryIndex): RegistryTables {
  const w = new TextWriter();
  const n = index.subjects.length;
  const subjects = w.spans(index.subjects);
  const statementStart = new Uint32Array(n + 1);
  const props: number[] = [];
  const values: string[] = [];
  const labelStart = new Uint32Array(n + 1);
  const labels: string[] = [];
  for (let i = 0; i < n; i++) {
    statementStart[i] = props.length;
    const st = index.statements[i] ?? [];
    for (let k = 0; k < st.length; k += 2) { props.push(st[k] as number); values.push(st[k + 1] as string); }
    labelStart[i] = labels.length;
    labels.push(...(index.labels[i] ?? []));
  }
  statementStart[n] = props.length;
  labelStart[n] = labels.length;
  const wordList = Object.keys(index.words);
  const wordStart = new Uint32Array(wordList.length + 1);
  const items: number[] = [];
  wordList.forEach((word, k) => { wordStart[k] = items.length; items.push(...index.words[word]!); });
  wordStart[wordList.length] = items.length;
  const order = Uint32Array.from(index.subjects.map((_, i) => i).sort((a, b) => (index.subjects[a]! < index.subjects[b]! ? -1 : index.subjects[a]! > index.subjects[b]! ? 1 : 0)));
  const statementValue = w.spans(values);
  const labelValue = w.spans(labels);
  const words = w.spans(wordList);
  return {
    format: REGISTRY_CACHE_FORMAT, sha256: index.sha256, props: index.props, subjectCount: n, subjects, subjectOrder: order,
    statementStart, statementProp: Uint16Array.from(props), statementValue, labelStart, labelValue,
    words, wordStart, wordItems: Uint32Array.from(items), text: new TextReader(w.text(), w.wideText()),
  };
}

const ARRAYS = ['subjects', 'subjectOrder', 'statementStart', 'statementProp', 'statementValue', 'labelStart', 'labelValue', 'words', 'wordStart', 'wordItems'] as const;

function encodeRegistry(t: RegistryTables): Buffer {
  const w = new TextWriter();
  // the tables' two texts are already one string each: written as one span each, so every span into them stays valid
  w.put(new Uint32Array(2), 0, t.text.text);
  if (t.text.wide) w.put(new Uint32Array(2), 0, t.text.wide);
  return encodeBinaryCache(REGISTRY_MAGIC, { format: t.format, sha256: t.sha256, props: t.props, subjectCount: t.subjectCount }, Object.fromEntries(ARRAYS.map((k) => [k, t[k]])), w);
}

async function readRegistry(file: string, sha256: string): Promise<RegistryTables | undefined> {
  const f = await readBinaryCache<Pick<RegistryTables, 'format' | 'sha256' | 'props' | 'subjectCount'>>(file, REGISTRY_MAGIC, (h) => h.format === REGISTRY_CACHE_FORMAT && h.sha256 === sha256);
  if (!f) return undefined;
  try {
    const a = Object.fromEntries(ARRAYS.map((k) => [k, f.array(k)])) as Pick<RegistryTables, (typeof ARRAYS)[number]>;
    if (a.subjects.length !== f.header.subjectCount * 2 || a.statementStart.length !== f.header.subjectCount + 1 || a.labelStart.length !== f.header.subjectCount + 1) return undefined;
    return { format: REGISTRY_CACHE_FORMAT, sha256, props: f.header.props, subjectCount: f.header.subjectCount, ...a, text: f.text };
  } catch {
    return undefined;
  }
}

/** The lower-cased labels of subject i. */
export function registryLabels(t: RegistryTables, i: number): string[] {
  const out: string[] = [];
  for (let k = t.labelStart[i]!; k < t.labelStart[i + 1]!; k++) out.push(t.text.get(t.labelValue, k * 2));
  return out;
}

/**
 * The offline registry's index for a snapshot file: from the on-disk cache when one was written for
 * these bytes, else built by parsing the snapshot (and then cached; a cache that cannot be read or
 * written is ignored). `cacheDir: null` never reads or writes a cache.
 */
export async function loadRegistryIndex(file = DEFAULT_SNAPSHOT, options: { cacheDir?: string | null } = {}): Promise<{ index: RegistryTables; fromCache: boolean }> {
  const bytes = await readFile(file);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const cacheDir = options.cacheDir === undefined ? DEFAULT_REGISTRY_CACHE_DIR : options.cacheDir;
  const cached = cacheDir === null ? undefined : join(cacheDir, `registry-${sha256.slice(0, 24)}.bin`);
  if (cached) {
    const c = await readRegistry(cached, sha256);
    if (c) return { index: c, fromCache: true };
  }
  const index = registryTables(registryIndexOf(bytes.toString('utf8'), sha256));
  if (cached) {
    try {
      await mkdir(cacheDir!, { recursive: true });
      const tmp = `${cached}.${process.pid}.tmp`;
      await writeFile(tmp, encodeRegistry(index));
      await rename(tmp, cached);
      // older snapshots' indexes, and files a writer killed mid-write left (a concurrent writer whose
      // file goes only loses its rename, which is caught)
      const old = (await readdir(cacheDir!)).filter((f) => /^registry-[0-9a-f]+\.(json|bin)(\.\d+\.tmp)?$/.test(f) && join(cacheDir!, f) !== cached);
      for (const f of old) await rm(join(cacheDir!, f), { force: true });
    } catch { /* a read-only cache directory only costs the next process the build */ }
  }
  return { index, fromCache: false };
}

/**
 * The offline registry: the bundled snapshot's statements by subject plus a word index over its
 * labels (RegistryIndex, cached on disk by content). Matching is the same as
 * candidateQuery(name, 'words') — the name's words (legal forms such as Inc or Company dropped) in
 * order as whole words, case-insensitive, any punctuation between them — a test holds the two to the
 * same answers; identifiers and places are then read from the matched subjects' statements, the
 * rows identifiersQuery and placesQuery return over the snapshot (a test holds the two to the same
 * bundles).
 */
export async function openOfflineRegistry(file = DEFAULT_SNAPSHOT, options: { cacheDir?: string | null } = {}): Promise<IdentityRegistry> {
  const { index } = await loadRegistryIndex(file, options);
  return registryFromIndex(index);
}

export function registryFromIndex(index: RegistryTables): IdentityRegistry {
  const t = index;
  const subject = (i: number) => t.text.get(t.subjects, i * 2);
  const label = t.props.indexOf(RDFS.label);
  const fipsProp = t.props.indexOf(WDT.P5087);
  // word → its number, made on the first lookup (a process that resolves nothing never builds it)
  let wordAt: Map<string, number> | undefined;
  const wordIndex = () => (wordAt ??= new Map(Array.from({ length: t.wordStart.length - 1 }, (_, k) => [t.text.get(t.words, k * 2), k])));
  const itemsOf = (w: string): number[] => {
    const k = wordIndex().get(w);
    return k === undefined ? [] : Array.from(t.wordItems.subarray(t.wordStart[k]!, t.wordStart[k + 1]!));
  };
  const at = (iri: string): number | undefined => {
    let lo = 0; let hi = t.subjectCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = subject(t.subjectOrder[mid]!);
      if (s === iri) return t.subjectOrder[mid]!;
      if (s < iri) lo = mid + 1; else hi = mid - 1;
    }
    return undefined;
  };
  return {
    kind: 'offline-snapshot',
    async lookup(name, options, signal) {
      signal?.throwIfAborted();
      const ws = nameWords(name);
      if (name.trim().length < 2 || ws.length === 0) return [];
      let candidates: Set<number> | undefined;
      for (const w of ws) {
        const list = itemsOf(w);
        if (!candidates) { candidates = new Set(list); continue; }
        const set = new Set(list);
        // in the first word's order (the label scan's), as the store-backed lookup keeps it
        candidates = new Set([...candidates].filter((x) => set.has(x)));
      }
      const pattern = new RegExp(wordsPattern(ws));
      const matched = [...(candidates ?? [])].filter((item) => registryLabels(t, item).some((l) => pattern.test(l)));
      if (matched.length === 0) return [];
      const rows: Array<{ item: string; p: string; v: string }> = [];
      for (const i of matched.slice(0, 5000)) {
        const item = subject(i);
        for (let k = t.statementStart[i]!; k < t.statementStart[i + 1]!; k++) rows.push({ item, p: t.props[t.statementProp[k]!]!, v: t.text.get(t.statementValue, k * 2) });
      }
      const bundles = bundlesFromRows(rows, name, 'offline-snapshot', options.type);
      await describePlaces(bundles, (places) => places.flatMap((place) => {
        const i = at(place);
        const values = (p: number) => {
          const out: string[] = [];
          if (i !== undefined) for (let k = t.statementStart[i]!; k < t.statementStart[i + 1]!; k++) if (t.statementProp[k] === p) out.push(t.text.get(t.statementValue, k * 2));
          return out;
        };
        const ls = values(label);
        const fs = values(fipsProp);
        // the rows of placesQuery: each label × each FIPS code, either absent when there is none
        return (ls.length ? ls : [undefined]).flatMap((l) => (fs.length ? fs : [undefined]).map((f) => ({ place, label: l, fips: f })));
      }));
      return bundles;
    },
    nearWords: (word, max) => nearIn(wordIndex().keys(), word, max),
  };
}

/**
 * The same registry answered by SPARQL over the snapshot loaded into oxigraph: the reference the
 * cached index is tested against (same bundles; ties and lists may come in the store's order).
 */
export async function openOfflineRegistryFromStore(file = DEFAULT_SNAPSHOT): Promise<IdentityRegistry> {
  const store = new RdfStore();
  store.load(await readFile(file, 'utf8'), { format: RDF_FORMATS.turtle });
  const labels = new Map<string, string[]>();
  const byWord = new Map<string, Set<string>>();
  for (const p of [RDFS.label, SKOS.altLabel]) {
    for (const q of store.match(null, factory.namedNode(p), null, null)) {
      const item = q.subject.value;
      labels.set(item, [...(labels.get(item) ?? []), q.object.value.toLowerCase()]);
      for (const w of words(q.object.value)) {
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
      await describePlaces(bundles, (places) => store.select(placesQuery(places)).map((b: Bindings) => ({ place: b.get('place')!.value, label: b.get('label')?.value, fips: b.get('fips')?.value })));
      return bundles;
    },
    nearWords: (word, max) => nearIn(byWord.keys(), word, max),
  };
}
