// Worker entry for blocking-http.ts: the compiled worker while dist/ was built from these very
// sources (scripts/freshness.mjs; see ../server/sparql/worker-bootstrap.js), else tsx registered
// here (a worker thread starts without the parent's loader) and the worker's sources.
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../../scripts/freshness.mjs';

const root = new URL('../../', import.meta.url);
if (distIsFresh(fileURLToPath(root))) {
  await import(new URL('dist/src/rdf/blocking-worker.js', root).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./blocking-worker.ts');
}
