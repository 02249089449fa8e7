/**
 * The seam where the rules of issue 10 decide, before any request, whether a planned candidate can
 * answer what the intent asks. The rule functions belong to src/validate; the engine calls them only
 * through here.
 *
 * - Kind of quantity (validate/quantity.ts `checkQuantity`): a candidate whose catalog unit cannot be
 *   the kind asked (a count is never answered in USD, a percent never in a count) is a boundary with
 *   code `quantity_mismatch` before it is fetched. It does not prune the source: another concept of
 *   the same publisher may be of the right kind. The same check runs again on the unit a fetched
 *   record states (`recordQuantity`), since a catalog card may state no unit.
 * - Universe (validate/universe.ts `checkUniverse`): a measure counted over families or households
 *   is not read for a question about people (or naming no universe, for families): code
 *   `universe_mismatch`, before it is fetched.
 * - Period grain is checked on what a source returned (`grainAvailability`): only the records say
 *   which grains a source publishes, so "a quarter asked; the source has year" is decided after the
 *   read, never by substituting an annual value.
 */
import type { Period as RecordPeriod } from '../connectors/records.ts';
import type { Assessment } from '../plan/plan.ts';
import { grainAsked, type Grain, type Intent, type QuantityKind } from '../understand/intent.ts';
import { checkGrainAvailable } from '../validate/grain.ts';
import { checkQuantity, type UnitOf } from '../validate/quantity.ts';
import { checkUniverse } from '../validate/universe.ts';
import type { Failure } from './failure.ts';

export type Eligibility = (candidate: Assessment, unit: string | undefined) => Failure | undefined;

/** A unit that cannot be the kind asked, as a boundary of the candidate (undefined: it may be). */
export function quantityFailure(asked: QuantityKind | null, unit: UnitOf, source?: string): Failure | undefined {
  const q = checkQuantity(asked, unit);
  if (q.ok) return undefined;
  return {
    boundary: 'no_data', code: 'quantity_mismatch', ...(source ? { source } : {}),
    message: `${q.asked} asked; a value in ${q.unit} is ${q.unitKind === 'money' ? 'money' : `a ${q.unitKind}`}, which cannot answer it`,
    params: { asked: q.asked, unit: q.unit, unitKind: q.unitKind },
  };
}

/** A measure counted over another universe than the one asked (validate/universe.ts): the families' poverty percent is not "the poverty rate". */
export function universeFailure(words: string | null | undefined, cand: Pick<Assessment, 'title' | 'publisherId'>): Failure | undefined {
  if (!words) return undefined;
  const u = checkUniverse(words, cand.title);
  if (u.ok) return undefined;
  return {
    boundary: 'no_access_path', code: 'universe_mismatch', source: cand.publisherId,
    message: `${cand.title} counts ${u.measure}, not ${u.asked ?? `people ("${words}" names no universe)`}: another statistic, not read`,
    params: { universe: u.measure, asked: u.asked ?? 'people (not named)' },
  };
}

/** The eligibility check for one question's candidates (before any request). */
export function eligibilityFor(intent: Pick<Intent, 'quantity'> & Partial<Pick<Intent, 'attribute'>>): Eligibility {
  const asked = intent.quantity ?? null;
  return (cand, unit) => universeFailure(intent.attribute, cand) ?? (unit ? quantityFailure(asked, { unit }, cand.publisherId) : undefined);
}

/** The kind-of-quantity check on a fetched record's own unit. */
export const recordQuantity = (asked: QuantityKind | null, rec: { unit: string; currency?: string }): Failure | undefined =>
  quantityFailure(asked, { unit: rec.unit, ...(rec.currency ? { currency: rec.currency } : {}) });

/** None of a source's records is at the grain asked: the boundary names the grains it has. */
export function grainAvailability(asked: Grain | null, periods: readonly RecordPeriod[]): Failure | undefined {
  const g = checkGrainAvailable(asked, periods);
  if (g.ok) return undefined;
  return {
    boundary: 'no_data', code: 'grain_unavailable',
    message: `a ${g.asked} value asked; the source has ${g.available.map((x) => x.replace('_', ' ')).join(', ')} values only`,
    params: { asked: g.asked, available: g.available },
  };
}

export { grainAsked };
