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
import { crossCheckBinderOf } from '../connectors/registry.ts';
import type { OperationRef } from '../discover/index.ts';
import type { Observation, OperationResult } from '../connectors/records.ts';
import type { RawPointer } from '../http/client.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import type { Check, PeriodWanted } from '../validate/structural.ts';
import type { Attempt } from './attempt.ts';
import { PublisherError } from '../http/errors.ts';
import { bindOperation } from './bind.ts';
import type { BindError } from './binders/types.ts';
import { childContext, type QueryContext } from './context.ts';
import { fetchOnce, search, type FetchChoice, type Provider } from './engine.ts';

export type CrossCheckOutcome = 'agrees' | 'disagrees' | 'unavailable' | 'failed';
export type CrossCheckReason =
  | 'compared' | 'no_other_operation' | 'no_binder' | 'binder_error' | 'own_read' | 'no_recording'
  | 'no_same_record' | 'same_response' | 'not_attempted' | 'read_failed' | 'bug';

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
  /** The same, as a code (and the synthetic sample's own note). */
  sharedUpstreamCode?: SharedUpstream;
  sharedUpstreamNote?: string;
  /** Why the outcome is what it is, as a code (the answer words it; `detail` is for the trace). */
  reason: CrossCheckReason;
  /** For `not_attempted`: what stopped the cross-checks, in words. */
  stop?: string;
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

type Bound = { fetchArgs: Record<string, string>; measure: string; operation?: string } | BindError;

const primaryKey = (e: AdmittedEvidence) => `${e.source}/${e.operation}`;

function bindSecond(op: OperationRef, e: AdmittedEvidence): Bound {
  // population scans (one period, every filer): the connector's cross-check binder takes the arguments from the
  // admitted evidence's measure, unit and period, and the entity is picked out of the response by its key
  if (op.kind === 'population_scan') return crossCheckBinderOf(op.key)?.(e) ?? { code: 'no_binder', error: `${op.key} has no cross-check binder` };
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
export type SharedUpstream = 'synthetic' | 'derived_second' | 'derived_primary';
/** Short forms of why two paths are not independent, for the progress line. */
const SHARED_WORDS: Readonly<Record<SharedUpstream, string>> = {
  synthetic: 'replays a SYNTHETIC response, not publisher data',
  derived_second: 'replays a DERIVED sample built from other publisher data rather than recorded',
  derived_primary: 'is compared with a primary read that replays a DERIVED sample',
};
/** Why two paths cannot count as independent, when either replays a sample built rather than recorded. */
function sharedUpstreamOf(second: RawPointer, primary: RawPointer): { code: SharedUpstream; text: string; note?: string } | undefined {
  if (second.origin?.synthetic || second.origin?.kind === 'synthetic') return { code: 'synthetic', ...(second.origin.note ? { note: second.origin.note } : {}), text: `replays a SYNTHETIC response (${sampleOf(second)}${second.origin.note ? `: ${second.origin.note}` : ''}), not publisher data` };
  if (second.origin?.derived) return { code: 'derived_second', text: `replays a DERIVED sample (${sampleOf(second)}) built from other publisher data rather than recorded, so it may agree with the primary read by construction` };
  if (primary.origin?.derived) return { code: 'derived_primary', text: `is compared with a primary read that replays a DERIVED sample (${sampleOf(primary)}), so they may agree by construction` };
  return undefined;
}

/** Why no further cross-check starts, in the reader's terms, by the engine's stop code. */
const STOP_WORDS: Readonly<Record<string, (cap: number) => string>> = {
  deadline_near: () => 'the question deadline is nearly spent',
  deadline: () => 'the question deadline is nearly spent',
  cancelled: () => 'the question deadline is nearly spent',
  budget_near: () => 'the question\'s attempt budget is nearly spent',
  budget: () => 'the question\'s attempt budget is spent',
  leaf_cap: (cap) => `the question's cross-check cap (${cap} reads) is spent`,
};

/**
 * Cross-check every numeric evidence item; never throws. Second paths are tried in rounds (every
 * item's first path, then every item's second), so a capped question spreads its reads evenly.
 * The reads are choice points to the engine (mode `all`): its budget reserve, deadline margin and
 * cap stop them, and the first read not attempted is said to be so.
 */
export async function crossCheck(ctx: QueryContext, items: readonly AdmittedEvidence[], req: CrossCheckRequest): Promise<CrossCheck[]> {
  const out: CrossCheck[] = [];
  const perEvidence = req.perEvidence ?? 2;
  const cap = req.maxAttempts ?? 12;
  const queues = new Map<AdmittedEvidence, OperationRef[]>();
  for (const e of items) {
    if (typeof e.value !== 'number') continue;
    const primaryOp = `${e.source}/${e.operation}`;
    const seconds = (req.serving.get(e.measure) ?? []).filter((op) => op.key !== primaryOp && READ_KINDS.has(op.kind));
    if (seconds.length === 0) out.push({ evidenceIndex: e.index, primaryValue: e.value, source: e.source, operation: '(none)', outcome: 'unavailable', reason: 'no_other_operation', detail: `no other operation in the catalog serves ${e.measure}` });
    else queues.set(e, seconds);
  }
  const pendingOf = new Map<FetchChoice<CrossCheck>, { evidenceIndex: number; primaryValue: number; source: string; operation: string }>();
  const provider: Provider<CrossCheck> = async function* () {
    const tried = new Map<AdmittedEvidence, number>();
    while ([...queues.values()].some((q) => q.length > 0)) {
      for (const [e, queue] of queues) {
        const op = queue.shift();
        if (!op) continue;
        const one = { evidenceIndex: e.index, primaryValue: e.value, source: op.publisherId, operation: op.operationId };
        if ((tried.get(e) ?? 0) >= perEvidence) continue;
        const binding = bindSecond(op, e);
        if ('error' in binding) {
          // say what is missing in the reader's terms, not the executor's list of binders
          out.push({ ...one, outcome: 'unavailable', reason: binding.code === 'no_binder' ? 'no_binder' : 'binder_error', detail: binding.code === 'no_binder' ? `cross-checks cannot yet read ${op.key} for ${e.entity.keyType}=${e.entity.key}` : binding.error });
          continue;
        }
        // a binder may redirect to another operation of the publisher (a state's ACS value is read from
        // the all-states table): the read is that operation, and when it is the primary read's own
        // operation it is the same read, not a second path
        if (binding.operation && `${op.publisherId}/${binding.operation}` === primaryKey(e)) {
          out.push({ ...one, outcome: 'unavailable', reason: 'own_read', detail: `no independent cross-check: ${op.key} is read through ${primaryKey(e)}, the answer's own read` });
          continue;
        }
        tried.set(e, (tried.get(e) ?? 0) + 1);
        const choice = secondRead(ctx, e, op, binding, out);
        pendingOf.set(choice, one);
        yield choice;
      }
    }
  };
  const searched = await search(ctx, provider, { nextAttempt: req.nextAttempt, mode: 'all', cap, budgetReserve: BUDGET_RESERVE, minRemainingMs: MIN_REMAINING_MS });
  if (searched.stopped && searched.pending) {
    const one = pendingOf.get(searched.pending)!;
    const stop = (STOP_WORDS[searched.stopped.code] ?? (() => searched.stopped!.message))(cap);
    out.push({ ...one, outcome: 'unavailable', reason: 'not_attempted', stop, detail: `not attempted: ${stop}` });
  }
  out.push(...searched.admitted);
  out.sort((a, b) => a.evidenceIndex - b.evidenceIndex || (a.attempt?.n ?? Infinity) - (b.attempt?.n ?? Infinity));
  for (const c of out) {
    const shared = c.sharedUpstreamCode ? ` (not independent: the second path ${SHARED_WORDS[c.sharedUpstreamCode]})` : '';
    ctx.emit({ stage: 'validation', by: 'cross-check', message: `E${c.evidenceIndex} via ${c.source}/${c.operation}: ${c.outcome}${c.value !== undefined ? ` (${c.value} vs ${c.primaryValue})` : ''} — ${c.detail}${shared}`, ...(c.attempt ? { data: { attempt: c.attempt.n } } : {}) });
  }
  return out;
}

/** The second read of one evidence item as a choice point; its outcome is written to `out` (agrees, disagrees, unavailable, failed). */
function secondRead(ctx: QueryContext, e: AdmittedEvidence, op: OperationRef, binding: { fetchArgs: Record<string, string>; measure: string; operation?: string }, out: CrossCheck[]): FetchChoice<CrossCheck> {
  const base = { evidenceIndex: e.index, primaryValue: e.value, source: op.publisherId, operation: op.operationId };
  const operation = binding.operation ?? op.operationId;
  return {
    kind: 'fetch', source: op.publisherId, operation: op.operationId, measure: e.measure, args: binding.fetchArgs,
    label: `cross-check of E${e.index}`,
    bindings: { ...binding.fetchArgs, measure: binding.measure, entity: e.entity.label, [e.entity.keyType]: e.entity.key, cross_check_of: `E${e.index}` },
    // the cross-check's own reads stop at a share of the time left; the answer keeps the rest
    fetch: async (c) => {
      const timeoutMs = Math.max(1, Math.floor((c.deadline - c.clock.now()) * DEADLINE_SHARE));
      const signal = AbortSignal.any([c.signal, AbortSignal.timeout(timeoutMs)]);
      try {
        return await fetchOnce(childContext(c, signal), op.publisherId, operation, binding.fetchArgs);
      } catch (err) {
        // its own time share ran out, not the question's: a timeout of this read, not a cancellation
        if (signal.aborted && !c.signal.aborted) throw new PublisherError('timeout', `the cross-check's share of the deadline (${timeoutMs} ms) passed`, { source: op.publisherId });
        throw err;
      }
    },
    recover: (f, attempt) => {
      const missing = f.code === 'offline';
      out.push({ ...base, outcome: missing ? 'unavailable' : 'failed', reason: missing ? 'no_recording' : 'read_failed', attempt, detail: missing ? `no cross-check available: no recorded ${op.key} response (${attempt.requests[0] ?? f.message})` : `the second read failed (${f.code}): ${f.message}` });
      return undefined;
    },
    examine: (result, attempt) => {
      try {
        const { record, checks } = sameRecord(result.records, binding.measure, e);
        if (!record || typeof record.value !== 'number') {
          out.push({ ...base, outcome: 'unavailable', reason: 'no_same_record', attempt, detail: `no cross-check available: the ${op.key} response holds no ${binding.measure} record for ${e.entity.label} in the same period and unit` });
          return { reject: { boundary: 'no_data', code: 'period', message: `cross-check of E${e.index}: ${checks.find((c) => !c.passed)?.detail ?? 'no comparable record'}` }, checks };
        }
        const response = result.responses.find((r) => r.sha256 === record.raw.sha256) ?? record.raw;
        if (response.sha256 === e.raw.sha256) {
          out.push({ ...base, outcome: 'unavailable', reason: 'same_response', attempt, response, detail: 'no independent cross-check: the second path returned the same response body' });
          return { reject: { boundary: 'no_data', code: 'same_response', message: `cross-check of E${e.index}: the second path returned the very response the primary read used` }, checks };
        }
        const agrees = record.value === e.value;
        const shared = sharedUpstreamOf(response, e.raw);
        return {
          admit: {
            ...base, outcome: agrees ? 'agrees' : 'disagrees', reason: 'compared', attempt, value: record.value, response,
            detail: agrees ? `${op.key} reproduced ${e.value} for the same entity, measure, unit and period` : `${op.key} holds ${record.value} where the admitted ${e.source}/${e.operation} value is ${e.value}`,
            ...(shared ? { sharedUpstream: shared.text, sharedUpstreamCode: shared.code, ...(shared.note ? { sharedUpstreamNote: shared.note } : {}) } : {}),
          },
          checks, more: true,
        };
      } catch (bug) {
        // a bug in a cross-check is recorded and otherwise ignored: it must never fail the answer
        out.push({ ...base, outcome: 'failed', reason: 'bug', detail: `the cross-check itself failed: ${String((bug as Error)?.message ?? bug)}` });
        return { reject: { boundary: 'no_data', code: 'bug', message: String((bug as Error)?.message ?? bug) }, checks: [], disposition: 'errored' as const };
      }
    },
  };
}
