/**
 * Builds the discovery index from the catalog directory, once: the CLI and the eval harness share
 * it. Reports how long loading and indexing took and how big the index is.
 */
import { loadCatalog } from '../ard/index.ts';
import { DiscoveryIndex } from './index.ts';

export async function loadDiscoveryIndex(dir = 'ard-okf'): Promise<{ index: DiscoveryIndex; catalogMs: number }> {
  const t0 = performance.now();
  const catalog = await loadCatalog(dir);
  const catalogMs = performance.now() - t0;
  return { index: DiscoveryIndex.build(catalog), catalogMs };
}
