/**
 * The one way to get a model client: replay (ASSAY_LLM_REPLAY=<dir>), or the configured
 * OpenAI-compatible endpoint, optionally recorded (ASSAY_LLM_RECORD=<file.jsonl>); undefined when
 * nothing is configured, so callers can fall back to the offline path and say so.
 */
import { modelConfigFromEnv } from './config.ts';
import { openAiClient } from './openai-backend.ts';
import { loadRecordings, recordingClient, replayClient } from './replay.ts';
import type { ModelClient } from './types.ts';

export * from './types.ts';
export { modelConfigFromEnv, embeddingConfigFromEnv, NO_MODEL_MESSAGE, type ModelConfig, type EmbeddingConfig } from './config.ts';
export { openAiEmbeddings, type EmbeddingClient } from './embeddings.ts';
export { openAiClient } from './openai-backend.ts';
export { replayClient, recordingClient, loadRecordings, requestKey, ReplayMissError, type Recording } from './replay.ts';

export async function modelClientFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<ModelClient | undefined> {
  if (env.ASSAY_LLM_REPLAY) return replayClient(await loadRecordings(env.ASSAY_LLM_REPLAY));
  const config = modelConfigFromEnv(env);
  if (!config) return undefined;
  const live = openAiClient(config);
  return env.ASSAY_LLM_RECORD ? recordingClient(live, env.ASSAY_LLM_RECORD) : live;
}
