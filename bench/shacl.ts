/**
 * SHACL over the catalog: the whole ard-okf catalog (generated measures included) validated against
 * shapes/catalog-shapes.ttl, as test/ard/load.test.ts does, once over N3 stores (what src/ard/shacl.ts
 * uses) and once over rdf-validate-shacl's own datasets (the reference), in the same run.
 *   npx tsx bench/shacl.ts [runs=1] [--quads N]
 * Each validation runs in a fresh process (its own heap), the two interleaved run by run; the line
 * gives the process's CPU time (user+sys) and peak RSS, medians over the runs, and new/reference ratios.
 * `--quads N` validates only the first N quads of the catalog graph (a quick look; the full graph is
 * ~650 k quads and the reference takes tens of seconds of CPU).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const datasets = args[1] as 'n3' | 'library';
  const limit = Number(args[2]);
  const { loadCatalog, catalogToQuads } = await import('../src/ard/index.ts');
  const { CATALOG_SHAPE_FILES, compileShapes } = await import('../src/ard/shacl.ts');
  const shapes = compileShapes(CATALOG_SHAPE_FILES.map((f) => readFileSync(f, 'utf8')), { datasets });
  const catalog = await loadCatalog('ard-okf');
  const all = catalogToQuads(catalog, 'http://localhost:8080/');
  const quads = limit > 0 ? all.slice(0, limit) : all;
  const before = process.cpuUsage();
  const results = await shapes.validate(quads);
  const used = process.cpuUsage(before);
  console.log(JSON.stringify({ quads: quads.length, results: results.length, validateCpu: (used.user + used.system) / 1e6 }));
  process.exit(0);
}

const at = args.indexOf('--quads');
const limit = at >= 0 ? Number(args.splice(at, 2)[1]) : 0;
const runs = Number(args[0] ?? 1);
if (!existsSync('/usr/bin/time')) throw new Error('bench/shacl.ts needs GNU time at /usr/bin/time (Debian package "time")');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const self = fileURLToPath(import.meta.url);

interface Sample { cpu: number; validateCpu: number; rssMb: number; results: number; quads: number }
function run(datasets: 'n3' | 'library'): Sample {
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-shacl-'));
  const out = join(dir, 'time.txt');
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', '-o', out, process.execPath, '--import', 'tsx', self, '--child', datasets, String(limit)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`bench/shacl.ts child (${datasets}) failed: ${r.stderr}`);
  const [user, sys, rss] = readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  rmSync(dir, { recursive: true, force: true });
  const child = JSON.parse(r.stdout.trim().split('\n').pop()!) as { quads: number; results: number; validateCpu: number };
  return { cpu: user! + sys!, rssMb: rss! / 1024, ...child };
}

const n3: Sample[] = [];
const lib: Sample[] = [];
for (let i = 0; i < runs; i++) { n3.push(run('n3')); lib.push(run('library')); }
const m = (xs: Sample[], k: keyof Sample) => median(xs.map((x) => x[k]));
console.log(`SHACL over the catalog graph (${m(n3, 'quads')} quads, shapes/catalog-shapes.ttl; Node ${process.version}; ${runs} run(s) each, medians)`);
console.log('datasets            validate cpu s   process cpu s   peak RSS MB   results');
for (const [label, xs] of [['N3 stores', n3], ['library (reference)', lib]] as const) {
  console.log(`${label.padEnd(20)}${m(xs, 'validateCpu').toFixed(2).padStart(14)}${m(xs, 'cpu').toFixed(2).padStart(16)}${m(xs, 'rssMb').toFixed(0).padStart(14)}${String(m(xs, 'results')).padStart(10)}`);
}
console.log(`N3 / reference: validate cpu ${(m(n3, 'validateCpu') / m(lib, 'validateCpu')).toFixed(2)}, process cpu ${(m(n3, 'cpu') / m(lib, 'cpu')).toFixed(2)}, peak RSS ${(m(n3, 'rssMb') / m(lib, 'rssMb')).toFixed(2)}`);
console.log(`reproduce: npx tsx bench/shacl.ts ${runs}${limit ? ` --quads ${limit}` : ''}`);
