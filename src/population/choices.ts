/**
 * Population reads inside a question: the plan's candidates → population choice points for the
 * one search engine (src/execute/engine.ts), which fetches, records and classifies; the
 * examination (read.ts `examinePopulation`) admits a whole population at once.
 *
 * Eligibility: only operations a population provider serves (src/connectors/population/); a keyed
 * read is never a population. Each candidate measure is bound at the grain, scope and period the
 * intent asks; a binding that cannot be made (a grain the operation does not return, a scope it
 * cannot bound, a vintage it does not have) is a boundary choice, typed, so the refusal names it.
 * A complete population stops the search; a partial one is admitted and the search goes on (a
 * later choice may be complete), so the shape can refuse naming the partial read when none is.
 */
import type { Assessment } from '../plan/plan.ts';
import type { Intent } from '../understand/intent.ts';
import type { Check } from '../validate/structural.ts';
import type { Failure } from '../execute/failure.ts';
import type { BoundaryChoice, Choice, FetchChoice, Provider } from '../execute/engine.ts';
import { NATION, scopeFromText, scopeLabel, type Scope } from './geo.ts';
import { examinePopulation, populationProgress } from './read.ts';
import { POPULATION_PROVIDERS, providerFor } from '../connectors/population/providers.ts';
import type { PeriodAsked, PopulationAsk, PopulationBinding, PopulationProvider } from '../connectors/population/provider.ts';
import type { Grain, PopulationFailure, PopulationRead } from './types.ts';
import { populationFailureText, quantityMismatchText } from './wording.ts';
import { checkQuantity } from '../validate/quantity.ts';
import type { QuantityKind } from '../understand/intent.ts';

/** The grain a question ranges over, from its geography level or the kind of entity it names. */
export function grainOf(intent: Pick<Intent, 'geography' | 'type'>): Grain | null {
  const level = intent.geography?.level?.toLowerCase() ?? '';
  const type = intent.type?.toLowerCase() ?? '';
  for (const t of [level, type]) {
    if (/\bstates?\b/.test(t)) return 'state';
    if (/\bcount(y|ies)\b|\bparish(es)?\b|\bboroughs?\b|\bmunicipios?\b/.test(t)) return 'county';
    if (/\bcit(y|ies)\b|\btowns?\b|\bplaces?\b|\bvillages?\b/.test(t)) return 'place';
  }
  if (/\b(compan(y|ies)|corporations?|firms?|issuers?|filers?|businesses)\b/.test(type)) return 'company';
  if (/\b(nonprofits?|non-profits?|charit(y|ies)|foundations?|organi[sz]ations?|tax-exempt|exempt|501\(c\)|churches|hospitals?|universit(y|ies))\b/.test(type)) return 'organization';
  if (/\b(grants?|opportunit(y|ies)|funding)\b/.test(type)) return 'opportunity';
  return null;
}

/** What bounds the population: the enclosing place the intent names, else the nation. */
export function scopeOfIntent(intent: Pick<Intent, 'geography'>): Scope | { unknown: string } {
  const within = intent.geography?.within;
  if (!within) return NATION;
  return scopeFromText(within) ?? { unknown: within };
}

export function periodAsked(intent: Pick<Intent, 'period'>): PeriodAsked {
  const p = intent.period;
  if (!p) return { year: null, latest: true, text: 'the latest period' };
  return { year: p.year, latest: p.latest || p.year === null, text: p.text };
}

/** A population failure as a boundary the engine records and a refusal leads with. */
export function boundaryOf(f: PopulationFailure): Failure {
  const params = Object.fromEntries(Object.entries(f).filter(([k, v]) => k !== 'code' && (typeof v === 'string' || typeof v === 'number'))) as Record<string, string | number>;
  const source = 'source' in f ? f.source : 'operation' in f ? f.operation.split('/')[0] : undefined;
  const base = { params: { reason: f.code, ...params }, ...(source ? { source } : {}) };
  const message = populationFailureText(f);
  switch (f.code) {
    case 'no_period': return { boundary: 'no_data', code: 'period', message, ...base };
    case 'measure_absent': case 'no_data': return { boundary: 'no_data', code: 'not_found', message, ...base };
    case 'operationally_blocked': return { boundary: 'operationally_blocked', code: f.failure, message, ...base };
    default: return { boundary: 'no_access_path', code: f.code, message, ...base };
  }
}

export interface PopulationTarget { provider: PopulationProvider; binding: PopulationBinding; ask: PopulationAsk; candidate?: Assessment }

export interface AskTemplate {
  /** The measure words asked: a candidate whose own label says exactly that is tried first. */
  attribute?: string | null;
  grain: Grain | null;
  scope: Scope;
  period: PeriodAsked;
  members?: string | null;
  today: string;
  includeStateEquivalents?: boolean;
  /** The kind of quantity the measure compared must be (a count of people is never ranked by a percent). */
  quantity?: QuantityKind;
}

/** Binds every planned candidate a population provider serves; the bindings that fail are boundaries. */
export function targetsFor(candidates: readonly Assessment[], t: AskTemplate, units?: ReadonlyMap<string, string>): { targets: PopulationTarget[]; boundaries: Failure[] } {
  const targets: PopulationTarget[] = [];
  const boundaries: Failure[] = [];
  const seen = new Set<string>();
  const mismatched: Array<{ c: Assessment; asked: string; unit: string }> = [];
  // a candidate labelled exactly as the measure asked ("Total population") before ones that merely contain its words
  const said = (t.attribute ?? '').toLowerCase().trim();
  const exact = (c: Assessment) => said !== '' && labelWords(c.title) === said;
  const ordered = said ? [...candidates.filter(exact), ...candidates.filter((c) => !exact(c))] : candidates;
  for (const c of ordered) {
    const op = c.operation;
    if (!op) continue;
    const provider = providerFor(op.publisherId, op.operationId);
    if (!provider) continue;
    const returns = provider.operations[op.operationId]!;
    const grain = t.grain ?? returns;
    const measureKey = c.kind === 'operation' ? 'members' : c.candidateKey;
    const unit = units?.get(c.candidateKey);
    if (t.quantity && measureKey !== 'members' && unit) {
      const q = checkQuantity(t.quantity, { unit });
      if (!q.ok) { mismatched.push({ c, asked: q.asked, unit: q.unit }); continue; }
    }
    const key = `${op.publisherId}|${op.operationId}|${measureKey}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const ask: PopulationAsk = {
      measureKey, measureLabel: c.title, ...(units?.get(c.candidateKey) ? { measureUnit: units.get(c.candidateKey)! } : {}),
      grain, scope: t.scope, period: t.period, members: t.members ?? null, today: t.today, ...(t.includeStateEquivalents ? { includeStateEquivalents: true } : {}),
    };
    const bound = provider.bind(ask, op.operationId);
    if (!Array.isArray(bound)) { boundaries.push(boundaryOf(bound)); continue; }
    for (const binding of bound) targets.push({ provider, binding, ask, candidate: c });
  }
  // the measures skipped for their unit, as one boundary (the first named, the rest counted)
  const m0 = mismatched[0];
  if (m0) boundaries.push({ boundary: 'no_access_path', code: 'quantity_mismatch', source: m0.c.operation!.publisherId, message: quantityMismatchText(m0.c.title, m0.asked, m0.unit, mismatched.length - 1), params: { measures: mismatched.map((x) => x.c.candidateKey), asked: m0.asked } });
  return { targets, boundaries };
}

/** A catalog title as plain words: "DP05_0033E: RACE — Total population (acs demographic …)" → "total population". */
export function labelWords(title: string): string {
  let t = title.replace(/^[A-Z0-9_]+:\s*/, '');
  if (t.includes(' — ')) t = t.slice(t.lastIndexOf(' — ') + 3);
  return t.replace(/\s*\([^()]*\)\s*$/, '').toLowerCase().trim();
}

/** Population reads known to this build at a grain, for a refusal naming what is missing. */
export function populationsAt(grain: Grain): string[] {
  return [...POPULATION_PROVIDERS.values()].flatMap((p) => Object.entries(p.operations).filter(([, g]) => g === grain).map(([op]) => `${p.source}/${op}`));
}

function checksOf(read: PopulationRead): Check[] {
  const c = read.completeness;
  return [
    { name: 'measure', passed: true, detail: `${c.read} ${read.measure.recordMeasure} rows at ${read.grain} grain, ${scopeLabel(read.scope)}` },
    { name: 'sentinel', passed: true, detail: `${c.read - c.usable} excluded (${c.excluded.map((e) => `${e.code} ${e.count}`).join(', ') || 'none'}), ${c.usable} usable` },
    { name: 'period', passed: true, detail: read.period.label },
  ];
}

/** A population read with the attempt that made it (the evidence of its rows names that attempt). */
export type AttemptedRead = PopulationRead & { attemptN: number };

export function choiceOf(t: PopulationTarget): FetchChoice<AttemptedRead> {
  const b = t.binding;
  return {
    kind: 'fetch', source: b.source, operation: b.operation,
    ...(t.ask.measureKey !== 'members' ? { measure: t.ask.measureKey } : {}),
    bindings: { ...b.args, grain: b.grain, scope: t.ask.scope.kind === 'nation' ? 'US' : t.ask.scope.fips, measure: b.recordMeasure, ...(b.memberClass ? { class: b.memberClass.id } : {}) },
    args: b.args,
    label: `${b.recordMeasure} for every ${b.grain} (${scopeLabel(t.ask.scope)}, ${b.period.label})`,
    identity: JSON.stringify([b.source, b.operation, b.args, b.recordMeasure, b.attributes ?? {}, t.ask.scope, b.memberClass?.id ?? '', t.ask.includeStateEquivalents ?? false]),
    // one blocked request (no cassette, no key) fails the same way for every measure it carries
    skipIfBlocked: [b.blockKey ?? JSON.stringify([b.source, b.operation, b.args])],
    marksBlocked: [b.blockKey ?? JSON.stringify([b.source, b.operation, b.args])],
    subtree: `${b.source}/${b.operation}/${b.recordMeasure}`,
    examine(result, attempt) {
      const o = examinePopulation(result, t.provider, b, t.ask);
      if (!o.ok) return { reject: boundaryOf(o.failure), checks: [], disposition: o.failure.code === 'measure_absent' ? 'errored' : 'rejected' };
      const ev = populationProgress(o.read);
      return { admit: { ...o.read, attemptN: attempt.n }, checks: checksOf(o.read), said: ev.message, by: 'population', more: o.read.completeness.verdict !== 'complete' };
    },
  };
}

export function populationProvider(targets: readonly PopulationTarget[], boundaries: readonly Failure[]): Provider<AttemptedRead> {
  return async function* (): AsyncIterable<Choice<AttemptedRead>> {
    for (const f of boundaries) yield { kind: 'boundary', failure: f } satisfies BoundaryChoice;
    for (const t of targets) yield choiceOf(t);
  };
}
