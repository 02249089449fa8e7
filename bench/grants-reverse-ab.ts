/**
 * The reverse answer (`traverse()`, as the ask path calls it) of this checkout against another's,
 * interleaved in one process over one running store: typical recipient (the same one each run, and
 * another of the typical degree each run) and the hottest, p50 with the client's CPU and — given
 * the engine's pid — the engine's CPU per answer (from /proc/<pid>/task/<tid>/schedstat).
 *
 *   nice -n 10 npx tsx bench/grants-reverse-ab.ts --baseline DIR --url http://127.0.0.1:PORT/sparql [--edges 1000000] [--runs 21] [--pid VIRTUOSO_PID]
 *
 * DIR: a checkout of the other commit (`git archive <commit> | tar -x -C DIR`, node_modules linked);
 * the store: a SYNTHETIC graph bench/grants.ts loaded (`--keep`), started with .ci/virtuoso.sh.
 * A benchmark, not a test: it reports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as mine from '../src/grants/traverse.ts';
import { endpointGrantStore } from '../src/grants/store.ts';
import { syntheticShape } from '../src/grants/synthetic.ts';

const args = process.argv.slice(2);
const opt = (name: string, dflt?: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const baseline = opt('baseline');
const url = opt('url');
if (!baseline || !url) throw new Error('usage: bench/grants-reverse-ab.ts --baseline DIR --url QUERY_URL [--edges N] [--runs N] [--pid PID]');
const edges = Number(opt('edges', '1000000'));
const runs = Number(opt('runs', '21'));
const pid = opt('pid');
const theirs = await import(join(baseline, 'src/grants/traverse.ts')) as typeof mine;
const theirStore = await import(join(baseline, 'src/grants/store.ts')) as { endpointGrantStore: (u: string) => Parameters<typeof mine.traverse>[0]['store'] };
const engineMs = () => {
  if (!pid) return 0;
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) { try { ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]); } catch { /* a thread that ended */ } }
  return ns / 1e6;
};
const shape = syntheticShape({ edges, base: 'http://bench.assay.test/' });
const iris = shape.iris;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ours = endpointGrantStore(url);
const impl = { baseline: { traverse: theirs.traverse, store: theirStore.endpointGrantStore(url) }, this: { traverse: mine.traverse, store: ours } };
const cases: Array<[string, (i: number) => number]> = [
  ['typical (same recipient)', () => shape.typical.rank],
  ['typical (another each run)', (i) => shape.typical.rank + 1 + ((i + 5) * 13) % 4000],
  ['hottest', () => 1],
];
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const out: string[] = [];
for (const [label, rec] of cases) {
  const xs: Record<string, number[]> = {}; const client: Record<string, number> = {}; const engine: Record<string, number> = {};
  for (let i = -2; i < runs; i++) {
    for (const [name, x] of (i % 2 ? Object.entries(impl) : Object.entries(impl).reverse())) {
      // each side asks of its own recipients, so neither reuses a query text the other sent
      const k = rec(i) + (name === 'baseline' && label.includes('another') ? 5000 : 0);
      const e0 = engineMs(); const c0 = process.cpuUsage(); const t0 = performance.now();
      const r = await x.traverse({ store: x.store, iris }, { direction: 'reverse', recipient: `SYNTHETIC RECIPIENT ${k}`, limit: 10 });
      const t = performance.now() - t0; const c = process.cpuUsage(c0); const e = engineMs() - e0;
      if (!r.ok) throw new Error(`recipient ${k}: ${JSON.stringify(r.failure)}`);
      if (i >= 0) { (xs[name] ??= []).push(t); client[name] = (client[name] ?? 0) + (c.user + c.system) / 1000; engine[name] = (engine[name] ?? 0) + e; }
    }
  }
  const line = (n: string) => `${n} p50 ${median(xs[n]!).toFixed(1)} ms (client CPU ${(client[n]! / runs).toFixed(1)}${pid ? `, engine CPU ${(engine[n]! / runs).toFixed(1)}` : ''} ms)`;
  out.push(`${label.padEnd(28)} ${line('baseline')} | ${line('this')} | ratio ${(median(xs.this!) / median(xs.baseline!)).toFixed(2)}`);
}
ours.close();
out.push(`load average ${load} at the start; p50 of ${runs}, interleaved`, `reproduce: npx tsx bench/grants-reverse-ab.ts ${args.join(' ')}`);
process.stdout.write(`${out.join('\n')}\n`);
