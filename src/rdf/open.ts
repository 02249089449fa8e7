/**
 * Open the store the configuration names: a remote SPARQL 1.1 store when config.store.url is set
 * (--store, ASSAY_STORE_URL), else the embedded store in config.dataDir. The one place that
 * chooses a backend; callers then hold an AssayStore (backend.ts).
 */
import type { Config } from '../config.ts';
import type { AssayStore } from './backend.ts';
import { DurableStore, type DurableOptions } from './durable.ts';

export async function openStore(config: Config, options: DurableOptions & { fetch?: typeof fetch } = {}): Promise<AssayStore> {
  // the remote backend (and its SPARQL parser and serializers) is loaded only when one is configured
  if (config.store.url) return (await import('./remote.ts')).RemoteStore.open(config.store, { baseIri: config.baseIri, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { fetch: _unused, ...durable } = options;
  return DurableStore.open(config.dataDir, { maxQuads: config.limits.store.maxQuads, ...durable });
}
