/**
 * The grant_graph shape executor: questions about who funds whom, answered from the grant graph
 * (a materialized index in the store, src/grants/) rather than from a publisher call.
 *
 * Input: ShapeInput with `grantGraph` (the store holding the graph and its IRIs); without it the
 * executor declines. Output: evidence (record items citing the source documents of the filings
 * they were read from; disclosures as notes), a refusal with a typed failure, or a clarification
 * when the relation is ambiguous (grants made or received) and the caller asked to be asked — the
 * two readings travel as the intent's interpretations, each with its total in the trace.
 * The store read is one recorded attempt; it is not a connector call, so it does not go through
 * the engine's FetchChoice (the engine has no store-read choice kind yet).
 */
import type * as GrantExecute from '../../grants/execute.ts';
import { text } from '../notes.ts';
import type { ShapeExecutor, ShapeOutcome } from './types.ts';

export const grantGraph: ShapeExecutor = {
  shapes: ['grant_graph'],
  name: 'grant graph',
  async execute(input): Promise<ShapeOutcome> {
    const g = input.grantGraph;
    if (!g) return { kind: 'declined', attempts: [] };
    const verdict = input.planned.plan.verdict === 'exact' ? 'exact' : 'composed';
    // loaded by the first grant question only (see src/ask/grants.ts)
    const { executeGrantGraph }: typeof GrantExecute = await import('../../grants/execute.ts');
    const x = await executeGrantGraph({ ...g, registry: input.ctx.registry, signal: input.ctx.signal }, input.intent, { onAmbiguity: input.onAmbiguity, nextAttempt: input.nextAttempt, planVerdict: verdict });
    if (x.kind === 'clarify_org') {
      input.ctx.emit({ stage: 'ambiguity', by: 'grant graph', message: `"${x.asked}" matches ${x.options.length} ${x.role}s: ${x.options.map((o) => o.label).join('; ')}` });
      return { kind: 'clarify', attempts: [], intent: { ...input.intent, entity_status: 'ambiguous', entity_candidates: x.options.slice(0, 5).map((o) => o.choice) } };
    }
    if (x.kind === 'clarify') {
      for (const o of x.options) input.ctx.emit({ stage: 'ambiguity', by: 'grant graph', message: `${o.label}: $${o.paid.toLocaleString('en-US')} paid in ${o.grants} grants` });
      return { kind: 'clarify', attempts: [], intent: { ...input.intent, interpretations: x.options.map((o) => o.label) } };
    }
    const attempts = x.attempt ? [x.attempt] : [];
    const name = input.intent.canonical_entity ?? input.intent.entity;
    if (x.kind === 'refused') {
      const f = x.failure;
      const boundary = f.code === 'not_in_graph' || f.code === 'ambiguous_org' ? 'entity_unresolved' : f.code === 'unmappable' ? 'not_understood' : 'no_data';
      return { kind: 'refused', attempts, failure: { boundary, code: f.code, message: x.reason, source: 'assay-grant-graph' }, context: { attribute: input.intent.attribute, entity: name } };
    }
    return { kind: 'evidence', attempts, items: x.items, notes: x.disclosures.map(text), answer: 'records', total: x.items.length };
  },
};
