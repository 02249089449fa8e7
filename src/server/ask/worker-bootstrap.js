// Ask worker entry: register tsx (worker threads start without the parent's loader), then load it.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
