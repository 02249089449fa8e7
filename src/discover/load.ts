/**
 * Builds the discovery index from the catalog directory, once: the CLI and the eval harness share
 * it. Reports how long loading and indexing took and how big the index is. A catalog whose index
 * was built before is loaded from the on-disk cache instead (cache.ts: keyed by the descriptors'
 * content, written only after the catalog validated), which skips validation and indexing. When an embeddings
 * endpoint is configured (ASSAY_EMBED_MODEL, see src/llm/config.ts) the cards get vectors too,
 * from the on-disk cache or the endpoint; `embeddings: null` keeps the index lexical regardless.
 */
import { loadCatalog } from '../ard/index.ts';
import { embeddingConfigFromEnv } from '../llm/config.ts';
import { openAiEmbeddings, type EmbeddingClient } from '../llm/embeddings.ts';
import { DiscoveryIndex } from './index.ts';
import { cacheFile, catalogFingerprint, DEFAULT_CACHE_DIR, readCachedIndex, writeCachedIndex } from './cache.ts';

export interface EmbeddingSetup { client: EmbeddingClient; cacheDir: string }

export function embeddingSetupFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingSetup | undefined {
  const config = embeddingConfigFromEnv(env);
  return config ? { client: openAiEmbeddings(config), cacheDir: config.cacheDir } : undefined;
}

export interface LoadIndexOptions {
  embeddings?: EmbeddingSetup | null;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Where built indexes are kept (default node_modules/.cache/assay); `null` never reads or writes a cache. */
  cacheDir?: string | null;
}

export async function loadDiscoveryIndex(dir = 'ard-okf', options: LoadIndexOptions = {}): Promise<{ index: DiscoveryIndex; catalogMs: number }> {
  const t0 = performance.now();
  const cacheDir = options.cacheDir === undefined ? DEFAULT_CACHE_DIR : options.cacheDir;
  let index: DiscoveryIndex | undefined;
  let catalogMs = 0;
  let file: string | undefined;
  let fingerprint: string | undefined;
  if (cacheDir !== null) {
    try {
      fingerprint = await catalogFingerprint(dir, cacheDir);
      file = cacheFile(cacheDir, fingerprint);
      const cached = await readCachedIndex(file, fingerprint);
      if (cached) index = DiscoveryIndex.fromCache(cached);
    } catch {
      // An unreadable directory is loadCatalog's to report, with its own message.
    }
  }
  if (!index) {
    const catalog = await loadCatalog(dir);
    catalogMs = performance.now() - t0;
    index = DiscoveryIndex.build(catalog);
    if (file && fingerprint) await writeCachedIndex(file, index.toCache(fingerprint)).catch(() => undefined);
  }
  const embeddings = options.embeddings === undefined ? embeddingSetupFromEnv(options.env) : options.embeddings;
  if (embeddings) await index.attachEmbeddings(embeddings.client, embeddings.cacheDir, options.signal ? { signal: options.signal } : {});
  return { index, catalogMs };
}
