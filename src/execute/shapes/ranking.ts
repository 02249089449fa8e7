/**
 * Ranking: the top or bottom N members of a complete population by one measure ("the ten most
 * populous states", "the five California counties with the highest median household income").
 * Keyed reads are never a population; the first complete population the plan's candidates offer
 * is ranked locally (competition ties), and a partial one is refused naming why.
 */
import { DEFAULT_RANKING_LIMIT, rank } from '../../population/compute/ranking.ts';
import { computeRefused, evidenceFor, isOutcome, populationOutcome, refuseSearch, searchPopulation, templateFor } from '../../population/execute.ts';
import { scopeLabel } from '../../population/geo.ts';
import type { ShapeExecutor } from './types.ts';

export const ranking: ShapeExecutor = {
  shapes: ['ranking'],
  name: 'population ranking',
  async execute(i) {
    const t = templateFor(i);
    if (isOutcome(t)) return t;
    const s = await searchPopulation(i, i.planned.candidates, t);
    if (!s.read) return refuseSearch(i, s, t.grain, scopeLabel(t.scope));
    const r = rank(s.read, { order: i.intent.order ?? 'desc', limit: i.intent.limit ?? DEFAULT_RANKING_LIMIT });
    if (!r.ok) return computeRefused(i, s.out.attempts, r.refusal);
    const rows = r.value.entries.map((e) => e.row);
    return populationOutcome(s.out.attempts, evidenceFor(i, s.read, rows), {
      shape: 'ranking', reads: [s.read], result: { kind: 'ranking', ranking: r.value },
      itemOf: Object.fromEntries(rows.map((row, k) => [`0:${row.key}`, k])),
    });
  },
};
