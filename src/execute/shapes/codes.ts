/**
 * Reads that need no entity resolution (../unkeyed.ts), for point, timeseries and comparison
 * questions: a question naming no entity reads the operations that take no entity key (the
 * dataset's own scope, disclosed); a question naming something the registry does not know exactly
 * tries the operations keyed by a publisher-defined code (a currency, an opportunity id) first.
 * `declined` — not this kind of read — lets the keyed executor for the shape try.
 */
import type { AdmittedEvidence } from '../../evidence/types.ts';
import type { Intent, Period } from '../../understand/intent.ts';
import { resolveName } from '../../resolve/registry.ts';
import type { Assessment } from '../../plan/plan.ts';
import type { Attempt } from '../attempt.ts';
import type { Note } from '../notes.ts';
import { readUnkeyed, unkeyedCandidates, type UnkeyedResult } from '../unkeyed.ts';
import { checkQuantity } from '../../validate/quantity.ts';
import { readEach, readSeries, refused, seriesPeriods } from './common.ts';
import type { Item, RefusalContext, ShapeExecutor, ShapeInput, ShapeOutcome } from './types.ts';

/** How the value was keyed: the dataset's scope, the publisher's own code, or a name bound to that code. */
export function codeNote(e: Pick<AdmittedEvidence, 'entity' | 'source'>, asked: string | null): Note {
  if (e.entity.keyType === 'scope') return { code: 'scope_read', scope: e.entity.label, source: e.source };
  if ((asked ?? e.entity.key) === e.entity.key) return { code: 'code_read', keyType: e.entity.keyType, key: e.entity.key };
  return { code: 'code_bound', asked: asked!, keyType: e.entity.keyType, key: e.entity.key };
}

/** An organisation the registry knows by exactly this name is read by its key, not as a code. */
async function registryKnows(i: ShapeInput, name: string): Promise<boolean> {
  const bundles = await resolveName(i.ctx.registry, name, {}, i.ctx).catch(() => []);
  return bundles.some((b) => b.match === 'exact');
}

const readWith = (i: ShapeInput, code: string | null) => (period: Period | null, candidates: Assessment[], branch?: string) => (ctx: ShapeInput['ctx']) => readUnkeyed(ctx, {
  question: i.intent.question, attribute: i.intent.attribute, code, codes: i.intent.codes, period, candidates, units: i.planned.units, nextAttempt: i.nextAttempt, ...(branch ? { branch } : {}), ...(i.judge ? { judge: i.judge } : {}),
});

/** A failed code read: several published rows matching with different values are asked (at most five options), else refused. */
function refuseCode(i: ShapeInput, code: string | null) {
  return (r: UnkeyedResult, attempts: Attempt[], context: RefusalContext): ShapeOutcome => {
    if (r.ambiguous && i.onAmbiguity === 'ask' && r.ambiguous.options.length <= 5) {
      const intent: Intent = { ...i.intent, entity: i.intent.entity ?? r.ambiguous.code, entity_status: 'ambiguous', entity_candidates: r.ambiguous.options.map((o) => o.label) };
      return { kind: 'clarify', attempts, intent };
    }
    return refused(r, attempts, { ...context, entity: code });
  };
}

/** Whether a candidate's catalog unit can answer the kind of quantity the intent asks (validate/quantity.ts). */
const ofKindAsked = (i: ShapeInput, key: string) => {
  const unit = i.planned.units.get(key);
  return !unit || checkQuantity(i.intent.quantity ?? null, { unit }).ok;
};

export const codeReads: ShapeExecutor = {
  shapes: ['point', 'timeseries', 'comparison'],
  name: 'scope and publisher-code reads',
  async execute(i) {
    if (i.intent.shape === 'comparison') return compareCodes(i);
    const { intent } = i;
    const code = intent.canonical_entity ?? intent.entity;
    // a candidate whose unit cannot be the kind of quantity asked is not read (an exchange rate for "the unemployment rate")
    const candidates = unkeyedCandidates(i.ctx, i.planned.candidates, code !== null).filter((c) => ofKindAsked(i, c.candidateKey));
    if (candidates.length === 0) return { kind: 'declined', attempts: [] };
    if (code !== null && await registryKnows(i, code)) return { kind: 'declined', attempts: [] };
    const read = readWith(i, code);
    const what = code ? `the publisher's own code "${code}"` : 'no entity key (the dataset\'s own scope)';
    const refuse = refuseCode(i, code);
    const context = (period: string): RefusalContext => ({ attribute: intent.attribute, period });

    if (intent.shape === 'point') {
      i.ctx.emit({ stage: 'execution_plan', by: 'executor', message: `point: ${candidates.length} candidate measure(s) read with ${what}, first that validates wins` });
      const r = await read(intent.period, candidates)(i.ctx);
      if (r.unbound && code) return { kind: 'declined', attempts: r.attempts };
      if (r.evidence) return { kind: 'evidence', answer: 'values', items: [r.evidence], attempts: r.attempts, notes: [codeNote(r.evidence, code)] };
      return refuse(r, r.attempts, context(intent.period?.text ?? 'the latest period'));
    }

    const periods = seriesPeriods(intent);
    if (periods.length === 0) return { kind: 'declined', attempts: [] };
    const out = await readSeries(i, periods, (p, cands, branch) => read(p, cands, branch), candidates, {
      plan: (measure) => `timeseries: one read per period against ${measure} with ${what} (resolved once), ${periods.length - 1} more concurrently`,
      declines: (first) => !!(first.unbound && code),
      context, refuse,
    });
    if (out.kind !== 'evidence') return out;
    const last = out.items[out.items.length - 1]!;
    return { ...out, notes: [codeNote(last, code), ...out.notes] };
  },
};

/** A comparison of publisher-defined codes (two currencies): one code-keyed read each, concurrently; any failure sinks it. */
async function compareCodes(i: ShapeInput): Promise<ShapeOutcome> {
  const { intent } = i;
  const candidates = unkeyedCandidates(i.ctx, i.planned.candidates, true).filter((c) => ofKindAsked(i, c.candidateKey));
  if (candidates.length === 0 || intent.entities.length < 2) return { kind: 'declined', attempts: [] };
  for (const name of intent.entities) if (await registryKnows(i, name)) return { kind: 'declined', attempts: [] };
  i.ctx.emit({ stage: 'execution_plan', by: 'executor', message: `comparison: one read per publisher-defined code (${intent.entities.join(', ')}), concurrently; a failing branch cancels its siblings` });
  const out = await readEach(i, intent.entities, (code) => readWith(i, code)(intent.period, candidates, code));
  // a code no declared parameter or published row binds: not this kind of comparison, the keyed path tries
  if (out.results.some((r) => r.unbound)) return { kind: 'declined', attempts: out.attempts };
  if (out.failedBranch !== undefined) {
    const name = intent.entities[out.failedBranch]!;
    return refused(out.results[out.failedBranch]!, out.attempts, { attribute: intent.attribute, entity: name, period: intent.period?.text ?? null, comparing: name });
  }
  const items: Item[] = [];
  const notes: Note[] = [];
  out.results.forEach((r, k) => { if (r.evidence) { items.push(r.evidence); notes.push(codeNote(r.evidence, intent.entities[k]!)); } });
  return { kind: 'evidence', answer: 'values', items, attempts: out.attempts, notes };
}
