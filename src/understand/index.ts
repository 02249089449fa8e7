/**
 * understand: question (or a caller's intent) → Understanding. Picks the interpreter: the model
 * when one is configured and asked for, else the offline interpreter. A caller-sent intent is
 * validated by the same schema as the others.
 *
 * In a conversation (options.previous given: the previous turn's intent, or null when there is
 * none) a question may be a follow-up. The offline path reads it with src/understand/followup.ts;
 * the model path gives the model the previous intent as explicit context and then works out by
 * code which fields were carried (carriedByModel). Either way an elliptical question with no
 * previous turn is "cannot tell", with a typed code, before any model is called.
 */
import type { ModelClient } from '../llm/types.ts';
import { completeIntent } from './complete.ts';
import { carriedByModel, followupRead, followupRefusal, readFollowup } from './followup.ts';
import { parseIntent, type Intent } from './intent.ts';
import { interpretWithModel } from './model/interpret.ts';
import { interpretOffline } from './offline/interpret.ts';
import type { Understanding } from './understanding.ts';

export type { Understanding, Interpreter } from './understanding.ts';
export * from './intent.ts';
export { interpretOffline } from './offline/interpret.ts';
export { interpretWithModel } from './model/interpret.ts';
export { completeIntent } from './complete.ts';

export async function understand(question: string, options: { interpreter?: 'offline' | 'model'; model?: ModelClient; signal?: AbortSignal; previous?: Intent | null } = {}): Promise<Understanding> {
  const { previous } = options;
  const interpreter = options.interpreter === 'model' ? 'model' : 'offline';
  if (previous !== undefined) {
    const r = readFollowup(question, previous);
    if (r.kind === 'not_understood' && (r.code === 'no_previous_turn' || interpreter === 'offline')) {
      const why = followupRefusal(r);
      return { status: 'cannot_tell', question, interpreter, reason: why.reason, code: r.code, answerable_if: why.answerable_if, ...(r.issues ? { issues: r.issues } : {}) };
    }
    if (r.kind === 'followup' && interpreter === 'offline') {
      return completed({ status: 'understood', intent: r.intent, interpreter: 'offline', followup: followupRead(r, previous!.question) });
    }
  }
  if (interpreter === 'model') {
    if (!options.model) throw new Error('the model interpreter needs a model client (configure ASSAY_LLM_URL and ASSAY_LLM_MODEL)');
    const u = completed(await interpretWithModel(question, options.model, { ...(options.signal ? { signal: options.signal } : {}), ...(previous ? { previous } : {}) }));
    if (!previous || u.status !== 'understood') return u;
    const followup = carriedByModel(question, previous, u.intent);
    return followup ? { ...u, followup } : u;
  }
  return interpretOffline(question);
}

/** A caller's own intent: validated exactly like the interpreters' output. */
export function fromCaller(value: unknown): Understanding {
  const r = parseIntent(value);
  if (r.ok) return completed({ status: 'understood', intent: r.intent, interpreter: 'caller' });
  const question = typeof (value as { question?: unknown })?.question === 'string' ? (value as { question: string }).question : '';
  return { status: 'cannot_tell', question, interpreter: 'caller', issues: r.issues, reason: `the intent is invalid: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` };
}

/** Fills the intent fields a model or caller left null that follow from its own words (see complete.ts). */
function completed(u: Understanding): Understanding {
  if (u.status !== 'understood') return u;
  const { intent, filled } = completeIntent(u.intent);
  return filled.length === 0 ? u : { ...u, intent, notes: [...(u.notes ?? []), `completed from the question's words: ${filled.join(', ')}`] };
}
