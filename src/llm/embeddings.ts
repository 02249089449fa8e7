/**
 * Embeddings through an OpenAI-compatible `/embeddings` endpoint (OpenAI, Ollama, vLLM, llama.cpp
 * server) with the `openai` package: texts in, one vector per text out, in order. Large inputs go
 * in batches; the SDK's own timeout, retries and abort signal are used. A transport failure names
 * the endpoint and the model. `fetch` is injectable so tests drive a stub server.
 */
import { openAiSdk } from './openai-backend.ts';
import type { EmbeddingConfig } from './config.ts';
import { ModelTransportError } from './types.ts';

export interface EmbeddingClient {
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export function openAiEmbeddings(config: Pick<EmbeddingConfig, 'baseURL' | 'apiKey' | 'model' | 'timeoutMs'>, options: { fetch?: typeof fetch; maxRetries?: number; batchSize?: number } = {}): EmbeddingClient {
  const sdk = openAiSdk(config, options);
  const batchSize = options.batchSize ?? 256;
  return {
    model: config.model,
    async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const batch = texts.slice(i, i + batchSize);
        try {
          const r = await sdk.embeddings.create({ model: config.model, input: batch, encoding_format: 'float' }, { signal });
          const rows = [...r.data].sort((a, b) => a.index - b.index);
          if (rows.length !== batch.length) throw new Error(`expected ${batch.length} vectors, got ${rows.length}`);
          for (const row of rows) out.push(row.embedding as number[]);
        } catch (e) {
          if (signal?.aborted) throw e;
          const status = (e as { status?: number }).status;
          throw new ModelTransportError(`embeddings call (${config.model}) to ${config.baseURL} failed${status ? ` with HTTP ${status}` : ''}: ${(e as Error).message}. Check ASSAY_EMBED_URL, ASSAY_EMBED_MODEL and ASSAY_EMBED_KEY.`, e);
        }
      }
      return out;
    },
  };
}
