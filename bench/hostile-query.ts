/**
 * Hostile vs cheap: latency of a cheap lookup on its own, and while a runaway cross-product
 * query (stopped at sparql.timeoutMs) runs, over loopback HTTP.
 *   npx tsx bench/hostile-query.ts [timeoutMs=2000] [rounds=5]
 */
import { build } from '../src/server/app.ts';
import { loadConfig } from '../src/config.ts';
import { DurableStore } from '../src/rdf/durable.ts';

const timeoutMs = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 5);
const store = DurableStore.inMemory();
const lines: string[] = [];
for (let i = 0; i < 3000; i++) lines.push(`<http://ex.org/n${i}> <http://ex.org/p${i % 7}> "${i}" .`);
await store.apply({ kind: 'load', data: lines.join('\n'), format: 'application/n-triples', graph: 'http://ex.org/g' });
const app = await build({ config: loadConfig({ dataDir: '/tmp/assay-bench', sparql: { timeoutMs, workers: 2 } }, {}), store });
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const url = (q: string) => `${base}/sparql?query=${encodeURIComponent(q)}`;
const CHEAP = url('SELECT ?o WHERE { <http://ex.org/n42> ?p ?o }');
const RUNAWAY = url('SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }');

async function timed(u: string): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  const r = await fetch(u);
  await r.text();
  return { ms: performance.now() - t0, status: r.status };
}
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (let i = 0; i < 20; i++) await timed(CHEAP); // warm both workers
const alone: number[] = [];
for (let i = 0; i < rounds; i++) alone.push((await timed(CHEAP)).ms);
const during: number[] = [];
const stopped: number[] = [];
for (let i = 0; i < rounds; i++) {
  const slow = timed(RUNAWAY);
  await wait(200);
  const fast = await timed(CHEAP);
  const s = await slow;
  if (fast.status !== 200 || s.status !== 503) throw new Error(`unexpected statuses: cheap ${fast.status}, runaway ${s.status}`);
  during.push(fast.ms);
  stopped.push(s.ms);
  await wait(1500); // let the replacement worker finish seeding
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`\nhostile vs cheap (timeoutMs ${timeoutMs}, 2 workers, 3000 triples, ${rounds} rounds, medians)`);
console.log(`cheap query alone:               ${med(alone).toFixed(1)} ms`);
console.log(`cheap query while runaway runs:  ${med(during).toFixed(1)} ms  (all ${during.map((x) => x.toFixed(1)).join(', ')})`);
console.log(`runaway query answered 503 after ${med(stopped).toFixed(0)} ms`);
console.log('reproduce: npx tsx bench/hostile-query.ts ' + process.argv.slice(2).join(' '));
await app.close();
