/**
 * One turn of a conversation: `ask` with the previous turn as explicit context.
 *
 * - A follow-up ("and in 2022?", "what about Microsoft?", "and its net income?", "compare that
 *   with Alphabet") is read by src/understand/followup.ts against the previous turn's intent, read
 *   from the store; the combined intent is asked as an intent, and the fields carried over are
 *   said in the progress trace (a `structure` event by the follow-up reader) and in the answer (a
 *   disclosure, and the typed `followup` field of the result).
 * - An elliptical question that cannot be read — no previous turn, or nothing readable — is
 *   refused as `not_understood` with the reason, and recorded as a run like any refusal.
 * - Anything else is asked as it is.
 * Every turn is then linked into its conversation in the store (turns.ts). A request without a
 * conversation id starts a new conversation; the result returns its id to continue it.
 *
 * Orchestration stays in src/ask: this module only chooses what to ask and records the link.
 * (When the orchestrator reads follow-ups itself, the `readFollowup` call moves into its question
 * branch and this module keeps the store lookup and the link.)
 */
import { ask, newRunId, type AskOptions } from '../ask/run.ts';
import { runQuads, toNQuads } from '../ask/record.ts';
import { renderRefusal } from '../answer/wording.ts';
import type { AskServices } from '../ask/services.ts';
import type { AskRequest, AskResult } from '../ask/types.ts';
import { runIris } from '../evidence/iris.ts';
import { describeFollowup, followupRefusal, readFollowup, type FieldValue, type FollowupPart } from '../understand/followup.ts';
import { newConversationId, previousTurn, recordTurn } from './turns.ts';

export interface TurnRequest extends AskRequest {
  /** The conversation to continue; omitted: a new one is started. */
  conversation?: string;
}

export interface FollowupOut {
  /** The run (IRI) whose intent the follow-up was read against, and its question. */
  from_run: string;
  from_question: string;
  parts: FollowupPart[];
  /** Intent fields taken from the previous turn, and those this turn set. */
  carried: FieldValue[];
  replaced: FieldValue[];
}

export type TurnResult = AskResult & { conversation: string; followup?: FollowupOut };

export async function askTurn(services: AskServices, req: TurnRequest, options: AskOptions = {}): Promise<TurnResult> {
  const { conversation: given, ...askReq } = req;
  const conversation = given ?? newConversationId();
  const prev = given ? previousTurn(services.store, services.baseIri, given) : null;
  const emit = options.onProgress ?? (() => undefined);
  let result: AskResult;
  let followup: FollowupOut | undefined;

  const reading = askReq.question && !askReq.resume && askReq.intent === undefined ? readFollowup(askReq.question, prev?.intent ?? null) : { kind: 'standalone' as const };
  if (reading.kind === 'followup' && prev) {
    const said = describeFollowup(reading, prev.question);
    followup = { from_run: prev.run, from_question: prev.question, parts: reading.parts, carried: reading.carried, replaced: reading.replaced };
    emit({ stage: 'structure', by: 'follow-up reader (offline)', message: said, data: { followup } });
    const { question: _q, ...rest } = askReq;
    result = await ask(services, { ...rest, intent: reading.intent }, options);
    if (result.qualification) result = { ...result, qualification: { ...result.qualification, disclosures: [said, ...result.qualification.disclosures] } };
  } else if (reading.kind === 'not_understood') {
    result = await refuseFollowup(services, askReq.question!, followupRefusal(reading), reading.parts, emit);
  } else {
    result = await ask(services, askReq, options);
  }
  await recordTurn(services.store, services.baseIri, { conversation, runId: result.run_id, informedBy: prev?.run ?? null, carried: followup?.carried.map((c) => c.field) ?? [] });
  return { ...result, conversation, ...(followup ? { followup } : {}) };
}

/** A follow-up that cannot be read is a refusal like any other, recorded as its own run. */
async function refuseFollowup(services: AskServices, question: string, why: { reason: string; answerable_if: string }, parts: FollowupPart[], emit: NonNullable<AskOptions['onProgress']>): Promise<AskResult> {
  const startedAt = new Date().toISOString();
  const runId = newRunId();
  const iris = runIris(services.baseIri, runId);
  const refusal = renderRefusal({ boundary: 'not_understood', detail: why.reason, context: { missing: why.answerable_if } });
  emit({ stage: 'structure', by: 'follow-up reader (offline)', message: `a follow-up (${parts.join(', ') || 'nothing readable'}): ${why.reason}`, data: { followup: { parts } } });
  emit({ stage: 'refusal', by: 'ask', message: `refused (${refusal.boundary}): ${refusal.reason}` });
  const result: AskResult = {
    status: 'refused', run: iris.run, run_id: runId, question, text: `Not answered (not understood): ${refusal.reason}`,
    rendering: null, rendering_label: null, figures: [], guarded_figures: [], citations: [], qualification: null, evidence: [],
    refusal, intent: null, interpreter: 'offline', plan: null, attempts: [],
  };
  const quads = runQuads(result, iris, { intentJson: null, startedAt, endedAt: new Date().toISOString() });
  await services.store.apply({ kind: 'load', data: toNQuads(quads), format: 'application/n-quads' });
  return result;
}
