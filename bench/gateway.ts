/**
 * What a user of the running gateway waits for: a real `assay serve` child on loopback with the full
 * bundled catalog and replayed publishers.
 *   npx tsx bench/gateway.ts [--questions 20] [--clients 5] [--seconds 20] [--starts 1] [--no-ask]
 * Prints, for a first start (empty data directory: the catalog graph is built) and a second start
 * (reusing it): time to `listening`, to `ready` and to a first SPARQL 200; then POST /ask latency for
 * one cassette-backed keyed read asked again and again by one client (p50/p95, warm), the same
 * question from `--clients` concurrent clients for `--seconds` (requests/s, p50), and a refusal
 * ("What is the GDP of Mars?") apart from the answer. Rate limits are off: this measures capacity.
 * With --starts N, N pairs of starts (each in a fresh data directory) and their medians, with the
 * CPU seconds the gateway process (all its threads) had used and its RSS when it printed `ready`
 * (the machine is shared: CPU time says what the start costs, wall time what a user waits).
 * --no-ask skips the /ask part.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
}
const QUESTIONS = arg('questions', 20);
const CLIENTS = arg('clients', 5);
const SECONDS = arg('seconds', 20);
const STARTS = arg('starts', 1);
const NO_ASK = process.argv.includes('--no-ask');
const median = (xs: number[]) => pct(xs, 50);
const ANSWERED = "What was Apple's total revenue in 2023?";
const REFUSED = 'What is the GDP of Mars?';
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN; };

interface Started { child: ChildProcess; url: string; listeningS: number; readyS: number; sparqlS: number; cpuS: number; rssMB: number }

/** CPU seconds (user + system, every thread) and RSS of a process, from /proc. */
async function usage(pid: number): Promise<{ cpuS: number; rssMB: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return { cpuS: (Number(fields[11]) + Number(fields[12])) / 100, rssMB: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024 };
}
async function start(dir: string): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/assay.js', 'serve', '--port', '0', '--data', dir], {
    env: { ...process.env, ASSAY_RATE_ASK_PER_MINUTE: '0', ASSAY_RATE_SPARQL_PER_MINUTE: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<never>((_, reject) => child.on('exit', (c) => reject(new Error(`assay serve exited ${c}:\n${out}`))));
  const until = async (test: () => boolean) => { while (!test()) await Promise.race([new Promise((r) => setTimeout(r, 50)), exited]); };
  await until(() => /listening on (http:\/\/\S+)/.test(out));
  const listeningS = (performance.now() - t0) / 1000;
  const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
  let sparqlS = NaN;
  const firstSparql = (async () => {
    for (;;) {
      const r = await fetch(`${url}/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`, { headers: { accept: 'application/sparql-results+json' } }).catch(() => null);
      if (r?.status === 200) { sparqlS = (performance.now() - t0) / 1000; return; }
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  await until(() => /^ready$/m.test(out));
  const readyS = (performance.now() - t0) / 1000;
  const { cpuS, rssMB } = await usage(child.pid!);
  await firstSparql;
  return { child, url, listeningS, readyS, sparqlS, cpuS, rssMB };
}

async function askOnce(url: string, question: string): Promise<{ ms: number; status: string }> {
  const t0 = performance.now();
  const r = await fetch(`${url}/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question }) });
  const body = await r.json() as { status?: string };
  return { ms: performance.now() - t0, status: r.status === 200 ? body.status ?? '?' : `http ${r.status}` };
}

async function stop(s: Started): Promise<number> {
  const status = await readFile(`/proc/${s.child.pid}/status`, 'utf8').catch(() => '');
  const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  s.child.kill('SIGTERM');
  await new Promise((r) => s.child.once('exit', r));
  return rss;
}

const fmt = (s: Started[]) => `listening ${median(s.map((x) => x.listeningS)).toFixed(1)} s, ready ${median(s.map((x) => x.readyS)).toFixed(1)} s (CPU ${median(s.map((x) => x.cpuS)).toFixed(1)} s, RSS ${median(s.map((x) => x.rssMB)).toFixed(0)} MB), first SPARQL 200 ${median(s.map((x) => x.sparqlS)).toFixed(1)} s`;
console.log(`gateway benchmark (Node ${process.version}; ${STARTS} pair(s) of starts${STARTS > 1 ? ', medians' : ''})`);
const firsts: Started[] = [];
const seconds: Started[] = [];
let s: Started | undefined;
const dirs: string[] = [];
try {
  for (let i = 0; i < STARTS; i++) {
    const dir = await mkdtemp(join(tmpdir(), 'assay-bench-gateway-'));
    dirs.push(dir);
    const first = await start(dir);
    firsts.push(first);
    await stop(first);
    s = await start(dir);
    seconds.push(s);
    if (i < STARTS - 1) { await stop(s); s = undefined; }
  }
  console.log(`first start (builds the catalog graph): ${fmt(firsts)}`);
  console.log(`second start (reuses it):               ${fmt(seconds)}`);
  if (STARTS > 1) console.log(`  each first start: ready ${firsts.map((x) => x.readyS.toFixed(1)).join(', ')} s; CPU ${firsts.map((x) => x.cpuS.toFixed(1)).join(', ')} s`);
  if (STARTS > 1) console.log(`  each second start: ready ${seconds.map((x) => x.readyS.toFixed(1)).join(', ')} s; CPU ${seconds.map((x) => x.cpuS.toFixed(1)).join(', ')} s`);
  if (!NO_ASK) await askPart(s!);
  const rss = await stop(s!);
  s = undefined;
  console.log(`gateway RSS at the end: ${rss.toFixed(0)} MB (main process; worker threads included)`);
  console.log(`reproduce: npx tsx bench/gateway.ts --questions ${QUESTIONS} --clients ${CLIENTS} --seconds ${SECONDS} --starts ${STARTS}${NO_ASK ? ' --no-ask' : ''}`);
} finally {
  if (s) await stop(s);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}

async function askPart(s: Started): Promise<void> {
  for (const [label, question] of [['answered', ANSWERED], ['refused', REFUSED]] as const) {
    const first1 = await askOnce(s.url, question);
    const xs: number[] = [];
    const statuses = new Set<string>([first1.status]);
    for (let i = 0; i < QUESTIONS; i++) { const r = await askOnce(s.url, question); xs.push(r.ms); statuses.add(r.status); }
    console.log(`POST /ask, one client, ${label} (${[...statuses].join(', ')}): first ${first1.ms.toFixed(0)} ms; then ${QUESTIONS} times p50 ${pct(xs, 50).toFixed(0)} ms, p95 ${pct(xs, 95).toFixed(0)} ms`);
  }
  const lat: number[] = [];
  const statuses = new Map<string, number>();
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < end) {
      const r = await askOnce(s.url, ANSWERED);
      lat.push(r.ms);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
  }));
  console.log(`POST /ask, ${CLIENTS} clients × ${SECONDS} s, answered question: ${(lat.length / SECONDS).toFixed(1)} req/s, p50 ${pct(lat, 50).toFixed(0)} ms, p95 ${pct(lat, 95).toFixed(0)} ms (${[...statuses].map(([k, n]) => `${k} ×${n}`).join(', ')})`);
}
