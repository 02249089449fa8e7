/**
 * Kind of quantity: can a candidate's unit answer the kind of quantity the intent asks?
 *
 * Input: the intent's `quantity` (count, money, percent, ratio, date, yes_no, records, or null)
 * and a candidate's unit as the catalog or the connector states it (USD, USD/shares, %, percent,
 * fraction, ratio, pure, 1, count, shares, date, …), with its currency and value type when known.
 * Output: `{ ok: true, unitKind }` or `{ ok: false, code: 'quantity_mismatch', … }`.
 *
 * Decided structurally, before any model and before any fetch: a dollar amount cannot answer
 * "how many employees", a count cannot answer "how much revenue", a percent cannot answer "when".
 * The rule rejects only what a unit *cannot* be: a dimensionless number may be a count or a
 * ratio, and a unit this table does not know is let through (`unit_unknown`) for the later checks,
 * never guessed into a kind.
 */
import type { QuantityKind } from '../understand/intent.ts';

export type UnitKind = 'money' | 'count' | 'percent' | 'ratio' | 'exchange_rate' | 'number' | 'date' | 'boolean' | 'duration' | 'physical' | 'text' | 'unknown';

export interface UnitOf {
  unit: string;
  currency?: string;
  /** The catalog's value type (decimal, integer, percent, string, boolean, date), when known. */
  valueType?: string;
}

export type QuantityCheck =
  | { ok: true; unitKind: UnitKind; note?: 'unit_unknown' | 'ratio_as_percent' | 'dimensionless' }
  | { ok: false; code: 'quantity_mismatch'; asked: QuantityKind; unit: string; unitKind: UnitKind };

/** ISO 4217-shaped codes, and money per something (USD/shares, USD-per-shares, USD/PartnershipUnit). */
const CURRENCY_CODE = /^[A-Z]{3}$/;
const MONEY_PER = /^[A-Z]{3}(?:\/|-per-)[A-Za-z]+$/;
const PHYSICAL = /^(?:volume|energy|sqft|sq ?ft|square ?feet|acres?|miles?|km|kilometers?|mw|mwh|kwh|gwh|btu|mmbtu|gal|gallons?|bbl|barrels?|tons?|tonnes?|kg|lbs?|pounds)$/i;
const DURATION = /^(?:years?|months?|days?|d|y|hours?|minutes?)$/i;
const COUNT = /^(?:count|shares|persons?|people|students|employees|households|units|number of .+)$/i;
const PERCENT = /^(?:%|percent|pct|percentage)$/i;
/** A share published as a fraction of 1 (the Scorecard's 0.0693 admission rate): a percent of another scale, never a count. */
const FRACTION = /^fraction$/i;
const RATIO = /^(?:ratio|pure|.+ per .+|.+ units? per [A-Z]{3})$/i;
/** The price of one currency in another ("foreign currency units per USD", "EUR per USD"): a ratio of currencies, never a share. */
const EXCHANGE = /^(?:.*currency units? per [A-Z]{3}|[A-Z]{3} per [A-Z]{3})$/i;
const NUMBER = /^(?:1|number|index|score)$/i;

/** The kind of a unit, from its spelling (and the currency and value type when given). */
export function unitKind(u: UnitOf): UnitKind {
  const unit = u.unit.trim();
  if (u.valueType === 'boolean') return 'boolean';
  if (u.valueType === 'date' || /^date$/i.test(unit)) return 'date';
  if (u.valueType === 'string') return 'text';
  if (PERCENT.test(unit) || FRACTION.test(unit) || u.valueType === 'percent') return 'percent';
  if (CURRENCY_CODE.test(unit) || MONEY_PER.test(unit) || (u.currency && /^[A-Z]{3}$/.test(u.currency) && !RATIO.test(unit) && !COUNT.test(unit))) return 'money';
  if (COUNT.test(unit)) return 'count';
  if (EXCHANGE.test(unit)) return 'exchange_rate';
  if (RATIO.test(unit)) return 'ratio';
  if (NUMBER.test(unit)) return 'number';
  if (DURATION.test(unit)) return 'duration';
  if (PHYSICAL.test(unit)) return 'physical';
  return 'unknown';
}

/** Which unit kinds can answer each kind of quantity asked. */
const ANSWERS: Readonly<Record<QuantityKind, ReadonlySet<UnitKind>>> = {
  count: new Set(['count', 'number']),
  money: new Set(['money']),
  percent: new Set(['percent', 'ratio', 'number']),
  // (an exchange rate answers a ratio asked, "the euro exchange rate"; a percent asked, "the unemployment rate", is a share of something)
  ratio: new Set(['ratio', 'percent', 'number', 'exchange_rate']),
  date: new Set(['date']),
  yes_no: new Set(['boolean']),
  // a list or a search is answered by records, never by one value
  records: new Set([]),
};

export function checkQuantity(asked: QuantityKind | null, candidate: UnitOf): QuantityCheck {
  const kind = unitKind(candidate);
  if (asked === null) return { ok: true, unitKind: kind };
  if (kind === 'unknown') return { ok: true, unitKind: kind, note: 'unit_unknown' };
  if (!ANSWERS[asked].has(kind)) return { ok: false, code: 'quantity_mismatch', asked, unit: candidate.unit, unitKind: kind };
  if (asked === 'percent' && kind === 'ratio') return { ok: true, unitKind: kind, note: 'ratio_as_percent' };
  if (kind === 'number' && asked !== 'ratio') return { ok: true, unitKind: kind, note: 'dimensionless' };
  return { ok: true, unitKind: kind };
}
