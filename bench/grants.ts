/**
 * The grant graph at scale, on a SYNTHETIC graph (src/grants/synthetic.ts; no edge is a real grant).
 *
 *   npx tsx bench/grants.ts --store virtuoso [--edges 7800000] [--runs 15] [--keep DIR [--keep-files]] [--ports HTTP,SQL]
 *   npx tsx bench/grants.ts --store virtuoso --edges N --reuse DIR   (a graph an earlier --keep DIR run loaded)
 *   npx tsx bench/grants.ts --store embedded [--edges 200000] [--runs 15]
 *   --port N: the private Virtuoso listens on N (HTTP) and N+1 (SQL) instead of any free pair
 *   --quick: without the every-funder row (seconds a run at the reference size)
 *
 * virtuoso: starts a private Virtuoso with .ci/virtuoso.sh (own directory and ports), writes the
 * generated N-Triples to files there and loads them with Virtuoso's bulk loader, then queries it
 * over the SPARQL protocol — the graph is external, so Assay's RSS is the client's.
 * embedded: the in-memory oxigraph store (bounded near 13 M triples: about 1.6 M edges at most in layout 3 or 4, computed from 8.26 triples an edge; layout 4 adds no triple to a SYNTHETIC graph, whose names are neither units nor placeholders).
 *
 * Prints, beside the naive forms of the same questions on the same store in the same run: load
 * time and throughput, store size, Assay's RSS, reverse traversal p50 for a typical and for the
 * hottest recipient, intersection of the two largest funders, top-20 funders, a state total and
 * the state ranking (rollups; the naive state total groups the edges by their filed address); medians of `runs`
 * after one warm-up. The reverse rows time the answer as the ask path reads it (traverse(): name
 * resolution, coverage, the recipient rollups' total and funder count, the largest 10 funders and
 * their names), then the top-10 query alone and the former every-funder form: Virtuoso serializes
 * SPARQL JSON results at roughly 0.4 ms a row, so reading every funder of a hot recipient costs
 * seconds the answer never shows. Goals: reverse ≤ 20 ms typical, ≤ 250 ms hottest, top-20 ≤ 1 s, RSS ≤ 1 GB.
 * A benchmark, not a test: it never fails on a slow machine, it reports.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, stat, writeFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RdfStore } from '../src/rdf/store.ts';
import { endpointGrantStore, memoryGrantStore, type GrantStore } from '../src/grants/store.ts';
import { REFERENCE_EDGES, syntheticChunks, syntheticFunder, syntheticRecipient, syntheticShape } from '../src/grants/synthetic.ts';
import * as Q from '../src/grants/queries.ts';
import { G, GRANT_LAYOUT } from '../src/grants/vocab.ts';
import { readLayout } from '../src/grants/layout.ts';
import { traverse } from '../src/grants/traverse.ts';

const run = promisify(execFile);
const args = process.argv.slice(2);
const opt = (name: string, dflt?: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const backend = opt('store', 'embedded') as 'embedded' | 'virtuoso';
const edges = Number(opt('edges', backend === 'virtuoso' ? String(REFERENCE_EDGES) : '200000'));
const runs = Number(opt('runs', '15'));
const reuse = opt('reuse');
const keep = opt('keep') ?? reuse;
/** --keep-files: leave the generated N-Triples in the --keep directory for the next fresh load. */
const keepFiles = args.includes('--keep-files');
const base = 'http://bench.assay.test/';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
const command = `npx tsx bench/grants.ts ${args.join(' ') || '--store embedded'}`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); s.on('error', reject); });
}

/** What a --keep run generated, so a later fresh load of the same size can skip generation. */
interface Manifest { edges: number; triples: number; files: Array<{ path: string; graph: string }> }

interface Loaded { store: GrantStore; loadSeconds: number; triples: number; sizeBytes: number | null; stop: () => Promise<void> }

async function loadEmbedded(): Promise<Loaded> {
  const rdf = new RdfStore();
  const t = performance.now();
  let triples = 0;
  for (const c of syntheticChunks({ edges, base })) rdf.load(c.text, { format: 'application/n-triples', graph: c.graph, lenient: true });
  triples = rdf.size;
  const loadSeconds = (performance.now() - t) / 1000;
  return { store: memoryGrantStore(rdf), loadSeconds, triples, sizeBytes: null, stop: async () => {} };
}

async function loadVirtuoso(): Promise<Loaded> {
  const script = new URL('../.ci/virtuoso.sh', import.meta.url).pathname;
  if (!existsSync(script)) throw new Error('bench/grants.ts --store virtuoso needs .ci/virtuoso.sh (the scale-out store half of issue 15); run --store embedded meanwhile');
  const dir = keep ?? await mkdtemp(join(tmpdir(), 'assay-grants-bench-'));
  await mkdir(dir, { recursive: true });
  // files an earlier --keep run generated for the same edge count (generation takes minutes at the
  // reference size and is not load time); a fresh load starts from an empty database
  const manifestPath = join(dir, 'generated.json');
  const manifest = !reuse && existsSync(manifestPath) ? JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest : null;
  const generated = manifest && manifest.edges === edges && manifest.files.every((f) => existsSync(f.path)) ? manifest : null;
  if (!reuse) for (const f of await readdir(dir)) if (/^virtuoso.*\.(db|trx|lck|pxa)$/.test(f)) await rm(join(dir, f), { force: true });
  // --ports HTTP,SQL or --port N (HTTP on N, SQL on N+1): fixed ports (a shared machine gives each agent its own range); else free ones
  const ports = opt('ports')?.split(',').map(Number);
  const fixedPort = opt('port');
  const http = ports?.[0] ?? (fixedPort ? Number(fixedPort) : await freePort());
  const sql = ports?.[1] ?? (fixedPort ? Number(fixedPort) + 1 : await freePort());
  // Buffers for the graph's size (about 1 GB per 10 M triples, at most 4 GB); the suite's default is 160 MB.
  const buffers = Math.min(500_000, Math.max(20_000, Math.round(edges * 17 / 80)));  // sized for layout 1's ~17 triples an edge: room to spare for layout 2
  const started = await run(script, ['start', dir, String(http), String(sql)], { timeout: 600_000, env: { ...process.env, ASSAY_VIRTUOSO_BUFFERS: String(buffers) } });
  const url = /ASSAY_TEST_VIRTUOSO=(\S+)/.exec(started.stdout)?.[1];
  if (!url) throw new Error(`.ci/virtuoso.sh start printed no ASSAY_TEST_VIRTUOSO: ${started.stdout} ${started.stderr}`);
  const origin = new URL(url).origin;
  const stop = async () => { await run(script, ['stop', dir], { timeout: 120_000 }).catch(() => {}); if (!keep) await rm(dir, { recursive: true, force: true }); };
  const sizeOf = async () => { let n = 0; for (const f of await readdir(dir)) if (/^virtuoso.*\.db$/.test(f)) n += (await stat(join(dir, f))).size; return n; };
  if (reuse) {
    // the graph an earlier --keep run loaded: no generation, no load (the load figures are that run's)
    // (not counted here: a COUNT over a graph this size outlasts Virtuoso's query time limit on a loaded machine)
    const store = endpointGrantStore(`${origin}/sparql`);
    return { store, loadSeconds: Number.NaN, triples: Number.NaN, sizeBytes: await sizeOf(), stop };
  }
  try {
    // generate into one file per graph (bulk loader input), then load each with ld_dir + rdf_loader_run
    let files: Manifest['files'];
    let triples: number;
    if (generated) {
      ({ files, triples } = generated);
      process.stdout.write(`generated files of an earlier run: ${triples.toLocaleString('en-US')} triples (${manifestPath})\n`);
    } else {
      const byGraph = new Map<string, Manifest['files'][number]>();
      triples = 0;
      const genStart = performance.now();
      for (const c of syntheticChunks({ edges, base })) {
        let f = byGraph.get(c.graph);
        if (!f) { f = { path: join(dir, `synthetic-${byGraph.size}.nt`), graph: c.graph }; byGraph.set(c.graph, f); await writeFile(f.path, ''); }
        await writeFile(f.path, c.text, { flag: 'a' });
        triples += c.text.split('\n').length - 1;
      }
      files = [...byGraph.values()];
      await writeFile(manifestPath, JSON.stringify({ edges, triples, files } satisfies Manifest, null, 1));
      const genSeconds = (performance.now() - genStart) / 1000;
      process.stdout.write(`generated ${triples.toLocaleString('en-US')} triples in ${genSeconds.toFixed(0)} s (not counted as load time)\n`);
    }
    const t = performance.now();
    for (const f of files) await run(script, ['bulk-load', dir, f.path, f.graph], { timeout: 7_200_000 });
    const loadSeconds = (performance.now() - t) / 1000;
    if (!keepFiles) { for (const f of files) await rm(f.path, { force: true }); await rm(manifestPath, { force: true }); }
    let sizeBytes = 0;
    for (const n of await readdir(dir)) if (/^virtuoso.*\.db$/.test(n)) sizeBytes += (await stat(join(dir, n))).size;
    return { store: endpointGrantStore(`${origin}/sparql`), loadSeconds, triples, sizeBytes, stop };
  } catch (e) {
    // keep the directory (its virtuoso.log and bulk-load.log say why); the server is stopped
    await run(script, ['stop', dir], { timeout: 120_000 }).catch(() => {});
    process.stderr.write(`the Virtuoso run failed; its directory is kept for the logs: ${dir}\n`);
    throw e;
  }
}

/** A query's text (one SELECT), or a whole traversal as the ask path runs it (its row count). */
type Work = string | (() => Promise<number>);

async function timeIt(store: GrantStore, work: Work): Promise<{ p50: number; rows: number }> {
  const once = typeof work === 'string' ? async () => (await store.select(work)).length : work;
  let rows = await once(); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) { const t = performance.now(); rows = await once(); xs.push(performance.now() - t); }
  return { p50: median(xs), rows };
}

/** The machine's load average (1, 5, 15 min): figures from a shared machine are read with it. */
const loadAverage = () => readFile('/proc/loadavg', 'utf8').then((t) => t.split(' ').slice(0, 3).join(' '), () => 'n/a');

const shape = syntheticShape({ edges, base });
process.stdout.write(`SYNTHETIC grant graph (benchmark only): ${shape.edges.toLocaleString('en-US')} edges, ${shape.funders.toLocaleString('en-US')} funders, ${shape.recipients.toLocaleString('en-US')} recipients; hottest recipient ${shape.hottest.toLocaleString('en-US')} funders, typical (median) ${shape.typical.degree}; degree exponent ${shape.exponent.toFixed(3)}\n`);
const loaded = backend === 'virtuoso' ? await loadVirtuoso() : await loadEmbedded();
try {
  const iris = shape.iris;
  // a graph an earlier build generated (--reuse) in another layout is not read as this one: every
  // traversal would be refused; a SYNTHETIC graph is generated, not ingested, so it is generated again
  const { layout } = await readLayout(loaded.store, iris);
  if (layout !== GRANT_LAYOUT) throw new Error(`the SYNTHETIC graph${reuse ? ` in --reuse ${reuse}` : ''} is in layout ${layout ?? 1}; this build reads layout ${GRANT_LAYOUT}: run without --reuse to generate and load it again`);
  const loadBefore = await loadAverage();
  const hot = syntheticRecipient(iris, 1);
  const typical = syntheticRecipient(iris, shape.typical.rank);
  const [f0, f1] = [syntheticFunder(iris, 0), syntheticFunder(iris, 1)];
  const rows: Array<[string, string, string, string]> = [];
  const pair = async (label: string, fast: Work, slow: Work, goal: string) => {
    const a = await timeIt(loaded.store, fast);
    const b = await timeIt(loaded.store, slow);
    rows.push([label, `${ms(a.p50)} (${a.rows} rows)`, `${ms(b.p50)} (${b.rows} rows)`, goal]);
  };
  // the ask path's reverse answer: traverse() as src/grants/execute.ts calls it (name resolution,
  // coverage, the recipient rollups' total and funder count, the largest 10 funders and their names)
  const SHOWN = 10;
  const answer = (k: number, readAhead = true) => async () => {
    const r = await traverse({ store: loaded.store, iris, readAhead }, { direction: 'reverse', recipient: `SYNTHETIC RECIPIENT ${k}`, limit: SHOWN });
    if (!r.ok || r.result.kind !== 'reverse') throw new Error(`reverse traversal of recipient ${k} failed: ${JSON.stringify(r.ok ? r.result.kind : r.failure)}`);
    return r.result.funders.length;
  };
  await pair('reverse, typical: the answer (top 10)', answer(shape.typical.rank), Q.naive.reverse(iris, typical), '≤ 20 ms');
  // the bench repeats one question, and an engine may keep a compiled query by its text: each run
  // here asks of another recipient of the typical degree (ranks next to the median's), as users do
  let next = 0;
  const another = (readAhead = true) => () => answer(shape.typical.rank + 1 + (next++ % 997), readAhead)();
  let nextNaive = 0;
  const anotherNaive = async () => (await loaded.store.select(Q.naive.reverse(iris, syntheticRecipient(iris, shape.typical.rank + 1 + (nextNaive++ % 997))))).length;
  await pair('reverse, typical: another each run', another(), anotherNaive, '≤ 20 ms');
  await pair('reverse, hottest: the answer (top 10)', answer(1), Q.naive.reverse(iris, hot), '≤ 250 ms');
  // the same answer with its reads sent only after the name resolution (two rounds, as before read-ahead)
  await pair('reverse, typical: read ahead / after', answer(shape.typical.rank), answer(shape.typical.rank, false), '—');
  await pair('reverse, hottest: top-10 query only', Q.reverseFunders(iris, [hot], { status: G.Paid, top: SHOWN }), `${Q.naive.reverse(iris, hot)} LIMIT ${SHOWN + 1}`, '—');
  // --quick leaves out the every-funder form (seconds a run at the reference size; the answer never reads it)
  if (!args.includes('--quick')) await pair('reverse, hottest: every funder', Q.reverseFunders(iris, [hot]), Q.naive.reverse(iris, hot), '—');
  await pair('intersection, two largest funders', Q.intersection(iris, [f0], [f1]), Q.naive.intersection(iris, f0, f1), '—');
  await pair('top-20 funders', Q.ranking(iris, 'funder', G.Paid, 20), Q.naive.topFunders(iris, 20), '≤ 1 s');
  // a state total as the geographic reading reads it (the state rollup; each grant in its own filed state)
  const stateAnswer = async () => {
    const r = await traverse({ store: loaded.store, iris }, { direction: 'geographic', state: 'OH' });
    if (!r.ok || r.result.kind !== 'geographic') throw new Error(`the state total failed: ${JSON.stringify(r.ok ? r.result.kind : r.failure)}`);
    return 1;
  };
  await pair('state total, OH: the answer', stateAnswer, Q.naive.stateTotal(iris, 'OH'), '—');
  await pair('states ranked: the answer', async () => {
    const r = await traverse({ store: loaded.store, iris }, { direction: 'ranking', subject: 'state', limit: 10 });
    if (!r.ok || r.result.kind !== 'ranking') throw new Error('the state ranking failed');
    return r.result.stateRows?.length ?? 0;
  }, Q.ranking(iris, 'state', G.Paid, 10), '—');
  const rss = process.memoryUsage().rss;
  const out: string[] = [];
  out.push(`store: ${backend === 'virtuoso' ? `Virtuoso (${loaded.store.label})` : 'embedded oxigraph (in memory)'}`);
  out.push(Number.isNaN(loaded.loadSeconds)
    ? `load: the graph an earlier run loaded (--reuse ${reuse}); see that run for triples and load time`
    : `load: ${loaded.triples.toLocaleString('en-US')} triples in ${loaded.loadSeconds.toFixed(1)} s = ${Math.round(loaded.triples / loaded.loadSeconds).toLocaleString('en-US')} triples/s; ${(loaded.triples / shape.edges).toFixed(2)} triples per edge (edges, organizations, filings and rollups)`);
  out.push(`load average while measuring: ${loadBefore} at the start, ${await loadAverage()} at the end`);
  out.push(`store size: ${loaded.sizeBytes !== null ? mb(loaded.sizeBytes) + ' of database files' : 'in memory (not measured)'}`);
  out.push(`Assay RSS: ${mb(rss)} (goal ≤ 1 GB${backend === 'embedded' ? '; includes the embedded store itself' : ', with the graph external'})`);
  out.push('', `${`p50 of ${runs} runs`.padEnd(40)} ${'fast form (Assay)'.padEnd(24)} ${'naive form'.padEnd(24)} goal`);
  for (const [l, a, b, g] of rows) out.push(`${l.padEnd(40)} ${a.padEnd(24)} ${b.padEnd(24)} ${g}`);
  out.push('', `reproduce: ${command}`);
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  await loaded.stop();
}
