/**
 * Filtered subset: members whose value passes a threshold with its unit ("Rhode Island
 * organizations with revenue over $100 million"). Exhaustive questions test every member of a
 * complete population and return every match, the count derived from them; existential ones
 * ("give me some …") test members until enough match and never claim to have found all.
 */
import { subset } from '../../population/compute/subset.ts';
import { computeRefused, evidenceFor, isOutcome, populationOutcome, refuseSearch, searchPopulation, templateFor } from '../../population/execute.ts';
import { scopeLabel } from '../../population/geo.ts';
import { refusal } from './common.ts';
import type { ShapeExecutor } from './types.ts';

/** Matches listed as evidence at most (an exhaustive subset still counts every match). */
export const SUBSET_SHOWN = 50;

export const filteredSubset: ShapeExecutor = {
  shapes: ['filtered_subset'],
  name: 'population filtered subset',
  async execute(i) {
    const th = i.intent.threshold;
    if (!th) return refusal('not_understood', 'no_threshold', 'the question names no threshold to test members against', { attribute: i.intent.attribute, missing: 'a threshold with its unit ("over $1 billion", "above 30%")' });
    const t = templateFor(i);
    if (isOutcome(t)) return t;
    const s = await searchPopulation(i, i.planned.candidates, t);
    const quantifier = i.intent.quantifier ?? 'exhaustive';
    // generate-and-test may run over a partial population: examples, never all
    const read = s.read ?? (quantifier === 'existential' ? s.partial : undefined);
    if (!read) return refuseSearch(i, s, t.grain, scopeLabel(t.scope));
    const r = subset(read, th, quantifier, i.intent.limit ?? 5);
    if (!r.ok) return computeRefused(i, s.out.attempts, r.refusal);
    const rows = r.value.matches.slice(0, SUBSET_SHOWN);
    return populationOutcome(s.out.attempts, evidenceFor(i, read, rows), {
      shape: 'filtered_subset', reads: [read], result: { kind: 'filtered_subset', subset: r.value },
      itemOf: Object.fromEntries(rows.map((row, k) => [`0:${row.key}`, k])),
    });
  },
};
