/**
 * Keep the store's `catalog` graph in step with the descriptors in ard-okf/.
 *
 * The graph carries a digest of the descriptor files and base IRI it was built from. When they
 * are unchanged the store is left alone (start-up stays fast and the journal does not grow);
 * otherwise the catalog is validated in full and the graph is replaced in one journaled write,
 * so a broken descriptor never replaces a good catalog.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AssayStore } from '../rdf/backend.ts';
import { factory } from '../rdf/store.ts';
import { serializeRdf, RDF_OUTPUT } from '../rdf/serialize.ts';
import { ASSAY, XSD, graphIri } from '../rdf/vocab.ts';
import { catalogFiles, loadCatalog } from './load.ts';
import { catalogIris } from './rdf/iris.ts';
import { catalogToQuads } from './rdf/to-rdf.ts';

export interface SyncResult {
  changed: boolean;
  digest: string;
  quads: number;
  publishers?: number;
  measures?: number;
  elapsedMs: number;
}

async function digestOf(dir: string, baseIri: string): Promise<string> {
  const hash = createHash('sha256').update(`base ${baseIri}\n`);
  for (const file of await catalogFiles(dir)) {
    const body = await readFile(file);
    hash.update(`${file.slice(dir.length)} ${body.length}\n`).update(body);
  }
  return `sha256:${hash.digest('hex')}`;
}

export async function syncCatalogGraph(store: AssayStore, options: { dir?: string; baseIri: string }): Promise<SyncResult> {
  const started = performance.now();
  const dir = options.dir ?? 'ard-okf';
  const graph = graphIri(options.baseIri, 'catalog');
  const catalogNode = factory.namedNode(catalogIris(options.baseIri).catalog);
  const digestPredicate = factory.namedNode(ASSAY.descriptorDigest);
  const digest = await digestOf(dir, options.baseIri);
  const stored = store.rdf.match(catalogNode, digestPredicate, null, factory.namedNode(graph))[0]?.object.value;
  if (stored === digest) {
    return { changed: false, digest, quads: store.rdf.graphSize(graph), elapsedMs: performance.now() - started };
  }
  const catalog = await loadCatalog(dir, { baseIri: options.baseIri });
  const quads = catalogToQuads(catalog, options.baseIri);
  quads.push(factory.quad(catalogNode, digestPredicate, factory.literal(digest, factory.namedNode(XSD.string)), factory.namedNode(graph)));
  const data = await serializeRdf(quads, RDF_OUTPUT.ntriples, { dropGraphs: true });
  await store.apply({ kind: 'replaceGraph', graph, format: 'application/n-triples', data });
  return {
    changed: true, digest, quads: quads.length, publishers: catalog.publishers.length,
    measures: catalog.measures.length, elapsedMs: performance.now() - started,
  };
}
