/**
 * Comparison: the keyed point search fanned out to each entity named, concurrently; each branch
 * backtracks on its own, and a branch failing on its own cancels its siblings.
 */
import { searchLeaf } from '../leaf.ts';
import { evidence, latestNotes, leafRequest, readEach, refused, wanted } from './common.ts';
import type { Item, ShapeExecutor } from './types.ts';

export const comparison: ShapeExecutor = {
  shapes: ['comparison'],
  name: 'keyed comparison',
  async execute(i) {
    const { intent } = i;
    i.ctx.emit({ stage: 'execution_plan', by: 'executor', message: `comparison: one keyed read per entity (${intent.entities.join(', ')}), concurrently; a failing branch cancels its siblings` });
    const p = wanted(intent.period, intent);
    const out = await readEach(i, intent.entities, (name) => (ctx) => searchLeaf(ctx, leafRequest(i, name, p, i.planned.candidates, name)));
    if (out.failedBranch !== undefined) {
      const name = intent.entities[out.failedBranch]!;
      return refused(out.results[out.failedBranch]!, out.attempts, { attribute: intent.attribute, entity: name, period: p.text, comparing: name });
    }
    return evidence(out.results.flatMap((r): Item[] => r.evidence ? [r.evidence] : []), out.attempts, latestNotes(out.results));
  },
};
