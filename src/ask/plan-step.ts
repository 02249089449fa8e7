/**
 * The plan step of ask: discovery (lexical, plus embeddings when configured) → the deterministic
 * plan → the candidates the executor searches, in order: the plan's eligible assessments, each
 * followed by the other operations serving the same measure, then the fallback candidates beyond
 * the relevance cut (plan.ts `fallbackCandidates`). A resumed choice binds one concept: no reselection.
 */
import type { Candidate, OperationRef } from '../discover/index.ts';
import { plan as makePlan, type Assessment, type Plan } from '../plan/plan.ts';
import type { Planned } from '../execute/shapes/index.ts';
import type { Intent } from '../understand/index.ts';
import type { RunState } from './state.ts';

/** A reading the caller chose in a clarification: the concept and operation are bound. */
export interface Bound { measureKey: string; concept: string; measure: string; operation: OperationRef; unit?: string }

export async function planFor(s: RunState, intent: Intent, bound?: Bound): Promise<Planned> {
  if (bound) {
    const a: Assessment = { candidateKey: bound.measureKey, kind: 'measure', publisherId: bound.operation.publisherId, title: bound.measure, discoveryRank: 1, verdict: 'exact', reason: `bound by the caller's choice (${bound.concept}); not reselected`, operation: bound.operation, complete: bound.operation.complete };
    const plan: Plan = { question: intent.question, shape: intent.shape, required: { exact: [], composed: [], missing: '' }, verdict: 'exact', reason: `exact: ${a.reason}`, selected: a, assessments: [a], considered: 1, discovered: 1 };
    s.ctx.emit({ stage: 'plan', by: 'planner', message: `bound concept ${bound.concept} via ${bound.operation.key}` });
    return { plan, candidates: [a], units: new Map(bound.unit ? [[bound.measureKey, bound.unit]] : []) };
  }
  // Adds embedding similarity when an embeddings model is configured; lexical only otherwise.
  const found: Candidate[] = await s.services.index.discoverAsync(intent, s.ctx.signal);
  s.ctx.discovery.push({ attribute: intent.attribute ?? '', candidates: found.length, ...(found[0] ? { top: found[0].card.key } : {}) });
  s.ctx.emit({ stage: 'discovery', by: s.services.index.hasEmbeddings ? 'discovery (BM25 + embeddings)' : 'discovery (BM25)', message: `${found.length} candidates${found[0] ? ` · top: ${found[0].card.title} (${found[0].card.publisherId})` : ''} · search all sources (the index decides)` });
  const plan = makePlan(intent, found);
  // an eligible plan's reason leads with its verdict; an infeasible one's says why
  s.ctx.emit({ stage: 'plan', by: 'planner', message: plan.verdict === 'infeasible' ? `infeasible: ${plan.reason}` : plan.reason });
  const units = new Map(found.filter((c) => c.card.unit).map((c) => [c.card.key, c.card.unit!]));
  const ordered = [...plan.assessments, ...(plan.verdict === 'infeasible' ? [] : plan.fallback ?? [])];
  return { plan, candidates: withSiblingOperations(ordered, found), units, serving: new Map(found.map((c) => [c.card.key, c.card.operations])), found };
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
