// Ask worker entry when Assay runs from its TypeScript sources: the compiled worker while dist/ was
// built from these very sources (scripts/freshness.mjs; see ../sparql/worker-bootstrap.js), else
// tsx registered here (worker threads start without the parent's loader) and the worker's sources.
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../../../scripts/freshness.mjs';

const root = new URL('../../../', import.meta.url);
if (distIsFresh(fileURLToPath(root))) {
  await import(new URL('dist/src/server/ask/worker.js', root).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./worker.ts');
}
