/**
 * The OpenAI-compatible backend (OpenAI, Ollama, vLLM, llama.cpp server) through the `openai`
 * package. The SDK's own timeout, retries and abort signal are used; no second retry loop is
 * wrapped around it. `fetch` is injectable so tests drive a stub server or a fake.
 */
import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import type { ModelConfig } from './config.ts';
import { ModelTransportError, type CompletionRequest, type CompletionResult, type ModelClient, type ModelRole } from './types.ts';

// The SDK (over a hundred modules) is loaded when a client is first made, not by every process
// that imports the model layer: an offline question never makes one.
const require = createRequire(import.meta.url);
let Sdk: typeof OpenAI | undefined;

/** The SDK for one OpenAI-compatible endpoint: its own timeout and retries, an injected fetch. */
export function openAiSdk(
  config: { baseURL: string; apiKey?: string | undefined; timeoutMs: number },
  options: { fetch?: typeof fetch; maxRetries?: number } = {},
): OpenAI {
  Sdk ??= (require('openai') as { OpenAI: typeof OpenAI }).OpenAI;
  return new Sdk({
    baseURL: config.baseURL,
    apiKey: config.apiKey ?? 'not-needed',
    timeout: config.timeoutMs,
    maxRetries: options.maxRetries ?? 2,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export function openAiClient(config: ModelConfig, options: { fetch?: typeof fetch; maxRetries?: number } = {}): ModelClient {
  const sdk = openAiSdk(config, options);
  return {
    modelFor: (role: ModelRole) => config.models[role],
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      const model = config.models[req.role];
      try {
        const r = await sdk.chat.completions.create({
          model,
          messages: req.messages,
          temperature: 0,
          ...(req.jsonSchema ? { response_format: { type: 'json_schema' as const, json_schema: { name: req.jsonSchema.name, schema: req.jsonSchema.schema, strict: false } } } : {}),
        }, { signal: req.signal });
        const text = r.choices[0]?.message?.content ?? '';
        return { text, model: r.model || model, ...(r.usage ? { usage: { promptTokens: r.usage.prompt_tokens, completionTokens: r.usage.completion_tokens } } : {}) };
      } catch (e) {
        if (req.signal?.aborted) throw e;
        const status = (e as { status?: number }).status;
        throw new ModelTransportError(`model call (${req.role}, ${model}) to ${config.baseURL} failed${status ? ` with HTTP ${status}` : ''}: ${(e as Error).message}. Check ASSAY_LLM_URL, ASSAY_LLM_MODEL and ASSAY_LLM_KEY.`, e);
      }
    },
  };
}
