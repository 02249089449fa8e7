/**
 * Soak: a real `assay serve` child on loopback under 20 /sparql clients and 5 /ask clients at
 * once for 60 s, plus (with --runaways N, default 2) N clients sending runaway queries that are
 * stopped at the limit, and a canary ASK every 250 ms from its own client. Prints requests,
 * errors by status, p50/p99 per surface, the canary's worst wait, and the gateway's RSS before
 * and after.
 *   npx tsx bench/soak.ts [--seconds 60] [--sparql 20] [--ask 5] [--runaways 2] [--timeout-ms 3000]
 * The store holds the catalog graph of ard-okf's top-level descriptors and 50,000 synthetic
 * triples; rate limits are off (the soak measures capacity, not the limits).
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DurableStore } from '../src/rdf/durable.ts';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
}
const SECONDS = arg('seconds', 60);
const SPARQL = arg('sparql', 20);
const ASK = arg('ask', 5);
const RUNAWAYS = arg('runaways', 2);
const TIMEOUT_MS = arg('timeout-ms', 3000);

const root = await mkdtemp(join(tmpdir(), 'assay-soak-'));
const dir = join(root, 'data');
const cat = join(root, 'ard-okf');
await mkdir(cat);
for (const f of (await readdir('ard-okf')).filter((f) => f.endsWith('.json'))) await copyFile(join('ard-okf', f), join(cat, f));
const store = await DurableStore.open(dir);
await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/bulk', data: Array.from({ length: 50_000 }, (_, i) => `<http://x/s${i}> <http://x/p${i % 11}> "v${i}" .`).join('\n') });
await store.compact();
await store.close();

const child = spawn(process.execPath, ['bin/assay.js', 'serve', '--port', '0', '--data', dir, '--catalog', cat], {
  env: { ...process.env, ASSAY_RATE_ASK_PER_MINUTE: '0', ASSAY_RATE_SPARQL_PER_MINUTE: '0', ASSAY_TRUST_PROXY: '1', ASSAY_SPARQL_TIMEOUT_MS: String(TIMEOUT_MS), ASSAY_ASK_WORKERS: ASK > 0 ? '1' : '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
const url = await new Promise<string>((resolve, reject) => {
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  child.on('exit', (c) => reject(new Error(`assay serve exited ${c}:\n${out}`)));
});
const t0 = performance.now();
while (!/^ready$/m.test(out)) await new Promise((r) => setTimeout(r, 100));
const readyS = (performance.now() - t0) / 1000;

async function rssMb(): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Tally { latencies: number[]; statuses: Map<number | string, number> }
const tally = (): Tally => ({ latencies: [], statuses: new Map() });
const t = { sparql: tally(), ask: tally(), health: tally(), canary: tally(), runaway: tally() };
function note(x: Tally, status: number | string, ms: number) {
  x.latencies.push(ms);
  x.statuses.set(status, (x.statuses.get(status) ?? 0) + 1);
}
async function timed(x: Tally, input: string, init?: RequestInit) {
  const s = performance.now();
  try {
    const r = await fetch(input, init);
    const body = await r.text();
    // A 503 is told apart by its code: stopped at the limit (timeout) or never started (busy).
    const code = r.status === 503 ? (/"error":"(\w[\w-]*)"/.exec(body)?.[1] ?? '') : '';
    note(x, code ? `${r.status} ${code}` : r.status, performance.now() - s);
  } catch {
    note(x, 0, performance.now() - s);
  }
}

const q = (text: string) => `${url}/sparql?query=${encodeURIComponent(text)}`;
const CHEAP = [
  q('SELECT ?p ?o WHERE { GRAPH <http://x/bulk> { <http://x/s42> ?p ?o } }'),
  q('ASK { GRAPH <http://x/bulk> { <http://x/s7> ?p ?o } }'),
  q('SELECT ?s WHERE { GRAPH <http://x/bulk> { ?s <http://x/p3> ?o } } LIMIT 20'),
  q('SELECT ?d WHERE { ?d a <http://www.w3.org/ns/dcat#Dataset> } LIMIT 10'),
];
const RUNAWAY = q('SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://x/bulk> { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } }');
const QUESTIONS = ["What was Apple's total revenue in 2023?", "What was Apple's profit in 2023?", 'Who funds Stanford?', 'What is the capital of France?'];

const rssBefore = await rssMb();
const until = Date.now() + SECONDS * 1000;
const loops: Promise<void>[] = [];
for (let c = 0; c < SPARQL; c++) loops.push((async () => { for (let i = c; Date.now() < until; i++) await timed(t.sparql, CHEAP[i % CHEAP.length]!, { headers: { 'x-forwarded-for': `10.0.0.${c + 1}` } }); })());
for (let c = 0; c < ASK; c++) loops.push((async () => { for (let i = c; Date.now() < until; i++) await timed(t.ask, `${url}/ask`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.1.${c + 1}` }, body: JSON.stringify({ question: QUESTIONS[i % QUESTIONS.length] }) }); })());
for (let c = 0; c < RUNAWAYS; c++) loops.push((async () => { while (Date.now() < until) await timed(t.runaway, RUNAWAY, { headers: { 'x-forwarded-for': `10.0.2.${c + 1}` } }); })());
loops.push((async () => {
  while (Date.now() < until) {
    await timed(t.health, `${url}/health`);
    await timed(t.canary, CHEAP[1]!, { headers: { 'x-forwarded-for': '10.0.3.1' } });
    await new Promise((r) => setTimeout(r, 250));
  }
})());
await Promise.all(loops);
const rssAfter = await rssMb();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
};
console.log(`\nsoak: ${SECONDS} s, ${SPARQL} /sparql clients, ${ASK} /ask clients, ${RUNAWAYS} runaway clients (limit ${TIMEOUT_MS} ms), canary every 250 ms; Node ${process.version}; ready after ${readyS.toFixed(1)} s`);
for (const [name, x] of Object.entries(t)) {
  const statuses = [...x.statuses].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map(([s, n]) => `${s}×${n}`).join(' ');
  if (x.latencies.length === 0) continue;
  console.log(`${name.padEnd(8)} ${String(x.latencies.length).padStart(6)} requests  p50 ${pct(x.latencies, 0.5).toFixed(1).padStart(8)} ms  p99 ${pct(x.latencies, 0.99).toFixed(1).padStart(8)} ms  max ${Math.max(...x.latencies).toFixed(0).padStart(6)} ms  statuses ${statuses}`);
}
console.log(`gateway RSS: ${rssBefore.toFixed(0)} MB before, ${rssAfter.toFixed(0)} MB after`);
console.log(`reproduce: npx tsx bench/soak.ts ${process.argv.slice(2).join(' ')}`);
child.kill('SIGTERM');
await new Promise((r) => child.on('exit', r));
