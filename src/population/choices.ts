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
import { examineRows, populationProgress } from './read.ts';
import { MATERIALIZE_ROWS, isStale, loadStored, populationGraphIri, populationGraphQuads, storedGraphs, type StoredPopulation, type StoredProblem } from './materialize.ts';
import type { AssayStore } from '../rdf/backend.ts';
import type { OperationResult } from '../connectors/records.ts';
import type { ProgressEvent } from '../execute/progress.ts';
import { toNQuads } from '../ask/record.ts';
import { ASSAY, ensureSlash } from '../rdf/vocab.ts';
import { iri, sparql } from '../resolve/sparql-text.ts';
import { POPULATION_PROVIDERS, providerFor } from '../connectors/population/providers.ts';
import type { PeriodAsked, PopulationAsk, PopulationBinding, PopulationProvider, ProviderRows } from '../connectors/population/provider.ts';
import type { Grain, PopulationFailure, PopulationNote, PopulationRead } from './types.ts';
import { populationFailureText, quantityMismatchText, universeMismatchText } from './wording.ts';
import { checkUniverse, type Universe } from './universe.ts';
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
  const wrongUniverse: Array<{ c: Assessment; asked: Universe | null; measure: Universe }> = [];
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
    // the universe the measure counts (people, families, households) must be the one asked: a families' poverty percent is not "the poverty rate"
    if (measureKey !== 'members' && t.attribute) {
      const u = checkUniverse(t.attribute, c.title);
      if (!u.ok) { wrongUniverse.push({ c, asked: u.asked, measure: u.measure }); continue; }
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
  // the measures skipped for their universe, one typed boundary per universe offered
  for (const measure of [...new Set(wrongUniverse.map((x) => x.measure))]) {
    const of = wrongUniverse.filter((x) => x.measure === measure);
    const asked = of[0]!.asked;
    boundaries.push({ boundary: 'no_access_path', code: 'universe_mismatch', source: of[0]!.c.operation!.publisherId, message: universeMismatchText(of[0]!.c.title, measure, asked, t.attribute ?? '', of.length - 1), params: { measures: of.map((x) => x.c.candidateKey), universe: measure, asked: asked ?? 'people (not named)' } });
  }
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

/** Where population graphs are stored and read back (the question's store), when there is one. */
export interface PopulationStore {
  store: AssayStore;
  baseIri: string;
  /** The question's clock (freshness is judged against it) and progress sink. */
  now?: () => number;
  emit?: (e: ProgressEvent) => void;
}

const responseIri = (base: string) => (sha256: string) => `${ensureSlash(base)}response/${encodeURIComponent(sha256)}`;

/** The population graph a target's rows are (or would be) stored in. */
export const graphOf = (st: PopulationStore, t: PopulationTarget) => populationGraphIri(st.baseIri, t.binding);

/**
 * After a fresh read: the rows stored once as the population graph when there are more than one
 * answer shows, replacing a stored graph that was stale or incomplete (one atomic write); the read
 * then names its graph. A failed write costs the reuse, never the answer.
 */
async function materialize(st: PopulationStore, t: PopulationTarget, got: ProviderRows, result: OperationResult, read: PopulationRead, emit: (e: ProgressEvent) => void, now: number, prior?: StoredProblem): Promise<PopulationRead> {
  if (got.rows.length <= MATERIALIZE_ROWS) return read;
  const g = graphOf(st, t);
  const notes = [...read.notes];
  if (prior) {
    const before = prior.code === 'stored_graph_stale' ? storedHashes(st, g) : [];
    const revised = before.length > 0 && before.join(' ') !== result.responses.map((r) => r.sha256).sort().join(' ');
    notes.push({
      code: 'stored_graph_refetched', graph: g, revised,
      ...(prior.code === 'stored_graph_stale' ? { why: 'stale' as const, storedAt: prior.storedAt, maxAgeDays: prior.maxAgeDays } : prior.code === 'stored_graph_incomplete' ? { why: 'incomplete' as const, found: prior.found, declared: prior.declared } : { why: 'format' as const }),
    });
  }
  try {
    const quads = populationGraphQuads(t.binding, got, result, st.baseIri, responseIri(st.baseIri), new Date(now).toISOString());
    await st.store.apply({ kind: 'replaceGraph', graph: g, data: toNQuads(quads), format: 'application/n-quads' });
    emit({ stage: 'evidence', by: 'population', message: `population graph ${g}: ${got.rows.length} rows of ${t.binding.source}/${t.binding.operation} ${t.binding.recordMeasure} (${t.binding.period.label}) stored once for later questions` });
    return { ...read, notes, graph: g };
  } catch (e) {
    emit({ stage: 'evidence', by: 'population', message: `population graph ${g} not stored (${(e as Error).message}); the answer stands, a later question asks the publisher again` });
    return { ...read, notes };
  }
}

/** The content hashes of the responses a stored graph was derived from. */
function storedHashes(st: PopulationStore, g: string): string[] {
  const rows = st.store.rdf.select(sparql`SELECT ?h WHERE { GRAPH ${iri(g)} { ${iri(g)} ${iri(ASSAY.contentHash)} ?h } }`);
  return rows.map((r) => r.get('h')!.value).sort();
}

export function choiceOf(t: PopulationTarget, st?: PopulationStore, prior?: StoredProblem): FetchChoice<AttemptedRead> {
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
    async examine(result, attempt) {
      const got = t.provider.rows(result, b);
      const o = examineRows(got, result, t.provider, b, t.ask);
      if (!o.ok) return { reject: boundaryOf(o.failure), checks: [], disposition: o.failure.code === 'measure_absent' ? 'errored' : 'rejected' };
      const read = st ? await materialize(st, t, got, result, o.read, (e) => st.emit?.(e), Date.parse(attempt.startedAt), prior) : o.read;
      const ev = populationProgress(read);
      return { admit: { ...read, attemptN: attempt.n }, checks: checksOf(read), said: ev.message, by: 'population', more: read.completeness.verdict !== 'complete' };
    },
  };
}

/**
 * A read of the population graph stored for this target: the same examination as a fresh
 * response (grain, scope, class, DC/PR decided now, from the rows' own attributes), an attempt of
 * kind `store_read` whose responses are the publisher responses the graph was derived from, and a
 * typed note saying the rows were read from the store, when they were stored and from what.
 */
function storeChoice(t: PopulationTarget, stored: StoredPopulation): FetchChoice<AttemptedRead> {
  const base = choiceOf(t);
  const b = t.binding;
  return {
    ...base,
    label: `${base.label} from the stored population graph`,
    storeRead: stored.graph,
    skipIfBlocked: [], marksBlocked: [],
    fetch: async () => ({ source: b.source, operation: b.operation, records: [], responses: stored.parts.responses, complete: !stored.parts.unreadPages?.length, notes: [], ...(stored.parts.unreadPages ? { unreadPages: stored.parts.unreadPages } : {}) }),
    examine(_result, attempt) {
      const o = examineRows(stored.got, stored.parts, t.provider, b, t.ask);
      if (!o.ok) return { reject: boundaryOf(o.failure), checks: [], disposition: o.failure.code === 'measure_absent' ? 'errored' : 'rejected' };
      const note: PopulationNote = { code: 'stored_graph', graph: stored.graph, storedAt: stored.storedAt, responses: stored.parts.responses.map((r) => ({ url: r.url, retrievedAt: r.retrievedAt, sha256: r.sha256 })) };
      const read: PopulationRead = { ...o.read, notes: [...o.read.notes, note], graph: stored.graph };
      const ev = populationProgress(read);
      return { admit: { ...read, attemptN: attempt.n }, checks: [...checksOf(read), { name: 'measure', passed: true, detail: `${stored.got.rows.length} rows read from the population graph ${stored.graph} (stored ${stored.storedAt}), as many as it was stored with` }], said: `${ev.message} (read from the stored population graph)`, by: 'population', more: read.completeness.verdict !== 'complete' };
    },
  };
}

export function populationProvider(targets: readonly PopulationTarget[], boundaries: readonly Failure[], st?: PopulationStore): Provider<AttemptedRead> {
  return async function* (): AsyncIterable<Choice<AttemptedRead>> {
    for (const f of boundaries) yield { kind: 'boundary', failure: f } satisfies BoundaryChoice;
    // one request for which of the targets' graphs the store holds; a graph is read when its target is reached
    let held = new Map<string, string>();
    if (st) {
      try { held = storedGraphs(st.store.rdf, [...new Set(targets.map((t) => graphOf(st, t)))]); } catch (e) {
        st?.emit?.({ stage: 'execution_plan', by: 'population', message: `stored population graphs not looked up (${(e as Error).message}): the publishers are asked` });
      }
    }
    for (const t of targets) {
      if (!st || !held.has(graphOf(st, t))) { yield choiceOf(t, st); continue; }
      const g = graphOf(st, t);
      const storedAt = held.get(g)!;
      const now = st.now?.() ?? Date.now();
      if (isStale(storedAt, now, t.provider.freshnessDays)) {
        st?.emit?.({ stage: 'execution_plan', by: 'population', message: `population graph ${g} stored ${storedAt} is older than ${t.provider.source}'s freshness policy (${t.provider.freshnessDays} days): asking the publisher again` });
        yield choiceOf(t, st, { code: 'stored_graph_stale', graph: g, storedAt, maxAgeDays: t.provider.freshnessDays });
        continue;
      }
      let loaded: ReturnType<typeof loadStored>;
      try { loaded = loadStored(st.store.rdf, g); } catch (e) {
        st?.emit?.({ stage: 'execution_plan', by: 'population', message: `population graph ${g} not read (${(e as Error).message}): asking the publisher` });
        yield choiceOf(t, st);
        continue;
      }
      if (!loaded) { yield choiceOf(t, st); continue; }
      if ('code' in loaded) {
        st?.emit?.({ stage: 'execution_plan', by: 'population', message: `population graph ${g} not reused (${loaded.code}${loaded.code === 'stored_graph_incomplete' ? `: ${loaded.found} of ${loaded.declared} rows` : ''}): asking the publisher again` });
        yield choiceOf(t, st, loaded);
        continue;
      }
      yield storeChoice(t, loaded);
    }
  };
}
