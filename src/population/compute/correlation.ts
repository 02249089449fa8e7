/**
 * Correlation of two measures across the members of two complete populations at the same grain,
 * aligned on the members' canonical keys (FIPS for places). Members missing from either side, and
 * members whose value either side excluded (suppressed, not published), are counted, not imputed.
 * Pearson's r and Spearman's ρ (midranks for ties) come from simple-statistics; n is the aligned
 * members. Caveats travel as codes: an association across areas says nothing about individuals
 * (ecological fallacy), and neighbouring areas are not independent observations (spatial
 * autocorrelation), so no significance is claimed.
 */
import { createRequire } from 'node:module';
import type * as SimpleStatistics from 'simple-statistics';
import type { PopulationRead, PopulationRow } from '../types.ts';
import { requireComplete, type ComputeRefusal, type Computed } from './common.ts';

export const MIN_ALIGNED = 3;
/** A series most of whose members carry no value cannot stand for its population. */
export const MIN_USABLE_SHARE = 0.5;

export type CorrelationCaveat = 'ecological_fallacy' | 'spatial_autocorrelation' | 'periods_differ' | 'correlation_not_causation';

export interface AlignedPair { key: string; label: string; x: PopulationRow; y: PopulationRow }

export interface Correlation {
  pearson: number;
  spearman: number;
  n: number;
  pairs: AlignedPair[];
  /** Members of X with a value that Y does not hold (by key), and the converse. */
  onlyX: number;
  onlyY: number;
  /** Members of X whose Y value was excluded (suppressed, not published…), and the converse. */
  excludedInY: number;
  excludedInX: number;
  caveats: CorrelationCaveat[];
}

function suppressed(read: PopulationRead): ComputeRefusal | null {
  const c = read.completeness;
  if (c.members > 0 && c.usable / c.members >= MIN_USABLE_SHARE) return null;
  return { code: 'suppressed_series', operation: `${read.source}/${read.operation}`, measure: read.measure.recordMeasure, usable: c.usable, members: c.members };
}

export function correlate(x: PopulationRead, y: PopulationRead): Computed<Correlation> {
  if (x.grain !== y.grain) return { ok: false, refusal: { code: 'grain_mismatch', grains: [x.grain, y.grain] } };
  const refusal = requireComplete(x) ?? requireComplete(y) ?? suppressed(x) ?? suppressed(y);
  if (refusal) return { ok: false, refusal };
  const ys = new Map(y.usable.map((r) => [r.key, r]));
  const xs = new Map(x.usable.map((r) => [r.key, r]));
  const yAll = new Set(y.rows.map((r) => r.key));
  const xAll = new Set(x.rows.map((r) => r.key));
  const pairs: AlignedPair[] = [];
  let onlyX = 0; let excludedInY = 0;
  for (const r of x.usable) {
    const other = ys.get(r.key);
    if (other) pairs.push({ key: r.key, label: r.label, x: r, y: other });
    else if (yAll.has(r.key)) excludedInY++;
    else onlyX++;
  }
  let onlyY = 0; let excludedInX = 0;
  for (const r of y.usable) if (!xs.has(r.key)) { if (xAll.has(r.key)) excludedInX++; else onlyY++; }
  if (pairs.length < MIN_ALIGNED) return { ok: false, refusal: { code: 'too_few_aligned', aligned: pairs.length, minimum: MIN_ALIGNED } };
  const xv = pairs.map((p) => p.x.value!);
  const yv = pairs.map((p) => p.y.value!);
  if (new Set(xv).size < 2) return { ok: false, refusal: { code: 'no_variation', measure: x.measure.recordMeasure } };
  if (new Set(yv).size < 2) return { ok: false, refusal: { code: 'no_variation', measure: y.measure.recordMeasure } };
  const caveats: CorrelationCaveat[] = ['correlation_not_causation', 'ecological_fallacy'];
  if (['state', 'county', 'place'].includes(x.grain)) caveats.push('spatial_autocorrelation');
  if (x.period.label !== y.period.label) caveats.push('periods_differ');
  // loaded by the first correlation only (one large file every other process would compile for nothing)
  const { sampleCorrelation, sampleRankCorrelation } = createRequire(import.meta.url)('simple-statistics') as typeof SimpleStatistics;
  return { ok: true, value: { pearson: sampleCorrelation(xv, yv), spearman: sampleRankCorrelation(xv, yv), n: pairs.length, pairs, onlyX, onlyY, excludedInY, excludedInX, caveats } };
}
