// Worker entry for kept-thread.ts: the compiled worker while dist/ matches the sources, else the
// sources through tsx (scripts/freshness.mjs startWorker).
import { startWorker } from '../scripts/freshness.mjs';

await startWorker(new URL('./kept-worker.ts', import.meta.url));
