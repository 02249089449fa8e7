/**
 * A ratio of two measures of one named entity ("Apple's net profit margin", "the share of a
 * nonprofit's revenue that came from contributions"): each component is a keyed read of its own
 * through the one engine (src/execute/leaf.ts `searchLeaf`, the same choice points, validation and
 * "latest" order as a point question), numerator first. The denominator is read for the period the
 * numerator was admitted for, so both are one year's figures of one filing basis; the division is
 * done in code (src/population/compute/ratio.ts, strict: the same entity and the same period, like
 * units or a count below), and the answer shows both components, the formula and a derived figure.
 *
 * Input: the intent (entity, the two components in `attributes`, period) and each component's
 * planned candidates (`planned.components`). Output: the two admitted values and the typed ratio,
 * or the refusal of the component that could not be read (its own boundary, naming it), or the
 * compatibility refusal. Never a value a component did not admit.
 */
import type { AdmittedEvidence } from '../../evidence/types.ts';
import { ratio as divide, type RatioComponent } from '../../population/compute/ratio.ts';
import { computeRefused } from '../../population/execute.ts';
import type { Intent } from '../../understand/intent.ts';
import type { PeriodWanted } from '../../validate/structural.ts';
import type { Attempt } from '../attempt.ts';
import { eligibilityFor } from '../eligibility.ts';
import { searchLeaf } from '../leaf.ts';
import type { Note } from '../notes.ts';
import { latestNotes, pinFor, refusal, refused, wanted } from './common.ts';
import type { Item, ShapeInput, ShapeOutcome } from './types.ts';
import type { OperationRef } from '../../discover/index.ts';

type Admitted = Omit<AdmittedEvidence, 'index'>;

/** The period the denominator is read for: the numerator's own (its fiscal year, or the year its period ends). */
export function periodOf(e: Admitted, asked: PeriodWanted): PeriodWanted {
  const p = e.period;
  if (p.basis === 'fiscal' && p.fiscalYear !== undefined) return { year: p.fiscalYear, basis: 'fiscal', latest: false, text: p.label, quarter: null, grain: asked.grain ?? 'year' };
  const year = p.end ? Number(p.end.slice(0, 4)) : asked.year;
  return { year: year ?? null, basis: p.basis === 'calendar' ? 'calendar' : 'unspecified', latest: year === null || year === undefined, text: p.label, quarter: null, grain: asked.grain ?? 'year' };
}

/** Who a keyed value is about, as one key: the Wikidata item when known, else the identifier it was read by. */
const entityKey = (e: Admitted) => e.entity.qid ?? `${e.entity.keyType}:${e.entity.key}`;

export function component(e: Admitted, index: number): RatioComponent {
  return {
    measure: e.measure, label: e.measureLabel, value: e.value as number, unit: e.unit, ...(e.currency ? { currency: e.currency } : {}),
    period: { label: e.period.label, ...(e.period.end ? { end: e.period.end } : {}) },
    about: { grain: 'entity', key: entityKey(e), label: e.entity.label }, match: e.assurance.match === 'name' ? 'name' : 'key', evidence: [String(index)],
  };
}

/**
 * The cross-check sources declared for the components: every catalog operation the planner found
 * serving each component's measure (the plan's choice and its sibling operations), as a point
 * read's `serving`; the cross-check itself skips the operation the value was admitted from.
 */
function servingOf(i: ShapeInput, attrs: readonly string[]): Map<string, OperationRef[]> {
  const out = new Map<string, OperationRef[]>();
  for (const [k, ops] of i.planned.serving ?? []) out.set(k, [...ops]);
  for (const a of attrs) {
    for (const c of i.planned.components?.get(a) ?? []) {
      if (!c.operation) continue;
      const ops = out.get(c.candidateKey) ?? [];
      if (!ops.some((o) => o.key === c.operation!.key)) ops.push(c.operation);
      out.set(c.candidateKey, ops);
    }
  }
  return out;
}

export async function keyedRatio(i: ShapeInput, entity: string, attrs: readonly string[], scale: number): Promise<ShapeOutcome> {
  const attempts: Attempt[] = [];
  const admitted: Admitted[] = [];
  const notes: Note[] = [];
  const asked = wanted(i.intent.period, i.intent);
  i.ctx.emit({ stage: 'execution_plan', by: 'executor', message: `ratio of one entity: keyed reads of ${attrs.map((a) => `"${a}"`).join(' and ')} for ${entity}, each validated on its own; the denominator read for the numerator's period` });
  for (const [k, a] of attrs.entries()) {
    const candidates = i.planned.components?.get(a) ?? [];
    if (candidates.length === 0) return refusal('no_access_path', 'component_unplanned', `no candidate was planned for the component "${a}"`, { attribute: a, entity });
    const period = k === 0 ? asked : periodOf(admitted[0]!, asked);
    // each component is a measure of its own: the ratio's kind of quantity (a percent) is not the component's
    const sub: Pick<Intent, 'quantity'> = { quantity: null };
    const r = await searchLeaf(i.ctx, {
      question: i.intent.question, entity, attribute: a, quantity: null, period, candidates, units: i.planned.units, nextAttempt: i.nextAttempt,
      eligible: eligibilityFor(sub), branch: a, ...pinFor(i, entity), ...(i.judge ? { judge: i.judge } : {}),
    });
    attempts.push(...r.attempts);
    if (!r.evidence || typeof r.evidence.value !== 'number') {
      if (r.ambiguity && i.onAmbiguity === 'ask') return { kind: 'clarify', attempts, intent: { ...i.intent, entity_status: 'ambiguous', entity_candidates: r.ambiguity.candidates } };
      if (!r.evidence) return refused(r, attempts, { attribute: a, entity, period: period.text, missing: `the ${k === 0 ? 'numerator' : 'denominator'} "${a}" for ${entity}${k === 1 ? ` in ${period.text}` : ''}` });
      return refusal('no_access_path', 'component_not_numeric', `the component "${a}" read for ${entity} is not a number`, { attribute: a, entity });
    }
    admitted.push(r.evidence);
    notes.push(...latestNotes([r]));
  }
  const comps = admitted.map(component);
  const q = divide(comps[0]!, comps[1]!, scale, { strict: true });
  if (!q.ok) return computeRefused(i, attempts, q.refusal);
  const items: Item[] = admitted;
  return {
    kind: 'evidence', attempts, items, notes, answer: 'population',
    population: { shape: 'ratio', reads: [], result: { kind: 'ratio', ratio: q.value }, itemOf: {}, crossCheck: servingOf(i, attrs) },
  };
}
