/**
 * Resuming a clarification: the run that asked recorded its intent and options (the assumptions
 * each needs) in its run graph. Resuming binds the chosen option — a reading's concept and
 * operation, or an entity — and never re-interprets the selection.
 */
import { iri, sparql } from '../resolve/sparql-text.ts';
import { ASSAY } from '../rdf/vocab.ts';
import { runIris, RUN_ID } from '../evidence/iris.ts';
import type { OperationRef } from '../discover/index.ts';
import { parseIntent, type Intent, type Understanding } from '../understand/index.ts';
import type { RefusalDecision } from '../answer/wording.ts';
import { bindGrantOrg, directionOf } from './grants.ts';
import type { Bound } from './plan-step.ts';
import type { RunState } from './state.ts';
import type { Assumptions } from './types.ts';

export interface ResumeState {
  intent: Intent;
  /** `reading`: a comparison's measure reading chosen (bound as the attribute, no operation yet). */
  options: Array<{ assumptions: Assumptions; operation?: OperationRef; unit?: string; reading?: string }>;
}

function readResumeState(s: RunState, runId: string): ResumeState | null {
  if (!RUN_ID.test(runId)) return null;
  const other = runIris(s.services.baseIri, runId);
  const rows = s.services.store.rdf.select(sparql`SELECT ?state WHERE { GRAPH ${iri(other.runGraph)} { ${iri(other.answer)} ${iri(ASSAY.resumeState)} ?state } }`);
  const text = rows[0]?.get('state')?.value;
  if (!text) return null;
  const parsed = JSON.parse(text) as ResumeState;
  const check = parseIntent(parsed.intent);
  if (!check.ok) return null;
  return { intent: check.intent, options: parsed.options };
}

/** The understanding a resume stands for, with the reading it binds (none for an entity choice). */
export function resumed(s: RunState, resume: { run: string; option: number }): { u: Understanding; bound?: Bound } | { refusal: RefusalDecision } {
  const r = readResumeState(s, resume.run);
  const opt = r?.options[resume.option - 1];
  if (!r || !opt) {
    return { refusal: { boundary: 'bad_resume', code: r ? 'no_such_option' : 'no_such_run', params: { run: resume.run, option: resume.option, ...(r ? { offered: r.options.length } : {}) }, detail: r ? `run ${resume.run} has no option ${resume.option} (it offered ${r.options.length})` : `no clarification is recorded for run "${resume.run}"` } };
  }
  s.resumedFrom = resume.run;
  const notes = [`resumed from run ${resume.run}, option ${resume.option}`];
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
