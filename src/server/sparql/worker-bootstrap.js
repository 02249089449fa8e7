// SPARQL worker entry when Assay runs from its TypeScript sources (tests, tsx): a worker thread
// starts without the parent's loader. While dist/ was built from these very sources the compiled
// worker is loaded (about 3x less CPU per worker started), else the sources through tsx
// (scripts/freshness.mjs startWorker).
import { startWorker } from '../../../scripts/freshness.mjs';

await startWorker(new URL('./worker.ts', import.meta.url));
