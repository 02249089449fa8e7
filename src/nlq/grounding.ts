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
  const linker = Linker.build({ labels: entries, types, ix, classes, predicates });
  return {
    graph, ix, types, linker,
    dictionary: { predicates, classes },
    void: { triples: ix.triples, entities: ix.entities, distinctSubjects: ix.subjects, classes: ix.classCount, properties: ix.predicateCount },
    numeric, namePredicates, cuts,
    buildMs: performance.now() - started,
  };
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
