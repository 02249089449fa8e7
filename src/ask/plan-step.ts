/**
 * The plan step of ask: discovery (lexical, plus embeddings when configured) → the deterministic
 * plan → the candidates the executor searches, in order: the plan's eligible assessments, each
 * followed by the other operations serving the same measure, then the fallback candidates beyond
 * the relevance cut (plan.ts `fallbackCandidates`). A ratio or correlation plans each component
 * measure on its own (`planComponents`): its candidates are that component's choice points. A resumed
 * choice binds one concept: no reselection.
 */
import type { Candidate, OperationRef } from '../discover/index.ts';
import { plan as makePlan, type Assessment, type Plan } from '../plan/plan.ts';
import type { Planned } from '../execute/shapes/index.ts';
import type { Intent } from '../understand/index.ts';
import { furtherPopulationCandidates } from '../population/further.ts';
import { grainOf } from '../population/choices.ts';
import { providerFor } from '../connectors/population/providers.ts';
import { discoveryIntent } from '../population/discovery.ts';
import { grantDiscoveryIntent } from './grants.ts';
import type { RunState } from './state.ts';

/**
 * What planning reads off a discovery result alone (units, the operations serving each measure,
 * the cards by key), built once per result: discovery can return every card (~17,600), and an ask
 * worker shares one frozen result among the questions with the same intent (src/server/ask/discovery-memo.ts).
 */
const derivedOf = new WeakMap<readonly Candidate[], { units: ReadonlyMap<string, string>; serving: Map<string, OperationRef[]>; cards: ReadonlyMap<string, Candidate['card']> }>();
function derived(found: readonly Candidate[]) {
  let d = derivedOf.get(found);
  if (!d) {
    // one pass, without a [key, value] pair per card per map (~17,600 cards: the pairs were most of a CLI ask's allocation here)
    const units = new Map<string, string>();
    const serving = new Map<string, OperationRef[]>();
    const cards = new Map<string, Candidate['card']>();
    for (const { card } of found) {
      if (card.unit) units.set(card.key, card.unit);
      serving.set(card.key, card.operations);
      cards.set(card.key, card);
    }
    d = { units, serving, cards };
    derivedOf.set(found, d);
  }
  return d;
}

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
  // a population aggregate's combining word ("average") is the computation, not part of the measure discovered
  const found: Candidate[] = withMemberPopulations(s, intent, await s.services.index.discoverAsync(intent.shape === 'grant_graph' ? grantDiscoveryIntent(intent) : discoveryIntent(intent), s.ctx.signal));
  s.ctx.discovery.push({ attribute: intent.attribute ?? '', candidates: found.length, ...(found[0] ? { top: found[0].card.key } : {}) });
  s.ctx.emit({ stage: 'discovery', by: s.services.index.hasEmbeddings ? 'discovery (BM25 + embeddings)' : 'discovery (BM25)', message: `${found.length} candidates${found[0] ? ` · top: ${found[0].card.title} (${found[0].card.publisherId})` : ''} · search all sources (the index decides)` });
  const componentFound = await discoverComponents(s, intent);
  const plan = makePlan(intent, found, componentFound.size ? { components: componentFound } : {});
  // Copied only when components add to it (ratio, correlation); otherwise the shared map (read only
  // downstream) is passed on: copying ~17,600 units cost ~5 ms per question in the gateway.
  const units = componentFound.size ? new Map(derived(found).units) : derived(found).units as Map<string, string>;
  const components = planComponents(intent, componentFound, units);
  // a ratio or correlation composes when every component has population choice points of its own
  if (plan.verdict === 'infeasible' && components.size >= 2 && [...components.values()].every((c) => c.length > 0)) {
    plan.verdict = 'composed';
    plan.reason = `composed: every component measure has eligible population operations of its own (${[...components.keys()].map((k) => JSON.stringify(k)).join(', ')})`;
  }
  // an eligible plan's reason leads with its verdict; an infeasible one's says why
  s.ctx.emit({ stage: 'plan', by: 'planner', message: plan.verdict === 'infeasible' || !plan.reason.startsWith(`${plan.verdict}:`) ? `${plan.verdict}: ${plan.reason}` : plan.reason });
  const ordered = [...plan.assessments, ...(plan.verdict === 'infeasible' ? [] : plan.fallback ?? [])];
  // `serving` is only read downstream (shared); `units` is added to by components (copied above).
  return { plan, candidates: withSiblingOperations(ordered, found), units, serving: derived(found).serving, found, ...(components.size ? { components } : {}) };
}

/**
 * A count of members ("How many private foundations are there in the District of Columbia?") is
 * served by every population operation whose rows are those members, whether or not a word of the
 * question matches its card: before this, the IRS extract was found only when the place's own
 * words ("DC", "Rhode Island") happened to occur in its card, so "the District of Columbia" was
 * refused where "DC" was answered. The operations found this way follow discovery's own, unscored.
 */
function withMemberPopulations(s: RunState, intent: Intent, found: Candidate[]): Candidate[] {
  const a = intent.attribute ?? '';
  if (!/^(number|count) of\b/i.test(a) || intent.attributes.length > 0) return found;
  const members = grainOf({ geography: null, type: a });
  if (!members) return found;
  const have = new Set(found.map((c) => c.card.key));
  const more = s.services.index.operationCandidates((card) => !have.has(card.key) && card.operations.some((o) => providerFor(o.publisherId, o.operationId)?.operations[o.operationId] === members), found.length);
  return more.length ? [...found, ...more] : found;
}

/** The measure of one component of a ratio or correlation, asked on its own. */
const componentIntent = (intent: Intent, attribute: string): Intent => ({ ...intent, attribute, attributes: [], interpretations: [] });

/** Ratio and correlation: each component measure discovered on its own. */
async function discoverComponents(s: RunState, intent: Intent): Promise<Map<string, Candidate[]>> {
  const out = new Map<string, Candidate[]>();
  if ((intent.shape !== 'ratio' && intent.shape !== 'correlation') || intent.attributes.length < 2) return out;
  for (const a of intent.attributes) out.set(a, await s.services.index.discoverAsync(componentIntent(intent, a), s.ctx.signal));
  return out;
}

/**
 * Each component's eligible candidates in planner priority, then the further population candidates
 * (a count of members, "number of X", is also served by operations whose rows are those members).
 */
function planComponents(intent: Intent, componentFound: ReadonlyMap<string, Candidate[]>, units: Map<string, string>): Map<string, Assessment[]> {
  const components = new Map<string, Assessment[]>();
  for (const [a, f] of componentFound) {
    const sub = componentIntent(intent, a);
    for (const c of f) if (c.card.unit) units.set(c.card.key, c.card.unit);
    const members = /^(number|count) of\b/i.test(a) ? grainOf({ geography: null, type: a }) : null;
    components.set(a, [...withSiblingOperations(makePlan(sub, f).assessments, f), ...furtherPopulationCandidates(sub, f, members)]);
  }
  return components;
}

/**
 * The plan names one operation per candidate (the best by priority); the other eligible operations
 * serving the same measure follow it as further choice points, so a blocked operation (no cassette,
 * no key) falls back to another way of reading the same measure.
 */
function withSiblingOperations(assessments: readonly Assessment[], found: readonly Candidate[]): Assessment[] {
  const cards = derived(found).cards;
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
