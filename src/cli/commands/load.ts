/** `assay load <file>`: parse an RDF file and add it to the store (embedded, or remote with --store). */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../config.ts';
import { openStore } from '../../rdf/open.ts';
import { RemoteStore } from '../../rdf/remote.ts';
import { streamLoad } from '../../rdf/remote-load.ts';
import { isQuadFormat, mediaTypeForFile } from '../../rdf/store.ts';
import { graphIri } from '../../rdf/vocab.ts';
import { UserError } from '../errors.ts';
import { DurableStore } from '../../rdf/durable.ts';
import { recoveryLines } from './serve.ts';

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
  const graph = isQuadFormat(format) ? undefined : (opts.graph ?? graphIri(config.baseIri, 'default-load'));
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (e) {
    throw new UserError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const store = await openStore(config);
  // Whatever opening the store repaired is said, as `assay serve` says it.
  if (store instanceof DurableStore) for (const line of recoveryLines(store.recovery)) process.stderr.write(`${line.trim()}\n`);
  if (store instanceof RemoteStore && info.size > config.store.streamAboveBytes) {
    // Too big to parse in memory first: stream it in pieces (src/rdf/remote-load.ts).
    try {
      const path = resolve(file);
      const r = await streamLoad(store, createReadStream(path), {
        format, ...(graph ? { graph } : {}), baseIri: pathToFileURL(path).href, assayBase: config.baseIri,
        key: `${path}\u0000${info.size}\u0000${info.mtimeMs}`,
      });
      process.stdout.write(`streamed ${r.triples} triples from ${file} into ${r.graphs.map((g) => `<${g}>`).join(', ') || 'no graph'} in ${r.requests} requests${r.skolemized ? `; ${r.skolemized} blank nodes became IRIs under <${r.genidPrefix}> so each stays one node across requests` : ''}\n`);
    } catch (e) {
      if ((e as Error).name === 'RemoteStoreError') throw new UserError(`the store did not take all of ${file}: ${(e as Error).message}`, 1);
      throw e;
    } finally {
      await store.close();
    }
    return;
  }
  let data: string;
  try {
    data = await readFile(file, 'utf8');
  } catch (e) {
    await store.close();
    throw new UserError(`cannot read ${file}: ${(e as Error).message}`);
  }
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
