/**
 * The bookkeeping of one run (not module state: one per call): attempts, admitted evidence and its
 * numbering, cross-checks, the intent and plan as they are decided, and the writes to the store
 * (evidence graph, run graph). Every refusal goes through `refuse`, which words it once.
 */
import type { Plan } from '../plan/plan.ts';
import { planToQuads } from '../plan/rdf.ts';
import type { Intent } from '../understand/index.ts';
import type { QueryContext } from '../execute/context.ts';
import type { Attempt } from '../execute/attempt.ts';
import type { CrossCheck } from '../execute/corroborate.ts';
import type { Item } from '../execute/shapes/index.ts';
import type { AnyEvidence } from '../evidence/types.ts';
import type { RunIris } from '../evidence/iris.ts';
import { attemptRunQuads, crossCheckQuads, crossCheckRunQuads, evidenceQuads } from '../evidence/rdf.ts';
import { renderRefusal, refusalText, type RefusalDecision } from '../answer/wording.ts';
import { modelJudge } from '../validate/model-judge.ts';
import type { SemanticJudge } from '../validate/adjudicate.ts';
import { runQuads, toNQuads } from './record.ts';
import type { AskServices } from './services.ts';
import type { AskRequest, AskResult } from './types.ts';

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
  get onAmbiguity() { return this.req.on_ambiguity ?? 'answer'; }
  /** The residual semantic check, when a model is configured (it may only reject). */
  get judge(): SemanticJudge | undefined {
    const m = this.services.model;
    return m ? modelJudge(m, (u) => this.ctx.usage.push({ role: 'classify', ...u })) : undefined;
  }

  /** Admitted items numbered in the run (E1, E2, … in the order given). */
  number<T extends Item>(items: readonly T[]): Array<T & { index: number }> {
    return items.map((item) => { const e = { ...item, index: this.evidence.length + 1 }; this.evidence.push(e as AnyEvidence); return e; });
  }

  /** Writes the admitted evidence (must conform to the shapes) so citations can be resolved. */
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
      attempts: [...this.attempts].sort((a, b) => a.n - b.n).map((a) => ({ n: a.n, source: a.source, operation: a.operation, measure: a.measure ?? null, disposition: a.disposition, ...(a.reason ? { reason: a.reason } : {}), elapsed_ms: Math.round(a.elapsedMs), ...(a.failure ? { failure: a.failure } : {}), ...(a.bindings.vintage ? { vintage: a.bindings.vintage } : {}) })),
      ...(this.resumedFrom ? { resumed_from: this.resumedFrom } : {}),
    };
  }

  refuse(d: RefusalDecision): AskResult {
    const r = renderRefusal(d);
    this.ctx.emit({ stage: 'refusal', by: 'ask', message: `refused (${r.boundary}): ${r.reason}` });
    return { ...this.base('refused'), text: refusalText(r), refusal: r };
  }
}
