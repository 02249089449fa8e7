/**
 * `/catalog`: the DCAT catalog of publishers for linked-data catalogs (DCAT-AP 3.0.0), in Turtle,
 * N-Triples or JSON-LD by Accept.
 *
 * Served from the live `catalog` named graph, so it always matches what /sparql answers. That graph
 * also holds Assay's access paths and thousands of measures; the DCAT view is what is reachable
 * from each `dcat:Catalog` through non-Assay properties (datasets, distributions, data services,
 * agents, contact points, rights, licences, themes, locations, periods, documents), leaving out
 * statements made with Assay's own terms. That is exactly the DCAT part helper code writes
 * (src/ard/rdf/dcat.ts), which is checked against SEMIC's DCAT-AP 3.0.0 shapes.
 */
import type { FastifyInstance } from 'fastify';
import { factory, type Quad } from '../../rdf/store.ts';
import type { RdfReader } from '../../rdf/backend.ts';
import { TRIPLE_RDF_OUTPUT, termKey } from '../../rdf/serialize.ts';
import { ASSAY_NS, DCAT, RDF, graphIri } from '../../rdf/vocab.ts';
import { notFound, sendRdf } from './rdf-reply.ts';

/** A statement made with Assay's own vocabulary (predicate, or the class of an rdf:type). */
function isAssayStatement(q: Quad): boolean {
  if (q.predicate.value.startsWith(ASSAY_NS)) return true;
  return q.predicate.value === RDF.type && q.object.termType === 'NamedNode' && q.object.value.startsWith(ASSAY_NS);
}

/** The DCAT view of one graph: the closure of its dcat:Catalog nodes, without Assay statements. */
export function dcatView(rdf: RdfReader, graph: string): Quad[] {
  const g = factory.namedNode(graph);
  const roots = rdf.match(null, factory.namedNode(RDF.type), factory.namedNode(DCAT.Catalog), g).map((q) => q.subject);
  const out: Quad[] = [];
  const seen = new Set<string>();
  const queue = [...roots];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    const key = termKey(node);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const q of rdf.match(node, null, null, g)) {
      if (isAssayStatement(q)) continue;
      out.push(q);
      if (q.object.termType === 'NamedNode' || q.object.termType === 'BlankNode') queue.push(q.object);
    }
  }
  return out;
}

export async function catalogRoutes(app: FastifyInstance): Promise<void> {
  const graph = graphIri(app.assay.config.baseIri, 'catalog');
  app.get('/catalog', async (request, reply) => {
    const quads = dcatView(app.assay.store.rdf, graph);
    if (quads.length === 0) {
      return notFound(reply, `the catalog graph <${graph}> holds no dcat:Catalog yet; start the gateway with \`assay serve\` (it loads ard-okf/) or load the catalog into that graph.`);
    }
    return sendRdf(request, reply, quads, TRIPLE_RDF_OUTPUT, { dropGraphs: true });
  });
}
