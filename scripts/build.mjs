#!/usr/bin/env node
// Compiles Assay's TypeScript to JavaScript in dist/ ahead of time, so the CLI and its worker
// threads start without compiling anything (run by `npm ci` through the `prepare` script).
//
// dist/ mirrors the repository: dist/src/… and dist/introspect/… beside links to the data folders
// (ard-okf, fixtures, shapes, web) and to every non-TypeScript file under src/, so paths that modules
// compute from import.meta.url ('../../ard-okf') resolve the same from either tree.
// dist/BUILD.json records which sources it was built from; bin/assay.js uses dist/ only while it
// matches the sources (see freshness.mjs), and runs the sources through tsx otherwise.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceStamp, SOURCE_ROOTS } from './freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);

const stamp = sourceStamp(root);
rmSync(dist, { recursive: true, force: true });
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
// Type errors are the test command's business (npm test type-checks first); emitted JavaScript is
// still usable. Only a compiler that emitted nothing is a failed build.
if (!existsSync(join(dist, 'src', 'cli', 'main.js'))) {
  console.error(`assay build: tsc produced no dist/src/cli/main.js (exit ${r.status}); the CLI will run from the TypeScript sources through tsx`);
  process.exit(0);
}

const link = (target, at) => {
  mkdirSync(dirname(at), { recursive: true });
  rmSync(at, { force: true, recursive: true });
  symlinkSync(relative(dirname(at), target), at);
};
for (const d of ['ard-okf', 'fixtures', 'shapes', 'web', 'node_modules']) if (existsSync(join(root, d))) link(join(root, d), join(dist, d));
link(join(root, 'package.json'), join(dist, 'package.json'));
for (const dir of SOURCE_ROOTS) {
  const walk = (rel) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const p = join(rel, e.name);
      if (e.isDirectory()) { if (e.name !== 'test' && e.name !== 'node_modules') walk(p); continue; }
      if (!e.name.endsWith('.ts')) link(join(root, p), join(dist, p));
    }
  };
  if (existsSync(join(root, dir))) walk(dir);
}
// Build the discovery index once now, so the first question after a fresh clone loads it from the
// cache instead of validating and indexing the whole catalog (src/discover/cache.ts).
try {
  const { loadDiscoveryIndex } = await import(join(dist, 'src', 'discover', 'load.js'));
  const { index } = await loadDiscoveryIndex(join(root, 'ard-okf'), { embeddings: null });
  console.error(`assay build: discovery index over ${index.stats.cards} cards ${index.stats.fromCache ? 'already cached' : 'built and cached'}`);
} catch (e) {
  console.error(`assay build: the discovery index was not cached (${e.message}); it will be built on first use`);
}
// Likewise the offline identity registry's index (src/resolve/registry.ts).
try {
  const { loadRegistryIndex } = await import(join(dist, 'src', 'resolve', 'registry.js'));
  const r = await loadRegistryIndex();
  console.error(`assay build: identity registry index over ${r.index.subjectCount} subjects ${r.fromCache ? 'already cached' : 'built and cached'}`);
} catch (e) {
  console.error(`assay build: the identity registry index was not cached (${e.message}); it will be built on first use`);
}
// Likewise the catalog graph a first `assay serve` writes into its store (src/ard/sync.ts).
try {
  const { cacheCatalogGraph } = await import(join(dist, 'src', 'ard', 'sync.js'));
  const r = await cacheCatalogGraph(join(root, 'ard-okf'));
  console.error(`assay build: catalog graph of ${r.quads} quads ${r.cached ? 'already cached' : 'built and cached'}`);
} catch (e) {
  console.error(`assay build: the catalog graph was not cached (${e.message}); the first start builds it`);
}
writeFileSync(join(dist, 'BUILD.json'), JSON.stringify({ builtAt: new Date().toISOString(), ...stamp }, null, 2) + '\n');
console.error(`assay build: ${stamp.files} TypeScript files compiled to dist/`);
