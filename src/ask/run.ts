/**
 * ask: question (or intent, or a resumed clarification) → answered | needs_clarification | refused.
 *
 * understand → discover → plan → execute (leaf search; fan-out for comparison and timeseries) →
 * validate → evidence (PROV-O, SHACL-checked) → fact sheet → draft (model or plain renderer) →
 * grade every figure → citations from the graph → qualification → run graph. Measure ambiguity is
 * settled on fetched values. Every decision is emitted as a progress event. The run graph holds the
 * intent, plan, every attempt and the answer; the evidence graph the admitted evidence.
 */
import { randomBytes } from 'node:crypto';
import type { Candidate, OperationRef } from '../discover/index.ts';
import { plan as makePlan, type Assessment, type Plan } from '../plan/plan.ts';
import { planToQuads } from '../plan/rdf.ts';
import { understand, fromCaller, periodLabel, parseIntent, type Intent, type Understanding } from '../understand/index.ts';
import { queryContext, type QueryContext } from '../execute/context.ts';
import { searchLeaf, type LeafResult } from '../execute/leaf.ts';
import { readUnkeyed, unkeyedCandidates, type UnkeyedResult } from '../execute/unkeyed.ts';
import { resolveName } from '../resolve/registry.ts';
import { fanOut } from '../execute/fanout.ts';
import type { Attempt } from '../execute/attempt.ts';
import type { ProgressEvent } from '../execute/progress.ts';
import type { PeriodWanted } from '../validate/structural.ts';
import type { AdmittedEvidence, AnyEvidence } from '../evidence/types.ts';
import { runIris, RUN_ID, type RunIris } from '../evidence/iris.ts';
import { attemptRunQuads, crossCheckQuads, crossCheckRunQuads, evidenceQuads } from '../evidence/rdf.ts';
import { crossCheck, type CrossCheck } from '../execute/corroborate.ts';
import { comparisonDisclosures, mergeDisclosures } from '../answer/disclosures.ts';
import { corroboratedDisclosures, crossCheckDisclosures, crossCheckSheetLines, crossChecksOut, secondPathsFor } from '../answer/corroboration.ts';
import { factSheet, factSheetText, formatValue } from '../answer/factsheet.ts';
import { PLAIN_LABEL, publisherName, renderPlain } from '../answer/render.ts';
import { gradeText, strictBlockers, type Figure } from '../answer/figures.ts';
import { resolveCitations } from '../answer/citations.ts';
import { qualify } from '../answer/qualification.ts';
import { draftWithModel } from '../answer/synthesise.ts';
import { recordSheet, recordSheetText, renderRecords } from '../answer/records.ts';
import type { RecordSearchResult } from '../execute/record-search.ts';
import { executeShape, type Item, type Planned } from '../execute/shapes/index.ts';
import { executeGrantGraph } from '../grants/execute.ts';
import { embeddedGrantStore } from '../grants/store.ts';
import { grantIris } from '../grants/vocab.ts';
import { renderNote } from '../answer/wording.ts';
import { executeRecordShape } from './records.ts';
import { answerPopulation } from '../population/ask.ts';
import type { PopulationAnswer } from '../population/answer-types.ts';
import { furtherPopulationCandidates } from '../population/further.ts';
import { grainOf } from '../population/choices.ts';
import { discoveryIntent } from '../population/discovery.ts';
import { ASSAY } from '../rdf/vocab.ts';
import { iri, sparql } from '../resolve/sparql-text.ts';
import { modelJudge } from '../validate/model-judge.ts';
import type { SemanticJudge } from '../validate/adjudicate.ts';
import { collapseAliases, readingsFor } from './ambiguity.ts';
import { refusalFrom } from './refusal.ts';
import { runQuads, toNQuads } from './record.ts';
import type { AskServices } from './services.ts';
import type { AskRequest, AskResult, Assumptions, ClarificationOption, FigureOut, Refusal } from './types.ts';

export interface AskOptions { onProgress?: (e: ProgressEvent) => void; signal?: AbortSignal; runId?: string }

const EXECUTED = new Set(['point', 'comparison', 'timeseries', 'status', 'entity_list', 'grant_graph', 'ranking', 'aggregate', 'filtered_subset', 'ratio', 'correlation', 'topical']);
const RECORD_SHAPES = new Set(['status', 'entity_list']);

interface ResumeState { intent: Intent; options: Array<{ assumptions: Assumptions; operation?: OperationRef; unit?: string }> }
interface Bound { measureKey: string; concept: string; measure: string; operation: OperationRef; unit?: string }

export function newRunId(): string { return randomBytes(8).toString('hex'); }

export async function ask(services: AskServices, req: AskRequest, options: AskOptions = {}): Promise<AskResult> {
  const runId = options.runId ?? newRunId();
  const iris = runIris(services.baseIri, runId);
  const startedAt = new Date().toISOString();
  const ctx = queryContext({
    id: runId, runtime: services.runtime, registry: services.registry, ...(services.model ? { model: services.model } : {}),
    ...(options.signal ? { signal: options.signal } : {}), timeoutMs: req.timeoutMs ?? services.timeoutMs ?? 30_000,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(services.attemptBudget ? { budget: services.attemptBudget } : {}),
  });
  const state = new RunState(services, iris, runId, ctx, req);
  try {
    const result = await runQuestion(state);
    await state.record(result, startedAt);
    return result;
  } finally {
    ctx.dispose();
  }
}

/** Mutable bookkeeping of one run (not module state: one per call). */
export class RunState {
  attempts: Attempt[] = [];
  evidence: AnyEvidence[] = [];
  /** Cross-checks of admitted evidence (second paths; never evidence themselves). */
  crossChecks: CrossCheck[] = [];
  attemptCounter = 0;
  intent: Intent | null = null;
  interpreter: string | null = null;
  plan: Plan | null = null;
  resumeState?: string;
  resumedFrom?: string;
  question: string;
  constructor(readonly services: AskServices, readonly iris: RunIris, readonly runId: string, readonly ctx: QueryContext, readonly req: AskRequest) {
    this.question = req.question ?? '';
  }
  nextAttempt = () => ++this.attemptCounter;
  /** The residual semantic check, when a model is configured (it may only reject). */
  get judge(): SemanticJudge | undefined {
    const m = this.services.model;
    return m ? modelJudge(m, (u) => this.ctx.usage.push({ role: 'classify', ...u })) : undefined;
  }

  admit(leaf: LeafResult): AdmittedEvidence | undefined {
    this.attempts.push(...leaf.attempts);
    if (!leaf.evidence) return undefined;
    const e: AdmittedEvidence = { ...leaf.evidence, index: this.evidence.length + 1 };
    this.evidence.push(e);
    return e;
  }

  /** Writes the admitted evidence (must conform to the shapes) so citations can be resolved. */
  /** A record search's attempts always; its items become evidence only when it admitted them. */
  admitRecords(r: RecordSearchResult): AnyEvidence[] {
    this.attempts.push(...r.attempts);
    return r.items.map((item) => { const e: AnyEvidence = { ...item, index: this.evidence.length + 1 }; this.evidence.push(e); return e; });
  }

  async writeEvidence(items: readonly AnyEvidence[]): Promise<void> {
    if (items.length === 0) return;
    const quads = [...evidenceQuads(items, this.attempts, this.iris, this.services.baseIri), ...crossCheckQuads(this.crossChecks, this.iris, this.services.baseIri)];
    const report = await this.services.shapes.validate(quads);
    const violations = report.filter((r) => r.severity === 'Violation');
    if (violations.length > 0) throw new Error(`admitted evidence does not conform to shapes/evidence-shapes.ttl (a bug): ${violations.map((v) => `${v.focusNode} ${v.path ?? ''}: ${v.message}`).join('; ')}`);
    await this.services.store.apply({ kind: 'load', data: toNQuads(quads), format: 'application/n-quads' });
    this.ctx.emit({ stage: 'evidence', by: 'evidence', message: `${items.length} evidence item${items.length === 1 ? '' : 's'} admitted to the evidence graph (SHACL-conformant)`, data: { evidence: items.map((e) => this.iris.evidence(e.index)) } });
  }

  async record(result: AskResult, startedAt: string): Promise<void> {
    const quads = [
      ...runQuads(result, this.iris, { intentJson: this.intent ? JSON.stringify(this.intent) : null, ...(this.resumeState ? { resumeState: this.resumeState } : {}), startedAt, endedAt: new Date().toISOString() }),
      ...attemptRunQuads(this.attempts, this.iris, this.services.baseIri),
      ...crossCheckRunQuads(this.crossChecks, this.iris, this.services.baseIri),
      ...(this.plan ? planToQuads(this.plan, { planIri: this.iris.plan, runGraph: this.iris.runGraph, baseIri: this.services.baseIri, tried: new Set(this.attempts.map((a) => a.measure).filter((m): m is string => !!m)) }) : []),
    ];
    await this.services.store.apply({ kind: 'load', data: toNQuads(quads), format: 'application/n-quads' });
  }

  base(status: AskResult['status']): AskResult {
    return {
      status, run: this.iris.run, run_id: this.runId, question: this.question, text: '', rendering: null, rendering_label: null,
      figures: [], guarded_figures: [], citations: [], qualification: null, evidence: [], intent: this.intent, interpreter: this.interpreter,
      plan: this.plan ? { verdict: this.plan.verdict, reason: this.plan.reason } : null,
      attempts: [...this.attempts].sort((a, b) => a.n - b.n).map((a) => ({ n: a.n, source: a.source, operation: a.operation, measure: a.measure ?? null, disposition: a.disposition, ...(a.reason ? { reason: a.reason } : {}), elapsed_ms: Math.round(a.elapsedMs) })),
      ...(this.resumedFrom ? { resumed_from: this.resumedFrom } : {}),
    };
  }

  refuse(r: Refusal): AskResult {
    this.ctx.emit({ stage: 'refusal', by: 'ask', message: `refused (${r.boundary}): ${r.reason}` });
    return { ...this.base('refused'), text: `Not answered (${r.boundary.replace(/_/g, ' ')}): ${r.reason}`, refusal: r };
  }
}

async function runQuestion(s: RunState): Promise<AskResult> {
  const { req, ctx } = s;
  let bound: Bound | undefined;
  let u: Understanding;
  if (req.resume) {
    const r = readResumeState(s, req.resume.run);
    const opt = r?.options[req.resume.option - 1];
    if (!r || !opt) return s.refuse(refusalFrom('bad_resume', r ? `run ${req.resume.run} has no option ${req.resume.option} (it offered ${r.options.length})` : `no clarification is recorded for run "${req.resume.run}"`));
    s.resumedFrom = req.resume.run;
    if (opt.operation && opt.assumptions.measure_key) {
      bound = { measureKey: opt.assumptions.measure_key, concept: opt.assumptions.concept ?? opt.assumptions.measure_key, measure: opt.assumptions.measure ?? opt.assumptions.measure_key, operation: opt.operation, ...(opt.unit ? { unit: opt.unit } : {}) };
      // the chosen reading is bound, not re-interpreted: the interpretation list is cleared
      u = { status: 'understood', intent: { ...r.intent, attribute: opt.assumptions.measure, interpretations: [] }, interpreter: 'caller', notes: [`resumed from run ${req.resume.run}, option ${req.resume.option}`] };
      ctx.emit({ stage: 'measure', by: 'caller (resume)', message: `bound: ${opt.assumptions.measure} → ${opt.assumptions.concept} (no reselection)` });
    } else {
      // an entity choice: the chosen candidate becomes the resolved entity (a grant question's choice also binds its direction)
      const direction = GRANT_DIRECTION.exec(opt.assumptions.concept ?? '')?.[1] as Intent['direction'] | undefined;
      u = { status: 'understood', intent: { ...r.intent, canonical_entity: opt.assumptions.entity, entity_status: 'resolved', entity_candidates: [], ...(direction ? { direction } : {}) }, interpreter: 'caller', notes: [`resumed from run ${req.resume.run}, option ${req.resume.option}`] };
      ctx.emit({ stage: 'structure', by: 'caller (resume)', message: `entity bound: ${opt.assumptions.entity}` });
    }
  } else if (req.intent !== undefined) {
    u = fromCaller(req.intent);
  } else if (req.question) {
    u = await understand(req.question, { interpreter: req.interpreter ?? 'offline', ...(s.services.model ? { model: s.services.model } : {}), signal: ctx.signal });
  } else {
    return s.refuse(refusalFrom('not_understood', 'no question, intent or resume was given'));
  }
  s.interpreter = u.interpreter;
  if (u.status !== 'understood') { s.question ||= u.question; return s.refuse(refusalFrom('not_understood', u.reason)); }
  const intent = u.intent;
  s.intent = intent;
  s.question = intent.question;
  const entityName = intent.canonical_entity ?? intent.entity;
  ctx.emit({ stage: 'structure', by: u.interpreter, message: `${intent.shape} · ${intent.entities.length ? intent.entities.map((e) => `"${e}"`).join(' vs ') : entityName ? `"${intent.entity}" → ${entityName}` : 'no entity'}${intent.type ? ` · ${intent.type}` : ''}` });
  ctx.emit({ stage: 'measure', by: u.interpreter, message: `${intent.attribute ?? '(no measure)'} · ${intent.periods.length ? `${periodLabel(intent.periods[0]!)}–${periodLabel(intent.periods[intent.periods.length - 1]!)} (${intent.periods.length} periods)` : periodLabel(intent.period) ?? 'latest'}${intent.interpretations.length ? ` · readings: ${intent.interpretations.join(', ')}` : ''}` });

  // Entity ambiguity is known before fetching: ask, or take the most likely candidate and say so
  let entityDisclosure: string | undefined;
  if (intent.entity_status === 'ambiguous' && intent.entity_candidates.length >= 2) {
    if ((req.on_ambiguity ?? 'answer') === 'ask') return askEntity(s, intent);
    entityDisclosure = `"${intent.entity}" is ambiguous (${intent.entity_candidates.join('; ')}); answered for the most likely, ${intent.entity_candidates[0]}`;
    s.intent = { ...intent, canonical_entity: intent.entity_candidates[0]!, entity_status: 'resolved', entity_candidates: [] };
    ctx.emit({ stage: 'structure', by: 'ask', message: entityDisclosure });
    return continueResolved(s, s.intent, bound, entityDisclosure);
  }
  return continueResolved(s, intent, bound);
}

async function continueResolved(s: RunState, intent: Intent, bound: Bound | undefined, entityDisclosure?: string): Promise<AskResult> {
  const { req } = s;
  // Measure ambiguity (point questions; a bound resume never re-enters it)
  const readings = bound || intent.shape !== 'point' ? [] : readingsFor(intent.attribute, intent.interpretations);
  if (readings.length >= 2) return ambiguous(s, intent, readings);

  const planned = await planFor(s, intent, bound);
  s.plan = planned.plan;
  if (planned.plan.verdict === 'infeasible') {
    const boundary = planned.plan.considered === 0 ? 'no_candidate_source' : 'no_access_path';
    return s.refuse(refusalFrom(boundary, planned.plan.reason, { attribute: intent.attribute, missing: planned.plan.required.missing }));
  }
  if (!EXECUTED.has(intent.shape)) return s.refuse(refusalFrom('unsupported_shape', `the plan is ${planned.plan.verdict} (${planned.plan.reason}), but this build does not yet execute ${intent.shape} questions`));

  if (intent.shape === 'grant_graph') return answerGrantGraph(s, intent, planned.plan, entityDisclosure);
  if (RECORD_SHAPES.has(intent.shape)) {
    const r = await executeRecordShape(s.ctx, intent, planned.candidates, s.nextAttempt);
    if ('refusal' in r) return s.refuse(r.refusal);
    const items = s.admitRecords(r);
    if (r.failure || items.length === 0) return s.refuse(refusalFrom(r.failure?.boundary ?? 'no_data', r.failure?.message ?? 'no records', { attribute: intent.attribute, entity: intent.canonical_entity ?? intent.entity, ...(r.failure?.code ? { code: r.failure.code } : {}) }));
    await s.writeEvidence(items);
    return answerRecords(s, items, r.total, [...(entityDisclosure ? [entityDisclosure] : []), ...r.notes]);
  }
  const evidence = await execute(s, intent, planned);
  if ('refusal' in evidence) return s.refuse(evidence.refusal);
  if ('clarify' in evidence) return askEntity(s, evidence.clarify);
  // population shapes: a result table, graded the same way (src/population/ask.ts)
  if (evidence.population) return answerPopulation(s, evidence.items, evidence.population, [...(entityDisclosure ? [entityDisclosure] : []), ...evidence.disclosures]);
  // independent second paths for the admitted values: within budget and deadline, never failing the answer
  s.crossChecks = await crossCheck(s.ctx, evidence.items, { serving: planned.serving ?? new Map(), nextAttempt: s.nextAttempt });
  await s.writeEvidence(evidence.items);
  return answer(s, evidence.items, [...(entityDisclosure ? [entityDisclosure] : []), ...evidence.disclosures]);
}

function askEntity(s: RunState, intent: Intent): AskResult {
  const options: ClarificationOption[] = intent.entity_candidates.map((c, i) => ({
    n: i + 1, id: c, label: c, value: null, unit: null, currency: null, period: null, evidence: null,
    assumptions: { measure: intent.attribute, measure_key: null, concept: null, operation: null, entity: c, period: periodLabel(intent.period) },
  }));
  s.resumeState = JSON.stringify({ intent, options: options.map((o) => ({ assumptions: o.assumptions })) } satisfies ResumeState);
  const question = `"${intent.entity}" could mean several entities. Which one do you mean?`;
  s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `entity "${intent.entity}": ${intent.entity_candidates.length} candidates; asking` });
  return { ...s.base('needs_clarification'), text: [question, ...options.map((o) => `${o.n}. ${o.label}`)].join('\n'), clarification: { question, options } };
}

function wanted(p: Intent['period']): PeriodWanted {
  if (!p) return { year: null, basis: 'unspecified', latest: true, text: 'the latest period' };
  return { year: p.year, basis: p.basis, latest: p.latest, text: p.text };
}


async function planFor(s: RunState, intent: Intent, bound?: Bound): Promise<Planned> {
  if (bound) {
    const a: Assessment = { candidateKey: bound.measureKey, kind: 'measure', publisherId: bound.operation.publisherId, title: bound.measure, discoveryRank: 1, verdict: 'exact', reason: `bound by the caller's choice (${bound.concept}); not reselected`, operation: bound.operation, complete: bound.operation.complete };
    const plan: Plan = { question: intent.question, shape: intent.shape, required: { exact: [], composed: [], missing: '' }, verdict: 'exact', reason: `exact: ${a.reason}`, selected: a, assessments: [a], considered: 1, discovered: 1 };
    s.ctx.emit({ stage: 'plan', by: 'planner', message: `bound concept ${bound.concept} via ${bound.operation.key}` });
    return { plan, candidates: [a], units: new Map(bound.unit ? [[bound.measureKey, bound.unit]] : []) };
  }
  // Adds embedding similarity when an embeddings model is configured; lexical only otherwise.
  const found: Candidate[] = await s.services.index.discoverAsync(discoveryIntent(intent), s.ctx.signal);
  s.ctx.discovery.push({ attribute: intent.attribute ?? '', candidates: found.length, ...(found[0] ? { top: found[0].card.key } : {}) });
  s.ctx.emit({ stage: 'discovery', by: s.services.index.hasEmbeddings ? 'discovery (BM25 + embeddings)' : 'discovery (BM25)', message: `${found.length} candidates${found[0] ? ` · top: ${found[0].card.title} (${found[0].card.publisherId})` : ''} · search all sources (the index decides)` });
  // ratio and correlation: each component measure discovered and planned on its own (its candidates are its choice points)
  const componentFound = new Map<string, Candidate[]>();
  if ((intent.shape === 'ratio' || intent.shape === 'correlation') && intent.attributes.length >= 2) {
    for (const a of intent.attributes) componentFound.set(a, await s.services.index.discoverAsync({ ...intent, attribute: a, attributes: [], interpretations: [] }, s.ctx.signal));
  }
  const plan = makePlan(intent, found, componentFound.size ? { components: componentFound } : {});
  // the planner's reason may already lead with its verdict ("exact: …"); it is said once
  s.ctx.emit({ stage: 'plan', by: 'planner', message: plan.reason.startsWith(`${plan.verdict}:`) ? plan.reason : `${plan.verdict}: ${plan.reason}` });
  const units = new Map(found.filter((c) => c.card.unit).map((c) => [c.card.key, c.card.unit!]));
  // ratio and correlation: each component measure planned on its own (its candidates are its choice points)
  const components = new Map<string, Assessment[]>();
  for (const [a, f] of componentFound) {
    const sub = { ...intent, attribute: a, attributes: [], interpretations: [] };
    for (const c of f) if (c.card.unit) units.set(c.card.key, c.card.unit);
    components.set(a, [...withSiblingOperations(makePlan(sub, f).assessments, f), ...furtherPopulationCandidates(sub, f, /^(number|count) of\b/i.test(a) ? grainOf({ geography: null, type: a }) : null)]);
  }
  // a ratio or correlation composes when every component has population choice points of its own
  if (plan.verdict === 'infeasible' && components.size >= 2 && [...components.values()].every((c) => c.length > 0)) {
    plan.verdict = 'composed';
    plan.reason = `composed: every component measure has eligible population operations of its own (${[...components.keys()].map((k) => JSON.stringify(k)).join(', ')})`;
  }
  return { plan, candidates: withSiblingOperations([...plan.assessments, ...(plan.verdict === 'infeasible' ? [] : plan.fallback ?? [])], found), units, serving: new Map(found.map((c) => [c.card.key, c.card.operations])), found, ...(components.size ? { components } : {}) };
}

/**
 * The plan names one operation per candidate (the best by priority); the other eligible operations
 * serving the same measure follow it as further choice points, so a blocked operation (no cassette,
 * no key) falls back to another way of reading the same measure.
 */
function withSiblingOperations(assessments: readonly Assessment[], found: readonly Candidate[]): Assessment[] {
  const cards = new Map(found.map((c) => [c.card.key, c.card]));
  const out: Assessment[] = [];
  for (const a of assessments) {
    if (a.verdict === 'infeasible' || !a.operation) continue;
    out.push(a);
    for (const op of cards.get(a.candidateKey)?.operations ?? []) {
      if (op.key === a.operation.key || !['keyed_read', 'period_read'].includes(op.kind)) continue;
      out.push({ ...a, verdict: 'composed', operation: op, reason: `${op.key} also serves ${a.candidateKey}` });
    }
  }
  return out;
}

type Executed = { items: AdmittedEvidence[]; disclosures: string[]; population?: PopulationAnswer } | { refusal: Refusal } | { clarify: Intent };

async function execute(s: RunState, intent: Intent, planned: Planned): Promise<Executed> {
  const out = await executeShape({ ctx: s.ctx, intent, planned, onAmbiguity: s.req.on_ambiguity ?? 'answer', nextAttempt: s.nextAttempt, ...(s.judge ? { judge: s.judge } : {}) });
  s.attempts.push(...out.attempts);
  if (out.kind === 'clarify') return { clarify: out.intent };
  if (out.kind === 'refused') {
    const f = out.failure;
    const c = out.context;
    return { refusal: refusalFrom(f.boundary, `${c.comparing ? `cannot compare: ${c.comparing} — ` : ''}${f.message}`, { attribute: c.attribute ?? null, entity: c.entity ?? null, period: c.period ?? null, ...(c.missing ? { missing: c.missing } : {}), ...(f.code ? { code: f.code } : {}) }) };
  }
  if (out.kind === 'declined') return { refusal: refusalFrom('unsupported_shape', `no executor reads this ${intent.shape} question`) };
  const items = out.items.map((item: Item) => { const e = { ...item, index: s.evidence.length + 1 } as AdmittedEvidence; s.evidence.push(e); return e; });
  return { items, disclosures: out.notes.map(renderNote), ...(out.population ? { population: out.population } : {}) };
}

interface Drafted { text: string; rendering: 'plain' | 'model'; figures: Figure[]; guarded: Figure[]; blockers: Figure[] }

async function draft(s: RunState, items: readonly AdmittedEvidence[], hedge: boolean): Promise<Drafted> {
  const sheet = factSheet(items);
  let text: string;
  let rendering: 'plain' | 'model' = 'plain';
  if (s.services.model) {
    const d = await draftWithModel(s.services.model, s.question, factSheetText(sheet, s.question, crossCheckSheetLines(sheet, s.crossChecks)), s.ctx.signal);
    s.ctx.usage.push({ role: 'synthesise', model: d.model, ...(d.usage ?? {}) });
    text = d.text; rendering = 'model';
  } else {
    text = renderPlain(sheet, { hedge });
  }
  const g = gradeText(text, sheet, secondPathsFor(sheet, s.crossChecks, s.iris));
  const idToIri = new Map(sheet.facts.map((f) => [f.id, s.iris.evidence(f.evidence.index)]));
  const withIris = (f: Figure): Figure => ({ ...f, facts: f.facts.map((id) => idToIri.get(id) ?? id) });
  return { text, rendering, figures: g.figures.map(withIris), guarded: g.guarded.map(withIris), blockers: strictBlockers(g) };
}

/** Status and list answers: the same grading, citations and qualification as measured values. */
async function answerRecords(s: RunState, items: AnyEvidence[], total: number, disclosures: string[], plainText?: string): Promise<AskResult> {
  const q = qualify(items, s.services.assuranceFloor ?? 1);
  if (q.abstain) return s.refuse(refusalFrom('low_assurance', q.statement));
  const sheet = recordSheet(items, total);
  let text: string;
  let rendering: 'plain' | 'model' = 'plain';
  if (s.services.model) {
    const d = await draftWithModel(s.services.model, s.question, recordSheetText(sheet, s.question), s.ctx.signal);
    s.ctx.usage.push({ role: 'synthesise', model: d.model, ...(d.usage ?? {}) });
    text = d.text; rendering = 'model';
  } else {
    text = plainText ?? renderRecords(sheet, { hedge: q.hedge });
  }
  const g = gradeText(text, sheet);
  const idToIri = new Map(sheet.items.map((f) => [f.id, s.iris.evidence(f.evidence.index)]));
  const withIris = (f: Figure): Figure => ({ ...f, facts: f.facts.map((id) => idToIri.get(id) ?? id) });
  const figures = g.figures.map(withIris);
  s.ctx.emit({ stage: 'answer', by: rendering === 'model' ? `model (${s.services.model!.modelFor('synthesise')})` : 'plain renderer', message: `${sheet.layout}: ${sheet.items.length} evidence item(s); ${figures.length} figure(s): ${figures.map((f) => `${f.text} ${f.grade}`).join(', ') || 'none'}` });
  const blockers = strictBlockers(g);
  if (s.req.strict && blockers.length > 0) return s.refuse(refusalFrom('unverified_figures', `strict mode: ${blockers.map((f) => `"${f.text}" is ${f.grade}`).join('; ')}`));
  // a listed record cites the one response it came from (its attempt may have read several pages)
  const own = new Map(items.map((e) => [s.iris.evidence(e.index), e.raw.sha256]));
  const citations = resolveCitations(s.services.store.rdf, s.iris.evidenceGraph, items.map((e) => s.iris.evidence(e.index)))
    .filter((c) => c.content_hash === null || c.content_hash === own.get(c.evidence));
  return {
    ...s.base('answered'), text, rendering, rendering_label: rendering === 'plain' ? PLAIN_LABEL : `drafted by ${s.services.model!.modelFor('synthesise')} from the fact sheet; figures graded by code`,
    figures: figures.map(figureOut), guarded_figures: g.guarded.map(withIris).map(figureOut), citations,
    qualification: { level: q.level, statement: q.statement, disclosures: mergeDisclosures([...q.disclosures, ...disclosures, ...corroboratedDisclosures(figures)]) },
    evidence: items.map((e) => evidenceOut(s, e)),
  };
}

export const figureOut = (f: Figure): FigureOut => ({ text: f.text, value: f.value, unit: f.unit, grade: f.grade, evidence: f.facts, ...(f.arithmetic ? { arithmetic: f.arithmetic } : {}), ...(f.note ? { note: f.note } : {}), ...(f.corroboratedBy ? { corroborated_by: f.corroboratedBy } : {}) });

async function answer(s: RunState, items: AdmittedEvidence[], disclosures: string[], extra: Partial<AskResult> = {}): Promise<AskResult> {
  const q = qualify(items, s.services.assuranceFloor ?? 1);
  if (q.abstain) return s.refuse(refusalFrom('low_assurance', q.statement));
  const d = await draft(s, items, q.hedge);
  s.ctx.emit({ stage: 'answer', by: d.rendering === 'model' ? `model (${s.services.model!.modelFor('synthesise')})` : 'plain renderer', message: `${d.figures.length} figure(s): ${d.figures.map((f) => `${f.text} ${f.grade}`).join(', ') || 'none'}` });
  if (s.req.strict && d.blockers.length > 0) {
    return s.refuse(refusalFrom('unverified_figures', `strict mode: ${d.blockers.map((f) => `"${f.text}" is ${f.grade}`).join('; ')}`));
  }
  const citations = resolveCitations(s.services.store.rdf, s.iris.evidenceGraph, items.map((e) => s.iris.evidence(e.index)));
  return {
    ...s.base('answered'), text: d.text, rendering: d.rendering, rendering_label: d.rendering === 'plain' ? PLAIN_LABEL : `drafted by ${s.services.model!.modelFor('synthesise')} from the fact sheet; figures graded by code`,
    figures: d.figures.map(figureOut), guarded_figures: d.guarded.map(figureOut), citations,
    qualification: { level: q.level, statement: q.statement, disclosures: mergeDisclosures([...q.disclosures, ...disclosures, ...comparisonDisclosures(items), ...crossCheckDisclosures(items, s.crossChecks), ...corroboratedDisclosures(d.figures)])
      // a note that is only a figure's period label is already in the sentence
      .filter((x) => !items.some((e) => e.period.label === x)) },
    evidence: items.map((e) => evidenceOut(s, e)), ...(s.crossChecks.length ? { cross_checks: crossChecksOut(s.crossChecks, s.iris) } : {}), ...extra,
  };
}

export function evidenceOut(s: RunState, e: AnyEvidence): AskResult['evidence'][number] {
  return {
    iri: s.iris.evidence(e.index), entity: e.entity.label, entity_key: `${e.entity.keyType}=${e.entity.key}`, measure: e.measure, measure_label: e.measureLabel,
    value: e.value, unit: e.unit, currency: e.currency ?? null, period: e.period.label, period_end: e.period.end ?? null, source: e.source,
    assurance: e.assurance.match === 'key' ? 'key_match' : 'name_match', warnings: e.assurance.warnings,
    ...(e.status ? { status: { field: e.status.field, code: e.status.code, meaning: e.status.meaning } } : {}),
    ...(e.record ? { record: { kind: e.record.kind, key: e.record.key, label: e.record.label } } : {}),
  };
}

/** Each reading fetched and validated; aliases collapse; material differences → on_ambiguity. */
async function ambiguous(s: RunState, intent: Intent, readings: string[]): Promise<AskResult> {
  const entityName = intent.canonical_entity ?? intent.entity;
  s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `"${intent.attribute}" has ${readings.length} readings (${readings.join(', ')}); each is fetched and validated before anyone is asked` });
  if (!entityName) return s.refuse(refusalFrom('entity_unresolved', 'the question names no entity', {}));
  const got: Array<{ reading: string; e: AdmittedEvidence; operation: OperationRef }> = [];
  const serving = new Map<string, OperationRef[]>();
  let lastPlan: Plan | null = null;
  let lastFailure: LeafResult | undefined;
  for (const reading of readings) {
    const sub = { ...intent, attribute: reading, interpretations: [] };
    const planned = await planFor(s, sub);
    lastPlan = planned.plan;
    for (const [k, ops] of planned.serving ?? []) serving.set(k, ops);
    if (planned.plan.verdict === 'infeasible') continue;
    const r = await searchLeaf(s.ctx, { question: intent.question, entity: entityName, attribute: reading, period: wanted(intent.period), candidates: planned.candidates, units: planned.units, nextAttempt: s.nextAttempt, branch: reading, ...(s.judge ? { judge: s.judge } : {}) });
    const e = s.admit(r);
    if (!e) { lastFailure = r; continue; }
    const op = planned.candidates.find((c) => c.candidateKey === e.measure)!.operation!;
    got.push({ reading, e, operation: op });
  }
  s.plan = lastPlan;
  if (got.length === 0) {
    if (lastFailure?.failure) return s.refuse(refusalFrom(lastFailure.failure.boundary, lastFailure.failure.message, { attribute: intent.attribute, entity: entityName, period: wanted(intent.period).text, ...(lastFailure.failure.code ? { code: lastFailure.failure.code } : {}) }));
    return s.refuse(refusalFrom('no_access_path', `no reading of "${intent.attribute}" has an eligible source`, { attribute: intent.attribute }));
  }
  // cross-check the readings that may be answered (not when the caller will choose first)
  if ((s.req.on_ambiguity ?? 'answer') !== 'ask') s.crossChecks = await crossCheck(s.ctx, got.map((g) => g.e), { serving, nextAttempt: s.nextAttempt });
  await s.writeEvidence(got.map((g) => g.e));
  const groups = collapseAliases(got.map((g) => ({ ...g, value: g.e.value })));
  const aliasNote = groups.filter((g) => g.length > 1).map((g) => `${g.map((x) => x.reading).join(' = ')} (same value)`);
  if (groups.length === 1) {
    return answer(s, [groups[0]![0]!.e], aliasNote.length ? [`readings collapsed as aliases: ${aliasNote.join('; ')}`] : []);
  }
  const lead = groups.map((g) => g[0]!);
  const mode = s.req.on_ambiguity ?? 'answer';
  s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `${lead.length} materially different values (${lead.map((g) => `${g.reading} ${formatValue(g.e.value, g.e.unit, g.e.currency)}`).join('; ')}); on_ambiguity=${mode}` });
  if (mode === 'ask') {
    const options: ClarificationOption[] = lead.map((g, i) => {
      const [, group, name] = g.e.measure.split('/');
      const assumptions: Assumptions = { measure: g.reading, measure_key: g.e.measure, concept: `${group}:${name}`, operation: `${g.operation.publisherId}/${g.operation.operationId}`, entity: g.e.entity.label, period: periodLabel(intent.period) };
      return { n: i + 1, id: `${group}:${name}`, label: `${cap(g.reading)} — ${g.e.measureLabel}`, value: g.e.value, unit: g.e.unit, currency: g.e.currency ?? null, period: g.e.period.label, evidence: s.iris.evidence(g.e.index), assumptions };
    });
    s.resumeState = JSON.stringify({ intent, options: lead.map((g, i) => ({ assumptions: options[i]!.assumptions, operation: g.operation, unit: g.e.unit })) } satisfies ResumeState);
    const question = `"${intent.attribute}" has ${options.length} materially different published meanings for ${lead[0]!.e.entity.label.replace(/\.$/, '')}. Which one do you mean?`;
    const text = [question, ...options.map((o) => `${o.n}. ${o.label}: ${formatValue(o.value!, o.unit!, o.currency ?? undefined)} (${o.period})`)].join('\n');
    return { ...s.base('needs_clarification'), text, clarification: { question, options }, evidence: lead.map((g) => evidenceOut(s, g.e)) };
  }
  const alternatives = lead.slice(1).map((g) => ({ interpretation: g.reading, value: g.e.value, unit: g.e.unit, period: g.e.period.label, evidence: s.iris.evidence(g.e.index) }));
  if (mode === 'all') {
    const answers: NonNullable<AskResult['answers']> = [];
    for (const g of lead) {
      const d = await draft(s, [g.e], false);
      answers.push({ interpretation: g.reading, text: d.text, figures: d.figures.map(figureOut), evidence: [s.iris.evidence(g.e.index)] });
    }
    const main = await answer(s, lead.map((g) => g.e), [`"${intent.attribute}" read ${lead.length} ways: ${lead.map((g) => g.reading).join(', ')}`]);
    return { ...main, answers };
  }
  return answer(s, [lead[0]!.e], [`"${intent.attribute}" read as ${lead[0]!.reading}; other readings differ materially (see alternatives)`], { alternatives });
}

const cap = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

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

/** A grant question's resume option binds the direction it chose: `direction:forward` / `direction:reverse`. */
const GRANT_DIRECTION = /^direction:(forward|reverse)$/;

/**
 * Grant-graph questions: read from the store's grant graph (src/grants), admitted as record
 * evidence citing the source documents, worded by the grant renderer and graded like any list.
 * Relation ambiguity (grants made or received) is asked, with both totals, or disclosed.
 */
async function answerGrantGraph(s: RunState, intent: Intent, plan: Plan, entityDisclosure?: string): Promise<AskResult> {
  const deps = { store: embeddedGrantStore(s.services.store), iris: grantIris(s.services.baseIri), registry: s.services.registry, signal: s.ctx.signal };
  const verdict = plan.verdict === 'exact' ? 'exact' : 'composed';
  const x = await executeGrantGraph(deps, intent, { onAmbiguity: s.req.on_ambiguity ?? 'answer', nextAttempt: s.nextAttempt, planVerdict: verdict });
  if (x.kind === 'clarify') {
    const name = intent.canonical_entity ?? intent.entity ?? '';
    const options: ClarificationOption[] = x.options.map((o) => ({
      n: o.n, id: `direction:${o.direction}`, label: cap(o.label), value: o.paid, unit: 'USD', currency: 'USD', period: null, evidence: null,
      assumptions: { measure: intent.attribute, measure_key: null, concept: `direction:${o.direction}`, operation: null, entity: name, period: periodLabel(intent.period) },
    }));
    s.resumeState = JSON.stringify({ intent, options: options.map((o) => ({ assumptions: o.assumptions })) } satisfies ResumeState);
    s.ctx.emit({ stage: 'ambiguity', by: 'grant graph', message: `relation ambiguous: ${x.options.map((o) => `${o.label} ${formatValue(o.paid, 'USD', 'USD')}`).join('; ')}; asking` });
    return { ...s.base('needs_clarification'), text: [x.question, ...options.map((o) => `${o.n}. ${o.label}: ${formatValue(o.value!, 'USD', 'USD')} paid`)].join('\n'), clarification: { question: x.question, options } };
  }
  if (x.attempt) s.attempts.push(x.attempt);
  if (x.kind === 'refused') {
    const f = x.failure;
    const boundary = f.code === 'not_in_graph' || f.code === 'ambiguous_org' ? 'entity_unresolved' : f.code === 'unmappable' ? 'not_understood' : 'no_data';
    return s.refuse(refusalFrom(boundary, x.reason, { attribute: intent.attribute, entity: intent.canonical_entity ?? intent.entity, code: f.code }));
  }
  const items = x.items.map((item) => { const e: AnyEvidence = { ...item, index: s.evidence.length + 1 }; s.evidence.push(e); return e; });
  await s.writeEvidence(items);
  return answerRecords(s, items, items.length, [...(entityDisclosure ? [entityDisclosure] : []), ...x.disclosures], x.text);
}
