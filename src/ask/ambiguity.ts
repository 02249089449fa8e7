/**
 * Measure ambiguity. Readings come from the intent (`interpretations`) or, when the interpreter
 * gave none, from a small lexicon of measure words with materially different published readings
 * (the offline interpreter does not split measures). Readings are settled on fetched values:
 * equal values collapse as aliases; the caller is interrupted only if the rest differ materially.
 */
import type { OperationRef } from '../discover/index.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import { answerValues, draft, figureOut } from '../answer/assemble.ts';
import { formatValue } from '../answer/factsheet.ts';
import { crossCheck } from '../execute/corroborate.ts';
import { searchLeaf, type LeafResult } from '../execute/leaf.ts';
import { leafRequest, wanted } from '../execute/shapes/common.ts';
import type { Intent } from '../understand/index.ts';
import type { Note } from '../execute/notes.ts';
import { clarifyReadings } from './clarify.ts';
import { refuseOrAsk } from './names.ts';
import type { Planned } from '../execute/shapes/index.ts';
import { planFor } from './plan-step.ts';
import type { RunState } from './state.ts';
import type { AskResult } from './types.ts';
const LEXICON: ReadonlyMap<string, string[]> = new Map([
  ['profit', ['net income', 'operating income', 'gross profit']],
  ['profits', ['net income', 'operating income', 'gross profit']],
  ['earnings', ['net income', 'operating income']],
  ['income', ['net income', 'operating income']],
]);

export function readingsFor(attribute: string | null, interpretations: readonly string[]): string[] {
  if (interpretations.length >= 2) return [...interpretations];
  if (!attribute) return [];
  return LEXICON.get(attribute.trim().toLowerCase()) ?? [];
}

/**
 * A comparison of a measure with several readings ("which company earned more": net income or
 * revenue): both entities are compared on the first reading, so both sides are the same published
 * measure, and the reading taken is a typed note. Undefined when the intent is not such a comparison.
 */
export function comparedReading(intent: Intent): { intent: Intent; note: Extract<Note, { code: 'reading_compared' }> } | undefined {
  if (intent.shape !== 'comparison' || !intent.attribute) return undefined;
  const readings = readingsFor(intent.attribute, intent.interpretations);
  if (readings.length < 2) return undefined;
  return { intent: { ...intent, attribute: readings[0]!, interpretations: [] }, note: { code: 'reading_compared', attribute: intent.attribute, reading: readings[0]!, readings } };
}

/** Material difference: more than 0.5% apart relative to the larger magnitude. */
export function differMaterially(a: number, b: number): boolean {
  const m = Math.max(Math.abs(a), Math.abs(b));
  return m > 0 && Math.abs(a - b) / m > 0.005;
}

/** Groups readings by equal value; returns groups in reading order (first reading of each group leads). */
export function collapseAliases<T extends { value: number }>(items: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (const it of items) {
    const g = groups.find((x) => !differMaterially(x[0]!.value, it.value));
    if (g) g.push(it); else groups.push([it]);
  }
  return groups;
}

/**
 * Measure ambiguity settled on fetched values: each reading is planned and searched like a point
 * question; readings with equal values collapse as aliases; materially different ones go to
 * on_ambiguity (answer: the preferred reading with alternatives in the data; all: one answer per
 * reading; ask: a clarification whose options carry the values).
 */
export async function settleReadings(s: RunState, intent: Intent, readings: string[]): Promise<AskResult> {
  const entityName = intent.canonical_entity ?? intent.entity;
  s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `"${intent.attribute}" has ${readings.length} readings (${readings.join(', ')}); each is fetched and validated before anyone is asked` });
  if (!entityName) return refuseOrAsk(s, intent, undefined, { boundary: 'entity_unresolved', code: 'no_entity', detail: 'the question names no entity' });
  const got: Array<{ reading: string; e: AdmittedEvidence; operation: OperationRef }> = [];
  const serving = new Map<string, OperationRef[]>();
  let lastFailure: LeafResult | undefined;
  let lastPlanned: Planned | undefined;
  for (const reading of readings) {
    const sub = { ...intent, attribute: reading, interpretations: [] };
    const planned = await planFor(s, sub);
    s.plan = planned.plan;
    lastPlanned = planned;
    for (const [k, ops] of planned.serving ?? []) serving.set(k, ops);
    if (planned.plan.verdict === 'infeasible') continue;
    const input = { ctx: s.ctx, intent: sub, planned, onAmbiguity: s.onAmbiguity, nextAttempt: s.nextAttempt, ...(s.judge ? { judge: s.judge } : {}) };
    const r = await searchLeaf(s.ctx, leafRequest(input, entityName, wanted(intent.period), planned.candidates, reading));
    s.attempts.push(...r.attempts);
    if (!r.evidence) { lastFailure = r; continue; }
    const [e] = s.number([r.evidence]);
    got.push({ reading, e: e!, operation: planned.candidates.find((c) => c.candidateKey === e!.measure)!.operation! });
  }
  if (got.length === 0) {
    const f = lastFailure?.failure;
    if (f) return refuseOrAsk(s, intent, lastPlanned, { boundary: f.boundary, code: f.code, detail: f.message, ...(f.params ? { params: f.params } : {}), context: { attribute: intent.attribute, entity: entityName, period: wanted(intent.period).text }, ...(lastFailure!.reached ? { reached: lastFailure!.reached } : {}), ...(lastFailure!.exhausted !== undefined ? { exhausted: lastFailure!.exhausted } : {}) });
    return s.refuse({ boundary: 'no_access_path', code: 'no_reading_eligible', detail: `no reading of "${intent.attribute}" has an eligible source`, context: { attribute: intent.attribute } });
  }
  const mode = s.onAmbiguity;
  // cross-check the readings that may be answered (not when the caller will choose first)
  if (mode !== 'ask') s.crossChecks = await crossCheck(s.ctx, got.map((g) => g.e), { serving, nextAttempt: s.nextAttempt });
  await s.writeEvidence(got.map((g) => g.e));
  const groups = collapseAliases(got.map((g) => ({ ...g, value: g.e.value })));
  const aliases = groups.filter((g) => g.length > 1).map((g) => g.map((x) => x.reading));
  if (groups.length === 1) return answerValues(s, [groups[0]![0]!.e], aliases.length ? [{ code: 'readings_aliases', groups: aliases }] : []);
  const lead = groups.map((g) => g[0]!);
  s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `${lead.length} materially different values (${lead.map((g) => `${g.reading} ${formatValue(g.e.value, g.e.unit, g.e.currency)}`).join('; ')}); on_ambiguity=${mode}` });
  if (mode === 'ask') return clarifyReadings(s, intent, lead);
  const attribute = intent.attribute ?? '';
  if (mode === 'all') {
    const answers: NonNullable<AskResult['answers']> = [];
    for (const g of lead) {
      const d = await draft(s, [g.e], false);
      answers.push({ interpretation: g.reading, text: d.text, figures: d.figures.map(figureOut), evidence: [s.iris.evidence(g.e.index)] });
    }
    const main = await answerValues(s, lead.map((g) => g.e), [{ code: 'readings_all', attribute, readings: lead.map((g) => g.reading) }]);
    return { ...main, answers };
  }
  const alternatives = lead.slice(1).map((g) => ({ interpretation: g.reading, value: g.e.value, unit: g.e.unit, period: g.e.period.label, evidence: s.iris.evidence(g.e.index) }));
  return answerValues(s, [lead[0]!.e], [{ code: 'reading_chosen', attribute, reading: lead[0]!.reading }], { alternatives });
}
