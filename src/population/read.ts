/**
 * readPopulation: one population binding → one publisher response read through its connector →
 * a PopulationRead (members with values, exclusions counted with reasons, completeness verdict),
 * or a typed failure. The one place where grain, scope, member class and value status decide who
 * is a usable member; computations (src/population/compute/) only ever see usable members.
 *
 * Completeness is established from the response, not assumed from the catalog: a response replayed
 * from a TRIMMED or DERIVED sample is complete only when the provider can verify its membership
 * independently (every state present, counties in every state); a survey that publishes only
 * large geographies, or unread pages, make the population partial. A partial population is
 * returned as such (its verdict says so); the shapes decide what it may answer.
 */
import { runOperation } from '../connectors/registry.ts';
import type { OperationResult, ValueStatus } from '../connectors/records.ts';
import type { ConnectorRuntime } from '../connectors/runtime.ts';
import { ConnectorInputError } from '../connectors/types.ts';
import type { Clock } from '../http/context.ts';
import { PublisherError } from '../http/errors.ts';
import type { ProgressEvent } from '../execute/progress.ts';
import { scopeLabel, stateByFips } from './geo.ts';
import type { PopulationAsk, PopulationBinding, PopulationProvider, ProviderRows } from '../connectors/population/provider.ts';
import type { Completeness, Exclusion, ExclusionCode, PopulationNote, PopulationOutcome, PopulationRead, PopulationRow } from './types.ts';

/** The slice of a QueryContext a population read needs. */
export interface PopulationContext {
  readonly runtime: ConnectorRuntime;
  readonly signal: AbortSignal;
  readonly deadline: number;
  readonly clock: Clock;
  /** Per-question memo of whole operation results (one response serves several measures). */
  readonly fetchMemo?: Map<string, Promise<unknown>>;
  emit?(event: ProgressEvent): void;
}

const EXAMPLES = 5;

const VALUE_EXCLUSION: Record<Exclude<ValueStatus, 'reported'>, ExclusionCode> = {
  suppressed: 'value_suppressed', not_computable: 'value_suppressed', too_few_cases: 'value_suppressed',
  not_applicable: 'value_not_applicable', not_published: 'value_not_published', missing: 'value_missing', controlled: 'value_missing',
};

function fetchResult(ctx: PopulationContext, b: PopulationBinding): Promise<OperationResult> {
  const key = `${b.source}|${b.operation}|${JSON.stringify(Object.entries(b.args).sort())}`;
  const memo = ctx.fetchMemo;
  let p = memo?.get(key) as Promise<OperationResult> | undefined;
  if (!p) {
    p = runOperation(ctx.runtime.registry, b.source, b.operation, b.args, { signal: ctx.signal, deadline: ctx.deadline, clock: ctx.clock, http: ctx.runtime.http, declarations: ctx.runtime.declarations });
    memo?.set(key, p);
  }
  return p;
}

/** Groups rows under exclusion codes, keeping counts and a few examples. */
class Exclusions {
  readonly byCode = new Map<string, Exclusion>();
  add(code: ExclusionCode, row: PopulationRow, detail?: string): void {
    const k = `${code}|${detail ?? ''}`;
    let e = this.byCode.get(k);
    if (!e) { e = { code, count: 0, ...(detail ? { detail } : {}), examples: [] }; this.byCode.set(k, e); }
    e.count++;
    if (e.examples.length < EXAMPLES) e.examples.push({ key: row.key, label: row.label, ...(row.asPublished !== undefined ? { asPublished: row.asPublished } : {}), value: row.value });
  }
  list(): Exclusion[] { return [...this.byCode.values()]; }
  count(codes: readonly ExclusionCode[]): number { return this.list().filter((e) => codes.includes(e.code)).reduce((n, e) => n + e.count, 0); }
}

/** Whether the row is a member of the population asked: grain, scope, class. */
function membershipOf(row: PopulationRow, b: PopulationBinding, ask: PopulationAsk): { code: ExclusionCode; detail: string } | null {
  if (b.grain === 'state') {
    const area = stateByFips(row.key);
    if (area?.kind === 'state') return null;
    if (ask.includeStateEquivalents && (area?.kind === 'district' || row.key === '72')) return null;
    return { code: 'outside_grain', detail: area?.kind === 'district' ? 'district' : 'territory' };
  }
  if (b.grain === 'county' || b.grain === 'place') {
    if (ask.scope.kind === 'state') return row.key.startsWith(ask.scope.fips) ? null : { code: 'outside_scope', detail: 'stateFips' };
    return stateByFips(row.key)?.kind === 'territory' ? { code: 'outside_grain', detail: 'territory' } : null;
  }
  if (b.grain === 'organization' && ask.scope.kind === 'state') {
    const st = row.attributes.STATE;
    if (typeof st === 'string' && st !== ask.scope.abbr) return { code: 'outside_scope', detail: 'STATE' };
  }
  if (b.memberClass) {
    const v = row.attributes[b.memberClass.field];
    if (typeof v !== 'string' || !b.memberClass.codes.includes(v)) return { code: 'not_in_class', detail: b.memberClass.field };
  }
  return null;
}

function failureOf(e: unknown, b: PopulationBinding, signal: AbortSignal): PopulationOutcome {
  const operation = `${b.source}/${b.operation}`;
  if (e instanceof PublisherError) {
    if (e.kind === 'not_found') return { ok: false, failure: { code: 'no_data', source: b.source, operation, message: e.message } };
    return { ok: false, failure: { code: 'operationally_blocked', source: b.source, operation, ...(e.url ? { url: e.url } : {}), failure: signal.aborted ? 'cancelled' : e.code, message: e.message } };
  }
  if (e instanceof ConnectorInputError) return { ok: false, failure: { code: 'not_a_population_measure', measure: b.recordMeasure, operation } };
  if (signal.aborted) return { ok: false, failure: { code: 'operationally_blocked', source: b.source, operation, failure: 'cancelled', message: String((signal.reason as Error)?.message ?? signal.reason) } };
  throw e;
}

/**
 * Outside a question (tests, benchmarks, materialization): fetch through the connector and examine.
 * Inside a question every read goes through the search engine (population choices,
 * src/population/choices.ts), which fetches and records; the examination is the same function.
 */
export async function readPopulation(ctx: PopulationContext, provider: PopulationProvider, b: PopulationBinding, ask: PopulationAsk): Promise<PopulationOutcome> {
  let result: OperationResult;
  try {
    result = await fetchResult(ctx, b);
  } catch (e) {
    return failureOf(e, b, ctx.signal);
  }
  const o = examinePopulation(result, provider, b, ask);
  if (o.ok) ctx.emit?.(populationProgress(o.read));
  return o;
}

/** The progress event of a population read: rows declared, read, excluded, and the verdict. */
export function populationProgress(read: PopulationRead): ProgressEvent {
  const c = read.completeness;
  const operation = `${read.source}/${read.operation}`;
  return {
    stage: 'validation', by: 'population',
    message: `population ${operation}: ${c.declared} rows declared, ${c.read} read, ${c.read - c.usable} excluded, ${c.usable} usable; ${c.verdict}`,
    data: { population: { operation, declared: c.declared, read: c.read, members: c.members, usable: c.usable, excluded: c.excluded.map((e) => ({ code: e.code, count: e.count, ...(e.detail ? { detail: e.detail } : {}) })), verdict: c.verdict } },
  };
}

/** A population operation's response → the population asked, or why it is not one. Pure: no fetch. */
export function examinePopulation(result: OperationResult, provider: PopulationProvider, b: PopulationBinding, ask: PopulationAsk): PopulationOutcome {
  return examineRows(provider.rows(result, b), result, provider, b, ask);
}

/**
 * The rows a population operation gave (fresh from its response, or read back from the population
 * graph they were stored in) → the population asked. Grain, scope, class and state equivalents are
 * decided here, from the rows' own keys and attributes, never from how they were stored.
 */
export function examineRows(got: ProviderRows, result: Pick<OperationResult, 'responses' | 'unreadPages'>, provider: PopulationProvider, b: PopulationBinding, ask: PopulationAsk): PopulationOutcome {
  const operation = `${b.source}/${b.operation}`;
  if (got.rows.length === 0) return { ok: false, failure: { code: 'measure_absent', measure: b.recordMeasure, operation } };
  // a response that states its own period (a file holding the latest release) must be the one asked
  const period = got.period ?? b.period;
  if (got.period && !ask.period.latest && ask.period.year !== null && got.period.end && Number(got.period.end.slice(0, 4)) !== ask.period.year) {
    return { ok: false, failure: { code: 'no_period', asked: ask.period.text, operation } };
  }

  const ex = new Exclusions();
  const usable: PopulationRow[] = [];
  const equivalents: PopulationRow[] = [];
  let territoryCounties = 0;
  for (const row of got.rows) {
    const m = membershipOf(row, b, ask);
    if (m) {
      ex.add(m.code, row, m.detail);
      if (m.code === 'outside_grain' && b.grain === 'state') equivalents.push(row);
      if (m.code === 'outside_grain' && b.grain === 'county') territoryCounties++;
      continue;
    }
    if (row.status !== 'reported') { ex.add(VALUE_EXCLUSION[row.status], row, row.status); continue; }
    if (b.recordMeasure !== 'members' && (row.value === null || !Number.isFinite(row.value))) { ex.add('value_missing', row, 'missing'); continue; }
    usable.push(row);
  }

  const notes: PopulationNote[] = [...(b.notes ?? []), ...got.notes, { code: 'survey_vintage', label: period.label }];
  if (equivalents.length > 0) notes.push({ code: 'state_equivalents_excluded', rows: equivalents.map((r) => ({ key: r.key, label: r.label, value: r.status === 'reported' ? r.value : null })) });
  if (territoryCounties > 0) notes.push({ code: 'county_equivalents_excluded', area: 'Puerto Rico and the island areas', count: territoryCounties });
  if (ask.scope.kind === 'state') notes.push({ code: 'scope_filter', scope: scopeLabel(ask.scope), field: b.grain === 'organization' ? 'STATE' : 'state FIPS' });
  if (b.memberClass) notes.push({ code: 'class_filter', class: b.memberClass.id, field: b.memberClass.field, codes: [...b.memberClass.codes] });
  const ends = usable.map((r) => r.period?.end).filter((x): x is string => !!x).sort();
  if (ends.length > 1 && ends[0] !== ends[ends.length - 1]) notes.push({ code: 'periods_differ', earliest: ends[0]!, latest: ends[ends.length - 1]!, members: ends.length });

  // completeness, from the response
  const reasons: PopulationNote[] = [];
  let verdict: Completeness['verdict'] = 'complete';
  for (const r of result.responses) {
    if (r.origin?.kind === 'sample' && r.origin.sample) notes.push({ code: 'sample_recorded', sample: r.origin.sample, recordedAt: r.origin.recordedAt ?? null });
    if (r.origin?.trimmed) reasons.push({ code: 'trimmed_sample', sample: r.origin.sample ?? r.url });
    if (r.origin?.derived) reasons.push({ code: 'derived_sample', sample: r.origin.sample ?? r.url });
  }
  if (reasons.length > 0) {
    const check = provider.membership(got.rows, b);
    if (check.verified) reasons.push({ code: 'membership_verified', grain: b.grain, expected: check.expected });
    else { verdict = 'partial'; reasons.push({ code: 'membership_unverified', sample: result.responses[0]?.origin?.sample ?? '', grain: b.grain }); }
  }
  const threshold = (b.notes ?? []).find((n) => n.code === 'survey_threshold');
  if (threshold) { verdict = 'partial'; reasons.push(threshold); }
  if (result.unreadPages && result.unreadPages.length > 0) {
    verdict = 'partial';
    reasons.push({ code: 'unread_pages', pages: result.unreadPages.length, records: result.unreadPages.reduce((n, p) => n + p.records, 0) });
  }
  const excluded = ex.list();
  const members = got.rows.length - ex.count(['outside_grain', 'outside_scope', 'not_in_class']);
  const completeness: Completeness = { declared: got.declared ?? got.rows.length, read: got.rows.length, members, usable: usable.length, excluded, verdict, reasons };

  const read: PopulationRead = {
    source: b.source, operation: b.operation, args: b.args, grain: b.grain, scope: ask.scope,
    ...(b.memberClass ? { memberClass: b.memberClass.id } : {}),
    measure: { key: ask.measureKey, recordMeasure: b.recordMeasure, label: b.label ?? ask.measureLabel ?? got.label, unit: got.unit, ...(got.currency ? { currency: got.currency } : {}) },
    period, rows: got.rows, usable, completeness, responses: result.responses, notes,
    requests: result.responses.map((r) => r.url),
  };
  return { ok: true, read };
}

/**
 * Tries a provider's bindings in order, the first population read that succeeds wins; every
 * failure is kept (the shape's refusal names them all).
 */
export async function readFirst(ctx: PopulationContext, provider: PopulationProvider, bindings: readonly PopulationBinding[], ask: PopulationAsk, onTry?: (b: PopulationBinding, o: PopulationOutcome, ms: number) => void): Promise<{ read?: PopulationRead; failures: Array<{ binding: PopulationBinding; failure: Extract<PopulationOutcome, { ok: false }>['failure'] }> }> {
  const failures: Array<{ binding: PopulationBinding; failure: Extract<PopulationOutcome, { ok: false }>['failure'] }> = [];
  for (const b of bindings) {
    const t0 = ctx.clock.now();
    const o = await readPopulation(ctx, provider, b, ask);
    onTry?.(b, o, ctx.clock.now() - t0);
    if (o.ok) return { read: o.read, failures };
    failures.push({ binding: b, failure: o.failure });
    if (ctx.signal.aborted) break;
  }
  return { failures };
}
