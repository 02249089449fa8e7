/**
 * One turn of a conversation: `ask` with the previous turn as explicit context.
 *
 * The previous turn's intent is read from the store and handed to the orchestrator
 * (`AskRequest.previous`), whose understanding step reads the question as a possible follow-up
 * ("and in 2022?", "what about Microsoft?", "and its net income?", "compare that with Alphabet"):
 * offline by src/understand/followup.ts, or by the model with the previous intent in its prompt.
 * The fields carried over are said in the progress trace (a `structure` event by the follow-up
 * reader, with the typed reading as its data) and in the answer (a disclosure, and the typed
 * `followup` field of the result). An elliptical question with no previous turn is refused as
 * `not_understood` by the orchestrator and recorded like any refusal.
 * Every turn is then linked into its conversation in the store (turns.ts). A request without a
 * conversation id starts a new conversation; the result returns its id to continue it.
 */
import { ask, type AskOptions } from '../ask/run.ts';
import type { AskServices } from '../ask/services.ts';
import type { AskRequest, AskResult } from '../ask/types.ts';
import type { ProgressEvent } from '../execute/progress.ts';
import type { FieldValue, FollowupPart, FollowupRead } from '../understand/followup.ts';
import { newConversationId, previousTurn, recordTurn, turnsOf } from './turns.ts';
import { optionNamed, readResumeState } from '../ask/resume.ts';

export interface TurnRequest extends Omit<AskRequest, 'previous'> {
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

const readOf = (e: ProgressEvent): FollowupRead | undefined => (e.stage === 'structure' && e.data && typeof e.data.followup === 'object' ? e.data.followup as FollowupRead : undefined);

/** The option of the conversation's last turn's clarification that a message names (resume.ts optionNamed), if it was one. */
function pickedInTurn(services: AskServices, conversation: string, message: string): { run: string; option: number } | undefined {
  const turns = turnsOf(services.store, services.baseIri, conversation);
  const last = turns[turns.length - 1];
  const state = last ? readResumeState(services, last.runId) : null;
  const option = state ? optionNamed(state, message) : undefined;
  return last && option !== undefined ? { run: last.runId, option } : undefined;
}

export async function askTurn(services: AskServices, req: TurnRequest, options: AskOptions = {}): Promise<TurnResult> {
  const { conversation: given, ...askReq } = req;
  const conversation = given ?? newConversationId();
  const prev = given ? previousTurn(services.store, services.baseIri, given) : null;
  // A message answering the clarification just asked ("yes", "Amazon.com") resumes it with the option it names.
  const pick = given && askReq.question && !askReq.resume && askReq.intent === undefined ? pickedInTurn(services, given, askReq.question) : undefined;
  if (pick) { delete askReq.question; askReq.resume = pick; }
  // A question (not an intent or a resume) may be a follow-up of the previous turn.
  const asked = !!askReq.question && !askReq.resume && askReq.intent === undefined;
  let read: FollowupRead | undefined;
  const onProgress = (e: ProgressEvent) => {
    read ??= readOf(e);
    options.onProgress?.(e);
  };
  let result = await ask(services, { ...askReq, ...(asked ? { previous: prev?.intent ?? null } : {}) }, { ...options, onProgress });
  const followup: FollowupOut | undefined = read && prev ? { from_run: prev.run, from_question: prev.question, parts: read.parts, carried: read.carried, replaced: read.replaced } : undefined;
  if (read && result.qualification) result = { ...result, qualification: { ...result.qualification, disclosures: [read.said, ...result.qualification.disclosures] } };
  await recordTurn(services.store, services.baseIri, { conversation, runId: result.run_id, informedBy: prev?.run ?? null, carried: followup?.carried.map((c) => c.field) ?? [] });
  return { ...result, conversation, ...(followup ? { followup } : {}) };
}
