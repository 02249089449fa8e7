#!/usr/bin/env node
// Launcher. `npm ci` compiles the TypeScript to dist/ (the `prepare` script, scripts/build.mjs);
// while dist/ matches the sources the CLI runs the compiled JavaScript, which starts without
// compiling anything. When the sources changed since (development), or dist/ is missing, it runs
// the sources through tsx instead, so an edit is never shadowed by stale JavaScript.
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../scripts/freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
let main;
if (distIsFresh(root)) {
  ({ main } = await import('../dist/src/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(process.argv.slice(2));
if (typeof code === 'number') process.exitCode = code;
