/**
 * What a user waits for at the command line: whole-process wall time, CPU time and peak RSS of
 * `assay` commands, beside `node -e 0` on the same machine in the same run (the floor).
 *   npx tsx bench/cli.ts [runs=5] [--baseline <checkout>]
 * Each command runs `runs` times through /usr/bin/time (GNU time: wall, user+sys, max RSS); medians
 * are printed with the ratio to `node -e 0`. `assay` runs as a user runs it (bin/assay.js: the
 * compiled dist/ when it matches the sources, else the TypeScript through tsx — the line says which),
 * with a fresh data directory for `ask` so a store grown by earlier runs does not count.
 * With `--baseline <checkout>` (another built checkout, e.g. main exported with `git archive`), each
 * assay command also runs from there, interleaved run by run, and the line gives after/before ratios
 * of the medians from the same run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--baseline');
const baseline = at >= 0 ? args.splice(at, 2)[1] : undefined;
const runs = Number(args[0] ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
if (!existsSync('/usr/bin/time')) throw new Error('bench/cli.ts needs GNU time at /usr/bin/time (Debian package "time")');

interface Sample { wall: number; cpu: number; rssMb: number; code: number }
function measure(argv: string[], env: NodeJS.ProcessEnv = {}): Sample {
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-cli-'));
  const out = join(dir, 'time.txt');
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', out, ...argv], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'ignore'] });
  const [wall, user, sys, rss] = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  rmSync(dir, { recursive: true, force: true });
  return { wall: wall!, cpu: user! + sys!, rssMb: rss! / 1024, code: r.status ?? -1 };
}

const distFresh = spawnSync(process.execPath, ['--input-type=module', '-e', "import { distIsFresh } from './scripts/freshness.mjs'; console.log(distIsFresh(process.cwd()))"], { encoding: 'utf8' }).stdout.trim() === 'true';
const cases: Array<{ label: string; argv: string[]; data?: boolean }> = [
  { label: 'node -e 0', argv: [process.execPath, '-e', '0'] },
  { label: 'assay --help', argv: [process.execPath, 'bin/assay.js', '--help'] },
  { label: 'assay understand "…"', argv: [process.execPath, 'bin/assay.js', 'understand', "What was Apple's total revenue in 2023?"] },
  { label: 'assay ask "…" (offline)', argv: [process.execPath, 'bin/assay.js', 'ask', "What was Apple's total revenue in 2023?"], data: true },
];

const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`CLI benchmark (Node ${process.version}; load average ${load()} at the start; assay runs ${distFresh ? 'compiled dist/' : 'TypeScript through tsx (dist/ missing or stale: run npm run build)'}; ${runs} runs each, medians${baseline ? `; baseline ${baseline}` : ''})`);
console.log(`command                        wall s   ×node   cpu s   peak RSS MB   exit${baseline ? '   | baseline wall s  cpu s  RSS MB   after/before wall  cpu  RSS' : ''}`);
let floor = 0;
const runOf = (argv: string[], data: boolean): Sample => {
  const dir = data ? mkdtempSync(join(tmpdir(), 'assay-bench-data-')) : undefined;
  const s = measure(argv, dir ? { ASSAY_DATA_DIR: dir } : {});
  if (dir) rmSync(dir, { recursive: true, force: true });
  return s;
};
const med = (xs: Sample[], k: keyof Sample) => median(xs.map((x) => x[k]));
for (const c of cases) {
  const xs: Sample[] = [];
  const bs: Sample[] = [];
  const isAssay = c.argv[1] === 'bin/assay.js';
  for (let i = 0; i < runs; i++) {
    xs.push(runOf(c.argv, !!c.data));
    if (baseline && isAssay) bs.push(runOf([c.argv[0]!, join(baseline, 'bin/assay.js'), ...c.argv.slice(2)], !!c.data));
  }
  const wall = med(xs, 'wall');
  if (c.label === 'node -e 0') floor = wall;
  let line = `${c.label.padEnd(30)} ${wall.toFixed(2).padStart(6)} ${(floor ? wall / floor : 1).toFixed(1).padStart(7)} ${med(xs, 'cpu').toFixed(2).padStart(7)} ${med(xs, 'rssMb').toFixed(0).padStart(13)} ${[...new Set(xs.map((x) => x.code))].join(',').padStart(6)}`;
  if (bs.length) line += `   | ${med(bs, 'wall').toFixed(2).padStart(14)} ${med(bs, 'cpu').toFixed(2).padStart(6)} ${med(bs, 'rssMb').toFixed(0).padStart(7)}   ${(wall / med(bs, 'wall')).toFixed(2).padStart(17)} ${(med(xs, 'cpu') / med(bs, 'cpu')).toFixed(2).padStart(4)} ${(med(xs, 'rssMb') / med(bs, 'rssMb')).toFixed(2).padStart(4)}`;
  console.log(line);
}
console.log(`load average at the end: ${load()} (on a loaded machine read the CPU times and the after/before ratios, not the wall times)`);
console.log(`reproduce: npx tsx bench/cli.ts ${runs}${baseline ? ` --baseline ${baseline}` : ''}`);
