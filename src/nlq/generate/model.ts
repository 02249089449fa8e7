/**
 * An OpenAI-compatible chat model (OpenAI, Ollama, vLLM, llama.cpp server) as a completer, through
 * the `openai` package with its own retries, timeout and abort signal. The prompt is one user
 * message; temperature 0. Configured from the environment:
 *   ASSAY_LLM_URL, ASSAY_LLM_KEY (optional), ASSAY_NLQ_MODEL (else ASSAY_LLM_MODEL_CLASSIFY, else
 *   ASSAY_LLM_MODEL), ASSAY_LLM_TIMEOUT_MS.
 */
import { openAiSdk } from '../../llm/openai-backend.ts';
import { ModelTransportError } from '../../llm/types.ts';
import type { Completer } from './types.ts';

export interface ModelCompleterConfig { baseURL: string; apiKey?: string; model: string; timeoutMs: number }

export function modelConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ModelCompleterConfig | undefined {
  const baseURL = env.ASSAY_LLM_URL?.trim();
  if (!baseURL) return undefined;
  const model = env.ASSAY_NLQ_MODEL?.trim() || env.ASSAY_LLM_MODEL_CLASSIFY?.trim() || env.ASSAY_LLM_MODEL?.trim();
  if (!model) throw new Error('ASSAY_LLM_URL is set but no model is: set ASSAY_NLQ_MODEL or ASSAY_LLM_MODEL');
  const timeoutMs = env.ASSAY_LLM_TIMEOUT_MS ? Number(env.ASSAY_LLM_TIMEOUT_MS) : 60_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error(`ASSAY_LLM_TIMEOUT_MS must be a positive number of milliseconds, not "${env.ASSAY_LLM_TIMEOUT_MS}"`);
  const apiKey = env.ASSAY_LLM_KEY?.trim();
  return { baseURL, model, timeoutMs, ...(apiKey ? { apiKey } : {}) };
}

export function modelCompleter(config: ModelCompleterConfig, options: { fetch?: typeof fetch; maxRetries?: number } = {}): Completer {
  const sdk = openAiSdk(config, options);
  return {
    id: `model:${config.model}`,
    async complete(prompt, signal) {
      try {
        const r = await sdk.chat.completions.create({ model: config.model, temperature: 0, messages: [{ role: 'user', content: prompt }] }, { signal });
        return r.choices[0]?.message?.content ?? '';
      } catch (e) {
        if (signal?.aborted) throw e;
        const status = (e as { status?: number }).status;
        throw new ModelTransportError(`NL→SPARQL model call (${config.model}) to ${config.baseURL} failed${status ? ` with HTTP ${status}` : ''}: ${(e as Error).message}. Check ASSAY_LLM_URL, ASSAY_NLQ_MODEL/ASSAY_LLM_MODEL and ASSAY_LLM_KEY.`, e);
      }
    },
  };
}
