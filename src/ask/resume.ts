/**
 * Resuming a clarification: the run that asked recorded its intent and options (the assumptions
 * each needs) in its run graph. Resuming binds the chosen option — a reading's concept and
 * operation, or an entity — and never re-interprets the selection.
 */
import { iri, sparql } from '../resolve/sparql-text.ts';
import { ASSAY } from '../rdf/vocab.ts';
import { runIris, RUN_ID } from '../evidence/iris.ts';
import type { OperationRef } from '../discover/index.ts';
import { parseIntent, understand, type Intent, type Understanding } from '../understand/index.ts';
import type { RefusalDecision } from '../answer/wording.ts';
import { bindGrantOrg, directionOf } from './grants.ts';
import type { Bound } from './plan-step.ts';
import type { RunState } from './state.ts';
import type { Assumptions } from './types.ts';
import type { IdentityBundle } from '../resolve/bundle.ts';
import { bindKey } from '../resolve/bundle.ts';
import { normaliseName } from '../resolve/registry.ts';
import type { Note } from '../execute/notes.ts';

export interface ResumeState {
  intent: Intent;
  /** Who read the question, when a respelled question is re-read on resume (offline unless the model read it). */
  interpreter?: 'model';
  /**
   * `reading`: a comparison's measure reading chosen (bound as the attribute, no operation yet).
   * `bundle`: a registered entity offered for the name `asked` (names.ts), bound as picked; with
   * `question`, the question respelled with that name, re-read on resume (the words asked were not read as a name).
   */
  options: Array<{ assumptions: Assumptions; operation?: OperationRef; unit?: string; reading?: string; bundle?: IdentityBundle; asked?: string; question?: string }>;
}

/** A registered entity picked in a clarification of a name: pinned for the read under its label, and said. */
export interface Picked { pin: { entity: string; bundle: IdentityBundle }; note: Note }

/** The clarification a run recorded (its intent and options), or null when it recorded none. */
export function readResumeState(services: Pick<RunState['services'], 'store' | 'baseIri'>, runId: string): ResumeState | null {
  if (!RUN_ID.test(runId)) return null;
  const other = runIris(services.baseIri, runId);
  const rows = services.store.rdf.select(sparql`SELECT ?state WHERE { GRAPH ${iri(other.runGraph)} { ${iri(other.answer)} ${iri(ASSAY.resumeState)} ?state } }`);
  const text = rows[0]?.get('state')?.value;
  if (!text) return null;
  const parsed = JSON.parse(text) as ResumeState;
  const check = parseIntent(parsed.intent);
  if (!check.ok) return null;
  return { intent: check.intent, options: parsed.options };
}

/** The understanding a resume stands for, with the reading it binds (none for an entity choice). */
export async function resumed(s: RunState, resume: { run: string; option: number }): Promise<{ u: Understanding; bound?: Bound; picked?: Picked } | { refusal: RefusalDecision }> {
  const r = readResumeState(s.services, resume.run);
  const opt = r?.options[resume.option - 1];
  if (!r || !opt) {
    return { refusal: { boundary: 'bad_resume', code: r ? 'no_such_option' : 'no_such_run', params: { run: resume.run, option: resume.option, ...(r ? { offered: r.options.length } : {}) }, detail: r ? `run ${resume.run} has no option ${resume.option} (it offered ${r.options.length})` : `no clarification is recorded for run "${resume.run}"` } };
  }
  s.resumedFrom = resume.run;
  const notes = [`resumed from run ${resume.run}, option ${resume.option}`];
  if (opt.bundle) return pickedEntity(s, r, opt as PickedOption, notes, resume);
  if (opt.operation && opt.assumptions.measure_key) {
    const bound: Bound = { measureKey: opt.assumptions.measure_key, concept: opt.assumptions.concept ?? opt.assumptions.measure_key, measure: opt.assumptions.measure ?? opt.assumptions.measure_key, operation: opt.operation, ...(opt.unit ? { unit: opt.unit } : {}) };
    s.ctx.emit({ stage: 'measure', by: 'caller (resume)', message: `bound: ${opt.assumptions.measure} → ${opt.assumptions.concept} (no reselection)` });
    // the chosen reading is bound, not re-interpreted: the interpretation list is cleared
    return { u: { status: 'understood', intent: { ...r.intent, attribute: opt.assumptions.measure, interpretations: [] }, interpreter: 'caller', notes }, bound };
  }
  if (opt.reading) {
    // a comparison's reading chosen: both sides are compared on it, the interpretations cleared
    s.ctx.emit({ stage: 'measure', by: 'caller (resume)', message: `reading bound: ${opt.reading}` });
    return { u: { status: 'understood', intent: { ...r.intent, attribute: opt.reading, interpretations: [] }, interpreter: 'caller', notes } };
  }
  // a grant question's organization chosen for a name: bound where the name was
  const org = bindGrantOrg(r.intent, opt.assumptions.concept, opt.assumptions.entity);
  if (org) return { u: { status: 'understood', intent: org, interpreter: 'caller', notes } };
  // an entity choice: the chosen candidate becomes the resolved entity (a grant question's choice also binds its direction)
  const direction = directionOf(opt.assumptions.concept);
  s.ctx.emit({ stage: 'structure', by: 'caller (resume)', message: `entity bound: ${opt.assumptions.entity}` });
  // a comparison's entity asked about is replaced among the entities compared
  const entities = r.intent.shape === 'comparison' && r.intent.entity ? r.intent.entities.map((e) => (e === r.intent.entity ? opt.assumptions.entity : e)) : r.intent.entities;
  return { u: { status: 'understood', intent: { ...r.intent, canonical_entity: opt.assumptions.entity, entity_status: 'resolved', entity_candidates: [], entities, ...(direction ? { direction } : {}) }, interpreter: 'caller', notes } };
}

type PickedOption = ResumeState['options'][number] & { bundle: IdentityBundle };

/**
 * A registered entity picked for a name: the recorded intent (or, when the words asked were not
 * read as a name, the question respelled with it, re-read) with the entity bound to the bundle
 * picked, pinned for the read so it is never re-resolved by name. A respelled question whose
 * reading does not name it is not guessed at: the resume is refused.
 */
async function pickedEntity(s: RunState, r: ResumeState, opt: PickedOption, notes: string[], resume: { run: string; option: number }): Promise<{ u: Understanding; picked: Picked } | { refusal: RefusalDecision }> {
  const b = opt.bundle;
  let intent = r.intent;
  let named = opt.asked ?? intent.entity ?? b.label;
  if (opt.question) {
    const u = await understand(opt.question, { interpreter: r.interpreter ?? 'offline', ...(s.services.model ? { model: s.services.model } : {}), signal: s.ctx.signal });
    const said = u.status === 'understood' ? [u.intent.entity, ...u.intent.entities].find((e): e is string => !!e && isRespelling(e, opt)) : undefined;
    if (u.status !== 'understood' || !said) {
      return { refusal: { boundary: 'bad_resume', code: 'respelled_not_read', params: { run: resume.run, option: resume.option, question: opt.question }, detail: `the question respelled with ${b.label} ("${opt.question}") was not read as naming it; ask it again naming ${b.label}` } };
    }
    intent = u.intent;
    named = said;
  }
  const entities = intent.entities.map((e) => (e === named || e === intent.entity ? b.label : e));
  s.ctx.emit({ stage: 'structure', by: 'caller (resume)', message: `entity bound: "${named}" → ${b.label} (${b.id}), as picked` });
  const key = bindKey(b, ['cik', 'ein', 'ipeds_unitid', 'fips']);
  const note: Note = { code: 'entity_chosen', asked: opt.asked ?? named, chosen: b.label, key: key.ok ? { keyType: key.keyType, value: key.value } : null };
  return {
    u: { status: 'understood', intent: { ...intent, entity: intent.entity ?? named, canonical_entity: b.label, entity_status: 'resolved', entity_candidates: [], entities }, interpreter: 'caller', notes },
    picked: { pin: { entity: b.label, bundle: b }, note },
  };
}

/** Whether an entity the re-read names is the name the question was respelled with (its words, case aside). */
function isRespelling(entity: string, opt: PickedOption): boolean {
  const e = normaliseName(entity);
  return e.length > 0 && (normaliseName(opt.bundle.label).startsWith(e) || opt.bundle.altLabels.some((l) => normaliseName(l).startsWith(e)) || e === normaliseName(opt.asked ?? ''));
}

/** Words that accept the one suggestion offered ("yes", "yes please", "correct"). */
const ACCEPT = /^(?:yes|yeah|yep|y|ok|okay|sure|correct|right|that one|that's it|that is it)\b[\s.!,]*(?:please|thanks|thank you)?[\s.!]*$/i;

/**
 * The option a conversation's next message picks from the clarification before it, by words rather
 * than a number: "yes" when one entity was offered, or the entity's name as registered, written any
 * way the registry's name matching reads alike ("Amazon.com" and "AMAZON COM INC" are both "amazon
 * com"). Undefined when the message picks no single option: it is then read as a question.
 */
export function optionNamed(state: ResumeState, message: string): number | undefined {
  const text = message.trim();
  const n = /^#?(\d+)\.?$/.exec(text);
  if (n) { const k = Number(n[1]); return k >= 1 && k <= state.options.length ? k : undefined; }
  const named = state.options.map((o, i) => ({ o, i })).filter((x) => x.o.bundle);
  if (named.length === 0) return undefined;
  if (ACCEPT.test(text)) return named.length === 1 ? named[0]!.i + 1 : undefined;
  const said = normaliseName(text.replace(/^(?:i mean|i meant|the one|it's|it is)\s+/i, ''));
  if (!said) return undefined;
  const hits = named.filter(({ o }) => [o.bundle!.label, ...o.bundle!.altLabels].some((l) => normaliseName(l) === said));
  return hits.length === 1 ? hits[0]!.i + 1 : undefined;
}
