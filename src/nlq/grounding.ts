/**
 * Ground: what the loop knows about the target graph before it asks anything. Built once per
 * graph (and rebuilt when the store changes), entirely in the worker pool:
 * - the introspect/ mining of the graph (schema card, seed-scoped detail, join hints, VoID figures);
 * - the store's own labels (rdfs:label, skos:prefLabel/altLabel, schema:name, dcterms:title,
 *   dc:title, foaf:name) and every subject's types, for entity and class linking;
 * - the exact dictionary of predicates and classes the graph uses, for the dictionary check
 *   (the mined profile is capped; the dictionary is not).
 *
 * Contract: never runs a query on the main thread; never reads outside the target graph.
 */
import { seedCard, toCard, type Introspection } from '../../introspect/index.ts';
import type { GraphRunner, Row } from './exec.ts';
import { Linker, type LabelEntry } from './link.ts';

export const LABEL_PREDICATES = [
  'http://www.w3.org/2000/01/rdf-schema#label',
  'http://www.w3.org/2004/02/skos/core#prefLabel',
  'http://www.w3.org/2004/02/skos/core#altLabel',
  'http://schema.org/name',
  'https://schema.org/name',
  'http://purl.org/dc/terms/title',
  'http://purl.org/dc/elements/1.1/title',
  'http://xmlns.com/foaf/0.1/name',
] as const;

export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
/** Wikibase: a property item names the predicate that states its direct ("truthy") claims. */
export const WIKIBASE_DIRECT_CLAIM = 'http://wikiba.se/ontology#directClaim';

/**
 * A graph that states types with its own predicates rather than rdf:type (Wikibase: `wdt:P31`
 * instance of, `wdt:P279` subclass of), found by the predicates' labels. Its classes are the
 * objects of instance-of and everything above them by subclass-of; an item is of a class when it
 * is an instance of it or of any class below it, so a query states a type with the path
 * `instanceOf/subclassOf*`, the one property path the loop then allows.
 */
/**
 * When two predicates join the same classes (a grant's `funder` and its `fundedItem`, both
 * organizations), the question may name neither; which of them an entity is actually reached by
 * is a fact of the data, read here, not a guess: `into` — predicates whose object it is; `outOf` —
 * predicates whose subject it is. Only for `predicates`.
 */
export interface Roles { predicates: ReadonlySet<string>; into: ReadonlyMap<string, ReadonlySet<string>>; outOf: ReadonlyMap<string, ReadonlySet<string>> }

export interface Typing { instanceOf: string; subclassOf?: string; classes: ReadonlySet<string> }

export interface VoidFigures { triples: number; entities: number; distinctSubjects: number; classes: number; properties: number }

/** Where grounding read less than the whole graph (typed; reported with every answer over it). */
export type GroundingCut =
  | { code: 'labels-cut'; read: number; limit: number }
  | { code: 'types-cut'; read: number; limit: number }
  | { code: 'dictionary-cut'; read: number; limit: number };

export interface NumericStats { count: number; zeros: number; negatives: number; min: number; max: number }

export interface Grounding {
  /** The graph's IRI; undefined = the union of every graph. */
  graph: string | undefined;
  ix: Introspection;
  dictionary: { predicates: ReadonlySet<string>; classes: ReadonlySet<string> };
  /** Types of every typed subject. */
  types: ReadonlyMap<string, readonly string[]>;
  linker: Linker;
  void: VoidFigures;
  /** Per predicate with numeric values: how many, how many are zero, the least and greatest. */
  numeric: ReadonlyMap<string, NumericStats>;
  /** The graph's own name predicates besides the standard ones (e.g. a local `hasName`, `hasTitle`). */
  namePredicates: readonly string[];
  /** Reads that stopped at a limit: linking and the dictionary saw only part of the graph. */
  cuts: readonly GroundingCut[];
  /** Set when the graph types its items with its own instance-of / subclass-of predicates. */
  typing?: Typing;
  /** Which entities each join predicate reaches, for the predicates that join the same two classes (see Roles). */
  roles?: Roles;
  /** Milliseconds spent building (mining + labels + dictionary). */
  buildMs: number;
}

export interface GroundOptions {
  /** Limit for each grounding job (mining, labels), milliseconds. */
  timeoutMs: number;
  /** Most label rows read (a graph with more is linked on the first ones, and says so in `partialLabels`). */
  maxLabelRows: number;
}

export const DEFAULT_GROUND_OPTIONS: GroundOptions = { timeoutMs: 120_000, maxLabelRows: 1_000_000 };

const values = (iris: readonly string[]) => iris.map((i) => `<${i}>`).join(' ');

export async function buildGrounding(runner: GraphRunner, graph: string | undefined, options: GroundOptions = DEFAULT_GROUND_OPTIONS): Promise<Grounding> {
  const started = performance.now();
  const limits = { timeoutMs: options.timeoutMs, maxRows: options.maxLabelRows, limitName: 'nlq.groundTimeoutMs' };
  // Mine first: an empty or unknown graph ends here (and the endpoint would refuse a dataset it
  // does not hold as a remote one).
  const ix = await runner.mine(graph, options.timeoutMs);
  if (ix.triples === 0) {
    return { graph, ix, types: new Map(), linker: Linker.build({ labels: [], types: new Map(), ix, classes: new Set(), predicates: new Set() }),
      dictionary: { predicates: new Set(), classes: new Set() }, void: { triples: 0, entities: 0, distinctSubjects: 0, classes: 0, properties: 0 }, numeric: new Map(), namePredicates: [], cuts: [], buildMs: performance.now() - started };
  }
  const namePredicates = discoveredNamePredicates(ix);
  const labelsP = runner.query(`SELECT ?s ?p ?l WHERE { VALUES ?p { ${values([...LABEL_PREDICATES, ...namePredicates])} } ?s ?p ?l FILTER(isLiteral(?l) && isIRI(?s)) }`, graph, limits);
  const typesP = runner.query(`SELECT ?s ?t WHERE { ?s <${RDF_TYPE}> ?t FILTER(isIRI(?s) && isIRI(?t)) }`, graph, limits);
  // The mined profile lists every predicate unless it was capped; only then is a full scan for the dictionary needed.
  const predsP = ix.predicates.length >= ix.predicateCount
    ? Promise.resolve({ kind: 'select' as const, vars: ['p'], truncated: false, rows: ix.predicates.map((p) => ({ p: { type: 'uri' as const, value: p.iri } })) })
    : runner.query('SELECT DISTINCT ?p WHERE { ?s ?p ?o }', graph, limits);
  const statsP = runner.query('SELECT ?p (COUNT(?o) AS ?n) (SUM(IF(?o = 0, 1, 0)) AS ?z) (SUM(IF(?o < 0, 1, 0)) AS ?neg) (MIN(?o) AS ?mn) (MAX(?o) AS ?mx) WHERE { ?s ?p ?o FILTER(isNumeric(?o)) } GROUP BY ?p', graph, limits);
  const [labels, typeRows, preds, stats] = await Promise.all([labelsP, typesP, predsP, statsP]);
  const rows = (r: Awaited<typeof labelsP>): Row[] => (r.kind === 'select' ? r.rows : []);
  const cuts: GroundingCut[] = [];
  const cut = (r: Awaited<typeof labelsP>, code: GroundingCut['code']) => { if (r.kind === 'select' && r.truncated) cuts.push({ code, read: r.rows.length, limit: options.maxLabelRows }); };
  cut(labels, 'labels-cut'); cut(typeRows, 'types-cut'); cut(preds, 'dictionary-cut');

  const types = new Map<string, string[]>();
  const classes = new Set<string>();
  for (const row of rows(typeRows)) {
    const s = row.s!.value; const t = row.t!.value;
    classes.add(t);
    const list = types.get(s);
    if (list) list.push(t); else types.set(s, [t]);
  }
  const predicates = new Set<string>(rows(preds).map((r) => r.p!.value));
  const numeric = new Map<string, NumericStats>();
  for (const r of rows(stats)) {
    numeric.set(r.p!.value, { count: Number(r.n?.value ?? 0), zeros: Number(r.z?.value ?? 0), negatives: Number(r.neg?.value ?? 0), min: Number(r.mn?.value ?? NaN), max: Number(r.mx?.value ?? NaN) });
  }
  const entries: LabelEntry[] = rows(labels).map((r) => ({ iri: r.s!.value, label: r.l!.value, via: r.p!.value, ...(r.l!['xml:lang'] ? { lang: r.l!['xml:lang'] } : {}) }));
  // Wikibase names its direct-claim predicates only on their property items: read those names as the predicates' own.
  if (predicates.has(WIKIBASE_DIRECT_CLAIM)) {
    const named = await runner.query(`SELECT ?prop ?p ?l WHERE { ?prop <${WIKIBASE_DIRECT_CLAIM}> ?p ; <${RDFS_LABEL}> ?l FILTER(isIRI(?p) && isLiteral(?l)) }`, graph, limits);
    cut(named, 'labels-cut');
    // The property item is the predicate's description, not a thing questions ask about: its label names the predicate only.
    const items = new Set(rows(named).map((r) => r.prop!.value));
    for (let i = entries.length - 1; i >= 0; i--) if (items.has(entries[i]!.iri)) entries.splice(i, 1);
    for (const r of rows(named)) entries.push({ iri: r.p!.value, label: r.l!.value, via: WIKIBASE_DIRECT_CLAIM, ...(r.l!['xml:lang'] ? { lang: r.l!['xml:lang'] } : {}) });
  }
  const found = typingPredicates(entries, predicates);
  let typing: Typing | undefined;
  let mined = ix;
  if (found) {
    const view = await typingView(runner, graph, limits, found, ix);
    for (const c of view.classes) classes.add(c);
    for (const [sub, ts] of view.types) {
      const list = types.get(sub) ?? [];
      for (const t of ts) if (!list.includes(t)) list.push(t);
      types.set(sub, list);
    }
    typing = { ...found, classes: view.classes };
    mined = view.ix;
  }
  const roles = await joinRoles(runner, graph, limits, mined);
  for (const r of roles.cuts) cuts.push({ code: 'labels-cut', read: r, limit: options.maxLabelRows });
  const linker = Linker.build({ labels: entries, types, ix: mined, classes, predicates });
  return {
    graph, ix: mined, types, linker, ...(typing ? { typing } : {}), ...(roles.roles ? { roles: roles.roles } : {}),
    dictionary: { predicates, classes },
    void: { triples: ix.triples, entities: ix.entities, distinctSubjects: ix.subjects, classes: ix.classCount, properties: ix.predicateCount },
    numeric, namePredicates, cuts,
    buildMs: performance.now() - started,
  };
}

/** Roles (see Roles) for the predicates that join one pair of classes with another predicate. */
async function joinRoles(runner: GraphRunner, graph: string | undefined, limits: { timeoutMs: number; maxRows: number; limitName: string }, ix: Introspection): Promise<{ roles?: Roles; cuts: number[] }> {
  const byPair = new Map<string, Set<string>>();
  for (const h of ix.joinHints.hints) {
    if (h.predicate === RDF_TYPE) continue;
    for (const key of [`${h.from} ${h.to}`, `${h.to} ${h.from}`]) byPair.set(key, (byPair.get(key) ?? new Set()).add(h.predicate));
  }
  const shared = new Set<string>();
  for (const ps of byPair.values()) if (ps.size > 1) for (const p of ps) shared.add(p);
  if (shared.size === 0) return { cuts: [] };
  const list = values([...shared].sort());
  const [into, outOf] = await Promise.all([
    runner.query(`SELECT DISTINCT ?e ?p WHERE { VALUES ?p { ${list} } ?s ?p ?e FILTER(isIRI(?e)) }`, graph, limits),
    runner.query(`SELECT DISTINCT ?e ?p WHERE { VALUES ?p { ${list} } ?e ?p ?o FILTER(isIRI(?e) && isIRI(?o)) }`, graph, limits),
  ]);
  const cuts: number[] = [];
  const read = (r: Awaited<ReturnType<GraphRunner['query']>>) => {
    const m = new Map<string, Set<string>>();
    if (r.kind !== 'select') return m;
    // A cut read would make an entity look unreached by a predicate it has: no roles at all then.
    if (r.truncated) { cuts.push(r.rows.length); return undefined; }
    for (const row of r.rows) m.set(row.e!.value, (m.get(row.e!.value) ?? new Set()).add(row.p!.value));
    return m;
  };
  const i = read(into);
  const o = read(outOf);
  return i && o ? { roles: { predicates: shared, into: i, outOf: o }, cuts } : { cuts };
}

/** The predicates labelled "instance of" and "subclass of" (one each), when the graph has them and they are not rdf:type/rdfs:subClassOf. */
function typingPredicates(entries: readonly LabelEntry[], predicates: ReadonlySet<string>): { instanceOf: string; subclassOf?: string } | undefined {
  const named = (words: string) => [...new Set(entries.filter((e) => predicates.has(e.iri) && e.iri !== RDF_TYPE && e.label.trim().toLowerCase() === words).map((e) => e.iri))];
  const inst = named('instance of');
  if (inst.length !== 1) return undefined;
  const sub = named('subclass of');
  return { instanceOf: inst[0]!, ...(sub.length === 1 ? { subclassOf: sub[0]! } : {}) };
}

/**
 * The classes, types, class profiles and join hints of the graph's own typing, mined as
 * introspect/ mines rdf:type: per direct class, then carried up the subclass-of hierarchy (an
 * instance of a capital city is an instance of a city).
 */
async function typingView(runner: GraphRunner, graph: string | undefined, limits: { timeoutMs: number; maxRows: number; limitName: string }, t: { instanceOf: string; subclassOf?: string }, ix: Introspection): Promise<{ classes: Set<string>; types: Map<string, string[]>; ix: Introspection }> {
  const I = `<${t.instanceOf}>`;
  const [direct, subs, usage, joins] = await Promise.all([
    runner.query(`SELECT ?s ?c WHERE { ?s ${I} ?c FILTER(isIRI(?s) && isIRI(?c)) }`, graph, limits),
    t.subclassOf ? runner.query(`SELECT ?a ?b WHERE { ?a <${t.subclassOf}> ?b FILTER(isIRI(?a) && isIRI(?b)) }`, graph, limits) : Promise.resolve(undefined),
    runner.query(`SELECT ?c ?p (COUNT(DISTINCT ?s) AS ?n) (COUNT(*) AS ?t) WHERE { ?s ${I} ?c . ?s ?p ?o FILTER(isIRI(?c)) } GROUP BY ?c ?p`, graph, limits),
    runner.query(`SELECT ?c ?p ?d (COUNT(*) AS ?n) WHERE { ?s ${I} ?c . ?s ?p ?o . ?o ${I} ?d FILTER(isIRI(?c) && isIRI(?d)) } GROUP BY ?c ?p ?d`, graph, limits),
  ]);
  const rows = (r: Awaited<ReturnType<GraphRunner['query']>> | undefined): Row[] => (r && r.kind === 'select' ? r.rows : []);
  const parents = new Map<string, string[]>();
  for (const r of rows(subs)) parents.set(r.a!.value, [...(parents.get(r.a!.value) ?? []), r.b!.value]);
  const up = new Map<string, string[]>();
  const ancestors = (c: string): string[] => {
    const had = up.get(c);
    if (had) return had;
    const seen = new Set<string>([c]);
    const stack = [c];
    while (stack.length > 0) for (const p of parents.get(stack.pop()!) ?? []) if (!seen.has(p)) { seen.add(p); stack.push(p); }
    const list = [...seen];
    up.set(c, list);
    return list;
  };
  const classes = new Set<string>();
  const types = new Map<string, string[]>();
  for (const r of rows(direct)) {
    const list = types.get(r.s!.value) ?? [];
    for (const a of ancestors(r.c!.value)) { classes.add(a); if (!list.includes(a)) list.push(a); }
    types.set(r.s!.value, list);
  }
  for (const r of rows(subs)) for (const a of ancestors(r.a!.value)) classes.add(a);
  const instances = new Map<string, number>();
  for (const ts of types.values()) for (const c of ts) instances.set(c, (instances.get(c) ?? 0) + 1);
  // Usage per class and predicate, summed up the hierarchy (a subject typed twice is counted twice: these only rank).
  const use = new Map<string, Map<string, { subjects: number; triples: number }>>();
  for (const r of rows(usage)) {
    for (const a of ancestors(r.c!.value)) {
      const m = use.get(a) ?? new Map();
      const had = m.get(r.p!.value) ?? { subjects: 0, triples: 0 };
      m.set(r.p!.value, { subjects: had.subjects + Number(r.n!.value), triples: had.triples + Number(r.t!.value) });
      use.set(a, m);
    }
  }
  const known = new Set(ix.classes.map((c) => c.iri));
  const profiles = [...classes].filter((c) => !known.has(c)).sort().map((c) => {
    const n = instances.get(c) ?? 0;
    const preds = [...(use.get(c) ?? new Map<string, { subjects: number; triples: number }>())].map(([predicate, u]) => ({ predicate, subjects: Math.min(u.subjects, n || u.subjects), triples: u.triples, coverage: n ? Math.min(1, u.subjects / n) : 0, maxPerSubject: 1, samples: [] as string[] }));
    return { iri: c, instances: n, triples: preds.reduce((a, p) => a + p.triples, 0), predicates: preds.sort((a, b) => b.subjects - a.subjects), elidedPredicates: 0 };
  });
  const hints = new Map<string, { from: string; predicate: string; to: string; triples: number }>();
  for (const r of rows(joins)) {
    for (const a of ancestors(r.c!.value)) for (const b of ancestors(r.d!.value)) {
      const key = `${a} ${r.p!.value} ${b}`;
      const had = hints.get(key);
      hints.set(key, { from: a, predicate: r.p!.value, to: b, triples: (had?.triples ?? 0) + Number(r.n!.value) });
    }
  }
  return { classes, types, ix: { ...ix, classes: [...ix.classes, ...profiles], joinHints: { ...ix.joinHints, hints: [...ix.joinHints.hints, ...hints.values()] } } };
}

const NAME_WORDS = new Set(['name', 'title', 'label', 'caption', 'heading']);

/**
 * Predicates the graph itself uses for names: literal-valued, their local name ending in a name
 * word ("hasName", "hasTitle", "officialName", "title_en"), not the standard ones already read.
 */
export function discoveredNamePredicates(ix: Introspection): string[] {
  const standard = new Set<string>(LABEL_PREDICATES);
  return ix.predicates.filter((p) => {
    if (standard.has(p.iri) || p.kinds.literal <= p.kinds.iri + p.kinds.bnode) return false;
    const words = nameWordsOf(p.iri);
    return words.length > 0 && NAME_WORDS.has(words.at(-1)!) && !words.includes('file') && !words.includes('user');
  }).map((p) => p.iri).sort();
}

function nameWordsOf(iri: string): string[] {
  const m = /[#/:]([^#/:]*)$/.exec(iri);
  const name = m ? m[1]! : iri;
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_\-.]+/).map((w) => w.toLowerCase()).filter((w) => w && !/^[a-z]{2}$/.test(w) || w === 'name');
}

/** The graph-wide schema card within a character budget. */
export function schemaCard(g: Grounding, budget: number): string {
  if (g.ix.triples === 0) return 'The graph is empty.';
  return toCard(g.ix, Math.max(budget, 400));
}

/** Detail for the classes and predicates a question touches (seedCard filters the mined profile). */
export function seedDetail(g: Grounding, seeds: readonly string[], budget: number): string | undefined {
  const known = seeds.filter((s) => g.dictionary.classes.has(s) || g.dictionary.predicates.has(s));
  if (known.length === 0) return undefined;
  try {
    return seedCard(g.ix, known, Math.max(budget, 400));
  } catch {
    return undefined;
  }
}

export function voidLine(g: Grounding): string {
  const v = g.void;
  return `${v.triples} triples, ${v.entities} entities (IRI subjects), ${v.classes} classes, ${v.properties} properties`;
}
