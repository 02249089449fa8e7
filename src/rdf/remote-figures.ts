/**
 * VoID figures of a remote store, computed by the store itself with SPARQL aggregates.
 *
 * The embedded store mines its figures by scanning a dump (src/void/compute.ts); a remote store
 * holding tens of millions of triples cannot be dumped per request, but every figure is defined
 * as a SPARQL COUNT (see compute.ts's contract), so the engine computes them. Nine queries in
 * all, each grouped by graph, so the cost does not grow with the number of graphs in requests.
 * The result has the same shape and, for the same data, the same numbers as voidFigures()
 * (asserted in test/rdf/remote.test.ts).
 */
import sparqljs, { type Query, type SelectQuery } from 'sparqljs';
import { namespaceOf } from '../../introspect/terms.ts';
import { generate } from '../server/sparql/classify.ts';
import type { GraphFigures, StoreFigures } from '../void/compute.ts';
import type { GraphScope } from './remote.ts';
import { parseResultsJson, toBindings } from './sparql-json.ts';
import type { SparqlHttp } from './sparql-http.ts';
import type { Bindings } from './store.ts';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

const PER_GRAPH = {
  basic: 'SELECT ?g (COUNT(*) AS ?triples) (COUNT(DISTINCT ?s) AS ?subjects) (COUNT(DISTINCT ?o) AS ?objects) (COUNT(DISTINCT ?p) AS ?properties) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g',
  entities: 'SELECT ?g (COUNT(DISTINCT ?s) AS ?entities) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(isIRI(?s)) } GROUP BY ?g',
  classes: `SELECT ?g (COUNT(DISTINCT ?c) AS ?classes) WHERE { GRAPH ?g { ?s <${RDF_TYPE}> ?c } } GROUP BY ?g`,
  classEntities: `SELECT ?g ?c (COUNT(DISTINCT ?s) AS ?entities) WHERE { GRAPH ?g { ?s <${RDF_TYPE}> ?c } FILTER(isIRI(?c)) } GROUP BY ?g ?c`,
  classTriples: `SELECT ?g ?c (COUNT(*) AS ?triples) WHERE { GRAPH ?g { ?s <${RDF_TYPE}> ?c . ?s ?p ?o } FILTER(isIRI(?c)) } GROUP BY ?g ?c`,
  properties: 'SELECT ?g ?p (COUNT(*) AS ?triples) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ?p',
};

const WHOLE = {
  basic: 'SELECT (COUNT(*) AS ?triples) (COUNT(DISTINCT ?s) AS ?subjects) (COUNT(DISTINCT ?o) AS ?objects) (COUNT(DISTINCT ?p) AS ?properties) WHERE { GRAPH ?g { ?s ?p ?o } }',
  entities: 'SELECT (COUNT(DISTINCT ?s) AS ?entities) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(isIRI(?s)) }',
  classes: `SELECT (COUNT(DISTINCT ?c) AS ?classes) WHERE { GRAPH ?g { ?s <${RDF_TYPE}> ?c } }`,
};

/**
 * A fixed query with the scope's graph filter added to its WHERE (as a syntax tree). Grouped
 * queries are also cut to Assay's graphs afterwards (GraphScope.includes).
 */
function scoped(text: string, scope: GraphScope): string {
  const ast = new sparqljs.Parser().parse(text) as SelectQuery;
  ast.where = [...(ast.where ?? []), scope.filter('g') as never];
  return generate(ast as Query);
}

const int = (r: Bindings, v: string) => Number(r.get(v)?.value ?? 0);

function vocabulariesOf(iris: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const iri of iris) {
    const ns = namespaceOf(iri) ?? iri;
    if (ns.endsWith('/') || ns.endsWith('#')) out.add(ns);
  }
  return [...out].sort();
}

const byIri = (a: { iri: string }, b: { iri: string }) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0);

export async function remoteFigures(http: SparqlHttp, scope: GraphScope, signal?: AbortSignal): Promise<StoreFigures> {
  const rows = async (text: string): Promise<Bindings[]> => {
    const reply = await http.query(scoped(text, scope), { accept: 'application/sparql-results+json', ...(signal ? { signal } : {}) });
    return toBindings(parseResultsJson(reply.body, http.endpoints.queryUrl));
  };
  const [basic, entities, classes, classEntities, classTriples, properties] = await Promise.all([
    rows(PER_GRAPH.basic), rows(PER_GRAPH.entities), rows(PER_GRAPH.classes),
    rows(PER_GRAPH.classEntities), rows(PER_GRAPH.classTriples), rows(PER_GRAPH.properties),
  ]);
  const figures = new Map<string, GraphFigures>();
  for (const r of basic) {
    if (!scope.includes(r.get('g')!.value)) continue;
    figures.set(r.get('g')!.value, {
      triples: int(r, 'triples'), entities: 0, distinctSubjects: int(r, 'subjects'), distinctObjects: int(r, 'objects'),
      classes: 0, properties: int(r, 'properties'), classPartitions: [], propertyPartitions: [], vocabularies: [],
    });
  }
  const of = (r: Bindings) => figures.get(r.get('g')!.value);
  for (const r of entities) { const f = of(r); if (f) f.entities = int(r, 'entities'); }
  for (const r of classes) { const f = of(r); if (f) f.classes = int(r, 'classes'); }
  const partitionTriples = new Map<string, number>();
  for (const r of classTriples) partitionTriples.set(`${r.get('g')!.value}\u0000${r.get('c')!.value}`, int(r, 'triples'));
  for (const r of classEntities) {
    const f = of(r);
    const c = r.get('c')!.value;
    f?.classPartitions.push({ iri: c, entities: int(r, 'entities'), triples: partitionTriples.get(`${r.get('g')!.value}\u0000${c}`) ?? 0 });
  }
  for (const r of properties) of(r)?.propertyPartitions.push({ iri: r.get('p')!.value, triples: int(r, 'triples') });
  for (const f of figures.values()) {
    f.classPartitions.sort(byIri);
    f.propertyPartitions.sort(byIri);
    f.vocabularies = vocabulariesOf([...f.propertyPartitions.map((p) => p.iri), ...f.classPartitions.map((c) => c.iri)]);
  }
  const graphs = [...figures.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([graph, f]) => ({ graph, figures: f }));
  if (graphs.length === 1) return { store: { ...graphs[0]!.figures, classPartitions: [], propertyPartitions: [] }, graphs };

  const [[w], [we], [wc]] = await Promise.all([rows(WHOLE.basic), rows(WHOLE.entities), rows(WHOLE.classes)]);
  const vocabularies = new Set<string>();
  for (const g of graphs) for (const ns of g.figures.vocabularies) vocabularies.add(ns);
  return {
    store: {
      // void:triples of the whole store counts quads (a triple in two graphs counts twice).
      triples: graphs.reduce((n, g) => n + g.figures.triples, 0),
      entities: we ? int(we, 'entities') : 0,
      distinctSubjects: w ? int(w, 'subjects') : 0,
      distinctObjects: w ? int(w, 'objects') : 0,
      classes: wc ? int(wc, 'classes') : 0,
      properties: w ? int(w, 'properties') : 0,
      classPartitions: [], propertyPartitions: [], vocabularies: [...vocabularies].sort(),
    },
    graphs,
  };
}
