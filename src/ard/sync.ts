/**
 * Keep the store's `catalog` graph in step with the descriptors in ard-okf/.
 *
 * The graph carries a digest of the descriptor files, base IRI and mapping version (to-rdf.ts
 * `CATALOG_RDF_VERSION`) it was built from. When they
 * are unchanged the store is left alone (start-up stays fast and the journal does not grow);
 * otherwise the catalog is validated in full and the graph is replaced in one journaled write,
 * so a broken descriptor never replaces a good catalog.
 *
 * Building the graph (validation, ~650 k quads, N-Triples) costs over ten seconds of CPU, and every
 * fresh data directory pays it: so the N-Triples built for a catalog are kept in a cache file keyed
 * by the descriptors' digest, written only after the catalog validated, and a later build of the
 * same catalog reads that file instead. The file is written under a placeholder base IRI and the
 * gateway's own base is put in when it is read, so gateways on different ports share one file; the
 * two newest catalogs are kept.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AssayStore } from '../rdf/backend.ts';
// JavaScript terms (not oxigraph's): the digest check must not touch the WebAssembly heap before
// the catalog write, so that a fresh store can still adopt the catalog's memory image (rdf/durable.ts).
import { jsFactory as factory } from '../rdf/store.ts';
import { serializeRdf, RDF_OUTPUT } from '../rdf/serialize.ts';
import { ASSAY, graphIri } from '../rdf/vocab.ts';
import { catalogFiles, loadCatalog } from './load.ts';
import { catalogIris } from './rdf/iris.ts';
import { CATALOG_RDF_VERSION, catalogToQuads } from './rdf/to-rdf.ts';

export interface SyncResult {
  changed: boolean;
  digest: string;
  quads: number;
  publishers?: number;
  measures?: number;
  /** The graph was read from the catalog graph cache, not built. */
  cached?: boolean;
  elapsedMs: number;
}

export const DEFAULT_GRAPH_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/assay/', import.meta.url));
/** Stands for the base IRI in a cached catalog graph; never a base anyone serves (RFC 6761 .invalid). */
const PLACEHOLDER_BASE = 'http://base.assay-catalog-cache.invalid/';
const KEEP = 2;

/** The descriptor files of `dir` (relative name and bytes), read once per sync. */
async function descriptorFiles(dir: string): Promise<{ name: string; body: Buffer }[]> {
  return Promise.all((await catalogFiles(dir)).map(async (file) => ({ name: file.slice(dir.length), body: await readFile(file) })));
}

function digestOf(files: readonly { name: string; body: Buffer }[], baseIri: string): string {
  const hash = createHash('sha256').update(`base ${baseIri}\nmapping ${CATALOG_RDF_VERSION}\n`);
  for (const f of files) hash.update(`${f.name} ${f.body.length}\n`).update(f.body);
  return `sha256:${hash.digest('hex')}`;
}

export async function syncCatalogGraph(store: AssayStore, options: { dir?: string; baseIri: string; cacheDir?: string | null }): Promise<SyncResult> {
  const started = performance.now();
  const dir = options.dir ?? 'ard-okf';
  const graph = graphIri(options.baseIri, 'catalog');
  const catalogNode = factory.namedNode(catalogIris(options.baseIri).catalog);
  const digestPredicate = factory.namedNode(ASSAY.descriptorDigest);
  // Read once: a changed catalog also needs the files' digest under the placeholder (the graph cache's key).
  const files = await descriptorFiles(dir);
  const digest = digestOf(files, options.baseIri);
  const stored = store.rdf.match(catalogNode, digestPredicate, null, factory.namedNode(graph))[0]?.object.value;
  if (stored === digest) {
    return { changed: false, digest, quads: store.rdf.graphSize(graph), elapsedMs: performance.now() - started };
  }
  const built = await catalogNTriples(dir, options.baseIri, digest, options.cacheDir === undefined ? DEFAULT_GRAPH_CACHE_DIR : options.cacheDir, files);
  await store.apply({ kind: 'replaceGraph', graph, format: 'application/n-triples', data: built.data });
  return {
    changed: true, digest, quads: built.quads, ...(built.publishers !== undefined ? { publishers: built.publishers, measures: built.measures } : {}),
    ...(built.cached ? { cached: true } : {}), elapsedMs: performance.now() - started,
  };
}

interface Built { data: string; quads: number; publishers?: number; measures?: number; cached: boolean }

/**
 * The catalog graph as N-Triples for `baseIri`. It is always built under the placeholder base and
 * the real base put in afterwards, so the cached text and a fresh build are the same bytes.
 */
async function catalogNTriples(dir: string, baseIri: string, digest: string, cacheDir: string | null, files?: readonly { name: string; body: Buffer }[]): Promise<Built> {
  // The cache key leaves the base out (it is substituted); the graph's own digest triple keeps it.
  const key = createHash('sha256').update(digestOf(files ?? await descriptorFiles(dir), PLACEHOLDER_BASE)).digest('hex').slice(0, 24);
  const file = cacheDir === null ? null : join(cacheDir, `catalog-${key}.nt`);
  const digestLine = `<${catalogIris(baseIri).catalog}> <${ASSAY.descriptorDigest}> "${digest}" .\n`;
  const rebased = (text: string) => text.replaceAll(PLACEHOLDER_BASE, baseIri) + digestLine;
  if (file) {
    try {
      const text = await readFile(file, 'utf8');
      const quads = Number(/^# quads (\d+)\n/.exec(text)?.[1]);
      if (Number.isInteger(quads)) return { data: rebased(text.slice(text.indexOf('\n') + 1)), quads: quads + 1, cached: true };
    } catch { /* not cached yet */ }
  }
  const catalog = await loadCatalog(dir, { baseIri: PLACEHOLDER_BASE });
  const quads = catalogToQuads(catalog, PLACEHOLDER_BASE);
  const data = await serializeRdf(quads, RDF_OUTPUT.ntriples, { dropGraphs: true });
  if (file && cacheDir !== null) await writeCache(cacheDir, file, quads.length, data).catch(() => undefined);
  return { data: rebased(data), quads: quads.length + 1, publishers: catalog.publishers.length, measures: catalog.measures.length, cached: false };
}

async function writeCache(cacheDir: string, file: string, quads: number, data: string): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `# quads ${quads}\n${data}`);
  await rename(tmp, file);
  const old = (await readdir(cacheDir)).filter((f) => /^catalog-[0-9a-f]+\.nt$/.test(f));
  if (old.length <= KEEP) return;
  const dated = await Promise.all(old.map(async (f) => ({ f, t: (await stat(join(cacheDir, f))).mtimeMs })));
  for (const { f } of dated.sort((a, b) => b.t - a.t).slice(KEEP)) await rm(join(cacheDir, f), { force: true });
}

/** Builds and caches the catalog graph of `dir` if it is not cached yet (npm's build step calls it). */
export async function cacheCatalogGraph(dir: string, cacheDir: string = DEFAULT_GRAPH_CACHE_DIR): Promise<{ cached: boolean; quads: number }> {
  const r = await catalogNTriples(dir, PLACEHOLDER_BASE, 'warm', cacheDir);
  return { cached: r.cached, quads: r.quads - 1 };
}
