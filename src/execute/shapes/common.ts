/**
 * What the shape executors share: the period a read wants, a leaf request for the keyed search,
 * outcome builders, and the two fan-outs (one branch per entity, one per period) that comparison
 * and timeseries compose from single reads — written once, for keyed and code-keyed reads alike.
 */
import type { Assessment } from '../../plan/plan.ts';
import type { Intent, Period } from '../../understand/intent.ts';
import { grainAsked, periodLabel } from '../../understand/intent.ts';
import type { PeriodWanted } from '../../validate/structural.ts';
import type { Attempt } from '../attempt.ts';
import type { QueryContext } from '../context.ts';
import { eligibilityFor } from '../eligibility.ts';
import { fanOut } from '../fanout.ts';
import type { LeafRequest, LeafResult } from '../leaf.ts';
import type { Note } from '../notes.ts';
import type { IdentityBundle } from '../../resolve/bundle.ts';
import type { Item, RefusalContext, ShapeInput, ShapeOutcome } from './types.ts';

/** The period a read wants: the year, basis and quarter named, and the grain asked (`grainAsked(intent)`). */
export function wanted(p: Intent['period'], intent?: Pick<Intent, 'grain' | 'period'>): PeriodWanted {
  if (!p) return { year: null, basis: 'unspecified', latest: true, text: 'the latest period' };
  const grain = p.quarter ? 'quarter' : intent ? grainAsked({ grain: intent.grain, period: p }) : null;
  return { year: p.year, basis: p.basis, latest: p.latest, text: p.text, quarter: p.quarter ?? null, grain };
}

export function leafRequest(i: ShapeInput, entity: string, period: PeriodWanted, candidates: Assessment[], branch?: string): LeafRequest {
  return {
    question: i.intent.question, entity, attribute: i.intent.attribute, quantity: i.intent.quantity ?? null, period, candidates, units: i.planned.units, nextAttempt: i.nextAttempt,
    eligible: eligibilityFor(i.intent), ...(branch ? { branch } : {}), ...pinFor(i, entity), ...(i.judge ? { judge: i.judge } : {}),
  };
}

/** The geography settled before the read for this entity (ask/scope.ts), when one was. */
export function pinFor(i: ShapeInput, entity: string): { pinned?: IdentityBundle } {
  const pin = i.pinned?.find((p) => p.entity === entity);
  return pin ? { pinned: pin.bundle } : {};
}

export const evidence = (items: Item[], attempts: Attempt[], notes: Note[] = []): ShapeOutcome => ({ kind: 'evidence', answer: 'values', items, attempts, notes });

/** The "latest" disclosures of the reads that answered (each distinct one once). */
export function latestNotes(reads: readonly LeafResult[]): Note[] {
  const seen = new Set<string>();
  const out: Note[] = [];
  for (const r of reads) {
    if (!r.latest) continue;
    // a period the publisher itself labels as latest ("latest available (year varies by field)") is said in the sentence
    if (r.latest.code === 'latest_available' && /^latest\b/i.test(r.latest.period)) continue;
    const k = JSON.stringify(r.latest);
    if (!seen.has(k)) { seen.add(k); out.push({ code: 'latest', disclosure: r.latest }); }
    if (r.latestConcept) out.push({ code: 'latest_concept', ...r.latestConcept });
  }
  return out;
}

/** A failed leaf as the shape's refusal: the failure it led with, every boundary reached, and the question's words. */
export function refused(r: LeafResult, attempts: Attempt[], context: RefusalContext): ShapeOutcome {
  return { kind: 'refused', attempts, failure: r.failure!, ...(r.reached ? { reached: r.reached } : {}), ...(r.exhausted !== undefined ? { exhausted: r.exhausted } : {}), context };
}

export const refusal = (boundary: 'entity_unresolved' | 'not_understood' | 'no_access_path', code: string, message: string, context: RefusalContext = {}): ShapeOutcome =>
  ({ kind: 'refused', attempts: [], failure: { boundary, code, message }, context });

/**
 * A measure read that names no entity, where no planned candidate reads it without one (the scope
 * reads declined): the keys the candidates are read by, and what would answer ("What is the US
 * population?" — the Census tables are read by state, county or place, none for the nation).
 */
export function noEntityRead(i: ShapeInput): ShapeOutcome {
  const keys = [...new Set(i.planned.candidates.flatMap((c) => c.operation?.accepts ?? []))];
  const KEY_WORDS: Record<string, string> = { fips: 'FIPS code (a state, county or place)', cik: 'SEC CIK', ein: 'EIN', ipeds_unitid: 'IPEDS unit id' };
  const by = keys.length ? ` (the candidates are read by ${keys.map((k) => KEY_WORDS[k] ?? k.replace(/_/g, ' ')).join(', ')})` : '';
  const attr = i.intent.attribute ?? 'the measure';
  return refusal('no_access_path', 'no_entity', `the question names no entity (names are read by their capitals: "Apple", not "apple"), and no planned source reads ${attr} without one, for the whole country${by}`, {
    attribute: i.intent.attribute, missing: `a read of ${attr} that takes no entity key (the nation as a whole), or the question naming the ${keys.includes('fips') ? 'state, county or place' : 'entity'} meant`,
  });
}

/** The periods of a series: the intent's list, or its one period. */
export const seriesPeriods = (intent: Intent): Period[] => intent.periods.length ? intent.periods : intent.period ? [intent.period] : [];

export const branchLabel = (p: Period) => periodLabel(p) ?? p.text;

/** One read of one period or entity, under the branch's own context. */
export type Read<R extends LeafResult> = (ctx: QueryContext) => Promise<R>;

/**
 * A series: the measure is resolved once, on the last period (the search over every candidate),
 * then every other period is read concurrently bound to the measure that answered. A period with no
 * value is a note; a branch stopped by a publisher failure, the deadline or a cancellation sinks the
 * series (its siblings are cancelled).
 */
export async function readSeries<R extends LeafResult>(i: ShapeInput, periods: Period[], read: (p: Period, candidates: Assessment[], branch: string) => Read<R>, candidates: Assessment[], opts: {
  /** Said once the measure is resolved. */
  plan: (measure: string) => string;
  /** The first read did not bind at all: not this kind of read (another executor tries). */
  declines?: (first: R) => boolean;
  context: (period: string) => RefusalContext;
  refuse?: (r: R, attempts: Attempt[], context: RefusalContext) => ShapeOutcome;
}): Promise<ShapeOutcome> {
  const refuse = opts.refuse ?? refused;
  const last = periods[periods.length - 1]!;
  const first = await read(last, candidates, branchLabel(last))(i.ctx);
  if (opts.declines?.(first)) return { kind: 'declined', attempts: first.attempts };
  if (!first.evidence) return refuse(first, first.attempts, opts.context(last.text));
  const bound = candidates.filter((c) => c.candidateKey === first.evidence!.measure);
  i.ctx.emit({ stage: 'execution_plan', by: 'executor', message: opts.plan(first.evidence.measure) });
  const rest = periods.slice(0, -1);
  const out = await fanOut(i.ctx, rest.map((p) => ({ label: branchLabel(p), run: read(p, bound, branchLabel(p)) })), (r) => r.failure?.boundary === 'operationally_blocked' || r.failure?.boundary === 'cancelled');
  const attempts = [...out.results.flatMap((r) => r.attempts), ...first.attempts];
  if (out.failedBranch !== undefined) return refuse(out.results[out.failedBranch]! as R, attempts, opts.context(rest[out.failedBranch]!.text));
  const items: Item[] = [];
  const notes: Note[] = [];
  out.results.forEach((r, k) => {
    if (r.evidence) items.push(r.evidence);
    else notes.push({ code: 'period_missing', measure: first.evidence!.measure, period: rest[k]!.text, detail: r.failure?.message ?? 'not found' });
  });
  items.push(first.evidence);
  return { kind: 'evidence', answer: 'values', items, attempts, notes };
}

/** A comparison: one read per entity, concurrently; any branch failing on its own sinks it and cancels the others. */
export async function readEach<R extends LeafResult>(i: ShapeInput, entities: readonly string[], read: (entity: string) => Read<R>) {
  const out = await fanOut(i.ctx, entities.map((name) => ({ label: name, run: read(name) })), () => true);
  return { results: out.results as R[], attempts: out.results.flatMap((r) => r.attempts), ...(out.failedBranch !== undefined ? { failedBranch: out.failedBranch } : {}) };
}
