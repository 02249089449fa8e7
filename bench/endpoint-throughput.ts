/**
 * Endpoint throughput: a small SELECT through /sparql under 10 concurrent keep-alive clients on
 * loopback, beside a bare fastify route returning a constant, and the same query evaluated
 * in-process (no HTTP, no worker thread), all in the same run.
 *   npx tsx bench/endpoint-throughput.ts [seconds=5] [triples=100000] [--rounds 3] [--baseline DIR]
 *
 * Two result paths: a query with its own LIMIT within the row cap (the store serializes it
 * directly) and one without (LIMIT maxRows+1 injected, the result materialised as SPARQL-JSON,
 * counted and re-serialized). The headline rows run with no result cache (the default): every
 * request is parsed, checked and evaluated by a query worker. Beside them, a third gateway with
 * sparql.resultCacheBytes on answers repeats of the same query from its per-write cache
 * (src/server/sparql/result-cache.ts): the cached figure, never the headline.
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
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { RdfStore } from '../src/rdf/store.ts';
import { PreparedQueries, runJob, type QueryJob } from '../src/server/sparql/evaluate.ts';
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
function inProcess(text: string): { perSecond: number; cpuUs: number } {
  const store = new RdfStore();
  store.load(data(), { format: 'application/n-triples', graph: 'http://ex.org/g' });
  const memo = new PreparedQueries();
  const job: QueryJob = {
    kind: 'query', text, defaultGraphs: [], namedGraphs: [], accept: undefined, maxRows: 10_000,
    truncationLink: 'urn:truncated', checkDatasetGraphs: true, baseIri: 'http://127.0.0.1/sparql', localBase: 'http://127.0.0.1/', allowedRemoteHosts: [],
  };
  const once = () => {
    const r = runJob(store, job, memo);
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

interface Row { rps: number; ratio: number; p50: number; p99: number; errors: number; cpuUs: number }
async function measured(url: string): Promise<LoadResult & { cpuUs: number }> {
  const c0 = process.cpuUsage();
  const r = await load(url, CLIENTS, seconds);
  const c = process.cpuUsage(c0);
  return { ...r, cpuUs: (c.user + c.system) / Math.max(1, r.requests) };
}

const constant = Fastify({ logger: false });
constant.get('/const', async () => ({ ok: true }));
const constBase = await constant.listen({ host: '127.0.0.1', port: 0 });
const here = await gateway(resolve(import.meta.dirname, '..'));
const before = BASELINE ? await gateway(resolve(BASELINE)) : undefined;
const cached = await gateway(resolve(import.meta.dirname, '..'), { resultCacheBytes: 16 << 20 });

const targets: [string, string][] = [
  ['/sparql SELECT, LIMIT 6 (fast path)', here.base + q(WITH_LIMIT)],
  ['/sparql SELECT, no LIMIT (capped path)', here.base + q(NO_LIMIT)],
  ...(before ? [
    ['baseline: LIMIT 6 (fast path)', before.base + q(WITH_LIMIT)],
    ['baseline: no LIMIT (capped path)', before.base + q(NO_LIMIT)],
  ] as [string, string][] : []),
  ['cached (resultCacheBytes on): LIMIT 6', cached.base + q(WITH_LIMIT)],
];
// Warm-up: the JITs, both workers of each pool, the prepared-query memos.
await load(constBase + '/const', CLIENTS, 1);
for (const [, url] of targets) await load(url, CLIENTS, 1);

const rows = new Map<string, Row[]>([['fastify constant route', []], ...targets.map(([name]) => [name, []] as [string, Row[]])]);
for (let round = 0; round < ROUNDS; round++) {
  const c = await measured(constBase + '/const');
  rows.get('fastify constant route')!.push({ ...c, ratio: 1 });
  for (const [name, url] of targets) {
    const r = await measured(url);
    rows.get(name)!.push({ ...r, ratio: r.rps / c.rps });
  }
}
const fast = inProcess(WITH_LIMIT);
const capped = inProcess(NO_LIMIT);

const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const load1 = (await import('node:os')).loadavg()[0]!;
console.log(`\nendpoint throughput: ${CLIENTS} concurrent clients, ${seconds} s per measurement, ${ROUNDS} interleaved round(s), medians; ${triples} triples; Node ${process.version}; load average ${load1.toFixed(1)}`);
for (const [name, rs] of rows) {
  console.log(`${name.padEnd(40)} ${med(rs.map((r) => r.rps)).toFixed(0).padStart(7)} req/s  p50 ${med(rs.map((r) => r.p50)).toFixed(2)} ms  p99 ${med(rs.map((r) => r.p99)).toFixed(2)} ms  errors ${rs.reduce((a, r) => a + r.errors, 0)}  CPU ${med(rs.map((r) => r.cpuUs)).toFixed(0)} µs/req  ${(med(rs.map((r) => r.ratio)) * 100).toFixed(1)}% of constant (same round; rounds ${rs.map((r) => (r.ratio * 100).toFixed(0)).join(', ')})`);
}
const httpFast = med(rows.get(targets[0]![0])!.map((r) => r.rps));
const httpCapped = med(rows.get(targets[1]![0])!.map((r) => r.rps));
console.log(`in-process, same query, one thread (runJob, no HTTP, no worker): LIMIT 6 ${fast.perSecond.toFixed(0)} q/s (${fast.cpuUs.toFixed(0)} µs CPU each); no LIMIT ${capped.perSecond.toFixed(0)} q/s (${capped.cpuUs.toFixed(0)} µs)`);
console.log(`HTTP + isolation vs in-process: LIMIT 6 ${(httpFast / fast.perSecond).toFixed(2)}x the in-process rate; no LIMIT ${(httpCapped / capped.perSecond).toFixed(2)}x`);
console.log('reproduce: npx tsx bench/endpoint-throughput.ts ' + process.argv.slice(2).join(' '));
await here.close();
await before?.close();
await cached.close();
await constant.close();
