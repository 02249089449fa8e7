// Ask worker entry when Assay runs from its TypeScript sources: the compiled worker while dist/
// matches the sources, else the sources through tsx (scripts/freshness.mjs startWorker).
import { startWorker } from '../../../scripts/freshness.mjs';

await startWorker(new URL('./worker.ts', import.meta.url));
