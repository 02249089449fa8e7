/**
 * Endpoint throughput: a small SELECT through /sparql under 10 concurrent keep-alive clients
 * on loopback, beside a bare fastify route returning a constant, measured in the same run.
 *   npx tsx bench/endpoint-throughput.ts [seconds=5] [triples=100000]
 * Also compares the two result paths: a query with its own LIMIT within the row cap (oxigraph
 * serializes directly) and one without (LIMIT maxRows+1 injected, result materialised as
 * SPARQL-JSON, counted, re-serialized). The load generator runs in a worker thread.
 */
import Fastify from 'fastify';
import { build } from '../src/server/app.ts';
import { loadConfig } from '../src/config.ts';
import { DurableStore } from '../src/rdf/durable.ts';
import { load, type LoadResult } from './lib/load.ts';

const seconds = Number(process.argv[2] ?? 5);
const triples = Number(process.argv[3] ?? 100_000);
const CLIENTS = 10;

const store = DurableStore.inMemory();
const lines: string[] = [];
for (let i = 0; i < triples; i++) lines.push(`<http://ex.org/s${i % (triples / 10)}> <http://ex.org/p${i % 10}> "v${i}" .`);
await store.apply({ kind: 'load', data: lines.join('\n'), format: 'application/n-triples', graph: 'http://ex.org/g' });

const app = await build({ config: loadConfig({ dataDir: '/tmp/assay-bench', port: 0 }, {}), store });
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const constant = Fastify({ logger: false });
constant.get('/const', async () => ({ ok: true }));
const constBase = await constant.listen({ host: '127.0.0.1', port: 0 });

const q = (text: string) => `/sparql?query=${encodeURIComponent(text)}`;
// 6 rows (the lookup shape in ARCHITECTURE.md's serving figure).
const withLimit = q('SELECT ?p ?o WHERE { <http://ex.org/s42> ?p ?o } LIMIT 6');
const noLimit = q('SELECT ?p ?o WHERE { <http://ex.org/s42> ?p ?o FILTER(?p != <http://ex.org/p0> && ?p != <http://ex.org/p1> && ?p != <http://ex.org/p2> && ?p != <http://ex.org/p3>) }');

const check = await fetch(base + withLimit).then((r) => r.json()) as { results: { bindings: unknown[] } };
if (check.results.bindings.length === 0) throw new Error('benchmark query returned nothing');

await load(constBase + '/const', CLIENTS, 1); // warm-up
await load(base + withLimit, CLIENTS, 1);
const results: [string, LoadResult][] = [
  ['fastify constant route', await load(constBase + '/const', CLIENTS, seconds)],
  ['/sparql SELECT, LIMIT 6 (fast path)', await load(base + withLimit, CLIENTS, seconds)],
  ['/sparql SELECT, no LIMIT (capped path)', await load(base + noLimit, CLIENTS, seconds)],
];
const ref = results[0]![1].rps;
console.log(`\nendpoint throughput: ${CLIENTS} concurrent clients, ${seconds} s each, ${triples} triples, Node ${process.version}`);
for (const [name, r] of results) {
  console.log(`${name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  errors ${r.errors}  (${(r.rps / ref * 100).toFixed(1)}% of constant)`);
}
console.log('reproduce: npx tsx bench/endpoint-throughput.ts ' + process.argv.slice(2).join(' '));
await app.close();
await constant.close();
