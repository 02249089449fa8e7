/**
 * What a user of the running gateway waits for: a real `assay serve` child on loopback with the full
 * bundled catalog and replayed publishers.
 *   npx tsx bench/gateway.ts [--questions 20] [--clients 5] [--seconds 20] [--starts 1] [--no-ask] [--ask-workers N] [--baseline DIR]
 * For each checkout measured (this one, and with --baseline DIR another built one, e.g. main exported
 * with `git archive` and built with `npm run build`), interleaved pair by pair (ABBA: this, baseline;
 * baseline, this; …) so that both see the same machine:
 * - a first start (empty data directory: the catalog graph is built) and a second start (reusing it):
 *   time to `listening`, to `ready`, to each readiness condition /ready names (catalog, query workers,
 *   ask workers) and to a first SPARQL 200, the CPU seconds the gateway process (all its threads) had
 *   used and its RSS when it printed `ready` (the machine is shared: CPU time says what a start costs,
 *   wall time what a user waits). With --starts N, N pairs (each in a fresh data directory), medians.
 * - the first question right after each start's `ready` (the keyed read below), apart from the rest.
 * - POST /ask, warm, on the last pair's second start: one cassette-backed keyed read ("What was Apple's
 *   total revenue in 2023?") asked `--questions` times by one client (p50/p95), and a refusal ("What is
 *   the GDP of Mars?") apart from it, since a refusal is cheap and a mixed median hides what an answer
 *   costs; then the keyed read from 1 and from `--clients` concurrent clients for `--seconds` each:
 *   requests/s (answered ones counted apart from anything else), p50/p95.
 * Rate limits are off: this measures capacity. --no-ask skips the questions; --ask-workers N starts
 * N ask worker threads (ASSAY_ASK_WORKERS; default one per two cores, src/config.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
}
const QUESTIONS = arg('questions', 20);
const CLIENTS = arg('clients', 5);
const SECONDS = arg('seconds', 20);
const STARTS = arg('starts', 1);
const NO_ASK = process.argv.includes('--no-ask');
/** Ask worker threads (ASSAY_ASK_WORKERS; 0 leaves the gateway's default). */
const ASK_WORKERS = arg('ask-workers', 0);
const baselineAt = process.argv.indexOf('--baseline');
const BASELINE = baselineAt === -1 ? undefined : resolve(process.argv[baselineAt + 1]!);
const median = (xs: number[]) => pct(xs, 50);
const ANSWERED = "What was Apple's total revenue in 2023?";
const REFUSED = 'What is the GDP of Mars?';
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN; };

interface Started { child: ChildProcess; url: string; listeningS: number; readyS: number; sparqlS: number; cpuS: number; rssMB: number; phases: Record<string, number> }

/** CPU seconds (user + system, every thread) and RSS of a process, from /proc. */
async function usage(pid: number): Promise<{ cpuS: number; rssMB: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return { cpuS: (Number(fields[11]) + Number(fields[12])) / 100, rssMB: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024 };
}
async function start(root: string, dir: string): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin/assay.js'), 'serve', '--port', '0', '--data', dir], {
    cwd: root,
    env: { ...process.env, ASSAY_RATE_ASK_PER_MINUTE: '0', ASSAY_RATE_SPARQL_PER_MINUTE: '0', ...(ASK_WORKERS > 0 ? { ASSAY_ASK_WORKERS: String(ASK_WORKERS) } : {}) },
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
  // When each readiness condition cleared: /ready lists those still waiting (polled every 50 ms).
  const phases: Record<string, number> = {};
  const seen = new Set<string>();
  let polling = true;
  const phasePoll = (async () => {
    while (polling) {
      const r = await fetch(`${url}/ready`).then((x) => x.json() as Promise<{ waiting?: string[] }>).catch(() => null);
      const waiting = r?.waiting ?? [];
      const at = (performance.now() - t0) / 1000;
      for (const w of waiting) seen.add(w);
      for (const w of seen) if (!waiting.includes(w) && phases[w] === undefined && r) phases[w] = at;
      await new Promise((res) => setTimeout(res, 50));
    }
  })();
  await until(() => /^ready$/m.test(out));
  const readyS = (performance.now() - t0) / 1000;
  polling = false;
  await phasePoll;
  for (const w of seen) phases[w] ??= readyS;
  const { cpuS, rssMB } = await usage(child.pid!);
  await firstSparql;
  return { child, url, listeningS, readyS, sparqlS, cpuS, rssMB, phases };
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

interface Load { clients: number; reqS: number; answeredS: number; p50: number; p95: number; statuses: string }
interface Figures {
  label: string;
  firsts: Started[];
  seconds: Started[];
  warm?: { label: string; statuses: string; first: number; p50: number; p95: number }[];
  /** The first question after each first start, and after each second start (ms). */
  firstAsks: number[];
  secondAsks: number[];
  loads?: Load[];
  rssEndMB?: number;
}

async function load(url: string, clients: number): Promise<Load> {
  const lat: number[] = [];
  const statuses = new Map<string, number>();
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      const r = await askOnce(url, ANSWERED);
      lat.push(r.ms);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
  }));
  const s = (performance.now() - t0) / 1000;
  return { clients, reqS: lat.length / s, answeredS: (statuses.get('answered') ?? 0) / s, p50: pct(lat, 50), p95: pct(lat, 95), statuses: [...statuses].map(([k, n]) => `${k} ×${n}`).join(', ') };
}

/** One pair of starts of a checkout in a fresh data directory, each followed by one question; with `suite`, the /ask figures on the second. */
async function pair(f: Figures, root: string, dirs: string[], suite: boolean): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'assay-bench-gateway-'));
  dirs.push(dir);
  let s: Started | undefined = await start(root, dir);
  try {
    f.firsts.push(s);
    // The first question after each start (what a user right after `ready` waits for).
    if (!NO_ASK) f.firstAsks.push((await askOnce(s.url, ANSWERED)).ms);
    await stop(s);
    s = await start(root, dir);
    f.seconds.push(s);
    if (!NO_ASK) f.secondAsks.push((await askOnce(s.url, ANSWERED)).ms);
    if (suite && !NO_ASK) {
      f.warm = [];
      for (const [what, question] of [['answered', ANSWERED], ['refused', REFUSED]] as const) {
        const first1 = await askOnce(s.url, question);
        const xs: number[] = [];
        const statuses = new Set<string>([first1.status]);
        for (let i = 0; i < QUESTIONS; i++) { const r = await askOnce(s.url, question); xs.push(r.ms); statuses.add(r.status); }
        f.warm.push({ label: what, statuses: [...statuses].join(', '), first: first1.ms, p50: pct(xs, 50), p95: pct(xs, 95) });
      }
      f.loads = [await load(s.url, 1), await load(s.url, CLIENTS)];
    }
    f.rssEndMB = await stop(s);
    s = undefined;
  } finally {
    if (s) await stop(s);
  }
}

const fmt = (s: Started[]) => `listening ${median(s.map((x) => x.listeningS)).toFixed(1)} s, ready ${median(s.map((x) => x.readyS)).toFixed(1)} s (CPU ${median(s.map((x) => x.cpuS)).toFixed(1)} s, RSS ${median(s.map((x) => x.rssMB)).toFixed(0)} MB), first SPARQL 200 ${median(s.map((x) => x.sparqlS)).toFixed(1)} s`;
function report(f: Figures): void {
  console.log(`\n[${f.label}]`);
  console.log(`first start (builds the catalog graph): ${fmt(f.firsts)}`);
  console.log(`second start (reuses it):               ${fmt(f.seconds)}`);
  if (STARTS > 1) console.log(`  each first start: ready ${f.firsts.map((x) => x.readyS.toFixed(1)).join(', ')} s; CPU ${f.firsts.map((x) => x.cpuS.toFixed(1)).join(', ')} s`);
  if (STARTS > 1) console.log(`  each second start: ready ${f.seconds.map((x) => x.readyS.toFixed(1)).join(', ')} s; CPU ${f.seconds.map((x) => x.cpuS.toFixed(1)).join(', ')} s`);
  const phases = (xs: Started[]) => [...new Set(xs.flatMap((x) => Object.keys(x.phases)))].map((k) => `${k} ${median(xs.map((x) => x.phases[k] ?? NaN)).toFixed(1)} s`).join(', ');
  console.log(`  readiness conditions met at (medians): first start: ${phases(f.firsts)}; second start: ${phases(f.seconds)}`);
  if (f.firstAsks.length) console.log(`first question right after ready (answered keyed read): after a first start ${median(f.firstAsks).toFixed(0)} ms (each ${f.firstAsks.map((x) => x.toFixed(0)).join(', ')}); after a second start ${median(f.secondAsks).toFixed(0)} ms (each ${f.secondAsks.map((x) => x.toFixed(0)).join(', ')})`);
  for (const w of f.warm ?? []) console.log(`POST /ask, one client, ${w.label} (${w.statuses}): first ${w.first.toFixed(0)} ms; then ${QUESTIONS} times p50 ${w.p50.toFixed(0)} ms, p95 ${w.p95.toFixed(0)} ms`);
  for (const l of f.loads ?? []) console.log(`POST /ask, ${l.clients} client(s) × ${SECONDS} s, the keyed read: ${l.reqS.toFixed(1)} req/s (answered ${l.answeredS.toFixed(1)}/s), p50 ${l.p50.toFixed(0)} ms, p95 ${l.p95.toFixed(0)} ms (${l.statuses})`);
  if (f.rssEndMB !== undefined) console.log(`gateway RSS at the end: ${f.rssEndMB.toFixed(0)} MB (main process; worker threads included)`);
}

console.log(`gateway benchmark (Node ${process.version}; ${STARTS} pair(s) of starts${STARTS > 1 ? ', medians' : ''}${BASELINE ? `; baseline ${BASELINE}, interleaved pair by pair (ABBA)` : ''})`);
const after: Figures = { label: 'this checkout', firsts: [], seconds: [], firstAsks: [], secondAsks: [] };
const before: Figures = { label: `baseline ${BASELINE}`, firsts: [], seconds: [], firstAsks: [], secondAsks: [] };
const dirs: string[] = [];
try {
  for (let i = 0; i < STARTS; i++) {
    const order: [Figures, string][] = [[after, process.cwd()], ...(BASELINE ? [[before, BASELINE] as [Figures, string]] : [])];
    if (i % 2 === 1) order.reverse();
    for (const [f, root] of order) {
      await pair(f, root, dirs, i === STARTS - 1);
      console.log(`  pair ${i + 1}, ${f.label}: first start ready ${f.firsts.at(-1)!.readyS.toFixed(1)} s (CPU ${f.firsts.at(-1)!.cpuS.toFixed(1)} s), second ${f.seconds.at(-1)!.readyS.toFixed(1)} s (CPU ${f.seconds.at(-1)!.cpuS.toFixed(1)} s); load average ${loadavg()[0]!.toFixed(1)}`);
    }
  }
} finally {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}
report(after);
if (BASELINE) {
  report(before);
  const r = (a: number, b: number) => (a / b).toFixed(2);
  const m = (s: Started[], k: 'readyS' | 'cpuS' | 'rssMB') => median(s.map((x) => x[k]));
  console.log('\nafter/before (same run):');
  console.log(`  first start: ready ${r(m(after.firsts, 'readyS'), m(before.firsts, 'readyS'))}, CPU ${r(m(after.firsts, 'cpuS'), m(before.firsts, 'cpuS'))}, RSS ${r(m(after.firsts, 'rssMB'), m(before.firsts, 'rssMB'))}`);
  console.log(`  second start: ready ${r(m(after.seconds, 'readyS'), m(before.seconds, 'readyS'))}, CPU ${r(m(after.seconds, 'cpuS'), m(before.seconds, 'cpuS'))}, RSS ${r(m(after.seconds, 'rssMB'), m(before.seconds, 'rssMB'))}`);
  if (after.firstAsks.length && before.firstAsks.length) console.log(`  first question after a first start: ${r(median(after.firstAsks), median(before.firstAsks))}; after a second start: ${r(median(after.secondAsks), median(before.secondAsks))}`);
  if (after.warm && before.warm) console.log(`  /ask one client, answered p50: ${r(after.warm[0]!.p50, before.warm[0]!.p50)}; refused p50: ${r(after.warm[1]!.p50, before.warm[1]!.p50)}`);
  if (after.loads && before.loads) for (let i = 0; i < after.loads.length; i++) console.log(`  /ask ${after.loads[i]!.clients} client(s): req/s ×${(after.loads[i]!.reqS / before.loads[i]!.reqS).toFixed(1)}, p50 ${r(after.loads[i]!.p50, before.loads[i]!.p50)}`);
}
console.log(`reproduce: npx tsx bench/gateway.ts --questions ${QUESTIONS} --clients ${CLIENTS} --seconds ${SECONDS} --starts ${STARTS}${NO_ASK ? ' --no-ask' : ''}${ASK_WORKERS > 0 ? ` --ask-workers ${ASK_WORKERS}` : ''}${BASELINE ? ` --baseline ${BASELINE}` : ''}`);
