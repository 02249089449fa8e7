// Worker entry: Assay ships TypeScript run through tsx (see bin/assay.js), and a worker
// thread starts without the parent's loader, so register tsx here, then load the worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
