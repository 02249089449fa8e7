/**
 * Reads that need no entity resolution: national aggregates and code-keyed records.
 *
 * An operation whose catalog entry accepts no organisation key is read without the identity
 * registry. Two cases:
 *
 *  - scope reads: the operation accepts no key at all, or only a date (Treasury debt to the penny,
 *    average interest rates). The "entity" is the dataset's own scope, as the descriptor states it
 *    (`scope` on the access path), and every answer says so.
 *  - code-keyed reads: the key is a code the publisher itself defines — a country-currency string of
 *    the rates of exchange, a Grants.gov opportunity id. It is bound from the question's words through
 *    the operation's declared parameters (a numeric id named in the question) or through the
 *    response's own fields (the record's series, e.g. `country_currency_desc`), never through the
 *    organisation registry. Several matching rows with different values are never picked silently:
 *    the caller is asked (or told which rows matched).
 *
 * Periods: a date-addressed range read is fetched one calendar year at a time ([Y-01-01, Y-12-31],
 * memoised per question), and the record is chosen in that year's response: "latest" = the newest
 * record (an ordered top-1 read of the same dataset when the catalog declares one); a date = that
 * date's record, or — disclosed, never silently — the last record before it when the publisher has
 * none dated that day; a quarter or a year = its last record (quarter end / year end), disclosed; a
 * federal fiscal year = the last record on or before 30 September. Every fetch is an attempt; every
 * admitted value passes the same checks (scope/key, measure, sentinel, unit, period) and becomes the
 * same evidence as a keyed read, cited to the publisher response (URL, retrieval time, hash).
 */
import type { Observation, OperationResult } from '../connectors/records.ts';
import type { OperationDecl } from '../connectors/declarations.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import type { Assessment } from '../plan/plan.ts';
import type { Code, Period } from '../understand/intent.ts';
import { adjudicate, type SemanticJudge } from '../validate/adjudicate.ts';
import type { Check, StructuralVerdict } from '../validate/structural.ts';
import type { QueryContext } from './context.ts';
import { exhausted, search, summarise, type Examination, type FetchChoice, type Provider } from './engine.ts';
import type { Failure } from './failure.ts';
import type { LeafResult } from './leaf.ts';

/** Key types that address a period, not an entity. */
const PERIOD_KEYS = new Set(['date']);
/** Key types the publisher defines and the question names as a code: bound from the response's own series field. */
const SERIES_KEYS = new Set(['country_currency']);

export interface UnkeyedRequest {
  question: string;
  /** The question's words for the measure. */
  attribute: string | null;
  /** The code the question names ("euro", "Mexican peso", "opportunity 350123"), or null for a scope read. */
  code: string | null;
  /** The publisher-defined codes the intent names (intent.codes): a record id is bound from here, never from the question's words. */
  codes?: readonly Code[];
  period: Period | null;
  candidates: Assessment[];
  units: ReadonlyMap<string, string>;
  nextAttempt: () => number;
  judge?: SemanticJudge;
  branch?: string;
}

export interface UnkeyedResult extends LeafResult {
  /** Several published rows match the code and report different values: the caller must choose. */
  ambiguous?: { code: string; options: Array<{ label: string; value: number; period: string }> };
  /** The code could not be bound to any declared parameter or published row (another path may try). */
  unbound?: boolean;
}

type KeyKind = 'scope' | 'series' | 'param';

/** How an operation is keyed, from its declaration: a scope read, a series code, a declared id parameter, or not at all. */
export function unkeyedKind(decl: OperationDecl | undefined): KeyKind | null {
  if (!decl) return null;
  const keys = decl.data.accepts.filter((k) => !PERIOD_KEYS.has(k));
  if (keys.length === 0) return 'scope';
  if (keys.every((k) => SERIES_KEYS.has(k))) return 'series';
  if (keys.length === 1 && paramFor(decl, keys[0]!)) return 'param';
  return null;
}

function paramFor(decl: OperationDecl, keyType: string) {
  return (decl.data.parameters ?? []).find((p) => p.name === keyType || p.identifierType === keyType);
}

const declOf = (ctx: QueryContext, c: Assessment) => c.operation ? ctx.runtime.declarations.operation(c.operation.publisherId, c.operation.operationId) : undefined;

/** Planned measure candidates this module can read: scope reads, or (with a code) code-keyed reads. */
export function unkeyedCandidates(ctx: QueryContext, candidates: readonly Assessment[], withCode: boolean): Assessment[] {
  return candidates.filter((c) => {
    if (c.kind !== 'measure' || !c.operation) return false;
    const k = unkeyedKind(declOf(ctx, c));
    // without a code the series may still be named among the measure words ("krone exchange rate")
    return withCode ? k === 'series' || k === 'param' : k === 'scope' || k === 'series';
  });
}

/** The record id the intent names for a declared parameter: the code whose noun the parameter numbers (opportunity_id ← "opportunity 350123"). */
export function recordIdFor(codes: readonly Code[], paramName: string): string | undefined {
  const noun = paramName.replace(/_(id|number|no)$/, '').replace(/_/g, ' ');
  const ids = codes.filter((c) => c.kind === 'record_id');
  return (ids.find((c) => c.noun === noun) ?? (ids.length === 1 && ids[0]!.noun === null ? ids[0] : undefined))?.value;
}

/** A numeric id named in a code's own words for a declared parameter ("opportunity 350123" for opportunity_id). */
export function codeFromText(text: string, paramName: string): string | undefined {
  const noun = paramName.replace(/_(id|number|no)$/, '').split('_').join('\\s+');
  const m = new RegExp(`\\b${noun}\\s*(?:id|number|no\\.?|#)?\\s*:?\\s*#?(\\d{2,})\\b`, 'i').exec(text);
  return m?.[1];
}

const STOP = new Set(['the', 'of', 'for', 'a', 'an', 'on', 'in', 'and', 'to', 'rate', 'rates', 'exchange', 'what', 'is', 'was', 'us', 'u', 's']);
const tokens = (t: string) => t.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1 && !STOP.has(w));
/** Same word, or the same stem of five letters or more (Mexican ~ Mexico, Japanese ~ Japan). */
const sameWord = (a: string, b: string) => a === b || (a.length >= 5 && b.length >= 5 && a.slice(0, 5) === b.slice(0, 5));

/**
 * Published series that the code names: every word of the code must appear in the series; among
 * those, the ones whose own words the code covers best (Euro Zone-Euro over Cyprus-Euro for "euro").
 */
export function matchSeries(code: string, series: readonly string[]): { best: string[]; all: string[] } {
  const want = tokens(code);
  if (want.length === 0) return { best: [], all: [] };
  const scored = series.map((s) => {
    const have = tokens(s);
    const all = want.every((w) => have.some((h) => sameWord(w, h)));
    const covered = have.filter((h) => want.some((w) => sameWord(w, h))).length / Math.max(1, have.length);
    return { s, all, covered };
  }).filter((x) => x.all);
  const top = Math.max(0, ...scored.map((x) => x.covered));
  return { best: scored.filter((x) => x.covered === top).map((x) => x.s), all: scored.map((x) => x.s) };
}

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** The target of a period inside the data: the last record on or before `until` (and not before `from`). */
interface Target { from: string; until: string; exactDate?: string; what: string; year: number }

function targetOf(p: Period, today: string): Target | 'latest' | { error: string } {
  if (p.latest) return 'latest';
  if (p.date) return { from: `${p.date.slice(0, 4)}-01-01`, until: p.date, exactDate: p.date, what: p.date, year: Number(p.date.slice(0, 4)) };
  if (p.year === null) return { error: `"${p.text}" names no date or year` };
  const y = p.year;
  if (p.basis === 'fiscal') return { from: `${y}-01-01`, until: `${y}-09-30`, what: `federal fiscal year ${y} (ends 30 September ${y})`, year: y };
  if (p.quarter) {
    const endMonth = p.quarter * 3;
    const endDay = new Date(Date.UTC(y, endMonth, 0)).getUTCDate();
    return { from: iso(y, endMonth - 2, 1), until: iso(y, endMonth, endDay), what: `${y}Q${p.quarter}`, year: y };
  }
  if (`${y}-01-01` > today) return { error: `${y} has not begun` };
  return { from: `${y}-01-01`, until: `${y}-12-31`, what: String(y), year: y };
}

/** The declaration's own statement of what a scope read covers. */
function scopeLabel(decl: OperationDecl): string {
  const s = (decl.data as unknown as { scope?: string }).scope;
  return s ?? `the whole dataset (${decl.data.coverage.of}), as published`;
}

function measureOf(candidateKey: string, publisher: string): string {
  return candidateKey.startsWith(`${publisher}/`) ? candidateKey.slice(publisher.length + 1) : candidateKey;
}

export async function readUnkeyed(ctx: QueryContext, req: UnkeyedRequest): Promise<UnkeyedResult> {
  const state: UnkeyedState = { tried: 0, unbound: 0 };
  const out = await search(ctx, unkeyedChoices(ctx, req, state), { nextAttempt: req.nextAttempt, ...(req.branch ? { branch: req.branch } : {}) });
  const evidence = out.admitted[0];
  if (evidence) return { attempts: out.attempts, notes: out.notes, evidence };
  const failure = out.reached.length === 0 && !out.stopped
    ? { boundary: 'no_access_path' as const, code: 'unbound', message: out.notes.join('; ') || 'no candidate operation reads this without an entity key' }
    : summarise(out, { nothingBound: 'no candidate operation reads this without an entity key' });
  return {
    attempts: out.attempts, notes: out.notes, failure, reached: out.reached, exhausted: exhausted(out),
    ...(state.ambiguous ? { ambiguous: state.ambiguous } : {}), ...(state.tried > 0 && state.unbound === state.tried ? { unbound: true } : {}),
  };
}

interface UnkeyedState {
  tried: number; unbound: number; ambiguous?: UnkeyedResult['ambiguous'];
  /** Reads whose record left only the residual question: judged (the model asked) after every other read, so a model's yes never picks them over a read the code accepts alone. */
  deferred?: Array<FetchChoice<Omit<AdmittedEvidence, 'index'>>>;
  /** Whether the deferred reads are being judged. */
  judging?: boolean;
}

const CHECK_CODES: Readonly<Record<string, string>> = { sentinel: 'suppressed' };

/**
 * The unkeyed reads as choice points to the engine: one per candidate operation, bound to the
 * code (a declared parameter) and the period's request (an ordered top-1 read for "latest", else
 * the period's calendar year); the series, period and amendment choices are settled on the
 * response, in `examine`.
 */
function unkeyedChoices(ctx: QueryContext, req: UnkeyedRequest, state: UnkeyedState): Provider<Omit<AdmittedEvidence, 'index'>> {
  const today = new Date(ctx.clock.now()).toISOString().slice(0, 10);
  return async function* (h) {
    h.resolved(); // no entity is resolved here: a code or the dataset's scope stands for it
    for (const cand of req.candidates) {
      const op = cand.operation;
      const decl = declOf(ctx, cand);
      const kind = unkeyedKind(decl);
      if (!op || !decl || !kind) continue;
      state.tried++;
      const measure = measureOf(cand.candidateKey, cand.publisherId);

      // the code, bound through a declared parameter
      const code = codeArg(req, decl, kind);
      if ('missing' in code) { state.unbound++; h.note(`${op.key}: the question names no ${code.missing}`); continue; }
      const { args, key } = code;

      // which request: an ordered top-1 read of the dataset for "latest", else the period's calendar year
      const target = req.period ? targetOf(req.period, today) : 'latest';
      if (typeof target === 'object' && 'error' in target) { yield { kind: 'boundary', failure: { boundary: 'no_data', code: 'period', source: cand.publisherId, message: target.error } }; continue; }
      const readDecl = periodRequest(ctx, decl, kind, target, today, args);
      const periodText = target === 'latest' ? 'latest' : target.what;
      const choiceFor = (callArgs: Record<string, string>, descended?: string): FetchChoice<Omit<AdmittedEvidence, 'index'>> => {
        const choice: FetchChoice<Omit<AdmittedEvidence, 'index'>> = {
          kind: 'fetch', source: cand.publisherId, operation: readDecl.id, measure: cand.candidateKey, args: callArgs, label: `${measure} (${periodText}${descended ? `, ${callArgs.start?.slice(0, 4)} window` : ''})`,
          bindings: { ...callArgs, measure, period: periodText, ...(key ? { [key.keyType]: key.value } : kind === 'scope' ? { scope: scopeLabel(decl) } : { code: req.code ?? '' }) },
          examine: (result, attempt) => examineUnkeyed(ctx, req, state, { cand, decl, readDecl, kind, measure, key, target, periodText, today, choice, ...(descended ? { descended } : {}) }, result, attempt.n),
        };
        return choice;
      };
      yield choiceFor(args);
      // "latest" of a range read is this year's window; when it holds nothing that answers (early in a year, or not
      // in the offline snapshot), the year before's newest record is the latest there is — said, never silently
      if (target === 'latest' && readDecl === decl && args.start && args.end) {
        const y = Number(args.start.slice(0, 4)) - 1;
        yield choiceFor({ ...args, start: `${y}-01-01`, end: `${y}-12-31` }, `${y + 1}`);
      }
    }
    if (req.judge && state.deferred?.length) {
      state.judging = true;
      h.emit('execution_plan', 'executor', `no candidate passed on the code's checks alone; asking the model about the ${state.deferred.length} whose label the code could not settle, in order`);
      yield* state.deferred;
    }
  };
}

/** The code the question names, bound through the operation's declared parameter (a param read), or the parameter it lacks. */
function codeArg(req: UnkeyedRequest, decl: OperationDecl, kind: KeyKind): { args: Record<string, string>; key?: { keyType: string; value: string; label: string } } | { missing: string } {
  if (kind !== 'param') return { args: {} };
  const keyType = decl.data.accepts.find((k) => !PERIOD_KEYS.has(k))!;
  const param = paramFor(decl, keyType)!;
  const value = recordIdFor(req.codes ?? [], param.name) ?? codeFromText(req.code ?? '', param.name);
  if (!value) return { missing: param.name };
  return { args: { [param.name]: value }, key: { keyType, value, label: `${keyType.replace(/_/g, ' ')} ${value}` } };
}

/**
 * The request for the period: for "latest", the dataset's ordered top-1 read when it declares one
 * (a scope read), else this year's window; for a year, that calendar year's window ([Y-01-01, Y-12-31]).
 * Sets the window on `args`; returns the operation to call.
 */
function periodRequest(ctx: QueryContext, decl: OperationDecl, kind: KeyKind, target: Target | 'latest', today: string, args: Record<string, string>): OperationDecl {
  const params = new Set((decl.data.parameters ?? []).map((p) => p.name));
  const ranged = params.has('start') && params.has('end');
  if (target !== 'latest') {
    if (ranged) { args.start = `${target.year}-01-01`; args.end = `${target.year}-12-31`; }
    return decl;
  }
  const top = ctx.runtime.declarations.all().find((d) => d.publisherId === decl.publisherId && d.data.dataset === decl.data.dataset && d.data.kind === 'ordered_top_n' && d.data.accepts.length === 0);
  if (top && kind === 'scope') return top;
  if (ranged) { const y = Number(today.slice(0, 4)); args.start = `${y}-01-01`; args.end = `${y}-12-31`; }
  return decl;
}

type Examined = Examination<Omit<AdmittedEvidence, 'index'>>;
interface UnkeyedChoice { cand: Assessment; decl: OperationDecl; readDecl: OperationDecl; kind: KeyKind; measure: string; key: { keyType: string; value: string; label: string } | undefined; target: Target | 'latest'; periodText: string; /** The question's clock date. */ today: string; /** "Latest" read in the year before's window: the year whose window did not answer. */ descended?: string; choice: FetchChoice<Omit<AdmittedEvidence, 'index'>> }

/**
 * The validators' verdict on one unkeyed response, in steps: the measure reported at all, the code
 * bound through the response's own series field (`boundSeries`), the period (`pickPeriod`), one row
 * per series and date (`effectiveRows`), several rows with different values asked about
 * (`severalRows`), then the checks and the judge (`judgedRecord`).
 */
async function examineUnkeyed(ctx: QueryContext, req: UnkeyedRequest, state: UnkeyedState, c: UnkeyedChoice, result: OperationResult, attemptN: number): Promise<Examined> {
  const published = result.records.filter((r): r is Observation => r.type === 'observation' && r.measure === c.measure);
  if (published.length === 0) return rejectUnkeyed(c, 'not_found', `the ${c.readDecl.id} response reports no ${c.measure}`);
  const bound = boundSeries(req, state, c, result, published);
  if ('reject' in bound) return bound;
  const warnings: string[] = [];
  const pick = pickPeriod(c, bound.obs, warnings);
  if (!Array.isArray(pick)) return pick;
  if (c.descended) warnings.push(`"latest" read as the newest record of ${Number(c.descended) - 1}: the ${c.descended} window was not read or holds no record of it`);
  const chosen = effectiveRows(c, pick, warnings);
  if (chosen.length === 0) return rejectUnkeyed(c, 'period', `no ${c.measure} record for ${c.periodText} in this response`);
  const several = severalRows(state, published, bound, chosen, warnings);
  if (several) return several;
  // the series words bound from the attribute ("treasury bills") name the row, not the measure: the label is checked against the rest
  const measureWords = !req.code && bound.phrase ? withoutWords(req.attribute, bound.phrase) : req.attribute;
  return judgedRecord(ctx, { ...req, attribute: measureWords }, state, c, chosen[0]!, warnings, result, attemptN);
}

/** A rejection of an unkeyed record (`not_found` is "no such record", an errored attempt; anything else a record judged). */
type Rejected = Extract<Examined, { reject: Failure }>;

function rejectUnkeyed(c: UnkeyedChoice, code: string, reason: string, boundary: Failure['boundary'] = 'no_data'): Rejected {
  const disposition = code === 'not_found' ? 'errored' : 'rejected';
  return { reject: { boundary, code, message: reason }, checks: [], disposition, said: `${disposition} ${c.measure}: ${reason}` };
}

const seriesOf = (o: Observation) => (typeof o.attributes.series === 'string' ? o.attributes.series : '');

/** The rows of the series the question's code (or the words beyond the measure's label) names, the closest matches first; the others it also matches kept aside. */
interface BoundSeries { obs: Observation[]; alsoMatched: string[]; phrase: string }

function boundSeries(req: UnkeyedRequest, state: UnkeyedState, c: UnkeyedChoice, result: OperationResult, obs: Observation[]): BoundSeries | Rejected {
  const allSeries = [...new Set(obs.map(seriesOf).filter(Boolean))];
  if (allSeries.length === 0) {
    if (c.kind !== 'series') return { obs, alsoMatched: [], phrase: req.code ?? '' };
    state.unbound++;
    return rejectUnkeyed(c, 'key_unbound', `the response carries no ${c.decl.data.accepts.join('/')} field to bind "${req.code}" to`);
  }
  const phrase = req.code ?? residualWords(req.attribute, obs[0]!.label ?? c.cand.title);
  const m = phrase ? matchSeries(phrase, allSeries) : { best: [], all: [] };
  if (m.best.length === 0) {
    if (c.kind === 'series') state.unbound++;
    const named = phrase ? `"${phrase}" names none of them` : 'the question names none of them';
    return rejectUnkeyed(c, 'key_unbound', `the response has ${allSeries.length} series (${allSeries.slice(0, 8).join('; ')}${allSeries.length > 8 ? '; …' : ''}); ${named}${result.complete ? '' : ' (and the response is not every series of the dataset)'}`, c.kind === 'series' ? 'entity_unresolved' : 'no_data');
  }
  return { obs: obs.filter((o) => m.best.includes(seriesOf(o))), alsoMatched: m.all.filter((x) => !m.best.includes(x)), phrase };
}

/** The rows of the period asked: the newest date for "latest", else the last date within the span asked (said when it is not the date asked). */
function pickPeriod(c: UnkeyedChoice, obs: Observation[], warnings: string[]): Observation[] | Rejected {
  const { target } = c;
  const dated = obs.filter((o) => o.period.end);
  if (target === 'latest') {
    const newest = dated.reduce((m, o) => (o.period.end! > m ? o.period.end! : m), '');
    // a record with no time dimension (one opportunity's synopsis) is its own latest; the date is the answer's own period, written there once
    return newest ? dated.filter((o) => o.period.end === newest) : obs;
  }
  const inRange = dated.filter((o) => o.period.end! >= target.from && o.period.end! <= target.until);
  const last = inRange.reduce((m, o) => (o.period.end! > m ? o.period.end! : m), '');
  if (!last) {
    const after = dated.filter((o) => o.period.end! > target.until).map((o) => o.period.end!).sort()[0];
    return rejectUnkeyed(c, 'period', `the publisher has no record for ${target.what} in this response${after ? `; the nearest later record is dated ${after}` : ''}`);
  }
  // a year (quarter, fiscal year) read at its last record: the response must reach the period's end, or its last
  // record is some day inside it, not the period's (a snapshot that stops in March is not the year-end debt)
  if (!target.exactDate && daysBetween(last, target.until) > PERIOD_END_SLACK_DAYS && target.until < c.today) {
    return rejectUnkeyed(c, 'period', `the response holds ${target.what} records only through ${last}: the last record of ${target.what} (on or before ${target.until}) is not in it`);
  }
  if (target.exactDate && last !== target.exactDate) {
    const next = dated.filter((o) => o.period.end! > target.exactDate!).map((o) => o.period.end!).sort()[0];
    warnings.push(`the publisher has no record dated ${target.exactDate}; the value is the last record before it, dated ${last}${next ? ` (the next record is dated ${next})` : ''}`);
  } else if (!target.exactDate) {
    warnings.push(`${target.what} read as its last record, dated ${last}`);
  }
  return inRange.filter((o) => o.period.end === last);
}

/** Days a period's last record may fall before its end (weekends, holidays, a month's last business day). */
const PERIOD_END_SLACK_DAYS = 7;
const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;

/** Several rows per series and date (mid-period amendments): the latest effective on or before the date asked, said. */
function effectiveRows(c: UnkeyedChoice, pick: Observation[], warnings: string[]): Observation[] {
  const bySeries = new Map<string, Observation[]>();
  for (const o of pick) bySeries.set(seriesOf(o), [...(bySeries.get(seriesOf(o)) ?? []), o]);
  const limit = c.target === 'latest' ? '9999-12-31' : c.target.until;
  const eff = (o: Observation) => (typeof o.attributes.effectiveDate === 'string' ? o.attributes.effectiveDate : o.period.end ?? '');
  const chosen: Observation[] = [];
  for (const [series, rows] of bySeries) {
    const ok = rows.filter((o) => eff(o) <= limit).sort((a, b) => eff(b).localeCompare(eff(a)));
    const row = ok[0] ?? rows[0]!;
    if (rows.length > 1) warnings.push(`${series || c.measure} has ${rows.length} rows for ${row.period.end} (amendments); read the one effective ${eff(row)}${ok[0] ? '' : ' (none effective by the date asked)'}`);
    chosen.push(row);
  }
  return chosen;
}

/**
 * Several rows the words match on the date read: with different values, every one is an option and
 * the search stops there (`ambiguous_key`, nothing further can help); with the same value, and the
 * rows the words also match, said as warnings.
 */
function severalRows(state: UnkeyedState, published: readonly Observation[], bound: BoundSeries, chosen: Observation[], warnings: string[]): Examined | undefined {
  const { phrase, alsoMatched } = bound;
  const values = [...new Set(chosen.map((o) => o.value))];
  if (chosen.length > 1 && values.length > 1) {
    // every row the words match on that date is an option, not only the closest matches
    const more = published.filter((o) => alsoMatched.includes(seriesOf(o)) && o.period.end === chosen[0]!.period.end && typeof o.value === 'number');
    const options = [...chosen, ...more].map((o) => ({ label: seriesOf(o), value: o.value!, period: o.period.end! })).filter((o, i, all) => all.findIndex((x) => x.label === o.label) === i);
    const reason = `"${phrase}" matches ${options.length} published rows dated ${chosen[0]!.period.end} with different values: ${options.map((o) => `${o.label} ${o.value}`).join('; ')}`;
    state.ambiguous = { code: phrase, options };
    return { reject: { boundary: 'entity_unresolved', code: 'ambiguous_key', message: reason, params: { code: phrase, candidates: options.map((o) => o.label) } }, checks: [], stop: true, said: reason, by: 'executor' };
  }
  if (chosen.length > 1) warnings.push(`"${phrase}" matches ${chosen.length} published rows (${chosen.map(seriesOf).join('; ')}), all reporting the same value`);
  const rec = chosen[0]!;
  // the other rows the words also match, on the same date: named, with whether their values differ
  const others = published.filter((o) => alsoMatched.includes(seriesOf(o)) && o.period.end === rec.period.end);
  if (others.length === 0) return undefined;
  const differ = others.filter((o) => o.value !== rec.value);
  const differing = differ.length === 0 ? 'all report the same value' : `${differ.length === 1 ? 'one reports' : `${differ.length} report`} a different value (${differ.slice(0, 4).map((o) => `${seriesOf(o)} ${o.asPublished ?? o.value}`).join('; ')})`;
  warnings.push(`"${phrase}" also matches ${others.length} other published row${others.length === 1 ? '' : 's'} dated ${rec.period.end} (${others.slice(0, 6).map(seriesOf).join('; ')}${others.length > 6 ? '; …' : ''}); read as ${seriesOf(rec)}, which it matches most closely; ${differing}`);
  return undefined;
}

/** The checks (scope or key, measure, sentinel, unit, period) and the judge on the record read; admitted with what identifies it, or rejected with the check's code. */
async function judgedRecord(ctx: QueryContext, req: UnkeyedRequest, state: UnkeyedState, c: UnkeyedChoice, rec: Observation, warnings: string[], result: OperationResult, attemptN: number): Promise<Examined> {
  const { cand, decl, kind, measure, key, periodText } = c;
  const unit = req.units.get(cand.candidateKey);
  const label = key?.label ?? (kind === 'series' ? seriesOf(rec) : scopeLabel(decl));
  const altLabels = ctx.runtime.descriptors?.altLabels(cand.publisherId, measure) ?? [];
  const structural = checkUnkeyed(rec, { kind, measure, unit, label, keyValue: key?.value, attribute: req.attribute, period: periodText, altLabels });
  structural.warnings.push(...warnings);
  const verdict = await adjudicate(structural, req.question, ctx.signal, state.judging ? req.judge : undefined);
  if (req.judge && !state.judging && verdict.checks.every((x) => x.passed) && verdict.residual) {
    (state.deferred ??= []).push({ ...c.choice, identity: `${c.choice.label}|${JSON.stringify(c.choice.args)}|judged` });
    const reason = `${verdict.residual}: set aside, asked of the model only if no candidate passes on the code's checks alone`;
    return { reject: { boundary: 'no_data', code: 'residual', message: `${measure}: ${reason}` }, reason, checks: verdict.checks, by: 'validator', said: `set aside ${measure}: ${reason}` };
  }
  if (!verdict.passed) {
    const failed = verdict.checks.find((x) => !x.passed)?.name;
    const code = failed ? CHECK_CODES[failed] ?? failed : 'residual';
    const reason = verdict.reason ?? 'rejected';
    return { reject: { boundary: 'no_data', code, message: `${measure}: ${reason}` }, reason, checks: verdict.checks, by: verdict.decidedBy === 'code+model' ? 'validator+model' : 'validator', said: `rejected ${measure}: ${reason}` };
  }
  return admittedUnkeyed(req, c, rec, label, verdict, result, attemptN);
}

/** The unkeyed record admitted as evidence: the key, series or dataset scope it stands for, and every warning. */
function admittedUnkeyed(req: UnkeyedRequest, c: UnkeyedChoice, rec: Observation, label: string, verdict: Awaited<ReturnType<typeof adjudicate>>, result: OperationResult, attemptN: number): Examined {
  const { cand, decl, readDecl, kind, measure, key, periodText } = c;
  const p = rec.period;
  const entityKey = key?.value ?? (kind === 'series' ? seriesOf(rec) : `${cand.publisherId}/${decl.data.dataset}`);
  const keyType = key?.keyType ?? (kind === 'series' ? decl.data.accepts.find((k) => SERIES_KEYS.has(k))! : 'scope');
  return {
    checks: verdict.checks, by: verdict.decidedBy === 'code' ? 'validator' : 'validator+model',
    said: `admitted ${measure} ${rec.period.end} = ${rec.value} ${rec.unit} (${label})`,
    admit: {
      attemptN, source: cand.publisherId, operation: readDecl.id, measure: cand.candidateKey,
      measureLabel: rec.label ?? cand.title, attribute: req.attribute,
      value: rec.value!, unit: rec.unit, ...(rec.currency ? { currency: rec.currency } : {}),
      period: { label: p.end ?? p.label ?? periodText, ...(p.start ? { start: p.start } : {}), ...(p.end ? { end: p.end } : {}), basis: p.basis, ...(p.fiscalYear !== undefined ? { fiscalYear: p.fiscalYear } : {}) },
      entity: { label, keyType, key: entityKey, keys: { [keyType]: entityKey } },
      raw: rec.raw,
      assurance: { match: 'key', planVerdict: cand.verdict === 'composed' ? 'composed' : 'exact', warnings: [...verdict.warnings, ...result.notes] },
    },
  };
}

/** The attribute without the words of a phrase (and a preposition left dangling before them). */
function withoutWords(attribute: string | null, phrase: string): string | null {
  if (!attribute) return attribute;
  const drop = new Set(tokens(phrase));
  const kept = attribute.split(/\s+/).filter((w) => !drop.has(w.toLowerCase()));
  while (kept.length && FUNCTION_WORDS.has(kept[kept.length - 1]!.toLowerCase())) kept.pop();
  return kept.join(' ') || attribute;
}

/** Words of the attribute beyond the measure's own label ("treasury bills" in "average interest rate on Treasury bills"). */
function residualWords(attribute: string | null, label: string): string {
  const own = new Set(tokens(label));
  return tokens(attribute ?? '').filter((w) => !own.has(w) && !['average', 'interest', 'latest', 'current', 'total'].includes(w)).join(' ');
}

interface UnkeyedExpectation { kind: KeyKind; measure: string; unit?: string; label: string; keyValue?: string; attribute: string | null; period: string; /** Other names the catalog gives the measure (`altLabels`). */ altLabels?: readonly string[] }

const UNIT_ALIASES: Record<string, string[]> = { USD: ['USD'], '%': ['%', 'percent'], percent: ['%', 'percent'] };

/** The entity check of an unkeyed read: the dataset's scope, the series the code names, or the record's own id for a param read. */
function entityCheck(rec: Observation, want: UnkeyedExpectation): Check {
  if (want.kind === 'scope') return { name: 'entity', passed: true, detail: `the operation takes no entity key: the record is the dataset's own scope (${want.label})` };
  if (want.kind === 'series') return { name: 'entity', passed: true, detail: `the record's own series field is "${want.label}", the code the question names` };
  const recKey = Object.values(rec.entity ?? {}).find((v) => v === want.keyValue);
  return recKey ? { name: 'entity', passed: true, detail: `${want.label} equals the record's own id` } : { name: 'entity', passed: false, detail: `the record does not carry ${want.label}` };
}

/** The period check: a dated record, or for "latest" of a param read the one undated record the publisher keeps. */
function periodCheck(rec: Observation, want: UnkeyedExpectation): Check {
  if (rec.period.end) return { name: 'period', passed: true, detail: `record dated ${rec.period.end} for ${want.period}` };
  if (want.period === 'latest' && want.kind === 'param') return { name: 'period', passed: true, detail: `an undated record, the only one the publisher keeps for ${want.label}` };
  return { name: 'period', passed: false, detail: 'the record carries no date' };
}

/** The keyed-read checks, with the scope (or the publisher-defined code) standing where the entity key stands. */
export function checkUnkeyed(rec: Observation, want: UnkeyedExpectation): StructuralVerdict {
  const checks: Check[] = [entityCheck(rec, want)];
  checks.push(rec.measure === want.measure ? { name: 'measure', passed: true, detail: `field ${rec.measure}` } : { name: 'measure', passed: false, detail: `record reports ${rec.measure}, the binding asked for ${want.measure}` });
  checks.push(rec.status === 'reported' && typeof rec.value === 'number' && Number.isFinite(rec.value)
    ? { name: 'sentinel', passed: true, detail: 'a reported value' }
    : { name: 'sentinel', passed: false, detail: `no usable value: ${rec.status}${rec.asPublished !== undefined ? ` (published as "${rec.asPublished}")` : ''}` });
  const unitOk = !want.unit || rec.unit === want.unit || (UNIT_ALIASES[want.unit] ?? []).includes(rec.unit);
  checks.push(unitOk ? { name: 'unit', passed: true, detail: `${rec.unit}${rec.currency ? ` (${rec.currency})` : ''}` } : { name: 'unit', passed: false, detail: `unit ${rec.unit}, the measure is declared in ${want.unit}` });
  checks.push(periodCheck(rec, want));
  const passed = checks.every((c) => c.passed);
  const out: StructuralVerdict = { passed, checks, warnings: [], match: 'key', prune: false };
  if (!passed) out.reason = checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`).join('; ');
  else if (want.attribute && rec.label && ![rec.label, ...(want.altLabels ?? [])].some((l) => leadsWith(l, want.attribute!))) {
    out.residual = `does "${rec.label}" mean "${want.attribute}"? (its label does not lead with the words asked for${rec.label && leadsWith(rec.label, want.attribute, false) ? `: "${rec.label}" narrows them` : ''})`;
  }
  return out;
}

/** Function words the interpreter drops from an attribute ("debt held public" for "debt held by the public"). */
const FUNCTION_WORDS = new Set(['total', 'the', 'of', 'a', 'an', 'in', 'its', 'by', 'on', 'for', 'to', 'at', 'per', 'latest', 'current']);
const plainWords = (t: string) => t.toLowerCase().replace(/\([^)]*\)/g, ' ').split(/[^a-z0-9]+/).filter((w) => w && !FUNCTION_WORDS.has(w)).map((w) => w.replace(/ies$/, 'y').replace(/([^s])s$/, '$1'));
/**
 * Whether the publisher's label leads with the words asked for (the same test as a keyed read,
 * function words aside) and stops there: words after them that narrow the thing asked ("Debt HELD
 * BY THE PUBLIC" when "debt" was asked) make it a part of it, not it, so the label does not answer
 * (`narrowing: false` skips that second test). A preposition or a word naming how the value is
 * stated ("Average Interest Rate AMOUNT", "Debt OUTSTANDING") does not narrow.
 */
export function leadsWith(label: string, attribute: string, narrowing = true): boolean {
  const a = plainWords(attribute);
  const l = plainWords(label);
  if (a.length === 0 || !a.every((w, i) => l[i] === w)) return false;
  if (!narrowing) return true;
  const next = l[a.length];
  return next === undefined || STATED_AS.has(next) || CONTINUES_WITH.has(firstRawAfter(label, a));
}
/** Words after the measure's name that say how its value is stated, not which part of it. */
const STATED_AS = new Set(['amount', 'amt', 'value', 'outstanding', 'level']);
/** Prepositions and qualifiers after which a label goes on about the same thing ("Rate of Exchange", "Income Attributable to …"). */
const CONTINUES_WITH = new Set(['of', 'for', 'from', 'to', 'with', 'in', 'on', 'at', 'per', 'excluding', 'including', 'attributable', 'available']);
/** The label's first word after the words asked, function words included. */
function firstRawAfter(label: string, asked: readonly string[]): string {
  const raw = label.toLowerCase().replace(/\([^)]*\)/g, ' ').split(/[^a-z0-9]+/).filter(Boolean).map((w) => w.replace(/ies$/, 'y').replace(/([^s])s$/, '$1'));
  let k = 0; let i = 0;
  for (; i < raw.length && k < asked.length; i++) if (raw[i] === asked[k]) k++;
  return raw[i] ?? '';
}
