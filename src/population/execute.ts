/**
 * What the population shape executors (src/execute/shapes/{ranking,aggregate,filtered-subset,
 * ratio,correlation}.ts) share: the ask a question makes of a population (grain, scope, period,
 * members), the search for a complete population over the plan's candidates through the one
 * engine, and the outcomes — evidence for the rows an answer shows, a typed population answer, or
 * a refusal naming the boundary (a partial population, a grain, a scope no operation covers).
 */
import type { Assessment } from '../plan/plan.ts';
import { search, summarise, exhausted, type SearchOutcome } from '../execute/engine.ts';
import { byNewest, latestDisclosure, type DeclaredPeriod } from '../validate/latest.ts';
import type { Failure } from '../execute/failure.ts';
import type { ShapeInput, ShapeOutcome, Item } from '../execute/shapes/types.ts';
import type { ComputeRefusal } from './compute/common.ts';
import { grainOf, periodAsked, populationProvider, populationsAt, scopeOfIntent, targetsFor, type AskTemplate, type AttemptedRead, type PopulationTarget } from './choices.ts';
import { rowEvidence } from './evidence.ts';
import { populationProgress } from './read.ts';
import { furtherPopulationCandidates } from './further.ts';
import { NATION, scopeLabel } from './geo.ts';
import { computeRefusalText, grainWord } from './wording.ts';
import { POPULATION_PROVIDERS } from '../connectors/population/providers.ts';
import type { PopulationAnswer } from './answer-types.ts';
import type { PopulationRead, PopulationRow } from './types.ts';
import type { ProgressEvent } from '../execute/progress.ts';

/** The ask a question makes of a population, or the refusal when its bound cannot be read. */
export function templateFor(i: ShapeInput, members?: string | null): AskTemplate | ShapeOutcome {
  // a condition the shape cannot apply is never dropped: a count of every member is not the count of those passing it
  const th = i.intent.threshold;
  if (th && (i.intent.shape === 'ranking' || i.intent.shape === 'aggregate')) return computeRefused(i, [], { code: 'threshold_not_applied', shape: i.intent.shape, threshold: th.text });
  const scope = scopeOfIntent(i.intent);
  if ('unknown' in scope) {
    return { kind: 'refused', attempts: [], failure: { boundary: 'no_access_path', code: 'scope_unbound', message: `"${scope.unknown}" is not a state-level area or the nation, the bounds these populations are read by`, params: { scope: scope.unknown } }, context: { attribute: i.intent.attribute } };
  }
  return {
    attribute: i.intent.attribute, grain: grainOf(i.intent), scope, period: periodAsked(i.intent), members: members ?? i.intent.type ?? i.intent.attribute,
    today: new Date(i.ctx.clock.now()).toISOString().slice(0, 10),
    // a ranking or subset compares the measure itself: the kind of quantity asked ("the number of people below poverty") decides which measures can be it
    ...((i.intent.shape === 'ranking' || i.intent.shape === 'filtered_subset') && i.intent.quantity ? { quantity: i.intent.quantity } : {}),
  };
}

/** Attempts one population search may make: candidates × vintages × request forms, most of them skipped once a form is blocked. */
export const POPULATION_SEARCH_CAP = 80;

export const isOutcome = (x: AskTemplate | ShapeOutcome): x is ShapeOutcome => 'kind' in x;

export interface PopulationSearch {
  /** The first complete population read, if any. */
  read?: AttemptedRead;
  /** The first partial one, when no complete one was found. */
  partial?: AttemptedRead;
  out: SearchOutcome<AttemptedRead>;
  targets: PopulationTarget[];
  boundaries: Failure[];
}

/** Reads the first complete population the candidates offer, through the engine. */
export async function searchPopulation(i: ShapeInput, candidates: readonly Assessment[], t: AskTemplate, branch?: string): Promise<PopulationSearch> {
  // after the plan's candidates, the further eligible ones discovery found (components bring their own)
  const further = !branch && i.planned.found ? furtherPopulationCandidates(i.intent, i.planned.found, /^(number|count) of\b/i.test(i.intent.attribute ?? '') ? t.grain : null) : [];
  const bound = targetsFor([...candidates, ...further], t, i.planned.units);
  // "latest means latest": the reads of the newest declared period first, the disclosure typed after the read
  const targets = t.period.latest ? newestFirst(bound.targets) : bound.targets;
  const boundaries = bound.boundaries;
  i.ctx.emit({ stage: 'execution_plan', by: 'executor', message: `${branch ? `[${branch}] ` : ''}${i.intent.shape}: ${targets.length} population read(s) over ${t.grain ?? 'the operation\'s'} grain, ${scopeLabel(t.scope)}; the first complete population answers (keyed reads are not populations)` });
  // population graphs stored by earlier questions are read back from the question's store (fresh and whole), else the publisher is asked
  const st = i.populationStore ? { ...i.populationStore, now: () => i.ctx.clock.now(), emit: (e: ProgressEvent) => i.ctx.emit(e) } : undefined;
  const out = await search<AttemptedRead>(i.ctx, populationProvider(targets, boundaries, st), { nextAttempt: i.nextAttempt, mode: 'first', cap: POPULATION_SEARCH_CAP, ...(branch ? { branch } : {}) });
  // progress: rows declared, read, excluded and the completeness verdict of every population read
  for (const r of out.admitted) i.ctx.emit(populationProgress(r));
  const found = out.admitted.find((r) => r.completeness.verdict === 'complete');
  const read = found && t.period.latest ? withLatest(found, targets, out) : found;
  const partial = read ? undefined : out.admitted[0];
  return { ...(read ? { read } : {}), ...(partial ? { partial } : {}), out, targets, boundaries };
}

/** A target as a declared period (validate/latest.ts): one per source and period label, the read's own period end. */
const declaredOf = (x: PopulationTarget): DeclaredPeriod => ({ candidate: `${x.binding.source}|${x.binding.period.label}`, source: x.binding.source, end: x.binding.period.end ?? '0000', label: x.binding.period.label });

/**
 * "Latest means latest": every target by its own period, newest first (the keyed read's rule 4), so a
 * "latest" read that descends through one operation's vintages (connectors/population/census-acs.ts)
 * never reads an older vintage before a newer period another operation declares. Unrecorded or
 * unreleased vintages cost one request per operation (the engine skips the rest of an operation the
 * snapshot lacks without a request); the newer periods not read are disclosed either way (withLatest).
 */
function newestFirst(targets: readonly PopulationTarget[]): PopulationTarget[] {
  if (targets.length === 0) return [];
  // every target by its own period, newest first (stable: the planner's order within one period end), so
  // an operation's older vintages (a "latest" read descends through them) never go before another's newer period
  return targets.map((x, k) => ({ x, k, end: x.binding.period.end ?? '0000' })).sort((a, b) => b.end.localeCompare(a.end) || a.k - b.k).map((t) => t.x);
}

/** Whether an attempt made the request a target binds (the same operation and arguments). */
const madeFor = (a: { source: string; operation: string; bindings: Record<string, string> }, x: PopulationTarget) =>
  a.source === x.binding.source && a.operation === x.binding.operation
  // (the choice's own bindings — grain, scope, measure, class — overlay arguments of the same name: choices.ts choiceOf)
  && Object.entries(x.binding.args).every(([k, v]) => CHOICE_KEYS.has(k) || a.bindings[k] === v);
const CHOICE_KEYS = new Set(['grain', 'scope', 'measure', 'class']);

/**
 * The read with its typed "latest" note (the keyed read's `latest` disclosure): the period read
 * against every newer period the other targets declare, each with why it was not read — the failure
 * its request ended with (`offline`, `not_found`), a partial population, or `not_attempted`.
 */
function withLatest(read: AttemptedRead, targets: readonly PopulationTarget[], out: SearchOutcome<AttemptedRead>): AttemptedRead {
  const own = targets.find((x) => x.binding.source === read.source && x.binding.operation === read.operation && x.binding.period.label === read.period.label);
  const mine: DeclaredPeriod = own ? declaredOf(own) : { candidate: `${read.source}|${read.period.label}`, source: read.source, end: read.period.end ?? '0000', label: read.period.label };
  const rivals = new Map<string, DeclaredPeriod>();
  const why = new Map<string, string>();
  for (const x of targets) {
    const d = declaredOf(x);
    if (d.candidate === mine.candidate) continue;
    const a = out.attempts.find((at) => madeFor(at, x));
    // no request made: tried newest first, a newer target was skipped, not left behind — offline, because
    // its operation's requests were found missing from the snapshot (skipped without a request)
    const skippedOffline = !a && (x.binding.period.end ?? '') > (read.period.end ?? '') && out.reached.some((f) => f.code === 'offline' && f.operation === `${x.binding.source}/${x.binding.operation}`);
    const reason = !a ? (skippedOffline ? 'offline' : 'not_attempted') : a.disposition === 'accepted' ? 'partial_population' : a.failure ?? a.disposition;
    // one rival per declared period; the best-explained reason (a request made) over a choice never tried
    if (!rivals.has(d.candidate) || (why.get(d.candidate) === 'not_attempted' && reason !== 'not_attempted')) { rivals.set(d.candidate, d); why.set(d.candidate, reason); }
  }
  const disclosure = latestDisclosure(mine, [...rivals.values()], why);
  return { ...read, notes: [...read.notes, { code: 'latest', disclosure }] };
}

/** A partial population read as the failure it is: never an answer that stands for the population. */
export function partialFailure(r: PopulationRead): Failure {
  const reasons = r.completeness.reasons.map((x) => x.code);
  // a sample of a population in the snapshot is the snapshot's limit (live reads are whole); a survey threshold is the publisher's design
  const snapshot = reasons.includes('trimmed_sample') || reasons.includes('derived_sample');
  return {
    boundary: snapshot ? 'operationally_blocked' : 'no_access_path', code: 'partial_population', source: r.source,
    message: computeRefusalText({ code: 'partial_population', operation: `${r.source}/${r.operation}`, verdict: r.completeness.verdict === 'sample' ? 'sample' : 'partial', usable: r.completeness.usable, declared: r.completeness.declared, reasons }),
    params: { operation: `${r.source}/${r.operation}`, usable: r.completeness.usable, declared: r.completeness.declared ?? -1, reasons },
    ...(r.requests[0] ? { request: `GET ${r.requests[0]}` } : {}),
  };
}

/** The refusal of a search that found no complete population. */
export function refuseSearch(i: ShapeInput, s: PopulationSearch, grain: string | null, scope: string): ShapeOutcome {
  const attempts = s.out.attempts;
  const context = { attribute: i.intent.attribute, period: i.intent.period?.text ?? null };
  if (s.partial) return { kind: 'refused', attempts, failure: partialFailure(s.partial), reached: s.out.reached, exhausted: exhausted(s.out), context };
  if (s.targets.length === 0) {
    // an operation with the population at another bound (one state per extract) names the coverage missing
    const coverage = s.boundaries.find((b) => b.code === 'scope_not_covered');
    if (coverage) return { kind: 'refused', attempts, failure: { ...coverage, message: `no operation returns the whole population of ${grain ? grainWord(grain) : 'members'} for ${scope}: ${coverage.message}` }, reached: s.boundaries, exhausted: true, context: { ...context, missing: `a population of every ${grain ?? 'member'} in ${scope} (materialized once from every state's extract, or a national file)` } };
    const g = grain ? grainWord(grain) : 'entities';
    // what the populations known at that grain cover, in their own terms (one state per extract)
    const known = grain ? populationsAt(grain as PopulationRead['grain']).map((op) => {
      const [source, operation] = op.split('/') as [string, string];
      const b = POPULATION_PROVIDERS.get(source)!.bind({ measureKey: 'members', grain: grain as PopulationRead['grain'], scope: s.targets[0]?.ask.scope ?? (scope === 'the United States' ? NATION : NATION), period: periodAsked(i.intent), today: '' }, operation);
      return !Array.isArray(b) && b.code === 'scope_not_covered' ? `${op} covers ${b.covers}` : op;
    }) : [];
    return {
      kind: 'refused', attempts,
      failure: { boundary: 'no_access_path', code: 'no_population', message: `no planned operation returns the whole population of ${g} for ${scope}${known.length ? ` (population reads of ${g} known: ${known.join('; ')})` : ''}`, params: { grain: g, scope, known } },
      reached: s.boundaries, exhausted: true, context: { ...context, missing: `an operation returning every one of the ${g} in ${scope}` },
    };
  }
  const failure = summarise(s.out, { noData: `no population of ${i.intent.attribute ?? 'the measure'} for ${scope}`, nothingBound: 'no population read could be bound' });
  return { kind: 'refused', attempts, failure, reached: s.out.reached, exhausted: exhausted(s.out), context };
}

/** A computation's refusal as the shape's refusal. */
export function computeRefused(i: ShapeInput, attempts: ShapeOutcome['attempts'], r: ComputeRefusal): ShapeOutcome {
  const boundary: Failure['boundary'] = r.code === 'partial_population' ? 'operationally_blocked'
    : r.code === 'rate_asked_as_count' || r.code === 'threshold_not_applied' ? 'not_understood'
    : r.code === 'threshold_unit_mismatch' || r.code === 'grain_mismatch' || r.code === 'unit_mismatch' || r.code === 'not_additive' ? 'no_access_path' : 'no_data';
  const params = Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'code').map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : typeof v === 'number' ? v : String(v)])) as Failure['params'];
  return { kind: 'refused', attempts, failure: { boundary, code: r.code, message: computeRefusalText(r), ...(params ? { params } : {}) }, context: { attribute: i.intent.attribute, period: i.intent.period?.text ?? null } };
}

/** Evidence for the rows an answer shows, each generated by the attempt that read its population. */
export function evidenceFor(i: ShapeInput, read: AttemptedRead, rows: readonly PopulationRow[], verdict: 'exact' | 'composed' = 'composed'): Item[] {
  return rows.map((row) => rowEvidence(read, row, { attemptN: read.attemptN, attribute: i.intent.attribute, planVerdict: verdict }) as Item);
}

/** The evidence outcome of a population shape. */
export function populationOutcome(attempts: ShapeOutcome['attempts'], items: Item[], answer: PopulationAnswer): ShapeOutcome {
  const read = answer.reads[0]!;
  return {
    kind: 'evidence', attempts, items, notes: [], answer: 'population',
    completeness: { declared: read.completeness.declared, read: read.completeness.read, excluded: [], whole: read.completeness.verdict === 'complete' },
    population: answer,
  };
}
