/**
 * Public surface of planning, and `planQuestion`: intent → discovery (per component for ratios
 * and correlations) → plan, the path the CLI and the eval harness share; `planQuestionAsync` is the
 * same with embedding similarity when the index has embeddings.
 */
import type { DiscoveryIndex } from '../discover/index.ts';
import type { Intent } from '../understand/intent.ts';
import { plan, type Plan } from './plan.ts';

export * from './plan.ts';
export { requirementFor } from './algebra.ts';

export function planQuestion(intent: Intent, index: DiscoveryIndex): Plan {
  const candidates = index.discover(intent);
  if ((intent.shape === 'ratio' || intent.shape === 'correlation') && intent.attributes.length >= 2) {
    const components = new Map(intent.attributes.map((a) => [a, index.discover({ ...intent, attribute: a, attributes: [], interpretations: [] })]));
    return plan(intent, candidates, { components });
  }
  return plan(intent, candidates);
}

/** `planQuestion` with embedding similarity in discovery when the index has embeddings attached. */
export async function planQuestionAsync(intent: Intent, index: DiscoveryIndex, signal?: AbortSignal): Promise<Plan> {
  const candidates = await index.discoverAsync(intent, signal);
  if ((intent.shape === 'ratio' || intent.shape === 'correlation') && intent.attributes.length >= 2) {
    const components = new Map<string, Awaited<ReturnType<DiscoveryIndex['discoverAsync']>>>();
    for (const a of intent.attributes) components.set(a, await index.discoverAsync({ ...intent, attribute: a, attributes: [], interpretations: [] }, signal));
    return plan(intent, candidates, { components });
  }
  return plan(intent, candidates);
}
