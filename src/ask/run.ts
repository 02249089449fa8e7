/**
 * ask: question (or intent, or a resumed clarification) → answered | needs_clarification | refused.
 *
 * The orchestrator only sequences typed steps; each lives in its own module:
 *   understand (understand/, or resume.ts) → entity ambiguity (known before fetching) → scope
 *   ambiguity of a place name (scope.ts: New York the state or the county) → measure
 *   readings (ambiguity.ts, settled on fetched values) → plan (plan-step.ts) → the shape's executor
 *   (execute/shapes/, on the one search engine; a population shape answers with a table,
 *   population/ask.ts) → cross-checks (execute/corroborate.ts) → evidence
 *   (state.ts: PROV-O, SHACL-checked) → the answer (answer/assemble.ts: fact sheet, draft, grades,
 *   citations, qualification) → the run graph. Refusals are typed decisions worded once
 *   (answer/wording.ts). Every decision is emitted as a progress event.
 */
import { randomBytes } from 'node:crypto';
import { answerRecords, answerValues } from '../answer/assemble.ts';
import { renderNote, type RefusalDecision } from '../answer/wording.ts';
import { runIris } from '../evidence/iris.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import { DeadlineError, queryContext } from '../execute/context.ts';
import { fromSignal } from '../execute/failure.ts';
import { ModelCallAborted, ModelTransportError } from '../llm/types.ts';
import { crossCheck } from '../execute/corroborate.ts';
import type { ProgressEvent } from '../execute/progress.ts';
import { executeShape, executorsFor, type Planned, type ShapeOutcome } from '../execute/shapes/index.ts';
import type { Note } from '../execute/notes.ts';
import type { IdentityBundle } from '../resolve/bundle.ts';
import { fromCaller, periodLabel, understand, type Intent, type Understanding } from '../understand/index.ts';
import { comparedReading, readingsFor, settleReadings } from './ambiguity.ts';
import { clarifyComparedReading, clarifyEntity } from './clarify.ts';
import { answerGrantGraph } from './grants.ts';
import { settleScope } from './scope.ts';
import { answerPopulation } from '../population/ask.ts';
import { planFor, type Bound } from './plan-step.ts';
import { resumed, type Picked } from './resume.ts';
import { lookalikeName, refuseOrAsk } from './names.ts';
import type { AskServices } from './services.ts';
import { RunState } from './state.ts';
import type { AskRequest, AskResult } from './types.ts';

export interface AskOptions { onProgress?: (e: ProgressEvent) => void; signal?: AbortSignal; runId?: string }

export function newRunId(): string { return randomBytes(8).toString('hex'); }

export async function ask(services: AskServices, req: AskRequest, options: AskOptions = {}): Promise<AskResult> {
  const runId = options.runId ?? newRunId();
  const startedAt = new Date().toISOString();
  const ctx = queryContext({
    id: runId, runtime: services.runtime, registry: services.registry, ...(services.model ? { model: services.model } : {}),
    ...(options.signal ? { signal: options.signal } : {}), timeoutMs: req.timeoutMs ?? services.timeoutMs ?? 30_000,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(services.attemptBudget ? { budget: services.attemptBudget } : {}),
  });
  const s = new RunState(services, runIris(services.baseIri, runId), runId, ctx, req);
  try {
    let result: AskResult;
    try {
      result = await runQuestion(s);
    } catch (e) {
      // a model call that failed or was stopped is an outcome of the question, recorded like any other
      const r = stoppedRefusal(s, e);
      if (!r) throw e;
      result = r;
    }
    await s.record(result, startedAt);
    return result;
  } finally {
    ctx.dispose();
  }
}

/**
 * What a model call that threw means for the question. Publisher failures never reach here (the
 * search classifies them into its failures); a model call (understanding, re-ranking, drafting) is
 * awaited directly, so its transport failure, or the deadline or the caller stopping it, arrives as
 * an exception: the question is then operationally blocked (or cancelled), saying by what. Anything
 * else is a bug and is rethrown.
 */
function stoppedRefusal(s: RunState, e: unknown): AskResult | undefined {
  if (s.ctx.signal.aborted) {
    const f = fromSignal(s.ctx.signal);
    const reason = s.ctx.signal.reason;
    const waited = e instanceof ModelCallAborted ? `the model (${e.role}, ${e.model}) answered` : 'the question finished';
    const detail = reason instanceof DeadlineError ? `the question deadline (${reason.deadlineMs} ms) passed before ${waited}; ask again with a longer deadline` : f.message;
    return s.refuse({ boundary: f.boundary, code: f.code, detail });
  }
  if (e instanceof ModelTransportError) return s.refuse({ boundary: 'operationally_blocked', code: 'model_unavailable', detail: e.message });
  return undefined;
}

async function runQuestion(s: RunState): Promise<AskResult> {
  // 1. what is asked
  const step = await understood(s);
  if ('refusal' in step) return s.refuse(step.refusal);
  const { u, bound } = step;
  const picked = 'picked' in step ? step.picked : undefined;
  s.interpreter = u.interpreter;
  if (u.status !== 'understood') { s.question ||= u.question; return s.refuse({ boundary: 'not_understood', code: u.code ?? 'not_understood', detail: u.reason, ...(u.answerable_if ? { context: { missing: u.answerable_if } } : {}) }); }
  if (u.followup) s.ctx.emit({ stage: 'structure', by: `follow-up reader (${u.interpreter})`, message: u.followup.said, data: { followup: u.followup } });
  s.intent = u.intent;
  s.question = u.intent.question;
  announce(s, u.intent);
  // a name written with look-alike letters of another script misleads every later step: asked first
  const lookalike = await lookalikeName(s, u.intent);
  if (lookalike) return lookalike;

  // 2–3. what is settled before fetching: entity, scope and measure ambiguity
  const before = await settleBeforeFetch(s, u.intent, bound, picked);
  if ('status' in before) return before;
  const { intent, notes, pinned } = before;

  // 4. the plan: a refusal that names the missing operation is a successful plan
  const planned = await planFor(s, intent, bound);
  s.plan = planned.plan;
  if (planned.plan.verdict === 'infeasible') {
    return s.refuse({ boundary: planned.plan.considered === 0 ? 'no_candidate_source' : 'no_access_path', code: planned.plan.considered === 0 ? 'no_candidate' : 'no_operation', detail: planned.plan.reason, context: { attribute: intent.attribute, missing: planned.plan.required.missing } });
  }
  if (executorsFor(intent.shape).length === 0) {
    return s.refuse({ boundary: 'unsupported_shape', code: 'no_executor', params: { shape: intent.shape }, detail: `the plan is ${planned.plan.verdict} (${planned.plan.reason}), but this build does not yet execute ${intent.shape} questions` });
  }

  // grant questions read the store's grant graph (a materialized index), not a publisher
  if (intent.shape === 'grant_graph') return answerGrantGraph(s, intent, planned.plan, notes);

  // 5. the shape's executor, on the one search engine
  const out = await executeShape({ ctx: s.ctx, intent, planned, onAmbiguity: s.onAmbiguity, nextAttempt: s.nextAttempt, ...(s.judge ? { judge: s.judge } : {}), ...(pinned.length ? { pinned } : {}), populationStore: { store: s.services.store, baseIri: s.services.baseIri } });
  s.attempts.push(...out.attempts);
  return outcome(s, intent, planned, out, notes);
}

/**
 * The ambiguities settled before any fetch, in order: entity ambiguity (ask, or take the most likely
 * candidate and say so), the scope of each place name (scope.ts: New York the state or the county),
 * and measure readings (a point question's readings are settled on fetched values; a comparison
 * compares both sides on the preferred reading — asked first under `ask`, as any ambiguity is).
 */
async function settleBeforeFetch(s: RunState, first: Intent, bound: Bound | undefined, picked: Picked | undefined): Promise<AskResult | { intent: Intent; notes: Note[]; pinned: ReadonlyArray<{ entity: string; bundle: IdentityBundle }> }> {
  const notes: Note[] = picked ? [picked.note] : [];
  let intent = first;
  if (intent.entity_status === 'ambiguous' && intent.entity_candidates.length >= 2) {
    if (s.onAmbiguity === 'ask') return clarifyEntity(s, intent);
    const chosen = intent.entity_candidates[0]!;
    notes.push({ code: 'entity_ambiguous_answered', entity: intent.entity ?? chosen, candidates: intent.entity_candidates, chosen });
    intent = { ...intent, canonical_entity: chosen, entity_status: 'resolved', entity_candidates: [] };
    s.intent = intent;
    s.ctx.emit({ stage: 'structure', by: 'ask', message: `"${first.entity}" is ambiguous (${first.entity_candidates.join('; ')}); answered for the most likely, ${chosen}` });
  }

  // an entity picked in a clarification is read as picked: its scope is settled by the pick
  const scope = picked ? { kind: 'pinned' as const, pins: [picked.pin], notes: [] } : await settleScope(s, intent);
  if (scope.kind === 'refuse') return s.refuse(scope.refusal);
  if (scope.kind === 'clarify') return clarifyEntity(s, scope.intent);
  const pinned = scope.kind === 'pinned' ? scope.pins : [];
  if (scope.kind === 'pinned') notes.push(...scope.notes);

  const readings = bound || intent.shape !== 'point' ? [] : readingsFor(intent.attribute, intent.interpretations);
  if (readings.length >= 2) return settleReadings(s, intent, readings);
  const compared = bound ? undefined : comparedReading(intent);
  if (compared) {
    if (s.onAmbiguity === 'ask') return clarifyComparedReading(s, intent, compared.note.readings);
    notes.push(compared.note);
    s.ctx.emit({ stage: 'measure', by: 'ask', message: `"${compared.note.attribute}" compared as ${compared.note.reading} (readings: ${compared.note.readings.join(', ')})` });
    intent = s.intent = compared.intent;
  }
  return { intent, notes, pinned };
}

/** The shape's outcome → cross-checks, evidence and the answer; or the clarification or refusal it reached. */
async function outcome(s: RunState, intent: Intent, planned: Planned, out: ShapeOutcome, notes: Note[]): Promise<AskResult> {
  switch (out.kind) {
    case 'clarify': return clarifyEntity(s, out.intent);
    case 'declined': return s.refuse({ boundary: 'unsupported_shape', code: 'declined', params: { shape: intent.shape }, detail: `no executor reads this ${intent.shape} question` });
    case 'refused': {
      const f = out.failure;
      return refuseOrAsk(s, intent, planned, { boundary: f.boundary, code: f.code, detail: f.message, ...(f.params ? { params: f.params } : {}), context: out.context, ...(out.reached ? { reached: out.reached } : {}), ...(out.exhausted !== undefined ? { exhausted: out.exhausted } : {}), ...(notes.length ? { notes } : {}) });
    }
    case 'evidence': {
      const items = s.number(out.items);
      // population shapes: a result table, graded the same way (src/population/ask.ts)
      if (out.answer === 'population' && out.population) {
        return answerPopulation(s, items as AdmittedEvidence[], out.population, [...notes, ...out.notes].map(renderNote));
      }
      if (out.answer === 'records') {
        await s.writeEvidence(items);
        return answerRecords(s, items, out.total ?? items.length, [...notes, ...out.notes]);
      }
      const values = items.filter((e): e is typeof e & { value: number } => typeof e.value === 'number');
      // independent second paths for the admitted values: within budget and deadline, never failing the answer
      s.crossChecks = await crossCheck(s.ctx, values, { serving: planned.serving ?? new Map(), nextAttempt: s.nextAttempt });
      await s.writeEvidence(items);
      return answerValues(s, values, [...notes, ...out.notes]);
    }
  }
}

/** The question as understood: from a resumed clarification, the caller's intent, or the question text. */
async function understood(s: RunState): Promise<{ u: Understanding; bound?: Bound; picked?: Picked } | { refusal: RefusalDecision }> {
  const { req } = s;
  if (req.resume) return resumed(s, req.resume);
  if (req.intent !== undefined) return { u: fromCaller(req.intent) };
  if (req.question) return { u: await understand(req.question, { interpreter: req.interpreter ?? 'offline', ...(s.services.model ? { model: s.services.model } : {}), signal: s.ctx.signal, ...(req.previous !== undefined ? { previous: req.previous } : {}) }) };
  return { refusal: { boundary: 'not_understood', code: 'no_question', detail: 'no question, intent or resume was given' } };
}

function announce(s: RunState, intent: Intent): void {
  const entityName = intent.canonical_entity ?? intent.entity;
  s.ctx.emit({ stage: 'structure', by: s.interpreter ?? 'interpreter', message: `${intent.shape} · ${intent.entities.length ? intent.entities.map((e) => `"${e}"`).join(' vs ') : entityName ? `"${intent.entity}" → ${entityName}` : 'no entity'}${intent.type ? ` · ${intent.type}` : ''}` });
  s.ctx.emit({ stage: 'measure', by: s.interpreter ?? 'interpreter', message: `${intent.attribute ?? '(no measure)'} · ${intent.periods.length ? `${periodLabel(intent.periods[0]!)}–${periodLabel(intent.periods[intent.periods.length - 1]!)} (${intent.periods.length} periods)` : periodLabel(intent.period) ?? 'latest'}${intent.interpretations.length ? ` · readings: ${intent.interpretations.join(', ')}` : ''}` });
}
