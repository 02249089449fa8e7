/**
 * What a user waits for at the command line: whole-process wall time, CPU time and peak RSS of
 * `assay` commands, beside `node -e 0` on the same machine in the same run (the floor).
 *   npx tsx bench/cli.ts [runs=5]
 * Each command runs `runs` times through /usr/bin/time (GNU time: wall, user+sys, max RSS); medians
 * are printed with the ratio to `node -e 0`. `assay` runs as a user runs it (bin/assay.js: the
 * compiled dist/ when it matches the sources, else the TypeScript through tsx — the line says which),
 * with a fresh data directory for `ask` so a store grown by earlier runs does not count.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
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

console.log(`CLI benchmark (Node ${process.version}; assay runs ${distFresh ? 'compiled dist/' : 'TypeScript through tsx (dist/ missing or stale: run npm run build)'}; ${runs} runs each, medians)`);
console.log('command                        wall s   ×node   cpu s   peak RSS MB   exit');
let floor = 0;
for (const c of cases) {
  const xs: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const data = c.data ? mkdtempSync(join(tmpdir(), 'assay-bench-data-')) : undefined;
    xs.push(measure(c.argv, data ? { ASSAY_DATA_DIR: data } : {}));
    if (data) rmSync(data, { recursive: true, force: true });
  }
  const wall = median(xs.map((x) => x.wall));
  if (c.label === 'node -e 0') floor = wall;
  console.log(`${c.label.padEnd(30)} ${wall.toFixed(2).padStart(6)} ${(floor ? wall / floor : 1).toFixed(1).padStart(7)} ${median(xs.map((x) => x.cpu)).toFixed(2).padStart(7)} ${median(xs.map((x) => x.rssMb)).toFixed(0).padStart(13)} ${[...new Set(xs.map((x) => x.code))].join(',').padStart(6)}`);
}
console.log(`reproduce: npx tsx bench/cli.ts ${runs}`);
