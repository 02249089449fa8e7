/**
 * Bulk load throughput of N-Triples into the store, ~1 M triples, and what keeping the miner's
 * columns (DurableOptions.keep; src/void/kept.ts) costs a write.
 *   npx tsx bench/bulk-load.ts [triples=1000000] [runs=3]
 * Prints the median of `runs`, interleaved within each run, for: the bare oxigraph facade
 * (RdfStore.load, lenient), the durable path (DurableStore.apply: load + journal append + fsync),
 * the durable path keeping in each of its two ways (the op's text queued for the keeper, folded
 * at the next read; or posted to the keeper's thread, which folds it beside oxigraph's load), and
 * the journal's size. Then the catalog graph's replacement at a first start (syncCatalogGraph into
 * a fresh data directory, the gateway's first write), without and with keeping (each way), and
 * what the first introspection of that graph costs by each path (the dump; folding what was
 * queued; taking what the thread folded), against a COUNT(*) of it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RdfStore } from '../src/rdf/store.ts';
import { DurableStore } from '../src/rdf/durable.ts';
import { syncCatalogGraph } from '../src/ard/sync.ts';
import { graphIri } from '../src/rdf/vocab.ts';
import { graphSource } from '../src/void/kept.ts';
import { fromDumpable, mine } from '../introspect/index.ts';

const n = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 3);
const load0 = loadavg()[0]!;

function generate(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = `<http://example.org/e/${i % (count / 5)}>`;
    switch (i % 5) {
      case 0: parts.push(`${s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/C${i % 7}> .`); break;
      case 1: parts.push(`${s} <http://www.w3.org/2000/01/rdf-schema#label> "entity number ${i}"@en .`); break;
      case 2: parts.push(`${s} <http://example.org/value> "${(i * 1.37).toFixed(2)}"^^<http://www.w3.org/2001/XMLSchema#decimal> .`); break;
      case 3: parts.push(`${s} <http://example.org/link> <http://example.org/e/${(i * 7919) % (count / 5)}> .`); break;
      default: parts.push(`${s} <http://example.org/year> "${1990 + (i % 35)}"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    }
  }
  return parts.join('\n') + '\n';
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const G = 'http://example.org/g';

type Keeping = 'none' | 'queued' | 'thread';
const keepOf = (k: Keeping) => (k === 'none' ? false : { thread: k === 'thread' });

async function durableLoad(data: string, keeping: Keeping): Promise<number> {
  const keep = keepOf(keeping);
  const dir = await mkdtemp(join(tmpdir(), 'assay-bench-'));
  const ds = await DurableStore.open(dir, { compactAfterBytes: Number.MAX_SAFE_INTEGER, keep });
  const t = performance.now();
  await ds.apply({ kind: 'load', format: 'application/n-triples', graph: G, data });
  const s = (performance.now() - t) / 1000;
  await ds.close();
  await rm(dir, { recursive: true, force: true });
  return s;
}

const data = generate(n);
const bare: number[] = [];
const loads: Record<Keeping, number[]> = { none: [], queued: [], thread: [] };
const ORDER: Keeping[] = ['none', 'queued', 'thread'];
for (let r = 0; r < runs; r++) {
  const store = new RdfStore();
  const t = performance.now();
  store.load(data, { format: 'application/n-triples', graph: G, lenient: true });
  bare.push((performance.now() - t) / 1000);
  // Rotate which durable variant goes first, so none always runs on a warmer heap.
  for (let i = 0; i < ORDER.length; i++) {
    const k = ORDER[(i + r) % ORDER.length]!;
    loads[k].push(await durableLoad(data, k));
  }
}
const { none: durable, queued: kept, thread: threaded } = loads;
const mb = (Buffer.byteLength(data) / 1e6).toFixed(1);
const rate = (s: number) => `${s.toFixed(2)} s  = ${Math.round(n / s).toLocaleString('en-US')} triples/s`;
console.log(`bulk load of ${n} N-Triples (${mb} MB), median of ${runs} runs, Node ${process.version}`);
console.log(`  RdfStore.load (lenient):                 ${rate(median(bare))}`);
console.log(`  DurableStore.apply (journaled):          ${rate(median(durable))}  (${durable.map((s) => s.toFixed(2)).join(', ')})`);
console.log(`  DurableStore.apply, keeping (queued):    ${rate(median(kept))}  (${kept.map((s) => s.toFixed(2)).join(', ')})`);
console.log(`  DurableStore.apply, keeping (a thread):  ${rate(median(threaded))}  (${threaded.map((s) => s.toFixed(2)).join(', ')})`);
console.log(`  journaling overhead: ${(median(durable) / median(bare)).toFixed(2)}x; keeping, against journaled alone: queued ${(median(kept) / median(durable)).toFixed(2)}x, a thread ${(median(threaded) / median(durable)).toFixed(2)}x`);

// The catalog graph at a first start: the gateway's first write into a fresh data directory.
const baseIri = 'http://localhost:8080/';
const catalog = graphIri(baseIri, 'catalog');
const replace: Record<Keeping, number[]> = { none: [], queued: [], thread: [] };
const firstRead: Record<Keeping, number[]> = { none: [], queued: [], thread: [] };
const counts: number[] = [];
let quads = 0;
for (let r = 0; r < runs; r++) {
  for (let i = 0; i < ORDER.length; i++) {
    const k = ORDER[(i + r) % ORDER.length]!;
    const dir = await mkdtemp(join(tmpdir(), 'assay-bench-'));
    const ds = await DurableStore.open(dir, { keep: keepOf(k) });
    const t = performance.now();
    const res = await syncCatalogGraph(ds, { baseIri });
    replace[k].push((performance.now() - t) / 1000);
    quads = res.quads;
    let t1 = performance.now();
    ds.rdf.graphSize(catalog);
    counts.push((performance.now() - t1) / 1000);
    t1 = performance.now();
    mine(k !== 'none' ? graphSource(ds.rdf, catalog) : fromDumpable(ds.rdf, catalog));
    firstRead[k].push((performance.now() - t1) / 1000);
    await ds.close();
    await rm(dir, { recursive: true, force: true });
  }
}
const c = median(counts);
const list = (xs: number[]) => `${median(xs).toFixed(2)} s (${xs.map((s) => s.toFixed(2)).join(', ')})`;
console.log(`catalog graph replacement at a first start (${quads.toLocaleString('en-US')} quads, syncCatalogGraph into a fresh directory), median of ${runs}:`);
console.log(`  without keeping: ${list(replace.none)}; keeping, queued: ${list(replace.queued)} = ${(median(replace.queued) / median(replace.none)).toFixed(2)}x; keeping, a thread: ${list(replace.thread)} = ${(median(replace.thread) / median(replace.none)).toFixed(2)}x`);
console.log(`  its first introspection right after: dump path ${median(firstRead.none).toFixed(2)} s = ${(median(firstRead.none) / c).toFixed(1)}x its COUNT(*) (${c.toFixed(2)} s); folding the queued write ${median(firstRead.queued).toFixed(2)} s = ${(median(firstRead.queued) / c).toFixed(1)}x; what the thread folded ${median(firstRead.thread).toFixed(2)} s = ${(median(firstRead.thread) / c).toFixed(1)}x`);
console.log(`reproduce: npx tsx bench/bulk-load.ts ${n} ${runs} (load average ${load0.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end, from /proc/loadavg)`);
