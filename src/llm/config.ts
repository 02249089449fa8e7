/**
 * Model configuration: one OpenAI-compatible endpoint (URL, optional key) and a model per role,
 * read from the environment. Nothing configured → `undefined`, and Assay runs offline (the
 * offline interpreter, lexical discovery); callers say so instead of failing.
 *
 *   ASSAY_LLM_URL          base URL, e.g. http://127.0.0.1:11434/v1 (Ollama), https://api.openai.com/v1
 *   ASSAY_LLM_KEY          API key (optional: local servers need none)
 *   ASSAY_LLM_MODEL        default model for every role
 *   ASSAY_LLM_MODEL_CLASSIFY / _RERANK / _SYNTHESISE   per-role overrides
 *   ASSAY_LLM_TIMEOUT_MS   per-call timeout (default 60000)
 *   ASSAY_LLM_REPLAY       directory of recorded completions: answer from it, never the network
 *
 * Embeddings (optional; discovery adds embedding similarity to its lexical prefilter when set):
 *   ASSAY_EMBED_MODEL      embeddings model, e.g. text-embedding-3-small, nomic-embed-text (enables embeddings)
 *   ASSAY_EMBED_URL        base URL of the embeddings endpoint (default: ASSAY_LLM_URL)
 *   ASSAY_EMBED_KEY        API key (default: ASSAY_LLM_KEY)
 *   ASSAY_EMBED_CACHE      directory of the on-disk vector cache (default: <ASSAY_DATA_DIR or .assay-data>/cache/embeddings)
 */
import type { ModelRole } from './types.ts';

export interface ModelConfig {
  baseURL: string;
  apiKey?: string;
  models: Record<ModelRole, string>;
  timeoutMs: number;
}

export function modelConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ModelConfig | undefined {
  const baseURL = env.ASSAY_LLM_URL?.trim();
  if (!baseURL) return undefined;
  const fallback = env.ASSAY_LLM_MODEL?.trim();
  const pick = (role: string) => env[`ASSAY_LLM_MODEL_${role}`]?.trim() || fallback;
  const classify = pick('CLASSIFY'); const rerank = pick('RERANK'); const synthesise = pick('SYNTHESISE');
  if (!classify || !rerank || !synthesise) {
    throw new Error('ASSAY_LLM_URL is set but no model is: set ASSAY_LLM_MODEL (or ASSAY_LLM_MODEL_CLASSIFY, _RERANK and _SYNTHESISE)');
  }
  const timeoutMs = env.ASSAY_LLM_TIMEOUT_MS ? Number(env.ASSAY_LLM_TIMEOUT_MS) : 60_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error(`ASSAY_LLM_TIMEOUT_MS must be a positive number of milliseconds, not "${env.ASSAY_LLM_TIMEOUT_MS}"`);
  return { baseURL, apiKey: env.ASSAY_LLM_KEY?.trim() || undefined, models: { classify, rerank, synthesise }, timeoutMs };
}

export interface EmbeddingConfig {
  baseURL: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  /** Where card and query vectors are cached, one file per model, keyed by content hash. */
  cacheDir: string;
}

/** Embeddings are enabled by naming a model; undefined when none is (discovery stays lexical). */
export function embeddingConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingConfig | undefined {
  const model = env.ASSAY_EMBED_MODEL?.trim();
  if (!model) return undefined;
  const baseURL = env.ASSAY_EMBED_URL?.trim() || env.ASSAY_LLM_URL?.trim();
  if (!baseURL) throw new Error('ASSAY_EMBED_MODEL is set but no endpoint is: set ASSAY_EMBED_URL (or ASSAY_LLM_URL) to an OpenAI-compatible base URL');
  const timeoutMs = env.ASSAY_LLM_TIMEOUT_MS ? Number(env.ASSAY_LLM_TIMEOUT_MS) : 60_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error(`ASSAY_LLM_TIMEOUT_MS must be a positive number of milliseconds, not "${env.ASSAY_LLM_TIMEOUT_MS}"`);
  const cacheDir = env.ASSAY_EMBED_CACHE?.trim() || `${env.ASSAY_DATA_DIR?.trim() || '.assay-data'}/cache/embeddings`;
  const apiKey = env.ASSAY_EMBED_KEY?.trim() || env.ASSAY_LLM_KEY?.trim() || undefined;
  return { baseURL, model, timeoutMs, cacheDir, ...(apiKey ? { apiKey } : {}) };
}

export const NO_MODEL_MESSAGE = 'no model configured: set ASSAY_LLM_URL and ASSAY_LLM_MODEL (any OpenAI-compatible endpoint, e.g. Ollama at http://127.0.0.1:11434/v1), or use --interpreter offline';
