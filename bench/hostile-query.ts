/**
 * Hostile vs cheap: latency of a cheap lookup on its own, and while a runaway cross-product
 * query (stopped at sparql.timeoutMs) runs, over loopback HTTP; the cheap query is sent by another
 * client (local address 127.0.0.2) than the runaway (127.0.0.1).
 *   npx tsx bench/hostile-query.ts [timeoutMs=2000] [rounds=5]
 */
import http from 'node:http';
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

/**
 * One GET from a given local address: the pool tells clients apart by address, and keeps the
 * last free worker (and, after a kill, all but one) from the client whose runaway it stopped.
 * The cheap query comes from another client (127.0.0.2), as a bystander's would.
 */
function timed(u: string, localAddress = '127.0.0.1'): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http.get(u, { localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0 }));
    }).on('error', reject);
  });
}
const BYSTANDER = '127.0.0.2';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

await app.queryPool.ready();
for (let i = 0; i < 20; i++) await timed(CHEAP, BYSTANDER); // warm both workers
const alone: number[] = [];
for (let i = 0; i < rounds; i++) alone.push((await timed(CHEAP, BYSTANDER)).ms);
const during: number[] = [];
const stopped: number[] = [];
for (let i = 0; i < rounds; i++) {
  const slow = timed(RUNAWAY);
  await wait(200);
  const fast = await timed(CHEAP, BYSTANDER);
  const s = await slow;
  if (fast.status !== 200 || s.status !== 503) throw new Error(`unexpected statuses: cheap ${fast.status}, runaway ${s.status}`);
  during.push(fast.ms);
  stopped.push(s.ms);
  await app.queryPool.ready(); // the replacement worker has its replica (a fixed pause was too short on a loaded machine)
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`\nhostile vs cheap (timeoutMs ${timeoutMs}, 2 workers, 3000 triples, ${rounds} rounds, medians)`);
console.log(`cheap query alone:               ${med(alone).toFixed(1)} ms`);
console.log(`cheap query (another client) while runaway runs:  ${med(during).toFixed(1)} ms  (all ${during.map((x) => x.toFixed(1)).join(', ')})`);
console.log(`runaway query answered 503 after ${med(stopped).toFixed(0)} ms`);
console.log('reproduce: npx tsx bench/hostile-query.ts ' + process.argv.slice(2).join(' '));
await app.close();
