/** `assay load <file>`: parse an RDF file and add it to the store (embedded, or remote with --store). */
import { readFile } from 'node:fs/promises';
import { loadConfig } from '../../config.ts';
import { openStore } from '../../rdf/open.ts';
import { isQuadFormat, mediaTypeForFile } from '../../rdf/store.ts';
import { graphIri } from '../../rdf/vocab.ts';
import { UserError } from '../errors.ts';

export interface LoadOptions {
  graph?: string;
  format?: string;
  data?: string;
  store?: string;
}

export async function loadCommand(file: string, opts: LoadOptions): Promise<void> {
  const config = loadConfig({ dataDir: opts.data, ...(opts.store ? { store: { url: opts.store } } : {}) });
  const format = opts.format ?? mediaTypeForFile(file);
  if (!format) {
    throw new UserError(`cannot tell the RDF syntax of "${file}" from its extension; pass --format (e.g. text/turtle, application/n-triples, application/n-quads, application/trig, application/rdf+xml)`);
  }
  if (opts.graph !== undefined) {
    try {
      new URL(opts.graph);
    } catch {
      throw new UserError(`--graph must be an absolute IRI, not "${opts.graph}"`);
    }
  }
  let data: string;
  try {
    data = await readFile(file, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const graph = isQuadFormat(format) ? undefined : (opts.graph ?? graphIri(config.baseIri, 'default-load'));
  const store = await openStore(config);
  try {
    const before = store.rdf.size;
    try {
      await store.apply({ kind: 'load', data, format, graph, baseIri: new URL(`file://${file}`).href });
    } catch (e) {
      if ((e as Error).name === 'StoreCapacityError') throw e;
      if ((e as Error).name === 'RemoteStoreError') throw new UserError(`the store did not take ${file}: ${(e as Error).message}`, 1);
      throw new UserError(`${file} is not valid ${format}: ${(e as Error).message}. Nothing was loaded.`);
    }
    const added = store.rdf.size - before;
    process.stdout.write(`loaded ${added} new quads from ${file}${graph ? ` into <${graph}>` : ' (graph names from the file)'}; the store now holds ${store.rdf.size}\n`);
  } finally {
    await store.close();
  }
}
