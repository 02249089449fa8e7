/**
 * The OpenAI-compatible backend (OpenAI, Ollama, vLLM, llama.cpp server) through the `openai`
 * package. The SDK's own timeout, retries and abort signal are used; no second retry loop is
 * wrapped around it. `fetch` is injectable so tests drive a stub server or a fake.
 */
import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import type { ModelConfig } from './config.ts';
import { ModelCallAborted, ModelTransportError, type CompletionRequest, type CompletionResult, type ModelClient, type ModelRole } from './types.ts';

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
  // The SDK's timeout stops waiting for the response's headers, not for its body: an endpoint that
  // answers 200 and then sends its body forever (a stuck stream, a proxy trickling) is bounded only
  // here, by the same limit for each of the SDK's attempts.
  const callLimitMs = config.timeoutMs * ((options.maxRetries ?? 2) + 1);
  return {
    modelFor: (role: ModelRole) => config.models[role],
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      const model = config.models[req.role];
      let r: OpenAI.Chat.Completions.ChatCompletion;
      const limit = AbortSignal.timeout(callLimitMs);
      const signal = req.signal ? AbortSignal.any([req.signal, limit]) : limit;
      try {
        r = await sdk.chat.completions.create({
          model,
          messages: req.messages,
          temperature: 0,
          ...(req.jsonSchema ? { response_format: { type: 'json_schema' as const, json_schema: { name: req.jsonSchema.name, schema: req.jsonSchema.schema, strict: false } } } : {}),
        }, { signal });
      } catch (e) {
        if (req.signal?.aborted) throw new ModelCallAborted(req.role, model, e);
        if (limit.aborted) throw new ModelTransportError(`model call (${req.role}, ${model}) to ${config.baseURL} did not finish within ${callLimitMs} ms (ASSAY_LLM_TIMEOUT_MS = ${config.timeoutMs} ms per attempt): the endpoint answered but its body did not end. Check that ASSAY_LLM_URL serves OpenAI chat completions, or raise ASSAY_LLM_TIMEOUT_MS.`, e);
        const status = (e as { status?: number }).status;
        throw new ModelTransportError(`model call (${req.role}, ${model}) to ${config.baseURL} failed${status ? ` with HTTP ${status}` : ''}: ${(e as Error).message}. Check ASSAY_LLM_URL, ASSAY_LLM_MODEL and ASSAY_LLM_KEY.`, e);
      }
      // The SDK hands back whatever a 2xx carried (a web page, a proxy's JSON): only a chat completion is an answer.
      const choices = (r as { choices?: unknown } | null)?.choices;
      if (!Array.isArray(choices)) {
        throw new ModelTransportError(`model call (${req.role}, ${model}) to ${config.baseURL} was answered with ${notCompletion(r)}, not a chat completion. Check that ASSAY_LLM_URL is the base URL of an OpenAI-compatible API (for most servers it ends in /v1).`);
      }
      const text = r.choices[0]?.message?.content ?? '';
      return { text, model: r.model || model, ...(r.usage ? { usage: { promptTokens: r.usage.prompt_tokens, completionTokens: r.usage.completion_tokens } } : {}) };
    },
  };
}

/** What came back instead of a chat completion, in a few words (a page's title, a JSON body's keys). */
function notCompletion(r: unknown): string {
  if (typeof r === 'string') {
    const title = /<title[^>]*>([^<]{0,120})/i.exec(r)?.[1]?.trim();
    if (/^\s*</.test(r)) return `an HTML page${title ? ` ("${title}")` : ''}`;
    return `a text body ("${r.replace(/\s+/g, ' ').trim().slice(0, 80)}")`;
  }
  if (r && typeof r === 'object') return `a JSON object with ${Object.keys(r).length ? `keys ${Object.keys(r).slice(0, 6).join(', ')}` : 'no keys'}`;
  return `an empty or non-JSON body`;
}
