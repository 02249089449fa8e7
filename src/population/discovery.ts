/**
 * What a population question asks discovery for. An aggregate's measure words carry how the
 * members are combined ("average poverty rate", "mean income"): the combining word is the
 * computation (src/execute/shapes/aggregate.ts reads it from the intent), not part of the measure,
 * and left in it ranks cards named for another average ("average household size") first.
 * "Total" stays: it is part of most measure names ("total revenue", "total population").
 */
import type { Intent } from '../understand/intent.ts';

const COMBINING = /^\s*(?:the\s+)?(?:average|mean|typical|sum\s+of|combined)\s+(?:of\s+(?:the\s+)?)?/i;

export function measureOfAggregate(attribute: string): string {
  const m = attribute.replace(COMBINING, '').trim();
  return m.length >= 2 ? m : attribute;
}

export function discoveryIntent(intent: Intent): Intent {
  if (intent.shape !== 'aggregate' || !intent.attribute) return intent;
  const attribute = measureOfAggregate(intent.attribute);
  return attribute === intent.attribute ? intent : { ...intent, attribute };
}
