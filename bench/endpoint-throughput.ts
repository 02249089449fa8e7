/**
 * Endpoint throughput: a small SELECT through /sparql under 10 concurrent keep-alive clients on
 * loopback, beside a bare fastify route returning a constant, and the same query evaluated
 * in-process (no HTTP, no worker thread), all in the same run.
 *   npx tsx bench/endpoint-throughput.ts [seconds=5] [triples=100000] [--rounds 3] [--baseline DIR]
 *
 * Rows:
 * - the default configuration, the same query asked again and again (the headline): from its
 *   third ask it is answered from the per-write answer cache (src/server/sparql/result-cache.ts);
 *   with its own LIMIT (the store serializes it directly) and without (LIMIT maxRows+1 injected,
 *   the result materialised, counted and re-serialized);
 * - the default configuration, a query never asked before on every request (the same query with
 *   a distinct trailing comment): what a miss costs, parse included;
 * - the cache off (sparql.resultCacheBytes = 0), repeated and never-seen: every request parsed (or
 *   its parse remembered, for a repeated text), checked and evaluated by a query worker.
 * Each row also prints the constant route's CPU per request over its own: under heavy machine
 * load the req/s ratio follows scheduling more than cost; when the server is CPU-bound on a quiet
 * machine the two agree.
 *
 * The gateway runs with its production protections: the per-client rate limit stays on, with a
 * ceiling the benchmark cannot reach (the limiter's bookkeeping is paid, nothing is refused), the
 * time limit, the row cap, read-only evaluation in the worker pool (2 workers + 1 spare).
 *
 * Rounds are interleaved (constant, this checkout, the baseline checkout, …) and the figures are
 * medians over rounds of each round's req/s and its ratio to that round's constant route. CPU is
 * the whole process's (server threads, workers, GC, and the load generator's thread) per request.
 * `--baseline DIR`: another checkout (e.g. main exported with `git archive`, node_modules copied)
 * served from the same process, so both see the same machine load.
 * The load generator runs in a worker thread (bench/lib/load.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { RdfStore } from '../src/rdf/store.ts';
import { PreparedQueries, runJob, type QueryJob } from '../src/server/sparql/evaluate.ts';
import { ResultCache } from '../src/server/sparql/result-cache.ts';
import { load, type LoadResult } from './lib/load.ts';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const BASELINE = flag('--baseline');
const ROUNDS = Number(flag('--rounds') ?? 3);
const seconds = Number(args[0] ?? 5);
const triples = Number(args[1] ?? 100_000);
const CLIENTS = 10;

const WITH_LIMIT = 'SELECT ?p ?o WHERE { <http://ex.org/s42> ?p ?o } LIMIT 6';
const NO_LIMIT = 'SELECT ?p ?o WHERE { <http://ex.org/s42> ?p ?o FILTER(?p != <http://ex.org/p0> && ?p != <http://ex.org/p1> && ?p != <http://ex.org/p2> && ?p != <http://ex.org/p3>) }';
const data = (): string => {
  const lines: string[] = [];
  for (let i = 0; i < triples; i++) lines.push(`<http://ex.org/s${i % (triples / 10)}> <http://ex.org/p${i % 10}> "v${i}" .`);
  return lines.join('\n');
};
const q = (text: string) => `/sparql?query=${encodeURIComponent(text)}`;

/** Start a gateway from a checkout's sources (this one, or a baseline) over an in-memory store. */
async function gateway(root: string, sparql: Record<string, number> = {}): Promise<{ base: string; close: () => Promise<void> }> {
  const from = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  const { build } = await from('src/server/app.ts');
  const { loadConfig } = await from('src/config.ts');
  const { DurableStore } = await from('src/rdf/durable.ts');
  const store = DurableStore.inMemory();
  await store.apply({ kind: 'load', data: data(), format: 'application/n-triples', graph: 'http://ex.org/g' });
  const config = loadConfig({ dataDir: '/tmp/assay-bench', port: 0, sparql, limits: { rateLimit: { sparqlPerMinute: 1_000_000_000 } } }, {});
  const app = await build({ config, store });
  const base: string = await app.listen({ host: '127.0.0.1', port: 0 });
  await app.queryPool.ready?.();
  const check = await fetch(base + q(WITH_LIMIT)).then((r) => r.json()) as { results: { bindings: unknown[] } };
  if (check.results.bindings.length === 0) throw new Error(`benchmark query returned nothing (${root})`);
  return { base, close: () => app.close() };
}

/** The same query evaluated on this thread by the endpoint's own job runner: no HTTP, no worker. */
function inProcess(text: string, neverSeen = false): { perSecond: number; cpuUs: number } {
  const store = new RdfStore();
  store.load(data(), { format: 'application/n-triples', graph: 'http://ex.org/g' });
  const memo = new PreparedQueries();
  const job: QueryJob = {
    kind: 'query', text, defaultGraphs: [], namedGraphs: [], accept: undefined, maxRows: 10_000,
    truncationLink: 'urn:truncated', checkDatasetGraphs: true, baseIri: 'http://127.0.0.1/sparql', localBase: 'http://127.0.0.1/', allowedRemoteHosts: [],
  };
  let n0 = 0;
  const once = () => {
    // Never seen: a distinct text each time, parsed each time (as the distinct HTTP rows' queries).
    const r = neverSeen ? runJob(store, { ...job, text: `${text} #${n0++}` }, memo) : runJob(store, job, memo);
    if (!r.ok) throw new Error(`in-process query failed: ${r.message}`);
  };
  for (let i = 0; i < 2000; i++) once();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 1000 * Math.min(seconds, 2)) {
    for (let i = 0; i < 100; i++) once();
    n += 100;
  }
  const c = process.cpuUsage(c0);
  return { perSecond: n / ((performance.now() - t0) / 1000), cpuUs: (c.user + c.system) / n };
}

/**
 * What the answer cache adds to a never-seen query on the main thread, measured alone (the HTTP
 * rows are too noisy to see it): the route's key, the lookup that misses, and admission's set.
 */
function missBookkeeping(): number {
  const cache = new ResultCache(16 << 20);
  const n = 200_000;
  const texts = Array.from({ length: n }, (_, i) => `${WITH_LIMIT} #${i}`);
  const c0 = process.cpuUsage();
  for (const text of texts) {
    const key = `${''}\u0000${''}\u0000${''}\u0000${text}`;
    if (cache.get(key, 1) !== undefined || cache.admit(key)) throw new Error('a never-seen key was found');
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

interface Row { rps: number; ratio: number; p50: number; p99: number; errors: number; cpuUs: number }
async function measured(url: string, unique?: string): Promise<LoadResult & { cpuUs: number }> {
  const c0 = process.cpuUsage();
  const r = await load(url, CLIENTS, seconds, unique);
  const c = process.cpuUsage(c0);
  return { ...r, cpuUs: (c.user + c.system) / Math.max(1, r.requests) };
}

const constant = Fastify({ logger: false });
constant.get('/const', async () => ({ ok: true }));
const constBase = await constant.listen({ host: '127.0.0.1', port: 0 });
const here = await gateway(resolve(import.meta.dirname, '..'));
const off = await gateway(resolve(import.meta.dirname, '..'), { resultCacheBytes: 0 });
const before = BASELINE ? await gateway(resolve(BASELINE)) : undefined;

/** A query text no request repeats: the load generator fills in __N__ (bench/lib/load.ts). */
const distinct = (text: string) => q(`${text} #__N__`).replace(encodeURIComponent('__N__'), '__N__');
interface Target { name: string; url: string; unique?: boolean }
const targets: Target[] = [
  { name: 'default, repeated: LIMIT 6 (headline)', url: here.base + q(WITH_LIMIT) },
  { name: 'default, repeated: no LIMIT (capped)', url: here.base + q(NO_LIMIT) },
  { name: 'default, never-seen: LIMIT 6', url: here.base + distinct(WITH_LIMIT), unique: true },
  { name: 'cache off, repeated: LIMIT 6', url: off.base + q(WITH_LIMIT) },
  { name: 'cache off, never-seen: LIMIT 6', url: off.base + distinct(WITH_LIMIT), unique: true },
  ...(before ? [
    { name: 'baseline, repeated: LIMIT 6', url: before.base + q(WITH_LIMIT) },
    { name: 'baseline, repeated: no LIMIT', url: before.base + q(NO_LIMIT) },
    { name: 'baseline, never-seen: LIMIT 6', url: before.base + distinct(WITH_LIMIT), unique: true },
  ] : []),
];
// Warm-up: the JITs, both workers of each pool, the prepared-query memos, the answer caches.
await load(constBase + '/const', CLIENTS, 1);
for (const t of targets) await load(t.url, CLIENTS, 1, t.unique ? 'warm' : undefined);

const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const rows = new Map<string, Row[]>([['fastify constant route', []], ...targets.map((t) => [t.name, []] as [string, Row[]])]);
for (let round = 0; round < ROUNDS; round++) {
  const c = await measured(constBase + '/const');
  rows.get('fastify constant route')!.push({ ...c, ratio: 1 });
  for (const t of targets) {
    const r = await measured(t.url, t.unique ? `r${round}` : undefined);
    rows.get(t.name)!.push({ ...r, ratio: r.rps / c.rps });
  }
}
const fast = inProcess(WITH_LIMIT);
const capped = inProcess(NO_LIMIT);
const unseen = inProcess(WITH_LIMIT, true);
const missUs = missBookkeeping();

const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`\nendpoint throughput: ${CLIENTS} concurrent clients, ${seconds} s per measurement, ${ROUNDS} interleaved round(s), medians; ${triples} triples; Node ${process.version}; load average ${loadBefore} before, ${loadAfter} after`);
for (const [name, rs] of rows) {
  console.log(`${name.padEnd(40)} ${med(rs.map((r) => r.rps)).toFixed(0).padStart(7)} req/s  p50 ${med(rs.map((r) => r.p50)).toFixed(2)} ms  p99 ${med(rs.map((r) => r.p99)).toFixed(2)} ms  errors ${rs.reduce((a, r) => a + r.errors, 0)}  CPU ${med(rs.map((r) => r.cpuUs)).toFixed(0)} µs/req  ${(med(rs.map((r) => r.ratio)) * 100).toFixed(1)}% of constant (same round; rounds ${rs.map((r) => (r.ratio * 100).toFixed(0)).join(', ')}); constant's CPU/req over this row's ${(100 * med(rows.get('fastify constant route')!.map((r) => r.cpuUs)) / med(rs.map((r) => r.cpuUs))).toFixed(0)}%`);
}
const rps = (name: string) => med(rows.get(name)!.map((r) => r.rps));
const cpu = (name: string) => med(rows.get(name)!.map((r) => r.cpuUs));
console.log(`in-process, same query, one thread (runJob, no HTTP, no worker): LIMIT 6 ${fast.perSecond.toFixed(0)} q/s (${fast.cpuUs.toFixed(0)} µs CPU each); no LIMIT ${capped.perSecond.toFixed(0)} q/s (${capped.cpuUs.toFixed(0)} µs); LIMIT 6 never seen (parsed each time) ${unseen.perSecond.toFixed(0)} q/s (${unseen.cpuUs.toFixed(0)} µs)`);
console.log(`HTTP + isolation vs in-process (req/s over q/s): repeated LIMIT 6 ${(rps(targets[0]!.name) / fast.perSecond).toFixed(2)}x, no LIMIT ${(rps(targets[1]!.name) / capped.perSecond).toFixed(2)}x, never-seen ${(rps(targets[2]!.name) / unseen.perSecond).toFixed(2)}x, cache off ${(rps(targets[3]!.name) / fast.perSecond).toFixed(2)}x`);
console.log(`the answer cache's work for a never-seen query (key, missed lookup, admission set; 200,000 distinct keys, one thread): ${missUs.toFixed(2)} µs CPU each`);
console.log(`cache on / cache off, this checkout, never-seen LIMIT 6: CPU ${(cpu(targets[2]!.name) / cpu(targets[4]!.name)).toFixed(2)}x a request, throughput ${(rps(targets[2]!.name) / rps(targets[4]!.name)).toFixed(2)}x`);
if (before) {
  const pairs: [string, string, string][] = [
    ['repeated LIMIT 6', targets[0]!.name, 'baseline, repeated: LIMIT 6'],
    ['repeated no LIMIT', targets[1]!.name, 'baseline, repeated: no LIMIT'],
    ['never-seen LIMIT 6', targets[2]!.name, 'baseline, never-seen: LIMIT 6'],
    ['cache off vs baseline, repeated LIMIT 6', targets[3]!.name, 'baseline, repeated: LIMIT 6'],
    ['cache off vs baseline, never-seen LIMIT 6', targets[4]!.name, 'baseline, never-seen: LIMIT 6'],
  ];
  for (const [what, a, b] of pairs) console.log(`this checkout / baseline, ${what}: CPU ${(cpu(a) / cpu(b)).toFixed(2)}x a request, throughput ${(rps(a) / rps(b)).toFixed(2)}x`);
}
console.log('reproduce: npx tsx bench/endpoint-throughput.ts ' + process.argv.slice(2).join(' '));
await here.close();
await off.close();
await before?.close();
await constant.close();
