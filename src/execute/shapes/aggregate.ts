/**
 * Aggregate: a count of members, or the sum or mean of a measure, over a complete population
 * ("How many private foundations are there in DC?"). Computed in code over every usable member;
 * never the first page of a search. A bound the operations cannot cover ("in the United States"
 * over per-state extracts) is refused naming the missing coverage.
 */
import { aggregate as compute, type AggregateOp } from '../../population/compute/aggregate.ts';
import { computeRefused, evidenceFor, isOutcome, populationOutcome, refuseSearch, searchPopulation, templateFor } from '../../population/execute.ts';
import { scopeLabel } from '../../population/geo.ts';
import { grainOf } from '../../population/choices.ts';
import type { Intent } from '../../understand/intent.ts';
import type { ShapeExecutor } from './types.ts';

/** Count of members ("number of …"), mean ("average …") or sum ("total …") — from the intent's measure words. */
export function aggregateOp(intent: Pick<Intent, 'attribute'>): { op: AggregateOp; members: string | null } {
  const a = intent.attribute ?? '';
  const count = /^(?:number|count) of\s+(.+)$/i.exec(a);
  if (count) return { op: 'count', members: count[1]! };
  if (/\b(average|mean|typical)\b/i.test(a)) return { op: 'mean', members: null };
  return { op: 'sum', members: null };
}

const PER_PEOPLE = /\bper\s+(?:capita|person|head|resident|inhabitant|household|(?:\d[\d,]*|thousand|million)\b[^?.]*)/i;

/** Rows shown beside an aggregate: a few members, so the figure cites its publisher response. */
const EXAMPLES = 5;

export const aggregate: ShapeExecutor = {
  shapes: ['aggregate'],
  name: 'population aggregate',
  async execute(i) {
    // a count or total asked per person ("private foundations per 100,000 residents") is a ratio to the population, never the bare count
    const rate = PER_PEOPLE.exec(i.intent.attribute ?? '');
    if (rate) return computeRefused(i, [], { code: 'rate_asked_as_count', words: rate[0] });
    const { op, members } = aggregateOp(i.intent);
    const t = templateFor(i, members ?? i.intent.type);
    if (isOutcome(t)) return t;
    // a count's members are the rows: the grain is what they are (organizations, counties)
    const template = op === 'count' && !t.grain ? { ...t, grain: grainOf({ geography: null, type: members }) } : t;
    const s = await searchPopulation(i, i.planned.candidates, template);
    if (!s.read) return refuseSearch(i, s, template.grain, scopeLabel(template.scope));
    const a = compute(s.read, op);
    if (!a.ok) return computeRefused(i, s.out.attempts, a.refusal);
    const rows = s.read.usable.slice(0, EXAMPLES);
    return populationOutcome(s.out.attempts, evidenceFor(i, s.read, rows), {
      shape: 'aggregate', reads: [s.read], result: { kind: 'aggregate', aggregate: a.value },
      itemOf: Object.fromEntries(rows.map((row, k) => [`0:${row.key}`, k])),
    });
  },
};
