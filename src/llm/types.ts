/**
 * The one model interface. Every model call in Assay goes through a `ModelClient`: the
 * OpenAI-compatible backend, the replay backend (recorded completions) or the recording wrapper.
 *
 * A call names its *role* (classify, rerank, synthesise); configuration maps roles to models, so
 * the classification call can use a stronger model than the re-ranker. Structured output is
 * requested with a JSON Schema; validating the answer is the caller's job (a model's output is a
 * claim, never a fact), and a transport failure is an error that names the endpoint.
 */
export type ModelRole = 'classify' | 'rerank' | 'synthesise';

export interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string }

export interface CompletionRequest {
  role: ModelRole;
  messages: ChatMessage[];
  /** Ask for JSON matching this schema (OpenAI `response_format: json_schema`). */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  signal?: AbortSignal;
}

export interface CompletionResult {
  text: string;
  model: string;
  usage?: { promptTokens: number; completionTokens: number };
}

export interface ModelClient {
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /** Which model serves a role (for the run record). */
  modelFor(role: ModelRole): string;
}

/** A model call failed in transport (not: answered badly). */
export class ModelTransportError extends Error {
  override readonly name = 'ModelTransportError';
  constructor(message: string, cause?: unknown) { super(message, { cause }); }
}

/** A model call stopped by its caller's signal (the question's deadline, or the caller cancelling), not a model failure. */
export class ModelCallAborted extends Error {
  override readonly name = 'ModelCallAborted';
  constructor(readonly role: ModelRole, readonly model: string, cause?: unknown) { super(`the model call (${role}, ${model}) was stopped before it answered`, { cause }); }
}
