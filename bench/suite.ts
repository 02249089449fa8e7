/**
 * How long the README's test command takes on a fresh clone, as CI runs it.
 *   npx tsx bench/suite.ts [--ref <commit or branch>] [--timeout-min 25]
 * Clones this repository (the committed `--ref`, default HEAD: uncommitted changes are not
 * measured) into a temporary directory and runs its `.ci/run` there, which installs what is
 * missing, starts a private Virtuoso, and runs `npm ci && npm test`. The phases are told apart by
 * the lines `.ci/run` and npm print (the Virtuoso line, npm ci's "added N packages", vitest's
 * summary), so the figures are: the whole run, `npm ci`, `npm test` (type-check + vitest) and
 * vitest's own duration, with CPU time of the whole run (GNU time) and the load average before and
 * after. The clone is removed at the end; the run is killed after `--timeout-min` minutes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => { const i = args.indexOf(name); return i >= 0 && args[i + 1] ? args[i + 1]! : fallback; };
const ref = opt('--ref', 'HEAD');
const timeoutMin = Number(opt('--timeout-min', '25'));
if (!existsSync('/usr/bin/time')) throw new Error('bench/suite.ts needs GNU time at /usr/bin/time (Debian package "time")');

const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const commit = spawnSync('git', ['rev-parse', '--short', ref], { encoding: 'utf8' }).stdout.trim();
if (!commit) throw new Error(`bench/suite.ts: "${ref}" is not a commit of this repository`);
const dir = mkdtempSync(join(tmpdir(), 'assay-bench-suite-'));
const clone = join(dir, 'assay');
const cloned = spawnSync('git', ['clone', '-q', '--no-checkout', process.cwd(), clone], { stdio: 'inherit' });
if (cloned.status !== 0) throw new Error('bench/suite.ts: git clone failed');
spawnSync('git', ['-C', clone, 'checkout', '-q', commit], { stdio: 'inherit' });

const loadBefore = load();
const timeFile = join(dir, 'time.txt');
const t0 = performance.now();
const marks: Record<string, number> = {};
let vitestSeconds: number | null = null;
let tests = '';
let tail = '';
const child = spawn('/usr/bin/time', ['-f', '%e %U %S', '-o', timeFile, 'bash', '.ci/run'], { cwd: clone, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
const onLine = (line: string) => {
  const at = (performance.now() - t0) / 1000;
  if (/^Virtuoso for the remote-store tests/.test(line) && marks.virtuoso === undefined) marks.virtuoso = at;
  if (/^added \d+ packages/.test(line) && marks.npmCi === undefined) marks.npmCi = at;
  const d = /Duration\s+([\d.]+)s/.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
  if (d) vitestSeconds = Number(d[1]);
  const t = /Tests\s+(.*)$/.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
  if (t) tests = t[1]!.trim();
};
for (const stream of [child.stdout, child.stderr]) {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (s: string) => {
    buf += s;
    const lines = buf.split('\n');
    buf = lines.pop()!;
    for (const l of lines) onLine(l);
    tail = (tail + s).slice(-4000);
  });
}
const killer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, timeoutMin * 60_000);
const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? -1)));
clearTimeout(killer);
const total = (performance.now() - t0) / 1000;
const [, user, sys] = existsSync(timeFile) ? readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number) : [0, NaN, NaN];
rmSync(dir, { recursive: true, force: true });

const s = (x: number | undefined) => (x === undefined ? 'n/a' : `${x.toFixed(1)} s`);
const npmTest = marks.npmCi !== undefined ? total - marks.npmCi : undefined;
console.log(`test-suite benchmark: a fresh clone of ${commit} running .ci/run (Node ${process.version}); load average ${loadBefore} before, ${load()} after`);
console.log(`exit ${code}${code === 0 ? '' : ' (FAILED: the figures are of a failed run)'}; tests: ${tests || 'n/a'}`);
console.log(`whole .ci/run ${s(total)} (CPU ${(user! + sys!).toFixed(1)} s, child processes included)`);
console.log(`  installs and Virtuoso start ${s(marks.virtuoso)}; npm ci done at ${s(marks.npmCi)}`);
console.log(`  npm test (type-check + vitest) ${s(npmTest)}; vitest's own duration ${vitestSeconds === null ? 'n/a' : `${vitestSeconds} s`}`);
if (code !== 0) console.log(`last output:\n${tail}`);
console.log(`reproduce: npx tsx bench/suite.ts --ref ${ref}`);
process.exit(code === 0 ? 0 : 1);
