/**
 * Aggregates over a complete population: count of members, sum and mean of a measure. Computed in
 * code from every usable member (never the first page of anything); the result carries its
 * arithmetic as data (operation, n, the members' keys are the population's) so the answer can
 * grade it `derived`. A source-native aggregate, where a publisher declares one, is read as a
 * value instead and does not come through here.
 */
import type { PopulationRead } from '../types.ts';
import { requireComplete, requireUsable, type Computed } from './common.ts';

export type AggregateOp = 'count' | 'sum' | 'mean';

export interface Aggregate {
  op: AggregateOp;
  value: number;
  /** Members the value is computed over. */
  n: number;
  unit: string;
  currency?: string;
  /** For sum and mean: the total of the values (mean = sum / n). */
  sum?: number;
  /**
   * A mean of areas' own rates, medians or amounts, each area counted once whatever its size: not
   * the rate or median of the areas taken together. Disclosed with the figure.
   */
  unweighted?: 'rate' | 'median' | 'amount';
}

/** What kind of value a measure is, for whether it adds up: a rate (percent), a median, or an amount. */
export function valueKind(read: Pick<PopulationRead, 'measure'>): 'rate' | 'median' | 'amount' {
  if (read.measure.unit === '%') return 'rate';
  if (/\bmedian\b/i.test(read.measure.label)) return 'median';
  return 'amount';
}

export function aggregate(read: PopulationRead, op: AggregateOp): Computed<Aggregate> {
  const refusal = requireComplete(read) ?? (op === 'count' ? null : requireUsable(read));
  if (refusal) return { ok: false, refusal };
  // a count of members counts every member (grain, scope and class decided), whether or not the measure read with them has a value
  if (op === 'count') return { ok: true, value: { op, value: read.completeness.members, n: read.completeness.members, unit: 'count' } };
  const n = read.usable.length;
  const kind = valueKind(read);
  if (op === 'sum' && kind !== 'amount') return { ok: false, refusal: { code: 'not_additive', measure: read.measure.key, kind } };
  const sum = read.usable.reduce((s, r) => s + r.value!, 0);
  if (!Number.isSafeInteger(Math.round(sum)) && Math.abs(sum) > Number.MAX_SAFE_INTEGER) throw new Error(`sum of ${n} values exceeds exact double precision`);
  const value = op === 'sum' ? sum : sum / n;
  const areas = read.grain === 'state' || read.grain === 'county' || read.grain === 'place';
  return { ok: true, value: { op, value, n, unit: read.measure.unit, ...(read.measure.currency ? { currency: read.measure.currency } : {}), sum, ...(op === 'mean' && areas ? { unweighted: kind } : {}) } };
}
