/**
 * The one search engine: every read Assay makes of a publisher goes through `search`.
 *
 * Input: a provider of choice points (an async generator, see `Provider`) and the search's limits.
 * Output: a `SearchOutcome` — every attempt made (accepted, rejected, errored, cancelled), what was
 * admitted, and every boundary reached, each with its source.
 *
 * The provider decides *what* to try, in order: source → entity resolution → source key →
 * concept/field → geography → period, each fully bound choice yielded as a `FetchChoice`, and every
 * choice point that failed before a request (a name not resolved, a key not usable, an operation
 * with no binder) yielded as a `BoundaryChoice`. The engine decides *whether and how* to try it and
 * owns the attempt lifecycle, the same for every shape:
 *   - cancellation and the deadline (the QueryContext's signal), checked before every choice;
 *   - the shared per-question budget, a per-search attempt cap and an optional budget reserve;
 *   - duplicate choices (the same call and record selection) tried once;
 *   - a response this search already holds answers a later choice without a new attempt
 *     (`absentIn`: a concept not in the companyfacts already fetched);
 *   - operational blocks: a choice marks the keys its block applies to, and later choices under a
 *     blocked key are skipped (a rate-limited operation fails the same way for every concept); a
 *     request with no recording in the offline snapshot blocks that request only, and the
 *     operation's later requests are tried only when the snapshot records them;
 *   - subtree pruning: an examination that says the source answered a different question prunes
 *     the choice's subtree (by default its source); later choices in it are skipped;
 *   - recording: each attempt numbered, timed, with requests, responses, checks, disposition and reason;
 *   - classification of every thrown error in one place (failure.ts `classify`).
 * The engine never decides what is true: the choice's own `examine` (the validators) admits or rejects.
 *
 * `summarise` turns an unsuccessful outcome into the one failure a refusal leads with, and
 * `reachedBySource` gives the typed account of every boundary reached, grouped by source, and
 * whether every choice point was exhausted or the search was stopped first.
 */
import type { OperationResult } from '../connectors/records.ts';
import type { ConnectorContext } from '../connectors/types.ts';
import { runOperation } from '../connectors/registry.ts';
import type { Check } from '../validate/structural.ts';
import type { Attempt } from './attempt.ts';
import type { QueryContext } from './context.ts';
import { classify, fromSignal, isStop, type Boundary, type Failure } from './failure.ts';
import type { ProgressStage } from './progress.ts';

export type { Boundary, Failure } from './failure.ts';

/** A fully bound read: one connector call and how to judge what it returns. */
export interface FetchChoice<T> {
  kind: 'fetch';
  source: string;
  /** The operation called (a binder may redirect to another operation of the same publisher). */
  operation: string;
  /** The measure key the attempt reads, when it reads one. */
  measure?: string;
  bindings: Record<string, string>;
  /** Connector arguments. */
  args: Record<string, string>;
  /** Words for progress lines ("us-gaap/Assets for NVIDIA CORP"). */
  label: string;
  /** A candidate beyond the plan's relevance cut: its failures rank below the planned ones' (see `summarise`). */
  fallback?: boolean;
  /** Two choices with the same identity would repeat one verdict: only the first is tried. */
  identity?: string;
  /** The subtree an examination's prune abandons (default: the source). */
  subtree?: string;
  /** Skipped when any of these keys is blocked. */
  skipIfBlocked?: readonly string[];
  /**
   * Marked blocked when this choice's fetch is operationally blocked (a rate limit, a refused key).
   * A block that concerns the one request (no recording of it in the offline snapshot) blocks only
   * that request, whatever the choice marks.
   */
  marksBlocked?: readonly string[];
  /** With the response already held by this search: a failure settles the choice without a new attempt. */
  absentIn?: (held: OperationResult) => Failure | undefined;
  /** The validators' verdict on the response (structural checks first; a model may only reject). */
  examine(result: OperationResult, attempt: Attempt): Examination<T> | Promise<Examination<T>>;
  /** The call itself (default: the question's memoised connector call). */
  fetch?: (ctx: QueryContext) => Promise<OperationResult>;
  /** A failed fetch turned into an outcome the provider reports (a cross-check's "failed"). */
  recover?: (failure: Failure, attempt: Attempt) => T | undefined;
  /**
   * The IRI of a population graph already in the store that `fetch` reads instead of the publisher:
   * the attempt is a `store_read`, and publisher blocks and the offline snapshot do not concern it.
   */
  storeRead?: string;
}

/** A choice point that failed before any request was sent. */
export interface BoundaryChoice { kind: 'boundary'; failure: Failure }

export type Choice<T> = FetchChoice<T> | BoundaryChoice;

export type Examination<T> =
  | { admit: T; checks: Check[]; said?: string; by?: string; /** keep searching after this admission */ more?: boolean }
  | {
    reject: Failure; checks: Check[]; said?: string; by?: string;
    /** The attempt's own reason, when it differs from the failure's message. */
    reason?: string;
    /** `errored` for "the response has no such record"; `rejected` (default) for a record judged and refused. */
    disposition?: 'rejected' | 'errored';
    /** The source answered a different question: abandon the choice's subtree. */
    prune?: boolean;
    /** Nothing further can help (several published rows match with different values): stop here. */
    stop?: boolean;
  };

/** What a provider may ask the engine while it generates choices. */
export interface SearchHandle {
  readonly signal: AbortSignal;
  isPruned(subtree: string): boolean;
  isBlocked(key: string): boolean;
  /** Some choice point resolved the entity (an unresolved name is then not the search's reason). */
  resolved(): void;
  note(text: string): void;
  emit(stage: ProgressStage, by: string, message: string): void;
}

export type Provider<T> = (h: SearchHandle) => AsyncIterable<Choice<T>>;

export interface SearchOptions {
  /** Attempt numbering shared across the run. */
  nextAttempt: () => number;
  /** 'first': stop at the first admission; 'all': try every choice within the limits. */
  mode?: 'first' | 'all';
  /** Attempts this search may make (default: the context's per-leaf cap). */
  cap?: number;
  /** Attempts to leave in the shared budget: the search stops before using them (cross-checks). */
  budgetReserve?: number;
  /** Do not start an attempt with less than this much of the deadline left (cross-checks). */
  minRemainingMs?: number;
  /** A label for progress lines (the branch of a fan-out). */
  branch?: string;
}

export interface SearchOutcome<T> {
  attempts: Attempt[];
  admitted: T[];
  notes: string[];
  /** Every boundary reached, in order. */
  reached: Failure[];
  /** What stopped the search before its choices were exhausted (deadline, budget, cancel, cap, reserve). */
  stopped?: Failure;
  /** A rejection after which nothing could help (see Examination.stop). */
  final?: Failure;
  /** The choice the search was about to try when it stopped. */
  pending?: FetchChoice<T>;
  /** Some choice point resolved the entity. */
  resolved: boolean;
  /** Measures passed over without a request: absent from a response already held. */
  passedOver: string[];
}

export function connectorCtx(ctx: QueryContext): ConnectorContext {
  return { signal: ctx.signal, deadline: ctx.deadline, clock: ctx.clock, http: ctx.runtime.http, declarations: ctx.runtime.declarations };
}

const fetchKey = (source: string, operation: string, args: Record<string, string>) => `${source}|${operation}|${JSON.stringify(Object.entries(args).sort())}`;

/** Whole-entity fetches are shared within the question (several concepts read from one companyfacts). */
export function fetchOnce(ctx: QueryContext, source: string, operation: string, args: Record<string, string>): Promise<OperationResult> {
  const key = fetchKey(source, operation, args);
  let p = ctx.fetchMemo.get(key) as Promise<OperationResult> | undefined;
  if (!p) {
    p = runOperation(ctx.runtime.registry, source, operation, args, connectorCtx(ctx));
    ctx.fetchMemo.set(key, p);
  }
  return p;
}

/** Open an attempt record: numbered and timed, `errored` until the outcome is known. */
export function openAttempt(ctx: QueryContext, fields: Pick<Attempt, 'n' | 'source' | 'operation' | 'bindings'> & { measure?: string }): { attempt: Attempt; done: () => void } {
  const started = ctx.clock.now();
  const attempt: Attempt = {
    ...fields, requests: [], responses: [], startedAt: new Date(started).toISOString(), endedAt: '', elapsedMs: 0, checks: [], disposition: 'errored',
  };
  const done = () => { const t = ctx.clock.now(); attempt.endedAt = new Date(t).toISOString(); attempt.elapsedMs = t - started; };
  return { attempt, done };
}

/** Why the search may not start another attempt, if it may not. */
function limitReached(ctx: QueryContext, o: SearchOptions, made: number): Failure | undefined {
  const cap = o.cap ?? ctx.leafCap;
  if (made >= cap) return { boundary: 'operationally_blocked', code: 'leaf_cap', message: `the search's attempt cap (${cap}) was reached`, params: { cap } };
  if (o.minRemainingMs !== undefined && ctx.deadline - ctx.clock.now() < o.minRemainingMs) return { boundary: 'operationally_blocked', code: 'deadline_near', message: 'the question deadline is nearly spent' };
  if (o.budgetReserve !== undefined && ctx.budget.limit - ctx.budget.used <= o.budgetReserve) return { boundary: 'operationally_blocked', code: 'budget_near', message: "the question's attempt budget is nearly spent" };
  return undefined;
}

/** What one search holds while it runs: its outcome so far, and the subtrees, keys and requests it has learnt to skip. */
interface SearchRun<T> {
  ctx: QueryContext;
  o: SearchOptions;
  /** Prefix of progress lines (the branch of a fan-out). */
  tag: string;
  out: SearchOutcome<T>;
  pruned: Set<string>;
  blocked: Set<string>;
  /** Operations one of whose requests the offline snapshot did not hold. */
  offline: Set<string>;
  /** Choice identities already tried. */
  tried: Set<string>;
  /** Responses this search already holds, by call. */
  held: Map<string, OperationResult>;
  /** Attempts this search made. */
  made: number;
}

export async function search<T>(ctx: QueryContext, provider: Provider<T>, o: SearchOptions): Promise<SearchOutcome<T>> {
  const run: SearchRun<T> = {
    ctx, o, tag: o.branch ? `[${o.branch}] ` : '', out: { attempts: [], admitted: [], notes: [], reached: [], resolved: false, passedOver: [] },
    pruned: new Set(), blocked: new Set(), offline: new Set(), tried: new Set(), held: new Map(), made: 0,
  };
  const iterator = provider(handleOf(run))[Symbol.asyncIterator]();
  try {
    for (let c = await nextChoice(run, iterator); c; c = await nextChoice(run, iterator)) {
      if (await consider(run, c) === 'stop') break;
    }
  } finally {
    await iterator.return?.(undefined);
  }
  finish(run);
  return run.out;
}

/** What the provider may ask the engine: the signal, what is pruned or blocked, and where to say things. */
function handleOf<T>(run: SearchRun<T>): SearchHandle {
  const { ctx, out, tag } = run;
  return {
    signal: ctx.signal,
    isPruned: (s) => run.pruned.has(s),
    isBlocked: (k) => run.blocked.has(k),
    resolved: () => { out.resolved = true; },
    note: (t) => { out.notes.push(t); },
    emit: (stage, by, message) => ctx.emit({ stage, by, message: `${tag}${message}` }),
  };
}

/** The provider's next choice, or undefined when it has none left or the question was stopped (then said in `stopped`). */
async function nextChoice<T>(run: SearchRun<T>, iterator: AsyncIterator<Choice<T>>): Promise<Choice<T> | undefined> {
  const { ctx, out } = run;
  if (ctx.signal.aborted) { out.stopped = fromSignal(ctx.signal); return undefined; }
  let next: IteratorResult<Choice<T>>;
  try {
    next = await iterator.next();
  } catch (e) {
    // a choice point failed outside any request (the identity registry): the search ends there
    const f = classify(e, ctx.signal);
    out.reached.push(f);
    if (isStop(f)) out.stopped = f;
    return undefined;
  }
  if (next.done) return undefined;
  // the provider may have awaited (resolution): the question can have been cancelled meanwhile
  if (ctx.signal.aborted) { out.stopped = fromSignal(ctx.signal); return undefined; }
  return next.value;
}

/** One choice: a boundary recorded, a choice skipped (and why), or an attempt made and what it teaches the search. */
async function consider<T>(run: SearchRun<T>, c: Choice<T>): Promise<'go_on' | 'stop'> {
  const { ctx, o, out } = run;
  if (c.kind === 'boundary') { out.reached.push(c.failure); return 'go_on'; }
  if (skipped(run, c)) return 'go_on';
  const limit = limitReached(ctx, o, run.made);
  if (limit) { out.stopped = limit; out.pending = c; return 'stop'; }
  try { ctx.budget.take(); } catch (e) { out.stopped = classify(e, ctx.signal); out.pending = c; return 'stop'; }
  run.made++;
  const step = await attempt(ctx, c, o, run.tag, out, run.held);
  return learn(run, c, step);
}

/**
 * Whether a choice is settled without an attempt: its subtree pruned, a key it depends on blocked,
 * its request not recorded where another request of its operation was missing, the same choice
 * already tried, or its measure absent from a response already held.
 */
function skipped<T>(run: SearchRun<T>, c: FetchChoice<T>): boolean {
  const { ctx, out } = run;
  const subtree = c.subtree ?? c.source;
  if (run.pruned.has(subtree)) { out.notes.push(`${c.label}: skipped, ${subtree} pruned`); return true; }
  if (!c.storeRead && (c.skipIfBlocked?.some((k) => run.blocked.has(k)) || run.blocked.has(requestBlock(c)))) { out.notes.push(`${c.label}: skipped, blocked for an earlier choice`); return true; }
  // an operation with a request missing from the offline snapshot: a later request is tried only if the snapshot records it
  if (!c.storeRead && run.offline.has(`${c.source}/${c.operation}`) && recorded(ctx, c) === false) { out.reached.push(notRecorded(c)); return true; }
  if (c.identity !== undefined) {
    if (run.tried.has(c.identity)) return true;
    run.tried.add(c.identity);
  }
  const inHand = c.absentIn ? run.held.get(fetchKey(c.source, c.operation, c.args)) : undefined;
  const absent = inHand ? c.absentIn!(inHand) : undefined;
  if (!absent) return false;
  out.reached.push(c.fallback ? { ...absent, fallback: true } : absent);
  out.passedOver.push(c.measure ?? c.label);
  return true;
}

/** What an attempt's step teaches the search: a subtree to prune, a request or keys to block, or that it is done. */
function learn<T>(run: SearchRun<T>, c: FetchChoice<T>, step: Step): 'go_on' | 'stop' {
  if (step === 'stop') return 'stop';
  if (step === 'prune') run.pruned.add(c.subtree ?? c.source);
  // a missing recording blocks that request only; any other block, what the choice says it blocks
  if (step === 'block_request') { run.blocked.add(requestBlock(c)); run.offline.add(`${c.source}/${c.operation}`); }
  if (step === 'block') for (const k of c.marksBlocked ?? []) run.blocked.add(k);
  return step === 'admitted' && (run.o.mode ?? 'first') === 'first' ? 'stop' : 'go_on';
}

/** The search's closing account: a cancellation that came with nothing admitted, and the concepts passed over without a request. */
function finish<T>(run: SearchRun<T>): void {
  const { ctx, out } = run;
  if (!out.stopped && out.admitted.length === 0 && ctx.signal.aborted) out.stopped = fromSignal(ctx.signal);
  if (out.passedOver.length === 0) return;
  const names = out.passedOver;
  const said = `${names.length} candidate concept${names.length === 1 ? '' : 's'} passed over without a new request: not in the response already fetched (${names.slice(0, 6).join(', ')}${names.length > 6 ? ', …' : ''})`;
  out.notes.push(said);
  ctx.emit({ stage: 'execution_plan', by: 'executor', message: `${run.tag}${said}` });
}

type Step = 'admitted' | 'rejected' | 'prune' | 'block' | 'block_request' | 'failed' | 'stop';

/**
 * Failure codes that concern one request, not the operation: the offline snapshot holding no
 * recording of this request says nothing of another request to the same operation (another table
 * or vintage), so only the same request is skipped afterwards.
 */
const REQUEST_SCOPED: ReadonlySet<string> = new Set(['offline']);
const requestBlock = (c: Pick<FetchChoice<unknown>, 'source' | 'operation' | 'args'>) => `request:${fetchKey(c.source, c.operation, c.args)}`;

/**
 * Whether the offline snapshot records a choice's request (undefined when the client asks the
 * publisher, or the request cannot be built here): once one request of an operation was missing,
 * the others are probed before an attempt, so a snapshot that holds another table or vintage of the
 * operation is still read and one that holds none costs one attempt, not one per concept.
 */
function recorded(ctx: QueryContext, c: Pick<FetchChoice<unknown>, 'source' | 'operation' | 'args'>): boolean | undefined {
  try {
    const connector = ctx.runtime.registry.get(c.source);
    const decl = ctx.runtime.declarations.operation(c.source, c.operation);
    if (!connector || !decl) return undefined;
    const { request, policy } = connector.buildRequest(decl, c.args);
    return ctx.runtime.http.recorded?.(request, policy);
  } catch {
    return undefined;
  }
}

/** The boundary of a choice skipped because the offline snapshot does not record its request (no attempt is made). */
function notRecorded(c: FetchChoice<unknown>): Failure {
  return {
    boundary: 'operationally_blocked', code: 'offline', source: c.source, operation: `${c.source}/${c.operation}`,
    message: `${c.source}: ${c.label} is not in the offline snapshot either (skipped without a request)`,
    params: { skipped: 'not_recorded', ...(c.measure ? { measure: c.measure } : {}), ...(c.bindings.vintage ? { vintage: c.bindings.vintage, vintageEnd: c.bindings.vintageEnd ?? '' } : {}) },
    ...(c.fallback ? { fallback: true } : {}),
  };
}

/** One attempt: open, fetch, examine, record. */
async function attempt<T>(ctx: QueryContext, c: FetchChoice<T>, o: SearchOptions, tag: string, out: SearchOutcome<T>, held: Map<string, OperationResult>): Promise<Step> {
  const n = o.nextAttempt();
  const opened = openAttempt(ctx, { n, source: c.source, operation: c.operation, bindings: c.bindings, ...(c.measure ? { measure: c.measure } : {}) });
  if (c.storeRead) { opened.attempt.kind = 'store_read'; opened.attempt.graph = c.storeRead; }
  out.attempts.push(opened.attempt);
  const the: Attempted<T> = { ctx, c, tag, out, n, ...opened };
  let result: OperationResult;
  try {
    result = await (c.fetch ? c.fetch(ctx) : fetchOnce(ctx, c.source, c.operation, c.args));
  } catch (e) {
    return fetchFailed(the, e);
  }
  held.set(fetchKey(c.source, c.operation, c.args), result);
  return examined(the, result);
}

/** An attempt under way: its context, choice, record and number, and how to close its timing. */
interface Attempted<T> { ctx: QueryContext; c: FetchChoice<T>; tag: string; out: SearchOutcome<T>; n: number; attempt: Attempt; done: () => void }

/** The fetch failed: the failure classified (a bug only where the choice recovers from failures), recorded, and what it blocks. */
function fetchFailed<T>(the: Attempted<T>, e: unknown): Step {
  const { ctx, c, out, n, attempt: a } = the;
  let f: Failure;
  try { f = classify(e, ctx.signal, c.source); } catch (bug) {
    if (!c.recover) throw bug;
    f = { boundary: 'operationally_blocked', code: 'bug', message: String((bug as Error)?.message ?? bug), source: c.source };
  }
  the.done();
  a.disposition = f.boundary === 'cancelled' ? 'cancelled' : 'errored';
  a.reason = f.message; a.failure = f.code;
  if (f.request) a.requests.push(f.request.replace(/^[A-Z]+ /, ''));
  out.reached.push(c.fallback ? { ...f, fallback: true } : f);
  ctx.emit({ stage: 'attempt', by: 'executor', message: `${the.tag}#${n} ${c.source}/${c.operation} ${c.label}: ${a.disposition} (${f.code})`, data: { attempt: n, disposition: a.disposition } });
  const recovered = c.recover?.(f, a);
  if (recovered !== undefined) out.admitted.push(recovered);
  if (isStop(f)) { out.stopped = f; return 'stop'; }
  if (f.boundary !== 'operationally_blocked') return 'failed';
  return REQUEST_SCOPED.has(f.code) ? 'block_request' : 'block';
}

/** The response judged by the choice's own examination: admitted, or rejected with its typed reason (and whether to prune or stop). */
async function examined<T>(the: Attempted<T>, result: OperationResult): Promise<Step> {
  const { ctx, c, out, n, attempt: a, tag } = the;
  a.responses = result.responses;
  a.requests = result.responses.map((r) => r.url);
  const x = await c.examine(result, a);
  the.done();
  a.checks = x.checks;
  if ('admit' in x) {
    a.disposition = 'accepted';
    out.admitted.push(x.admit);
    if (x.said) ctx.emit({ stage: 'validation', by: x.by ?? 'validator', message: `${tag}#${n} ${x.said}`, data: { attempt: n } });
    return x.more ? 'rejected' : 'admitted';
  }
  a.disposition = x.disposition ?? 'rejected';
  a.reason = x.reason ?? x.reject.message;
  a.failure = x.reject.code;
  out.reached.push({ ...x.reject, source: x.reject.source ?? c.source, examined: true, ...(c.fallback ? { fallback: true } : {}) });
  ctx.emit({ stage: x.reject.code === 'ambiguous_key' ? 'ambiguity' : 'validation', by: x.by ?? 'validator', message: `${tag}#${n} ${x.said ?? `${a.disposition} ${c.label}: ${a.reason}`}`, data: { attempt: n } });
  if (x.stop) { out.final = x.reject; return 'stop'; }
  return x.prune ? 'prune' : 'rejected';
}

// ---------------------------------------------------------------------------------------------
// The account of an unsuccessful search

/** Failure codes that say a record was read and judged (not "no such record", not a failed call). */
const JUDGED: ReadonlySet<string> = new Set(['period', 'grain', 'kind', 'suppressed', 'different_question', 'polarity', 'missing', 'residual', 'unit', 'ambiguous_key']);

export interface SummaryWords {
  /** "no total revenue for Apple in 2023" — what was not found, leading a no_data failure's message (absent: the failure's own message). */
  noData?: string;
  /** For a search that bound nothing: "no candidate operation could be bound for "Apple"". */
  nothingBound: string;
  /** For a search where no choice point resolved the entity. */
  unresolved?: string;
  /**
   * The publisher saying it holds no record outranks a failed call: for reads of a file that holds
   * a whole population (a state's exempt-organization extract), a record's absence is the answer.
   */
  absenceIsAnswer?: boolean;
}

/**
 * The one failure an unsuccessful search leads with. What stopped the search outranks what failed
 * along the way (deadline, budget, cancellation); a stopping rejection next (several rows match);
 * then a name that fits several entities (before any request), a name nothing resolved, a record
 * read and judged not to answer (the period, a sentinel, polarity …), a publisher that failed
 * (operationally blocked, naming the request), the publisher saying it has no such record, and
 * last, nothing bound at all.
 */
export function summarise(out: Pick<SearchOutcome<unknown>, 'reached' | 'stopped' | 'final' | 'resolved' | 'attempts' | 'notes'>, words: SummaryWords): Failure {
  // what the planned candidates reached outranks what the candidates beyond the plan's cut did,
  // unless the planned ones never got past entity resolution (then the fallback's account is the one that says something)
  const planned = out.reached.filter((f) => !f.fallback);
  const plannedSaid = planned.some((f) => f.boundary === 'no_data' || f.boundary === 'operationally_blocked');
  const r = plannedSaid ? planned : out.reached;
  const first = stoppedFirst(out);
  if (first) return first;
  const ambiguous = r.find((f) => f.code === 'ambiguous');
  if (ambiguous && out.attempts.length === 0) return ambiguous;
  const unresolved = r.find((f) => f.boundary === 'entity_unresolved');
  if (!out.resolved && (unresolved || words.unresolved)) return unresolved ?? { boundary: 'entity_unresolved', code: 'entity_unresolved', message: words.unresolved! };
  const judged = r.filter((f) => f.boundary === 'no_data' && JUDGED.has(f.code));
  if (judged.length > 0) {
    // the period asked missing is said first; otherwise the best-ranked candidate's verdict
    const lead = judged.find((f) => f.code === 'period') ?? judged[0]!;
    return withSubject(lead, words);
  }
  const notFound = r.filter((f) => f.boundary === 'no_data');
  const absence = notFound.find((f) => f.examined) ?? notFound[notFound.length - 1];
  if (absence && words.absenceIsAnswer) return withSubject(absence, words);
  const blocked = blockedAccount(r);
  if (blocked) return blocked;
  const keyUnbound = r.find((f) => f.code === 'key_unbound');
  if (keyUnbound) return keyUnbound;
  if (absence) return withSubject(absence, words);
  const unbound = r.find((f) => f.boundary === 'no_access_path');
  if (unbound) return unbound;
  if (unresolved) return unresolved;
  return { boundary: 'no_access_path', code: 'unbound', message: `${words.nothingBound}: ${out.notes.join('; ') || 'none eligible'}` };
}

/** What stopped the search (but a cap or a reserve, which rank below what was found), or the rejection after which nothing could help. */
function stoppedFirst(out: Pick<SearchOutcome<unknown>, 'stopped' | 'final'>): Failure | undefined {
  if (out.stopped && out.stopped.code !== 'leaf_cap' && out.stopped.code !== 'budget_near' && out.stopped.code !== 'deadline_near') return out.stopped;
  return out.final;
}

/** Blocked reads and unbound choices a refusal's sentence names after the first; the others are counted. */
const BLOCKED_NAMED = 12;

/** The first operationally blocked read, naming the next few other blocked reads (each recording missing) and choices that could not even be bound, and counting the rest. */
function blockedAccount(r: readonly Failure[]): Failure | undefined {
  const blocked = r.filter((f) => f.boundary === 'operationally_blocked');
  if (blocked.length === 0) return undefined;
  const also = [...new Set([...blocked.slice(1), ...r.filter((f) => f.boundary === 'no_access_path')].map((f) => f.message).filter((m) => m !== blocked[0]!.message))];
  if (also.length === 0) return blocked[0]!;
  // a sentence a reader can read: the first few named, the rest counted (each stays a typed boundary of the search)
  const shown = also.slice(0, BLOCKED_NAMED);
  const more = also.length - shown.length;
  return { ...blocked[0]!, message: `${blocked[0]!.message}; and ${shown.join('; ')}${more > 0 ? `; and ${more} more reads blocked or not bound the same way` : ''}` };
}

const withSubject = (f: Failure, words: SummaryWords): Failure => words.noData ? { ...f, message: `${words.noData}: ${f.message}` } : f;

export interface SourceAccount { source: string; boundaries: Array<{ boundary: Boundary; code: string; count: number; message: string; request?: string }> }

/** Every boundary reached, grouped by source (in the order sources were first reached), each code once with a count. */
export function reachedBySource(reached: readonly Failure[]): SourceAccount[] {
  const bySource = new Map<string, SourceAccount>();
  for (const f of reached) {
    const source = f.source ?? '(no source)';
    const acc = bySource.get(source) ?? { source, boundaries: [] };
    bySource.set(source, acc);
    const same = acc.boundaries.find((b) => b.boundary === f.boundary && b.code === f.code);
    if (same) same.count++;
    else acc.boundaries.push({ boundary: f.boundary, code: f.code, count: 1, message: f.message, ...(f.request ? { request: f.request } : {}) });
  }
  return [...bySource.values()];
}

/** Whether every choice point was tried (true), or the search stopped with choices left (false). */
export const exhausted = (out: Pick<SearchOutcome<unknown>, 'stopped' | 'final'>): boolean => !out.stopped && !out.final;
