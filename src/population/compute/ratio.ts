/**
 * Ratios and per-capita figures: a numerator and a denominator, each a value read and admitted on
 * its own (a member's value or an aggregate over a population), divided in code. Compatibility is
 * checked before dividing and reported either as a refusal (units that cannot form the ratio, a
 * zero denominator, members of different grain) or as alignment warnings the answer shows with
 * the components and the formula (different periods, different match methods).
 */
import type { ComputeRefusal, Computed } from './common.ts';

export interface RatioComponent {
  /** What the value is (a catalog measure key, or `count of <class>`). */
  measure: string;
  /** The measure as the publisher labels it (a keyed read's admitted label), when not a population's. */
  label?: string;
  value: number;
  unit: string;
  currency?: string;
  /** The period label and its end date, when known. */
  period: { label: string; end?: string };
  /** Who the value is about: a member key or a scope. */
  about: { grain: string; key: string; label: string };
  /** How the entity was matched: by a canonical key (fips, ein) or by name. */
  match: 'key' | 'name';
  /** Evidence IRIs (or ids) the value rests on. */
  evidence: string[];
}

export type RatioWarning =
  | { code: 'periods_differ'; numerator: string; denominator: string; years: number | null }
  | { code: 'match_methods_differ'; numerator: 'key' | 'name'; denominator: 'key' | 'name' }
  | { code: 'entities_differ'; numerator: string; denominator: string };

export interface Ratio {
  value: number;
  /** The multiplier applied: 1 for a plain ratio, 100 for percent, 100000 for "per 100,000". */
  scale: number;
  unit: string;
  numerator: RatioComponent;
  denominator: RatioComponent;
  formula: { op: 'divide'; scale: number };
  warnings: RatioWarning[];
}

const yearOf = (p: { end?: string }) => (p.end ? Number(p.end.slice(0, 4)) : null);

/**
 * `strict`: the two components are measures of one entity (a company's net income and revenue),
 * so they must be of the same period and the same entity — a margin of one year's income over
 * another year's revenue, or of two organizations, is no ratio at all (a refusal, not a warning).
 * A per-capita figure (a count over a survey's population) may differ in period, said as a warning.
 */
export function ratio(numerator: RatioComponent, denominator: RatioComponent, scale = 1, opts: { strict?: boolean } = {}): Computed<Ratio> {
  if (denominator.value === 0) return { ok: false, refusal: { code: 'zero_denominator', denominator: denominator.measure } };
  if (numerator.about.grain !== denominator.about.grain) return { ok: false, refusal: { code: 'grain_mismatch', grains: [numerator.about.grain, denominator.about.grain] } };
  const refusal = unitRefusal(numerator, denominator);
  if (refusal) return { ok: false, refusal };
  if (opts.strict && numerator.about.key !== denominator.about.key) return { ok: false, refusal: { code: 'entity_mismatch', entities: [numerator.about.label, denominator.about.label] } };
  if (opts.strict && numerator.period.label !== denominator.period.label) return { ok: false, refusal: { code: 'period_mismatch', periods: [numerator.period.label, denominator.period.label] } };
  const warnings: RatioWarning[] = [];
  if (numerator.period.label !== denominator.period.label) {
    const a = yearOf(numerator.period); const b = yearOf(denominator.period);
    warnings.push({ code: 'periods_differ', numerator: numerator.period.label, denominator: denominator.period.label, years: a !== null && b !== null ? Math.abs(a - b) : null });
  }
  if (numerator.match !== denominator.match) warnings.push({ code: 'match_methods_differ', numerator: numerator.match, denominator: denominator.match });
  if (numerator.about.key !== denominator.about.key) warnings.push({ code: 'entities_differ', numerator: numerator.about.label, denominator: denominator.about.label });
  const unit = scale === 100 && numerator.unit === denominator.unit ? '%' : denominator.unit === 'count' && numerator.unit !== 'count' ? `${numerator.unit}/person` : scale === 1 ? 'ratio' : `per ${scale}`;
  return { ok: true, value: { value: (numerator.value / denominator.value) * scale, scale, unit, numerator, denominator, formula: { op: 'divide', scale }, warnings } };
}

/** A share (percent) needs like units; a per-capita figure a count below; a dollar over a percent means nothing. */
function unitRefusal(n: RatioComponent, d: RatioComponent): ComputeRefusal | null {
  if (d.unit === '%') return { code: 'unit_mismatch', units: [n.unit, d.unit], why: 'a percentage cannot be a denominator' };
  if (n.unit === '%' ) return { code: 'unit_mismatch', units: [n.unit, d.unit], why: 'a percentage is already a ratio' };
  if (n.currency && d.currency && n.currency !== d.currency) return { code: 'unit_mismatch', units: [n.unit, d.unit], why: 'different currencies' };
  return null;
}
