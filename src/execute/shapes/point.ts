/**
 * Point: one entity, one measure, one period — the keyed search over every planned candidate, the
 * first record that validates wins. A name several entities of the kind read share (three Cook
 * Counties) is asked under on_ambiguity=ask, never picked.
 */
import { searchLeaf } from '../leaf.ts';
import { evidence, latestNotes, leafRequest, noEntityRead, refused, wanted } from './common.ts';
import type { ShapeExecutor } from './types.ts';

export const point: ShapeExecutor = {
  shapes: ['point'],
  name: 'keyed point read',
  async execute(i) {
    const { intent } = i;
    const entity = intent.canonical_entity ?? intent.entity;
    if (!entity) return noEntityRead(i);
    const p = wanted(intent.period, intent);
    i.ctx.emit({ stage: 'execution_plan', by: 'executor', message: `point: keyed reads over ${i.planned.candidates.length} candidate measure(s), first that validates wins` });
    const r = await searchLeaf(i.ctx, leafRequest(i, entity, p, i.planned.candidates));
    if (r.evidence) return evidence([r.evidence], r.attempts, latestNotes([r]));
    if (r.ambiguity && i.onAmbiguity === 'ask') return { kind: 'clarify', attempts: r.attempts, intent: { ...intent, entity_status: 'ambiguous', entity_candidates: r.ambiguity.candidates } };
    return refused(r, r.attempts, { attribute: intent.attribute, entity, period: p.text });
  },
};
