// Worker entry for blocking-http.ts: Assay runs TypeScript through tsx, and a worker thread
// starts without the parent's loader, so register tsx here, then load the worker.
import { register } from 'tsx/esm/api';

register();
await import('./blocking-worker.ts');
