/**
 * Further population candidates: after the plan's own candidates, the discovery candidates that
 * carry every word of the measure and its head noun, whose operation a population provider reads
 * and the planner judges eligible — in discovery order, a bounded number. The planner keeps the
 * candidates scoring within reach of the best; for a population question the best-scoring card
 * may be a population that cannot answer (another vintage), and the next eligible one is then the
 * next choice point, as backtracking across sources requires. Never a keyed read.
 */
import type { Candidate } from '../discover/index.ts';
import { requirementFor } from '../plan/algebra.ts';
import { assess, type Assessment } from '../plan/plan.ts';
import type { Intent } from '../understand/intent.ts';
import { providerFor } from '../connectors/population/providers.ts';
import type { Grain } from './types.ts';

export const FURTHER_CANDIDATES = 1000;

/**
 * `members`: a count of members ("number of private foundations") is served by an operation whose
 * rows are those members, so population operations returning rows of that grain qualify too.
 */
export function furtherPopulationCandidates(intent: Intent, found: readonly Candidate[], members?: Grain | null): Assessment[] {
  const req = requirementFor(intent);
  const out: Assessment[] = [];
  // an operation card that reads a population of many measures (every PLACES measure of every county) is
  // read through the measures it serves that carry the question's words, best-scored first
  const opCards = new Set(found.filter((c) => c.card.kind === 'operation').slice(0, 3).flatMap((c) => c.card.operations.filter((o) => providerFor(o.publisherId, o.operationId)).map((o) => o.key)));
  const servedMeasures = opCards.size && !members ? found.filter((c) => c.card.kind === 'measure' && c.coverage >= 0.5 && c.card.operations.some((o) => opCards.has(o.key))).slice(0, 3) : [];
  // judged over its population operations only: a card's keyed reads are never a population
  const populationOnly = (c: Candidate): Candidate => ({ ...c, card: { ...c.card, operations: c.card.operations.filter((o) => providerFor(o.publisherId, o.operationId)) } });
  for (const c of servedMeasures) {
    const a = assess(intent, req, populationOnly(c));
    if (a.verdict !== 'infeasible' && a.operation && providerFor(a.operation.publisherId, a.operation.operationId)) out.push({ ...a, reason: `a measure the planned operation serves: ${a.reason}` });
  }
  for (const c of found) {
    if (out.length >= FURTHER_CANDIDATES) break;
    if (servedMeasures.includes(c)) continue;
    const rowsOfGrain = members && c.card.kind === 'operation' && c.card.operations.some((o) => providerFor(o.publisherId, o.operationId)?.operations[o.operationId] === members);
    if (!rowsOfGrain && (c.card.kind !== 'measure' || c.coverage < 1 || c.headCovered === false)) continue;
    if (!c.card.operations.some((o) => providerFor(o.publisherId, o.operationId))) continue;
    const a = assess(intent, req, populationOnly(c));
    if (a.verdict !== 'infeasible' && a.operation && providerFor(a.operation.publisherId, a.operation.operationId)) out.push({ ...a, reason: `further choice point after the plan's candidates: ${a.reason}` });
  }
  return out;
}
