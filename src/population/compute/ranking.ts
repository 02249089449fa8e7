/**
 * Ranking: the top or bottom N members of a complete population by one measure, ranked locally.
 * Competition ranking ("1, 2, 2, 4"): equal values share a rank, and a list cut at N extends to
 * every member tied with the Nth, so a tie is never broken by response order. Ranks are list
 * numbering (exempt from grading); the values shown are the members' own (verified).
 */
import type { PopulationRead, PopulationRow } from '../types.ts';
import { requireComplete, requireUsable, type Computed } from './common.ts';

export interface RankingSpec { order: 'desc' | 'asc'; limit: number }

export interface RankedEntry { rank: number; row: PopulationRow; tied: boolean }

export interface Ranking {
  order: 'desc' | 'asc';
  limit: number;
  entries: RankedEntry[];
  /** Members ranked (usable ones). */
  ranked: number;
  /** Entries shown past the limit because they tie with the last one inside it. */
  extendedForTies: number;
}

export const DEFAULT_RANKING_LIMIT = 5;

export function rank(read: PopulationRead, spec: RankingSpec): Computed<Ranking> {
  const refusal = requireComplete(read) ?? requireUsable(read);
  if (refusal) return { ok: false, refusal };
  const sign = spec.order === 'desc' ? -1 : 1;
  // stable: equal values keep response order, but share their rank
  const sorted = read.usable.map((row, i) => ({ row, i })).sort((a, b) => sign * (a.row.value! - b.row.value!) || a.i - b.i).map((x) => x.row);
  const entries: RankedEntry[] = [];
  for (let k = 0; k < sorted.length; k++) {
    const row = sorted[k]!;
    const r = k > 0 && sorted[k - 1]!.value === row.value ? entries[k - 1]!.rank : k + 1;
    if (k >= spec.limit && r !== entries[k - 1]?.rank) break;
    entries.push({ rank: r, row, tied: false });
  }
  const counts = new Map<number, number>();
  for (const r of sorted) counts.set(r.value!, (counts.get(r.value!) ?? 0) + 1);
  for (const e of entries) e.tied = (counts.get(e.row.value!) ?? 0) > 1;
  return { ok: true, value: { order: spec.order, limit: spec.limit, entries, ranked: sorted.length, extendedForTies: Math.max(0, entries.length - spec.limit) } };
}
