/**
 * Filtered subsets: the members whose value passes a threshold. The quantifier decides the
 * mechanism. Exhaustive ("which …"): every member of a complete population is tested and every
 * match returned, its count derived from them. Existential ("give me some …"): members are
 * generated in the order the publisher lists them and tested until enough match; it never claims
 * to have found all, and may run over a partial population (a sample can hold examples).
 *
 * A threshold carries its unit ("over $1 billion" is USD 1e9): a threshold in dollars tests a
 * dollar measure, a percent a percent; any other pairing is refused, never coerced.
 */
import type { PopulationRead, PopulationRow } from '../types.ts';
import { requireComplete, requireUsable, type Computed } from './common.ts';

export interface Threshold { op: '>' | '>=' | '<' | '<=' | '='; value: number; unit: string | null; text: string }

export interface Subset {
  quantifier: 'exhaustive' | 'existential';
  threshold: Threshold;
  /** Matches, largest value first for > and >=, smallest first for < and <=. */
  matches: PopulationRow[];
  /** Members tested. */
  tested: number;
  /** Exhaustive only: every member was tested, so `matches.length` is the count. */
  complete: boolean;
}

const UNIT_FAMILY: Record<string, string> = { USD: 'USD', '%': '%', percent: '%', count: 'count', people: 'count', persons: 'count' };

export function passes(v: number, t: Threshold): boolean {
  switch (t.op) {
    case '>': return v > t.value;
    case '>=': return v >= t.value;
    case '<': return v < t.value;
    case '<=': return v <= t.value;
    default: return v === t.value;
  }
}

export function subset(read: PopulationRead, threshold: Threshold, quantifier: 'exhaustive' | 'existential', enough = 5): Computed<Subset> {
  const measureUnit = UNIT_FAMILY[read.measure.unit] ?? read.measure.unit;
  const thresholdUnit = threshold.unit === null ? null : UNIT_FAMILY[threshold.unit] ?? threshold.unit;
  if (thresholdUnit !== null && thresholdUnit !== measureUnit) return { ok: false, refusal: { code: 'threshold_unit_mismatch', threshold: threshold.text, thresholdUnit: threshold.unit!, measureUnit: read.measure.unit, measure: read.measure.label } };
  if (quantifier === 'exhaustive') {
    const refusal = requireComplete(read) ?? requireUsable(read);
    if (refusal) return { ok: false, refusal };
  } else {
    const refusal = requireUsable(read);
    if (refusal) return { ok: false, refusal };
  }
  const order = threshold.op === '<' || threshold.op === '<=' ? 1 : -1;
  if (quantifier === 'exhaustive') {
    const matches = read.usable.filter((r) => passes(r.value!, threshold)).sort((a, b) => order * (a.value! - b.value!));
    return { ok: true, value: { quantifier, threshold, matches, tested: read.usable.length, complete: true } };
  }
  const matches: PopulationRow[] = [];
  let tested = 0;
  for (const r of read.usable) {
    tested++;
    if (passes(r.value!, threshold)) matches.push(r);
    if (matches.length >= enough) break;
  }
  return { ok: true, value: { quantifier, threshold, matches, tested, complete: false } };
}
