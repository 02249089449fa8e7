/**
 * Bulk load throughput of N-Triples into the store, ~1 M triples.
 *   npx tsx bench/bulk-load.ts [triples=1000000] [runs=3]
 * Prints the median of `runs` for: the bare oxigraph facade (RdfStore.load, lenient) and the
 * durable path (DurableStore.apply: journal append + fsync + load), plus the journal's size.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RdfStore } from '../src/rdf/store.ts';
import { DurableStore } from '../src/rdf/durable.ts';

const n = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 3);

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

const data = generate(n);
const bare: number[] = [];
const durable: number[] = [];
for (let r = 0; r < runs; r++) {
  const store = new RdfStore();
  let t = performance.now();
  store.load(data, { format: 'application/n-triples', graph: 'http://example.org/g', lenient: true });
  bare.push((performance.now() - t) / 1000);

  const dir = await mkdtemp(join(tmpdir(), 'assay-bench-'));
  const ds = await DurableStore.open(dir, { compactAfterBytes: Number.MAX_SAFE_INTEGER });
  t = performance.now();
  await ds.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://example.org/g', data });
  durable.push((performance.now() - t) / 1000);
  await ds.close();
  await rm(dir, { recursive: true, force: true });
}
const mb = (Buffer.byteLength(data) / 1e6).toFixed(1);
console.log(`bulk load of ${n} N-Triples (${mb} MB), median of ${runs} runs, Node ${process.version}`);
console.log(`  RdfStore.load (lenient):        ${median(bare).toFixed(2)} s  = ${Math.round(n / median(bare)).toLocaleString('en-US')} triples/s`);
console.log(`  DurableStore.apply (journaled): ${median(durable).toFixed(2)} s  = ${Math.round(n / median(durable)).toLocaleString('en-US')} triples/s`);
console.log(`  journaling overhead: ${(median(durable) / median(bare)).toFixed(2)}x`);
console.log('reproduce: npx tsx bench/bulk-load.ts ' + n + ' ' + runs);
