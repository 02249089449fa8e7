/**
 * The model interpreter: question → Intent in two calls through the one model interface.
 *
 *   structure: shape, entity, canonical entity, status and candidates, entities, type, direction, geography
 *   measure:   attribute(s), interpretations, period(s), quantifier, threshold, order, limit
 *
 * Each answer must parse as JSON and satisfy its part schema; the merged intent must satisfy the
 * full schema. An invalid answer is sent back once with the validation errors; a second invalid
 * answer is a refusal (`cannot_tell` with the issues), never a guess or a silent repair.
 */
import type { z } from 'zod';
import type { ChatMessage, ModelClient } from '../../llm/types.ts';
import { intentSchema, measureSchema, partJsonSchemas, structureSchema, toIssues, type Intent, type ValidationIssue } from '../intent.ts';
import type { Understanding } from '../understanding.ts';
import { messages, renderPrompts } from './prompts.ts';

type Part<S extends z.ZodType> = { ok: true; value: z.infer<S> } | { ok: false; issues: ValidationIssue[] };

/** options.previous: in a conversation, the previous turn's intent, given to both calls as context. */
export async function interpretWithModel(question: string, client: ModelClient, options: { signal?: AbortSignal; previous?: Intent } = {}): Promise<Understanding> {
  const q = question.trim();
  const prompts = renderPrompts(q, options.previous);
  const schemas = partJsonSchemas();
  const [structure, measure] = await Promise.all([
    callPart(client, messages(prompts.structure), 'structure', schemas.structure, structureSchema, options.signal),
    callPart(client, messages(prompts.measure), 'measure', schemas.measure, measureSchema, options.signal),
  ]);
  if (!structure.ok) return refuse(q, 'structure', structure.issues);
  if (!measure.ok) return refuse(q, 'measure', measure.issues);
  const merged = intentSchema.safeParse({ question: q, ...structure.value, ...measure.value });
  if (!merged.success) return refuse(q, 'merged intent', toIssues(merged.error));
  return { status: 'understood', intent: merged.data, interpreter: 'model', notes: [`structure and measure by ${client.modelFor('classify')}`] };
}

async function callPart<S extends z.ZodType>(client: ModelClient, base: ChatMessage[], name: string, jsonSchema: Record<string, unknown>, schema: S, signal?: AbortSignal): Promise<Part<S>> {
  let msgs = base;
  let issues: ValidationIssue[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const res = await client.complete({ role: 'classify', messages: msgs, jsonSchema: { name: `understand_${name}`, schema: jsonSchema }, ...(signal ? { signal } : {}) });
    issues = validate(res.text, schema);
    if (issues.length === 0) return { ok: true, value: schema.parse(JSON.parse(stripFence(res.text))) };
    msgs = [...base, { role: 'assistant', content: res.text }, {
      role: 'user',
      content: `That answer is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}. Answer again with JSON only, matching the schema.`,
    }];
  }
  return { ok: false, issues };
}

function validate(text: string, schema: z.ZodType): ValidationIssue[] {
  let json: unknown;
  try {
    json = JSON.parse(stripFence(text));
  } catch (e) {
    return [{ code: 'invalid_json', path: '(root)', message: `not JSON (${(e as Error).message})` }];
  }
  const r = schema.safeParse(json);
  return r.success ? [] : toIssues(r.error);
}

/** Some servers wrap JSON in a Markdown fence even when asked for JSON; that is framing, not content. */
function stripFence(text: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return m ? m[1]! : text;
}

function refuse(question: string, part: string, issues: ValidationIssue[]): Understanding {
  return {
    status: 'cannot_tell', question, interpreter: 'model', issues,
    reason: `the model's ${part} answer was invalid twice (${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}); refusing rather than guessing`,
  };
}
