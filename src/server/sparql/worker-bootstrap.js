// Worker entry when Assay runs from its TypeScript sources (tests, tsx): a worker thread starts
// without the parent's loader. While dist/ was built from these very sources (the launcher's own
// check, scripts/freshness.mjs) the compiled worker is loaded: the same code, without compiling the
// worker's module graph again in every new thread (about 3x less CPU per worker started). Otherwise
// tsx is registered here and the worker's sources are loaded.
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../../../scripts/freshness.mjs';

const root = new URL('../../../', import.meta.url);
if (distIsFresh(fileURLToPath(root))) {
  await import(new URL('dist/src/server/sparql/worker.js', root).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./worker.ts');
}
