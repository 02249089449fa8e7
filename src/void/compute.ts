/**
 * VoID (Vocabulary of Interlinked Datasets) for the live store, computed by scanning.
 *
 * Contract
 * - Input: an RdfStore and the base under which Assay mints IRIs. Output: the VoID description
 *   as quads in the default graph. Reads only; never writes to the store.
 * - Figures come from one scan per graph (oxigraph's N-Triples dump read as text), not from SPARQL
 *   aggregates, which are slow on large graphs (COUNT(*) 3.9 s, class x predicate usage 9.1 s at
 *   9.5 M triples). A graph's dump must fit in one JS string (about 500 M characters, some 5 M
 *   triples); larger graphs need figures kept at load time (the planned introspect/ library).
 * - Shape: one `void:Dataset` for the whole store, `<{base}.well-known/void#dataset>`, with
 *   `void:sparqlEndpoint <{base}sparql>` and `void:uriSpace "{base}"`, and one `void:subset` per
 *   non-empty graph. A named graph's subset node is the graph IRI itself; the default graph, if
 *   it holds anything, is `<{base}.well-known/void#default-graph>`.
 * - Each figure equals a SPARQL COUNT over the same graph G (asserted in the tests):
 *     void:triples          COUNT(*)             { GRAPH G { ?s ?p ?o } }
 *     void:entities         COUNT(DISTINCT ?s)   { GRAPH G { ?s ?p ?o } FILTER isIRI(?s) }
 *                           (Assay's definition: an entity is a subject that is an IRI, so it can
 *                           be dereferenced; blank-node subjects are not entities)
 *     void:distinctSubjects COUNT(DISTINCT ?s)   { GRAPH G { ?s ?p ?o } }
 *     void:distinctObjects  COUNT(DISTINCT ?o)   { GRAPH G { ?s ?p ?o } }
 *     void:classes          COUNT(DISTINCT ?c)   { GRAPH G { ?s a ?c } }
 *     void:properties       COUNT(DISTINCT ?p)   { GRAPH G { ?s ?p ?o } }
 *   class partition C:    void:entities  COUNT(DISTINCT ?s) { GRAPH G { ?s a C } }
 *                         void:triples   COUNT(*) { GRAPH G { ?s a C . ?s ?p ?o } }
 *   property partition P: void:triples  COUNT(*) { GRAPH G { ?s P ?o } }
 *   The whole-store dataset gives the same figures over every quad of every graph
 *   (void:triples = number of quads; distinct counts across graphs).
 * - `void:vocabulary`: the namespace (IRI up to the last '#' or '/') of every predicate and
 *   every IRI class used.
 * Small and self-contained on purpose: the introspection library (introspect/) may replace it.
 */
import type * as RDFJS from '@rdfjs/types';
import { factory, RDF_FORMATS, type NamedNode, type Quad, type RdfStore } from '../rdf/store.ts';
import { DCT, FORMATS, RDF, VOID, XSD, ensureSlash } from '../rdf/vocab.ts';

export interface VoidOptions {
  /** Base under which Assay mints IRIs (config.baseIri). */
  baseIri: string;
}

/** Counts for one graph (or the whole store). */
export interface GraphFigures {
  triples: number;
  entities: number;
  distinctSubjects: number;
  distinctObjects: number;
  classes: number;
  properties: number;
  /** IRI class → instances and the triples whose subject is an instance. */
  classPartitions: Map<string, { entities: number; triples: number }>;
  /** Predicate IRI → triples using it. */
  propertyPartitions: Map<string, { triples: number }>;
  vocabularies: Set<string>;
}

/** IRI of the whole-store dataset in the VoID document. */
export function voidDatasetIri(baseIri: string): string {
  return `${ensureSlash(baseIri)}.well-known/void#dataset`;
}

export function voidDefaultGraphIri(baseIri: string): string {
  return `${ensureSlash(baseIri)}.well-known/void#default-graph`;
}

/**
 * Running counts for one graph, fed one N-Triples line at a time. Terms are keyed by their
 * N-Triples text, which oxigraph writes canonically, so equal strings mean the same RDF term
 * (what COUNT(DISTINCT) compares).
 */
class Scan {
  triples = 0;
  /** subject → triples with that subject. */
  readonly subjects = new Map<string, number>();
  readonly objects = new Set<string>();
  readonly classes = new Set<string>();
  /** IRI class (N-Triples text) → subjects typed with it. */
  readonly instances = new Map<string, Set<string>>();
  /** predicate → triples using it. */
  readonly props = new Map<string, number>();

  add(s: string, p: string, o: string): void {
    this.triples++;
    this.subjects.set(s, (this.subjects.get(s) ?? 0) + 1);
    this.objects.add(o);
    this.props.set(p, (this.props.get(p) ?? 0) + 1);
    if (p === RDF_TYPE) {
      this.classes.add(o);
      if (o.startsWith('<')) {
        let set = this.instances.get(o);
        if (!set) this.instances.set(o, (set = new Set()));
        set.add(s);
      }
    }
  }

  /** Fold another graph's scan in (whole-store figures: per-term sets union, counts add up). */
  merge(other: Scan): void {
    this.triples += other.triples;
    for (const [s, n] of other.subjects) this.subjects.set(s, (this.subjects.get(s) ?? 0) + n);
    for (const o of other.objects) this.objects.add(o);
    for (const c of other.classes) this.classes.add(c);
    for (const [p, n] of other.props) this.props.set(p, (this.props.get(p) ?? 0) + n);
    for (const [c, members] of other.instances) {
      let set = this.instances.get(c);
      if (!set) this.instances.set(c, (set = new Set()));
      for (const m of members) set.add(m);
    }
  }

  figures(): GraphFigures {
    const classPartitions = new Map<string, { entities: number; triples: number }>();
    for (const [cls, members] of this.instances) {
      let t = 0;
      for (const m of members) t += this.subjects.get(m) ?? 0;
      classPartitions.set(iriOf(cls), { entities: members.size, triples: t });
    }
    const propertyPartitions = new Map<string, { triples: number }>();
    for (const [p, n] of this.props) propertyPartitions.set(iriOf(p), { triples: n });
    const vocabularies = new Set<string>();
    for (const iri of [...propertyPartitions.keys(), ...classPartitions.keys()]) {
      const ns = namespaceOf(iri);
      if (ns) vocabularies.add(ns);
    }
    let entities = 0;
    for (const k of this.subjects.keys()) if (k.startsWith('<')) entities++;
    return {
      triples: this.triples, entities, distinctSubjects: this.subjects.size, distinctObjects: this.objects.size,
      classes: this.classes.size, properties: this.props.size, classPartitions, propertyPartitions, vocabularies,
    };
  }
}

const RDF_TYPE = `<${RDF.type}>`;

/** `<iri>` → `iri`. N-Triples escapes in IRIs (\uXXXX) are decoded. */
function iriOf(nt: string): string {
  const inner = nt.slice(1, -1);
  return inner.includes('\\') ? inner.replace(/\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})/g, (_m, a: string | undefined, b: string | undefined) => String.fromCodePoint(parseInt(a ?? b ?? '0', 16))) : inner;
}

/**
 * Feed every triple of an N-Triples document (as oxigraph writes it: one `S P O .` per line,
 * subject and predicate without spaces) into `scans`.
 */
function scanNTriples(text: string, scan: Scan): void {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > 2) {
      const sp1 = text.indexOf(' ', start);
      const sp2 = text.indexOf(' ', sp1 + 1);
      const s = text.slice(start, sp1);
      const p = text.slice(sp1 + 1, sp2);
      const o = text.slice(sp2 + 1, end - 2); // drop the trailing " ."
      scan.add(s, p, o);
    }
    start = end + 1;
  }
}

/** The namespace of an IRI: everything up to and including the last '#' or '/'. */
export function namespaceOf(iri: string): string | undefined {
  const cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/'));
  return cut > 0 && cut < iri.length - 1 ? iri.slice(0, cut + 1) : undefined;
}

/** Named graphs that hold at least one quad. `GRAPH ?g {}` reads the graph list, not the quads. */
function nonEmptyGraphs(rdf: RdfStore): string[] {
  const names = rdf.select('SELECT DISTINCT ?g WHERE { GRAPH ?g { } }')
    .map((r) => r.get('g'))
    .filter((t): t is NamedNode => t?.termType === 'NamedNode')
    .map((t) => t.value)
    .sort();
  // Names come from the store, so they are valid IRIs and safe to write as <...>.
  return names.filter((g) => rdf.ask(`ASK { GRAPH <${g}> { ?s ?p ?o } }`));
}

/**
 * Figures per graph ('' is the default graph; only graphs that hold something appear) and for
 * the whole store. Each graph is dumped as N-Triples by oxigraph and scanned as text: reading
 * oxigraph's quads as JS objects costs tens of microseconds per term access, the dump does not.
 */
export function scanStore(rdf: RdfStore): { graphs: Map<string, GraphFigures>; store: GraphFigures } {
  const all = new Scan();
  const graphs = new Map<string, GraphFigures>();
  const defaultGraph = rdf.ask('ASK { ?s ?p ?o }') ? [''] : [];
  for (const g of [...defaultGraph, ...nonEmptyGraphs(rdf)]) {
    const scan = new Scan();
    scanNTriples(rdf.dump({ format: RDF_FORMATS.ntriples, graph: g }), scan);
    graphs.set(g, scan.figures());
    all.merge(scan);
  }
  return { graphs, store: all.figures() };
}

/** Figures per graph: '' is the default graph. Only graphs that hold something appear. */
export function figuresByGraph(rdf: RdfStore): Map<string, GraphFigures> {
  return scanStore(rdf).graphs;
}

/** The VoID description of the store, as quads in the default graph. */
export function computeVoid(rdf: RdfStore, options: VoidOptions): Quad[] {
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

  const { graphs: byGraph, store: whole } = scanStore(rdf);
  describe(root, whole, false);
  let partition = 0;
  for (const [graph, figures] of byGraph) {
    const node = factory.namedNode(graph === '' ? voidDefaultGraphIri(base) : graph);
    add(root, VOID.subset, node);
    add(node, RDF.type, factory.namedNode(VOID.Dataset));
    add(node, VOID.sparqlEndpoint, factory.namedNode(`${base}sparql`));
    if (graph === '') add(node, DCT.description, factory.literal('The default graph of the store (triples loaded without a graph name).'));
    describe(node, figures, true);
  }
  return out;

  function describe(node: RDFJS.NamedNode, f: GraphFigures, partitions: boolean): void {
    add(node, VOID.triples, int(f.triples));
    add(node, VOID.entities, int(f.entities));
    add(node, VOID.distinctSubjects, int(f.distinctSubjects));
    add(node, VOID.distinctObjects, int(f.distinctObjects));
    add(node, VOID.classes, int(f.classes));
    add(node, VOID.properties, int(f.properties));
    for (const ns of [...f.vocabularies].sort()) add(node, VOID.vocabulary, factory.namedNode(ns));
    if (!partitions) return;
    for (const [cls, v] of [...f.classPartitions].sort(byKey)) {
      const b = factory.blankNode(`cp${partition++}`);
      add(node, VOID.classPartition, b);
      add(b, VOID.class, factory.namedNode(cls));
      add(b, VOID.entities, int(v.entities));
      add(b, VOID.triples, int(v.triples));
    }
    for (const [prop, v] of [...f.propertyPartitions].sort(byKey)) {
      const b = factory.blankNode(`pp${partition++}`);
      add(node, VOID.propertyPartition, b);
      add(b, VOID.property, factory.namedNode(prop));
      add(b, VOID.triples, int(v.triples));
    }
  }
}

function byKey<V>(a: [string, V], b: [string, V]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
