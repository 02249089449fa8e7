/**
 * Cross-checks: after a keyed read admits a numeric value, read the same measure for the same
 * entity and period a second way — another operation (or publisher) the catalog says serves that
 * measure — and compare the two values exactly. Code compares; nothing is smoothed over:
 *   agrees      — the second path holds the same value for the same entity, measure, unit and
 *                 period; the evidence is linked to that second response (assay:corroboratedBy)
 *   disagrees   — it holds a different value; both values and sources are disclosed
 *   unavailable — no second path could be read (no other operation serves the measure, no binder,
 *                 no recorded response, no record for the same period, or the same response body)
 *   failed      — the second read failed (publisher error, deadline, budget)
 *
 * A cross-check never blocks or fails the answer: it runs inside the question's attempt budget and
 * deadline (it is skipped when either is nearly spent, and its own reads stop at a share of the
 * time left), and every failure is recorded as an attempt and otherwise ignored.
 *
 * Independence is stated, not assumed: two paths that replay DERIVED samples built from the same
 * upstream response (the SEC companyconcept and frames cassettes are built from companyfacts)
 * agree by construction, and the cross-check says so (`sharedUpstream`).
 */
import type { OperationRef } from '../discover/index.ts';
import type { Observation, OperationResult } from '../connectors/records.ts';
import type { RawPointer } from '../http/client.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import type { Check, PeriodWanted } from '../validate/structural.ts';
import type { Attempt } from './attempt.ts';
import { bindOperation } from './bind.ts';
import { childContext, type QueryContext } from './context.ts';
import { fetchOnce, openAttempt, recordFetchFailure, type Failure } from './leaf.ts';

export type CrossCheckOutcome = 'agrees' | 'disagrees' | 'unavailable' | 'failed';

export interface CrossCheck {
  /** The admitted evidence checked (its run index, E-number). */
  evidenceIndex: number;
  /** The second path. */
  source: string;
  operation: string;
  outcome: CrossCheckOutcome;
  /** The attempt that read the second path (absent when nothing could be attempted). */
  attempt?: Attempt;
  /** The value the second path holds for the same entity, measure, unit and period. */
  value?: number;
  /** The second publisher response the value was read from. */
  response?: RawPointer;
  /** The primary value, for the record. */
  primaryValue: number;
  /** What happened, in words. */
  detail: string;
  /** Set when the second path cannot be independent of the primary: why (DERIVED from the same upstream). */
  sharedUpstream?: string;
}

export interface CrossCheckRequest {
  /** Catalog operations serving each measure key (from the discovery cards the plan read). */
  serving: ReadonlyMap<string, readonly OperationRef[]>;
  nextAttempt: () => number;
  /** Second paths tried per evidence item (default 2). */
  perEvidence?: number;
  /** Cross-check reads per question (default 12). */
  maxAttempts?: number;
}

/** Kinds of operation that read one entity's (or every filer's) value for a measure. */
const READ_KINDS = new Set(['keyed_read', 'period_read', 'population_scan']);
/** The share of the remaining deadline a cross-check may use, and the least it needs to start. */
const DEADLINE_SHARE = 0.5;
const MIN_REMAINING_MS = 500;
/** Attempts left in the shared budget below which no cross-check starts. */
const BUDGET_RESERVE = 2;

type Bound = { fetchArgs: Record<string, string>; measure: string; operation?: string } | { error: string };

/** Calendar frame (SEC frames `CY2023`, `CY2023Q3I`) a period falls in, by its midpoint (instants by their date). */
export function calendarFrame(period: { start?: string; end?: string }): string | undefined {
  if (!period.end) return undefined;
  const end = Date.parse(period.end);
  if (!period.start) {
    // an instant is framed by the calendar quarter end nearest to it (SEC aligns frames to the
    // calendar period they best fit): NVIDIA's 2023-01-29 balance sheet is CY2022Q4I, not CY2023Q1I
    const d = new Date(end);
    const y = d.getUTCFullYear();
    const ends = [-1, 0, 1, 2, 3].map((q) => ({ y: q < 0 ? y - 1 : y, q: q < 0 ? 4 : q + 1, t: Date.UTC(q < 0 ? y - 1 : y, q < 0 ? 12 : (q + 1) * 3, 0) }));
    const near = ends.reduce((a, b) => (Math.abs(b.t - end) < Math.abs(a.t - end) ? b : a));
    return `CY${near.y}Q${near.q}I`;
  }
  const start = Date.parse(period.start);
  const days = (end - start) / 86_400_000;
  const mid = new Date((start + end) / 2);
  if (Math.abs(days - 364) <= 16) return `CY${mid.getUTCFullYear()}`;
  if (Math.abs(days - 91) <= 10) return `CY${mid.getUTCFullYear()}Q${Math.floor(mid.getUTCMonth() / 3) + 1}`;
  return undefined;
}

/**
 * Binders for population scans (one period, every filer): the arguments come from the admitted
 * evidence's measure, unit and period, and the entity is picked out of the response by its key.
 */
const SCAN_BINDERS: ReadonlyMap<string, (e: AdmittedEvidence) => Bound> = new Map([
  ['sec-edgar/frames', (e: AdmittedEvidence): Bound => {
    const [, taxonomy, tag] = e.measure.split('/');
    const period = calendarFrame(e.period);
    if (!taxonomy || !tag) return { error: `frames take a taxonomy/tag measure, not ${e.measure}` };
    if (!period) return { error: `the period ${e.period.label} is not a calendar frame (year, quarter or instant)` };
    return { fetchArgs: { taxonomy, tag, unit: e.unit === '1' ? 'pure' : e.unit, period }, measure: `${taxonomy}/${tag}` };
  }],
]);

const primaryKey = (e: AdmittedEvidence) => `${e.source}/${e.operation}`;

function bindSecond(op: OperationRef, e: AdmittedEvidence): Bound {
  if (op.kind === 'population_scan') return SCAN_BINDERS.get(op.key)?.(e) ?? { error: `${op.key} has no cross-check binder` };
  // the period the evidence covers, so a binder that addresses periods binds the same one
  const year = e.period.fiscalYear ?? (e.period.end ? Number(e.period.end.slice(0, 4)) : null);
  const period: PeriodWanted = { year, basis: e.period.basis === 'fiscal' || e.period.basis === 'calendar' ? e.period.basis : 'unspecified', latest: year === null, text: e.period.label };
  return bindOperation(op.key, e.measure, { keyType: e.entity.keyType, value: e.entity.key }, period);
}

/** The second path's record for exactly the evidence's entity, measure, unit and period (current filing first). */
export function sameRecord(records: OperationResult['records'], measure: string, e: AdmittedEvidence): { record?: Observation; checks: Check[] } {
  const obs = records.filter((r): r is Observation => r.type === 'observation' && r.measure === measure && typeof r.value === 'number');
  const sameEntity = obs.filter((o) => o.entity?.[e.entity.keyType as keyof typeof o.entity] === e.entity.key);
  const sameUnit = sameEntity.filter((o) => o.unit === e.unit && (o.currency ?? undefined) === (e.currency ?? undefined));
  const samePeriod = sameUnit.filter((o) => (o.period.start ?? '') === (e.period.start ?? '') && (o.period.end ?? '') === (e.period.end ?? ''));
  samePeriod.sort((a, b) => Number(b.attributes.current === true) - Number(a.attributes.current === true));
  const record = samePeriod[0];
  const span = `${e.period.start ? `${e.period.start}…` : ''}${e.period.end ?? ''}`;
  const checks: Check[] = [
    { name: 'measure', passed: obs.length > 0, detail: `${obs.length} ${measure} record(s)` },
    { name: 'entity', passed: sameEntity.length > 0, detail: `${e.entity.keyType} ${e.entity.key}: ${sameEntity.length} record(s)` },
    { name: 'unit', passed: sameUnit.length > 0, detail: `${e.unit}${e.currency ? ` (${e.currency})` : ''}` },
    { name: 'period', passed: !!record, detail: record ? `same period ${span}` : `no record for ${span}` },
  ];
  return { ...(record ? { record } : {}), checks };
}

const sampleOf = (r: RawPointer) => r.origin?.sample ?? r.cassette ?? r.url;
/** Why two paths cannot count as independent, when either replays a sample built rather than recorded. */
function sharedUpstreamOf(second: RawPointer, primary: RawPointer): string | undefined {
  if (second.origin?.synthetic || second.origin?.kind === 'synthetic') return `replays a SYNTHETIC response (${sampleOf(second)}${second.origin.note ? `: ${second.origin.note}` : ''}), not publisher data`;
  if (second.origin?.derived) return `replays a DERIVED sample (${sampleOf(second)}) built from other publisher data rather than recorded, so it may agree with the primary read by construction`;
  if (primary.origin?.derived) return `is compared with a primary read that replays a DERIVED sample (${sampleOf(primary)}), so they may agree by construction`;
  return undefined;
}

/**
 * Cross-check every numeric evidence item; never throws. Second paths are tried in rounds (every
 * item's first path, then every item's second), so a capped question spreads its reads evenly.
 */
export async function crossCheck(ctx: QueryContext, items: readonly AdmittedEvidence[], req: CrossCheckRequest): Promise<CrossCheck[]> {
  const out: CrossCheck[] = [];
  const perEvidence = req.perEvidence ?? 2;
  const cap = req.maxAttempts ?? 12;
  let used = 0;
  const queues = new Map<AdmittedEvidence, OperationRef[]>();
  for (const e of items) {
    if (typeof e.value !== 'number') continue;
    const primaryOp = `${e.source}/${e.operation}`;
    const seconds = (req.serving.get(e.measure) ?? []).filter((op) => op.key !== primaryOp && READ_KINDS.has(op.kind));
    if (seconds.length === 0) out.push({ evidenceIndex: e.index, primaryValue: e.value, source: e.source, operation: '(none)', outcome: 'unavailable', detail: `no other operation in the catalog serves ${e.measure}` });
    else queues.set(e, seconds);
  }
  const tried = new Map<AdmittedEvidence, number>();
  let stop: string | undefined;
  while (!stop && [...queues.values()].some((q) => q.length > 0)) {
    for (const [e, queue] of queues) {
      const op = queue.shift();
      if (!op) continue;
      const one = { evidenceIndex: e.index, primaryValue: e.value, source: op.publisherId, operation: op.operationId };
      if ((tried.get(e) ?? 0) >= perEvidence) continue;
      const remaining = ctx.deadline - ctx.clock.now();
      if (ctx.signal.aborted || remaining < MIN_REMAINING_MS) stop = 'the question deadline is nearly spent';
      else if (ctx.budget.limit - ctx.budget.used <= BUDGET_RESERVE) stop = 'the question\'s attempt budget is nearly spent';
      else if (used >= cap) stop = `the question's cross-check cap (${cap} reads) is spent`;
      if (stop) { out.push({ ...one, outcome: 'unavailable', detail: `not attempted: ${stop}` }); break; }
      const binding = bindSecond(op, e);
      // a binder may redirect to another operation of the publisher (a state's ACS value is read from
      // the all-states table): the read is that operation, and when it is the primary read's own
      // operation it is the same read, not a second path
      if (!('error' in binding) && binding.operation && `${op.publisherId}/${binding.operation}` === primaryKey(e)) {
        out.push({ ...one, outcome: 'unavailable', detail: `no independent cross-check: ${op.key} is read through ${primaryKey(e)}, the answer's own read` });
        continue;
      }
      if ('error' in binding) {
        // say what is missing in the reader's terms, not the executor's list of binders
        const detail = /no argument binder/.test(binding.error) ? `cross-checks cannot yet read ${op.key} for ${e.entity.keyType}=${e.entity.key}` : binding.error;
        out.push({ ...one, outcome: 'unavailable', detail });
        continue;
      }
      try { ctx.budget.take(); } catch { stop = 'the question\'s attempt budget is spent'; out.push({ ...one, outcome: 'unavailable', detail: `not attempted: ${stop}` }); break; }
      used++; tried.set(e, (tried.get(e) ?? 0) + 1);
      try {
        out.push(await readSecond(ctx, e, op, binding, req.nextAttempt(), Math.max(1, Math.floor(remaining * DEADLINE_SHARE))));
      } catch (err) {
        // a bug in a cross-check is recorded and otherwise ignored: it must never fail the answer
        out.push({ ...one, outcome: 'failed', detail: `the cross-check itself failed: ${String((err as Error)?.message ?? err)}` });
      }
    }
  }
  out.sort((a, b) => a.evidenceIndex - b.evidenceIndex || (a.attempt?.n ?? Infinity) - (b.attempt?.n ?? Infinity));
  for (const c of out) {
    ctx.emit({ stage: 'validation', by: 'cross-check', message: `E${c.evidenceIndex} via ${c.source}/${c.operation}: ${c.outcome}${c.value !== undefined ? ` (${c.value} vs ${c.primaryValue})` : ''} — ${c.detail}${c.sharedUpstream ? ` (not independent: the second path ${c.sharedUpstream.replace(/ \([^()]*\)/g, '').replace(/, so .*$/, '')})` : ''}`, ...(c.attempt ? { data: { attempt: c.attempt.n } } : {}) });
  }
  return out;
}

async function readSecond(ctx: QueryContext, e: AdmittedEvidence, op: OperationRef, binding: { fetchArgs: Record<string, string>; measure: string; operation?: string }, n: number, timeoutMs: number): Promise<CrossCheck> {
  const base = { evidenceIndex: e.index, primaryValue: e.value, source: op.publisherId, operation: op.operationId };
  const { attempt, done } = openAttempt(ctx, {
    n, source: op.publisherId, operation: op.operationId, measure: e.measure,
    bindings: { ...binding.fetchArgs, measure: binding.measure, entity: e.entity.label, [e.entity.keyType]: e.entity.key, cross_check_of: `E${e.index}` },
  });
  // the cross-check's own reads stop at a share of the time left; the answer keeps the rest
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
  const child = childContext(ctx, signal);
  let result: OperationResult;
  try {
    result = await fetchOnce(child, op.publisherId, binding.operation ?? op.operationId, binding.fetchArgs);
  } catch (err) {
    let c: Failure;
    try { c = recordFetchFailure(child, attempt, done, err, []); } catch (bug) { done(); attempt.disposition = 'errored'; attempt.reason = String((bug as Error)?.message ?? bug); return { ...base, outcome: 'failed', attempt, detail: `the second read failed: ${attempt.reason}` }; }
    const missing = c.boundary === 'operationally_blocked' && /offline snapshot|no cassette|MissingCassette/i.test(`${c.code} ${c.message}`);
    return { ...base, outcome: missing ? 'unavailable' : 'failed', attempt, detail: missing ? `no cross-check available: no recorded ${op.key} response (${attempt.requests[0] ?? c.message})` : `the second read failed (${c.code}): ${c.message}` };
  }
  attempt.responses = result.responses;
  attempt.requests = result.responses.map((r) => r.url);
  const { record, checks } = sameRecord(result.records, binding.measure, e);
  done();
  attempt.checks = checks;
  if (!record || typeof record.value !== 'number') {
    attempt.disposition = 'rejected'; attempt.failure = 'period';
    attempt.reason = `cross-check of E${e.index}: ${checks.find((c) => !c.passed)?.detail ?? 'no comparable record'}`;
    return { ...base, outcome: 'unavailable', attempt, detail: `no cross-check available: the ${op.key} response holds no ${binding.measure} record for ${e.entity.label} in the same period and unit` };
  }
  const response = result.responses.find((r) => r.sha256 === record.raw.sha256) ?? record.raw;
  if (response.sha256 === e.raw.sha256) {
    attempt.disposition = 'rejected'; attempt.failure = 'same_response';
    attempt.reason = `cross-check of E${e.index}: the second path returned the very response the primary read used`;
    return { ...base, outcome: 'unavailable', attempt, response, detail: 'no independent cross-check: the second path returned the same response body' };
  }
  const agrees = record.value === e.value;
  attempt.disposition = 'accepted';
  const shared = sharedUpstreamOf(response, e.raw);
  return {
    ...base, outcome: agrees ? 'agrees' : 'disagrees', attempt, value: record.value, response,
    detail: agrees ? `${op.key} reproduced ${e.value} for the same entity, measure, unit and period` : `${op.key} holds ${record.value} where the admitted ${e.source}/${e.operation} value is ${e.value}`,
    ...(shared ? { sharedUpstream: shared } : {}),
  };
}
