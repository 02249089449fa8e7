/**
 * The seam where the rules of issue 10 decide, before any request, whether a planned candidate can
 * answer what the intent asks: the kind of quantity (a count is never answered in USD), the period
 * grain (a quarter is never answered by a year). The rule functions belong to src/validate and
 * src/understand; the engine calls them only through here, so wiring one in is a change to this
 * file alone.
 *
 * Today's behaviour: every planned candidate is eligible (the checks that exist run on the fetched
 * record, in validate/structural.ts).
 */
import type { Assessment } from '../plan/plan.ts';
import type { Intent } from '../understand/intent.ts';
import type { Failure } from './failure.ts';

export type Eligibility = (candidate: Assessment, unit: string | undefined) => Failure | undefined;

/** The eligibility check for one question's candidates. */
export function eligibilityFor(_intent: Intent): Eligibility {
  return () => undefined;
}
