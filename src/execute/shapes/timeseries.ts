/**
 * Timeseries: the keyed search resolves the measure once, on the last period, then every other
 * period is read bound to it, concurrently (common.ts `readSeries`). A relative span the
 * interpreter did not turn into years is not understood — never "no data".
 */
import { searchLeaf } from '../leaf.ts';
import { leafRequest, noEntityRead, readSeries, refusal, seriesPeriods, wanted } from './common.ts';
import type { ShapeExecutor } from './types.ts';

export const timeseries: ShapeExecutor = {
  shapes: ['timeseries'],
  name: 'keyed timeseries',
  async execute(i) {
    const { intent } = i;
    const entity = intent.canonical_entity ?? intent.entity;
    if (!entity) return noEntityRead(i);
    const periods = seriesPeriods(intent);
    // the periods were not read (a relative span such as "the last five years" is not resolved offline): not a lack of data
    if (periods.length === 0) return refusal('not_understood', 'periods_unread', 'the periods of the series were not read from the question: it names no years, and a relative span ("the last five years", "over time") is not resolved to years', { missing: 'the years named (for example "from 2019 to 2023")' });
    return readSeries(i, periods, (p, cands, branch) => (ctx) => searchLeaf(ctx, leafRequest(i, entity, wanted(p, i.intent), cands, branch)), i.planned.candidates, {
      plan: (measure) => `timeseries: one keyed read per period against ${measure} (resolved once), ${periods.length - 1} more concurrently`,
      context: (period) => ({ attribute: intent.attribute, entity, period }),
    });
  },
};
