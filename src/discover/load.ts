/**
 * Builds the discovery index from the catalog directory, once: the CLI and the eval harness share
 * it. Reports how long loading and indexing took and how big the index is. When an embeddings
 * endpoint is configured (ASSAY_EMBED_MODEL, see src/llm/config.ts) the cards get vectors too,
 * from the on-disk cache or the endpoint; `embeddings: null` keeps the index lexical regardless.
 */
import { loadCatalog } from '../ard/index.ts';
import { embeddingConfigFromEnv } from '../llm/config.ts';
import { openAiEmbeddings, type EmbeddingClient } from '../llm/embeddings.ts';
import { DiscoveryIndex } from './index.ts';

export interface EmbeddingSetup { client: EmbeddingClient; cacheDir: string }

export function embeddingSetupFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingSetup | undefined {
  const config = embeddingConfigFromEnv(env);
  return config ? { client: openAiEmbeddings(config), cacheDir: config.cacheDir } : undefined;
}

export async function loadDiscoveryIndex(dir = 'ard-okf', options: { embeddings?: EmbeddingSetup | null; env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {}): Promise<{ index: DiscoveryIndex; catalogMs: number }> {
  const t0 = performance.now();
  const catalog = await loadCatalog(dir);
  const catalogMs = performance.now() - t0;
  const index = DiscoveryIndex.build(catalog);
  const embeddings = options.embeddings === undefined ? embeddingSetupFromEnv(options.env) : options.embeddings;
  if (embeddings) await index.attachEmbeddings(embeddings.client, embeddings.cacheDir, options.signal ? { signal: options.signal } : {});
  return { index, catalogMs };
}
