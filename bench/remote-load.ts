/**
 * Loading into a remote SPARQL store: streamed `assay load --store` throughput into Virtuoso, by
 * requests in flight, beside Virtuoso's own bulk loader on the same data, a single-graph COUNT and
 * a keyed lookup through the blocking reader.
 *   npx tsx bench/remote-load.ts [triples=500000] [concurrency=1,4]
 * Data: SYNTHETIC N-Triples (a generated funder→recipient-like graph, no real figures). Uses the
 * Virtuoso in ASSAY_TEST_VIRTUOSO (http://user:password@127.0.0.1:PORT) or starts a private one
 * with .ci/virtuoso.sh. Each run loads a fresh graph; the graphs are dropped at the end.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RemoteStore } from '../src/rdf/remote.ts';
import { streamLoad } from '../src/rdf/remote-load.ts';
import { factory } from '../src/rdf/store.ts';
import { startVirtuoso, uniqueBase } from '../test/rdf/helpers/virtuoso.ts';

const n = Number(process.argv[2] ?? 500_000);
const levels = (process.argv[3] ?? '1,4').split(',').map(Number);
const base = uniqueBase('bench-load');

/** SYNTHETIC: funders give to recipients with a heavy tail (recipient i ∝ 1/i). */
function* lines(count: number): Generator<string> {
  const funders = Math.max(1, Math.floor(count / 50));
  for (let i = 0; i < count; i += 3) {
    const r = Math.floor(1 / (1 - Math.random() * 0.999));
    const edge = `<${base}edge/${i}>`;
    yield `${edge} <${base}funder> <${base}org/f${i % funders}> .\n${edge} <${base}recipient> <${base}org/r${r}> .\n${edge} <${base}amount> "${(i * 37) % 100000}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n`;
  }
}

function chunked(count: number): Readable {
  const it = lines(count);
  return Readable.from((function* () {
    let buf = '';
    for (const l of it) {
      buf += l;
      if (buf.length > 1 << 20) { yield buf; buf = ''; }
    }
    if (buf) yield buf;
  })());
}

const vt = await startVirtuoso();
const store = await RemoteStore.open(vt.store(), { baseIri: base });
const graphs: string[] = [];
try {
  console.log(`streamed load of ${n} SYNTHETIC triples into Virtuoso (${vt.origin}), Graph Store Protocol, 100k triples per request, Node ${process.version}`);
  for (const concurrency of levels) {
    const graph = `${base}graph/c${concurrency}`;
    graphs.push(graph);
    const t = performance.now();
    const r = await streamLoad(store, chunked(n), { format: 'application/n-triples', graph, key: `bench ${concurrency}`, assayBase: base, concurrency });
    const s = (performance.now() - t) / 1000;
    console.log(`  ${concurrency} in flight: ${r.triples} triples in ${s.toFixed(1)} s = ${Math.round(r.triples / s).toLocaleString('en-US')} triples/s (${r.requests} requests)`);
  }
  // The engine's own bulk loader on the same data from a file (what a reference-size graph needs).
  const file = join(await mkdtemp(join(tmpdir(), 'assay-bench-load-')), 'synthetic.nt');
  await pipeline(chunked(n), createWriteStream(file));
  const bulkGraph = `${base}graph/bulk`;
  try {
    const t0 = performance.now();
    await vt.bulkLoad(file, bulkGraph);
    graphs.push(bulkGraph);
    const s = (performance.now() - t0) / 1000;
    const loaded = store.rdf.graphSize(bulkGraph);
    console.log(`  Virtuoso bulk loader (ld_dir + rdf_loader_run, file on the server): ${loaded} triples in ${s.toFixed(1)} s = ${Math.round(loaded / s).toLocaleString('en-US')} triples/s`);
  } catch (e) {
    console.log(`  Virtuoso bulk loader: not run (${(e as Error).message})`);
  } finally {
    await rm(dirname(file), { recursive: true, force: true });
  }
  let t = performance.now();
  const size = store.rdf.graphSize(graphs[0]!);
  console.log(`  COUNT(*) of one graph (${size} triples): ${Math.round(performance.now() - t)} ms`);
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    t = performance.now();
    store.rdf.match(factory.namedNode(`${base}edge/${3 * i}`), null, null, factory.namedNode(graphs[0]!));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`  keyed lookup through the blocking reader: p50 ${times[25]!.toFixed(1)} ms, p95 ${times[47]!.toFixed(1)} ms (50 lookups)`);
} finally {
  for (const g of graphs) await store.apply({ kind: 'clearGraph', graph: g });
  await store.close();
  await vt.stop();
}
console.log(`reproduce: npx tsx bench/remote-load.ts ${n} ${levels.join(',')}`);
