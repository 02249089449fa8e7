#!/usr/bin/env node
// Launcher: Assay ships TypeScript sources and runs them through tsx, so a fresh
// `npm ci` is all a machine needs (no build step to forget).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
if (typeof code === 'number') process.exitCode = code;
