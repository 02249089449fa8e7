/**
 * Public surface of planning, and `planQuestion`: intent → discovery (per component for ratios
 * and correlations) → plan, the path the CLI and the eval harness share.
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
