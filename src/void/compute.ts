/**
 * VoID (Vocabulary of Interlinked Datasets) for the live store, with figures mined by the
 * introspection library (introspect/).
 *
 * Contract
 * - `voidFigures(rdf)`: the figures of the whole store and of each non-empty graph, as plain,
 *   structured-cloneable data (so a query worker can compute them and post them back; see
 *   src/server/sparql/evaluate.ts). Reads only.
 * - `renderVoid(figures, {baseIri})`: those figures as VoID quads in the default graph.
 *   `computeVoid(rdf, {baseIri})` is both in one call (the CLI computes in-process).
 * - Shape: one `void:Dataset` for the whole store, `<{base}.well-known/void#dataset>`, with
 *   `void:sparqlEndpoint <{base}sparql>`, `void:uriSpace "{base}"` and `void:feature`s, and one
 *   `void:subset` per non-empty graph. A named graph's subset node is the graph IRI itself; the
 *   default graph, if it holds anything, is `<{base}.well-known/void#default-graph>`.
 * - Each figure equals a SPARQL COUNT over the same graph G (asserted in the tests):
 *     void:triples          COUNT(*)             { GRAPH G { ?s ?p ?o } }
 *     void:entities         COUNT(DISTINCT ?s)   { GRAPH G { ?s ?p ?o } FILTER isIRI(?s) }
 *                           (an entity is a subject that is an IRI, so it can be dereferenced)
 *     void:distinctSubjects COUNT(DISTINCT ?s)   { GRAPH G { ?s ?p ?o } }
 *     void:distinctObjects  COUNT(DISTINCT ?o)   { GRAPH G { ?s ?p ?o } }
 *     void:classes          COUNT(DISTINCT ?c)   { GRAPH G { ?s a ?c } }   (literal and blank ?c too)
 *     void:properties       COUNT(DISTINCT ?p)   { GRAPH G { ?s ?p ?o } }
 *   class partition C (IRI classes):  void:entities COUNT(DISTINCT ?s) { GRAPH G { ?s a C } }
 *                                     void:triples  COUNT(*) { GRAPH G { ?s a C . ?s ?p ?o } }
 *   property partition P:             void:triples  COUNT(*) { GRAPH G { ?s P ?o } }
 *   The whole-store dataset gives the same figures over every quad of every graph
 *   (void:triples = number of quads; distinct counts across graphs).
 * - `void:vocabulary`: the namespace (IRI up to its last '#' or '/') of every predicate and IRI
 *   class used.
 * Cost: per graph, one mining pass over its kept columns (src/void/kept.ts: the writes since the
 *   last introspection folded in), or, for a graph not kept yet, one dump (then kept); plus, with
 *   several graphs, one set-insert pass for the distinct counts across graphs. A first reading
 *   takes seconds on a store of ~600k quads, so the gateway runs it in a query worker, never on
 *   the main thread (src/void/cache.ts). A graph's dump must fit in one JS string (~500 M chars).
 */
import type * as RDFJS from '@rdfjs/types';
import { mine, type BuildOptions, type Introspection, type TripleSource } from '../../introspect/index.ts';
import { graphSource, keptOf } from './kept.ts';
import { factory, type Quad } from '../rdf/store.ts';
import type { RdfReader as RdfStore } from '../rdf/backend.ts';
import { DCT, FORMATS, RDF, VOID, XSD, ensureSlash } from '../rdf/vocab.ts';

export interface VoidOptions {
  /** Base under which Assay mints IRIs (config.baseIri). */
  baseIri: string;
}

/** Counts for one graph (or the whole store). Plain data: crosses worker boundaries as is. */
export interface GraphFigures {
  triples: number;
  entities: number;
  distinctSubjects: number;
  distinctObjects: number;
  classes: number;
  properties: number;
  /** IRI classes with their instances and the triples whose subject is an instance, by IRI. */
  classPartitions: { iri: string; entities: number; triples: number }[];
  /** Predicates with the triples using them, by IRI. */
  propertyPartitions: { iri: string; triples: number }[];
  /** Namespaces of the predicates and IRI classes used, sorted. */
  vocabularies: string[];
}

export interface StoreFigures {
  /** The union of every graph (partitions left empty: they are given per graph). */
  store: GraphFigures;
  /** Non-empty graphs: '' is the default graph, then named graphs in IRI order. */
  graphs: { graph: string; figures: GraphFigures }[];
}

/** IRI of the whole-store dataset in the VoID document. */
export function voidDatasetIri(baseIri: string): string {
  return `${ensureSlash(baseIri)}.well-known/void#dataset`;
}

export function voidDefaultGraphIri(baseIri: string): string {
  return `${ensureSlash(baseIri)}.well-known/void#default-graph`;
}

const ALL = Number.MAX_SAFE_INTEGER;

/**
 * Mining options for VoID: every class, predicate and namespace kept (VoID lists them all),
 * distinct objects counted, and the card-only tables (samples, per-class predicates,
 * characteristic sets, joins) cut to nothing. No type minimisation: VoID counts every class.
 */
const VOID_MINING: Partial<BuildOptions> = {
  minimizeTypes: false, distinctObjects: true, maxClasses: ALL, maxPredicates: ALL, maxNamespaces: ALL,
  maxPredicatesPerClass: 0, maxCharSets: 0, maxJoinHints: 0, maxDomainRange: 0, samples: 0,
};

const RDF_TYPE_KEY = `<${RDF.type}>`;

function figuresOf(source: TripleSource): GraphFigures {
  const ix: Introspection = mine(source, VOID_MINING);
  return {
    triples: ix.triples,
    entities: ix.entities,
    distinctSubjects: ix.subjects,
    distinctObjects: ix.objects ?? 0,
    // The library counts IRI classes; COUNT(DISTINCT ?c) { ?s a ?c } also counts literal and
    // blank-node type objects, read here with one predicate lookup on the same source.
    classes: ix.classCount + otherTypeObjects(source),
    properties: ix.predicateCount,
    classPartitions: ix.classes.map((c) => ({ iri: c.iri, entities: c.instances, triples: c.triples })).sort(byIri),
    propertyPartitions: ix.predicates.map((p) => ({ iri: p.iri, triples: p.triples })).sort(byIri),
    // The library files an IRI with no '#' or '/' to cut at under itself; that is no vocabulary.
    vocabularies: ix.namespaces.namespaces.map((n) => n.iri).filter((ns) => ns.endsWith('/') || ns.endsWith('#')).sort(),
  };
}

/** Distinct objects of rdf:type that are not IRIs (literals, blank nodes). */
function otherTypeObjects(source: TripleSource): number {
  const seen = new Set<string>();
  const visit = (_s: string, p: string, o: string) => {
    if (p === RDF_TYPE_KEY && o.charCodeAt(0) !== 60 /* < */) seen.add(o);
  };
  if (source.scanPredicate) source.scanPredicate(RDF.type, visit);
  else source.scan(visit);
  return seen.size;
}

/** Figures for the whole store and each non-empty graph. */
export function voidFigures(rdf: RdfStore): StoreFigures {
  const names = [...(rdf.ask('ASK { ?s ?p ?o }') ? [''] : []), ...rdf.graphs()];
  // Kept graphs (src/void/kept.ts) name blank nodes their own way; should the keeper forget its
  // graphs while these are read (one shared a blank node with a graph read from the store), the
  // union below would compare two namings: read them all again, from the store, as one naming.
  let sources = names.map((graph) => graphSource(rdf, graph));
  const before = keptOf(rdf)?.generation;
  for (const s of sources) s.intern!();
  if (keptOf(rdf)?.generation !== before) {
    sources = names.map((graph) => graphSource(rdf, graph));
    for (const s of sources) s.intern!();
  }
  const union = new Union();
  const graphs = names.map((graph, i) => {
    const source = sources[i]!;
    const figures = figuresOf(source);
    if (names.length > 1) union.add(source, figures);
    return { graph, figures };
  });
  const only = graphs.length === 1 ? graphs[0]!.figures : undefined;
  return { store: only ? { ...only, classPartitions: [], propertyPartitions: [] } : union.figures(), graphs };
}

/**
 * Whole-store figures from the per-graph ones. Sums and unions of IRIs come from the mined
 * figures; the distinct subjects and objects across graphs need the terms themselves, read with
 * one more pass over each graph's source (set inserts only: mining the N-Quads union instead
 * cost a second dump, a sort and a full mining pass, ~3x the time on the 600k-quad catalog).
 * Terms are keys in oxigraph's canonical N-Triples, so a blank node has the same key in every
 * graph's dump, as COUNT(DISTINCT) over the union compares it.
 */
class Union {
  #triples = 0;
  readonly #subjects = new Set<string>();
  readonly #objects = new Set<string>();
  readonly #otherTypes = new Set<string>();
  readonly #classes = new Set<string>();
  readonly #properties = new Set<string>();
  readonly #vocabularies = new Set<string>();

  add(source: TripleSource, f: GraphFigures): void {
    this.#triples += f.triples;
    for (const c of f.classPartitions) this.#classes.add(c.iri);
    for (const p of f.propertyPartitions) this.#properties.add(p.iri);
    for (const v of f.vocabularies) this.#vocabularies.add(v);
    source.scan((s, p, o) => {
      this.#subjects.add(s);
      this.#objects.add(o);
      if (p === RDF_TYPE_KEY && o.charCodeAt(0) !== 60 /* < */) this.#otherTypes.add(o);
    });
  }

  figures(): GraphFigures {
    let entities = 0;
    for (const s of this.#subjects) if (s.charCodeAt(0) === 60 /* < */) entities++;
    return {
      triples: this.#triples, entities, distinctSubjects: this.#subjects.size, distinctObjects: this.#objects.size,
      classes: this.#classes.size + this.#otherTypes.size, properties: this.#properties.size,
      classPartitions: [], propertyPartitions: [], vocabularies: [...this.#vocabularies].sort(),
    };
  }
}

/** The VoID description of the store, as quads in the default graph. */
export function computeVoid(rdf: RdfStore, options: VoidOptions): Quad[] {
  return renderVoid(voidFigures(rdf), options);
}

/** Figures as a VoID document (quads in the default graph). */
export function renderVoid(figures: StoreFigures, options: VoidOptions): Quad[] {
  const base = ensureSlash(options.baseIri);
  const out: Quad[] = [];
  const root = factory.namedNode(voidDatasetIri(base));
  const add = (s: Quad['subject'], p: string, o: Quad['object']): void => {
    out.push(factory.quad(s, factory.namedNode(p), o));
  };
  const int = (n: number) => factory.literal(String(n), factory.namedNode(XSD.integer));
  add(root, RDF.type, factory.namedNode(VOID.Dataset));
  add(root, DCT.title, factory.literal('Assay knowledge graph'));
  add(root, DCT.description, factory.literal('Every named graph held by this Assay gateway: the publisher catalog, admitted evidence with provenance, and question runs.'));
  add(root, VOID.sparqlEndpoint, factory.namedNode(`${base}sparql`));
  add(root, VOID.uriSpace, factory.literal(base));
  for (const f of [FORMATS.Turtle, FORMATS['N-Triples'], FORMATS['N-Quads'], FORMATS.TriG, FORMATS['JSON-LD']]) {
    add(root, VOID.feature, factory.namedNode(f));
  }

  describe(root, figures.store, false);
  let partition = 0;
  for (const { graph, figures: f } of figures.graphs) {
    const node = factory.namedNode(graph === '' ? voidDefaultGraphIri(base) : graph);
    add(root, VOID.subset, node);
    add(node, RDF.type, factory.namedNode(VOID.Dataset));
    add(node, VOID.sparqlEndpoint, factory.namedNode(`${base}sparql`));
    if (graph === '') add(node, DCT.description, factory.literal('The default graph of the store (triples loaded without a graph name).'));
    describe(node, f, true);
  }
  return out;

  function describe(node: RDFJS.NamedNode, f: GraphFigures, partitions: boolean): void {
    add(node, VOID.triples, int(f.triples));
    add(node, VOID.entities, int(f.entities));
    add(node, VOID.distinctSubjects, int(f.distinctSubjects));
    add(node, VOID.distinctObjects, int(f.distinctObjects));
    add(node, VOID.classes, int(f.classes));
    add(node, VOID.properties, int(f.properties));
    for (const ns of f.vocabularies) add(node, VOID.vocabulary, factory.namedNode(ns));
    if (!partitions) return;
    // Blank-node labels are numbered across the whole document so no two partitions share one.
    for (const c of f.classPartitions) {
      const b = factory.blankNode(`cp${partition++}`);
      add(node, VOID.classPartition, b);
      add(b, VOID.class, factory.namedNode(c.iri));
      add(b, VOID.entities, int(c.entities));
      add(b, VOID.triples, int(c.triples));
    }
    for (const p of f.propertyPartitions) {
      const b = factory.blankNode(`pp${partition++}`);
      add(node, VOID.propertyPartition, b);
      add(b, VOID.property, factory.namedNode(p.iri));
      add(b, VOID.triples, int(p.triples));
    }
  }
}

function byIri(a: { iri: string }, b: { iri: string }): number {
  return a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0;
}
