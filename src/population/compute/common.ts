/**
 * What every computation over a population shares: the refusal when a population cannot support
 * the statistic asked (partial, a search sample, nothing usable), as typed values.
 */
import type { PopulationRead } from '../types.ts';

/** Why a population cannot answer a statistic; worded once, at the end. */
export type ComputeRefusal =
  | { code: 'partial_population'; operation: string; verdict: 'partial' | 'sample'; usable: number; declared: number | null; reasons: string[] }
  | { code: 'no_usable_members'; operation: string; members: number; excluded: number }
  | { code: 'suppressed_series'; operation: string; measure: string; usable: number; members: number }
  | { code: 'threshold_unit_mismatch'; threshold: string; thresholdUnit: string; measureUnit: string; measure?: string }
  | { code: 'grain_mismatch'; grains: [string, string] }
  | { code: 'period_mismatch'; periods: [string, string] }
  /** The two components of one entity's ratio were read for different entities. */
  | { code: 'entity_mismatch'; entities: [string, string] }
  | { code: 'too_few_aligned'; aligned: number; minimum: number }
  | { code: 'no_variation'; measure: string }
  | { code: 'zero_denominator'; denominator: string }
  | { code: 'unit_mismatch'; units: [string, string]; why: string }
  /** A sum of rates or of medians: the figure adds up nothing (the members' own rates or medians do not add). */
  | { code: 'not_additive'; measure: string; kind: 'rate' | 'median' }
  /** A count or total asked per person or per N residents: that is a ratio to the population, not a count. */
  | { code: 'rate_asked_as_count'; words: string }
  /** A ranking or aggregate whose question sets a threshold: ranking or counting every member would drop the condition asked. */
  | { code: 'threshold_not_applied'; shape: 'ranking' | 'aggregate'; threshold: string };

export type Computed<T> = { ok: true; value: T } | { ok: false; refusal: ComputeRefusal };

/** A statistic over the whole population needs the whole population: never a partial read or a search page. */
export function requireComplete(read: PopulationRead): ComputeRefusal | null {
  const c = read.completeness;
  if (c.verdict !== 'complete') return { code: 'partial_population', operation: `${read.source}/${read.operation}`, verdict: c.verdict, usable: c.usable, declared: c.declared, reasons: c.reasons.map((r) => r.code) };
  return null;
}

export function requireUsable(read: PopulationRead): ComputeRefusal | null {
  if (read.usable.length === 0) return { code: 'no_usable_members', operation: `${read.source}/${read.operation}`, members: read.completeness.members, excluded: read.completeness.read - read.completeness.usable };
  return null;
}
