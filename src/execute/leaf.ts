/**
 * One leaf search: one entity, one measure (or the planned candidates for it), one period.
 *
 * Choice points in order: source (the plan's eligible assessments, by priority) → entity
 * resolution (registry candidates) → source key (the identifier the operation accepts) →
 * concept/field (the candidate measure) → period (record selection) → fetch. An ordinary failure
 * advances to the next option; a well-formed record that answers a different question (another
 * entity, another concept, another unit) prunes that source's whole subtree. Every attempt is
 * recorded; the first record that passes validation is admitted and the search stops.
 */
import { runOperation } from '../connectors/registry.ts';
import type { Observation, OperationResult } from '../connectors/records.ts';
import type { ConnectorContext } from '../connectors/types.ts';
import { PublisherError } from '../http/errors.ts';
import type { Assessment } from '../plan/plan.ts';
import { bindKey, type EntityType, type IdentityBundle } from '../resolve/bundle.ts';
import { resolveName } from '../resolve/registry.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import { adjudicate, type SemanticJudge } from '../validate/adjudicate.ts';
import { checkObservation, isAnnual, type PeriodWanted } from '../validate/structural.ts';
import type { Attempt } from './attempt.ts';
import { bindReadings, entityTypeFor } from './bind.ts';
import { BudgetExhaustedError, DeadlineError, type QueryContext } from './context.ts';

export type Boundary = 'no_access_path' | 'no_candidate_source' | 'entity_unresolved' | 'no_data' | 'operationally_blocked' | 'cancelled';

export interface LeafRequest {
  question: string;
  entity: string;
  attribute: string | null;
  period: PeriodWanted;
  /** Eligible assessments in plan priority. */
  candidates: Assessment[];
  /** Catalog unit per measure key (from discovery cards). */
  units: ReadonlyMap<string, string>;
  /** Attempt numbering shared across the run. */
  nextAttempt: () => number;
  judge?: SemanticJudge;
  /** A label for progress (branch name in a fan-out). */
  branch?: string;
}

export interface LeafResult {
  attempts: Attempt[];
  evidence?: Omit<AdmittedEvidence, 'index'>;
  failure?: { boundary: Boundary; message: string; code?: string };
  /** The entity name fits several entities of the kind the operation reads (three Cook Counties): never picked silently. */
  ambiguity?: { entity: string; type: EntityType; candidates: string[] };
  notes: string[];
}

/**
 * Which registry candidates to try for a name. Exact name matches when any exist. Otherwise the
 * candidates whose label starts with the name and that carry an identifier the operation accepts
 * (the others cannot be bound anyway): exactly one such candidate is used, marked as chosen by name
 * (weaker assurance, disclosed); a name found only inside longer names is not taken; more than one
 * is left unresolved — choosing among them is a judgment for a model or the caller, and
 * the registry never makes it.
 *
 * When the operation reads one kind of entity (`type`: counties, states, schools), several exact
 * matches of that kind holding different keys are different entities of the same name ("Cook
 * County" in Georgia, Illinois and Minnesota): none is chosen, and `ambiguous` lists them so the
 * caller can be asked or told.
 */
export function chooseBundles(bundles: IdentityBundle[], accepts: readonly string[] = [], type?: EntityType): { chosen: IdentityBundle[]; byName: boolean; note?: string; ambiguous?: string[] } {
  const exact = bundles.filter((b) => b.match === 'exact');
  if (type && exact.length > 1) {
    const keyOf = (b: IdentityBundle) => { const k = bindKey(b, accepts); return k.ok ? k.value : b.id; };
    const distinct = [...new Map(exact.map((b) => [keyOf(b), b])).values()];
    if (distinct.length > 1) {
      const labels = distinct.map((b) => b.label).sort();
      return { chosen: [], byName: false, ambiguous: labels, note: `${distinct.length} ${type === 'county' ? 'counties' : `${type}s`} have that name (${labels.join('; ')}); name the one meant` };
    }
    return { chosen: distinct, byName: false };
  }
  if (exact.length > 0) return { chosen: exact, byName: false };
  const keyed = accepts.length ? bundles.filter((b) => bindKey(b, accepts).ok && !(accepts.length === 1 && accepts[0] === 'name')) : bundles;
  // a name found only inside a longer name ("American Red Cross" in "Association of American Red
  // Cross Retirees") names something else more often than not: only a label that starts with the
  // name ("Amazon" → "AMAZON COM INC") may be chosen by name
  const bindable = keyed.filter((b) => b.match === 'prefix');
  if (bindable.length === 1) return { chosen: bindable, byName: true, note: `"${bindable[0]!.label}" chosen by name: the only one of ${bundles.length} registry candidate${bundles.length === 1 ? '' : 's'} whose name starts with the name asked and that has the identifier this read takes (${accepts.map(keyName).join(' or ')})` };
  const inner = keyed.length > 0 && bindable.length === 0 ? `; the name appears only inside longer names, which are not taken to mean it` : '';
  return { chosen: [], byName: false, note: bundles.length === 0 ? 'no candidate in the identity registry' : `${bundles.length} candidates, none an exact name match${bindable.length > 1 ? `, ${bindable.length} starting with it and with the identifier this read takes (${accepts.map(keyName).join(' or ')})` : ''}: ${bundles.slice(0, 5).map((b) => b.label).join('; ')}${inner}` };
}

function labelOf(rec: Observation): string {
  const p = rec.period;
  if (p.basis === 'fiscal' && p.fiscalYear !== undefined) return `FY${p.fiscalYear}${p.fiscalPeriod && p.fiscalPeriod !== 'FY' ? p.fiscalPeriod : ''}`;
  if (p.frame) return p.frame;
  return p.label ?? p.end ?? 'unknown period';
}

/** Whether a record is one year's figure (an annual duration, a balance, a whole filing year or a survey vintage), not a quarter's. */
function yearly(o: Observation): boolean {
  const p = o.period;
  return p.instant || isAnnual(p) || p.basis === 'survey' || (p.basis === 'fiscal' && p.fiscalPeriod === 'FY' && !p.start);
}

/** The year a record's period is named by: the fiscal year for fiscal records, else the year its period ends (a survey's vintage). */
export function periodYear(o: Observation): number | undefined {
  const p = o.period;
  if (p.basis === 'fiscal' && p.fiscalYear !== undefined) return p.fiscalYear;
  const y = p.end ? Number(p.end.slice(0, 4)) : NaN;
  return Number.isFinite(y) ? y : undefined;
}

/** The identifier of an entity a record carries, for a key type (FIPS codes sit on the geography). */
export function recordKey(o: Observation, keyType: string): string | undefined {
  return o.entity?.[keyType] ?? (keyType === 'fips' ? o.geography?.fips : undefined);
}

/**
 * Records of one measure for the wanted period, best first (current filing first).
 *
 * By the record's period basis: SEC facts by fiscal year (FY) or calendar frame (CY); other fiscal
 * records (990 filings) by their fiscal (tax) year; survey records by their vintage (the year the
 * survey period ends: ACS 5-year 2017–2021 is 2021); calendar records by their year. "Latest" is the
 * newest period the response holds (for SEC, among the current filing's facts). With `key`, only
 * the rows of that entity are kept (a population extract read for one entity); rows that carry no
 * key of that type stay, and the entity check decides on them. With `attributes`, only rows with
 * those attribute values (the crude-prevalence row of a PLACES county).
 */
export function selectRecords(records: OperationResult['records'], measure: string, want: PeriodWanted, key?: { keyType: string; value: string }, attributes?: Readonly<Record<string, string>>): { matches: Observation[]; closest?: Observation; any: boolean } {
  let obs = records.filter((r): r is Observation => r.type === 'observation' && r.measure === measure);
  if (key) obs = obs.filter((o) => { const k = recordKey(o, key.keyType); return k === undefined || k === key.value; });
  if (attributes) obs = obs.filter((o) => Object.entries(attributes).every(([a, v]) => o.attributes[a] === v));
  if (obs.length === 0) return { matches: [], any: false };
  const annual = obs.filter(yearly);
  const hasCurrent = annual.some((o) => o.attributes.current !== undefined);
  const current = (o: Observation) => o.attributes.current === true;
  let matches: Observation[];
  if (want.latest) {
    const pool = hasCurrent ? annual.filter(current) : annual;
    const maxEnd = pool.reduce((m, o) => ((o.period.end ?? '') > m ? o.period.end ?? '' : m), '');
    matches = pool.filter((o) => (o.period.end ?? '') === maxEnd && (o.period.instant || o.period.fiscalPeriod === 'FY' || o.period.basis !== 'fiscal'));
  } else if (want.basis === 'calendar' && obs.some((o) => o.period.frame)) {
    matches = obs.filter((o) => o.period.frame === `CY${want.year}`);
  } else if (want.basis === 'calendar') {
    // a calendar year: a record covering that calendar year, or a survey whose vintage it is
    matches = annual.filter((o) => o.period.end === `${want.year}-12-31` || (o.period.basis === 'survey' && periodYear(o) === want.year));
  } else {
    // the year's own figure: the annual duration, or the balance at fiscal year end (not a quarter's)
    matches = annual.filter((o) => periodYear(o) === want.year && (o.period.basis !== 'fiscal' || o.period.fiscalPeriod === 'FY'));
  }
  // SEC: the current filing's fact first (response order otherwise); elsewhere the newest period first
  matches.sort((a, b) => hasCurrent ? Number(current(b)) - Number(current(a)) : (b.period.end ?? '').localeCompare(a.period.end ?? ''));
  const closest = (hasCurrent ? annual.filter(current) : annual).sort((a, b) => (b.period.end ?? '').localeCompare(a.period.end ?? ''))[0] ?? obs[0];
  return { matches, ...(closest ? { closest } : {}), any: true };
}

export function connectorCtx(ctx: QueryContext): ConnectorContext {
  return { signal: ctx.signal, deadline: ctx.deadline, clock: ctx.clock, http: ctx.runtime.http, declarations: ctx.runtime.declarations };
}

/** Whole-entity fetches are shared within the question (several concepts read from one companyfacts). */
export function fetchOnce(ctx: QueryContext, source: string, operation: string, args: Record<string, string>): Promise<OperationResult> {
  const key = `${source}|${operation}|${JSON.stringify(Object.entries(args).sort())}`;
  let p = ctx.fetchMemo.get(key) as Promise<OperationResult> | undefined;
  if (!p) {
    p = runOperation(ctx.runtime.registry, source, operation, args, connectorCtx(ctx));
    ctx.fetchMemo.set(key, p);
  }
  return p;
}

export function classify(e: unknown, signal: AbortSignal): { boundary: Boundary; code: string; message: string } {
  const reason = signal.aborted ? signal.reason : undefined;
  if (reason instanceof DeadlineError) return { boundary: 'operationally_blocked', code: 'deadline', message: reason.message };
  if (e instanceof BudgetExhaustedError) return { boundary: 'operationally_blocked', code: 'budget', message: e.message };
  if (e instanceof PublisherError) {
    if (e.kind === 'cancelled' || signal.aborted) return { boundary: 'cancelled', code: 'cancelled', message: signal.aborted ? String((reason as Error)?.message ?? reason) : e.message };
    if (e.kind === 'blocked') return { boundary: 'operationally_blocked', code: e.code, message: e.message };
    if (e.kind === 'not_found') return { boundary: 'no_data', code: 'not_found', message: e.message };
    return { boundary: 'no_data', code: e.code, message: e.message };
  }
  if (signal.aborted) return { boundary: 'cancelled', code: 'cancelled', message: String((reason as Error)?.message ?? reason) };
  const err = e as Error;
  if (err?.name === 'ConnectorInputError' || err?.name === 'MissingCassetteError') return { boundary: err.name === 'MissingCassetteError' ? 'operationally_blocked' : 'no_data', code: err.name, message: err.message };
  throw e; // a bug: keep the stack
}

export type Failure = { boundary: Boundary; code: string; message: string };

/** Open an attempt record: numbered and timed, `errored` until the outcome is known. */
export function openAttempt(ctx: QueryContext, fields: Pick<Attempt, 'n' | 'source' | 'operation' | 'bindings'> & { measure?: string }): { attempt: Attempt; done: () => void } {
  const started = ctx.clock.now();
  const attempt: Attempt = {
    ...fields, requests: [], responses: [], startedAt: new Date(started).toISOString(), endedAt: '', elapsedMs: 0, checks: [], disposition: 'errored',
  };
  const done = () => { const t = ctx.clock.now(); attempt.endedAt = new Date(t).toISOString(); attempt.elapsedMs = t - started; };
  return { attempt, done };
}

/** A fetch threw: close the attempt as errored (or cancelled) and keep the classified failure. */
export function recordFetchFailure(ctx: QueryContext, attempt: Attempt, done: () => void, e: unknown, failures: Failure[]): Failure {
  const c = classify(e, ctx.signal);
  done();
  attempt.disposition = c.boundary === 'cancelled' ? 'cancelled' : 'errored';
  attempt.reason = c.message; attempt.failure = c.code;
  if (e instanceof PublisherError && e.url) attempt.requests.push(e.url);
  failures.push(c);
  return c;
}

export async function searchLeaf(ctx: QueryContext, req: LeafRequest): Promise<LeafResult> {
  const attempts: Attempt[] = [];
  const notes: string[] = [];
  const pruned = new Set<string>();
  const failures: Failure[] = [];
  let leafAttempts = 0;
  let resolvedAny = false;
  let ambiguity: LeafResult['ambiguity'];
  const crosswalkSaid = new Set<string>();
  const blockedOps = new Set<string>();
  const blockedReadings = new Set<string>();
  const tried = new Set<string>();
  // responses this leaf already holds, by request: a concept absent from one needs no new attempt
  const held = new Map<string, OperationResult>();
  const absent: string[] = [];
  const tag = req.branch ? `[${req.branch}] ` : '';

  for (const cand of req.candidates) {
    const op = cand.operation;
    if (!op) continue;
    if (pruned.has(cand.publisherId)) { notes.push(`${cand.candidateKey}: skipped, ${cand.publisherId} pruned`); continue; }
    if (blockedOps.has(op.key)) continue;
    if (ctx.signal.aborted) break;

    // entity resolution (memoised per question), among the kind of entity the operation's key names
    const entityType = entityTypeFor(op.key);
    let bundles: IdentityBundle[];
    try {
      bundles = await resolveName(ctx.registry, req.entity, entityType ? { type: entityType } : {}, ctx);
      // "Georgia (U.S. state)", "Washington (state)": a disambiguating suffix the kind asked already settles
      const bare = req.entity.replace(/\s*\([^()]*\)\s*$/, '').trim();
      if (bundles.length === 0 && entityType && bare && bare !== req.entity) bundles = await resolveName(ctx.registry, bare, { type: entityType }, ctx);
    } catch (e) {
      const c = classify(e, ctx.signal);
      failures.push(c);
      break;
    }
    const { chosen, note, byName, ambiguous } = chooseBundles(bundles, op.accepts, entityType);
    if (chosen.length === 0) {
      if (ambiguous) {
        ambiguity ??= { entity: req.entity, type: entityType!, candidates: ambiguous };
        failures.push({ boundary: 'entity_unresolved', code: 'ambiguous', message: `"${req.entity}" is ambiguous: ${note}` });
      } else {
        failures.push({ boundary: 'entity_unresolved', code: 'entity_unresolved', message: `"${req.entity}" could not be resolved${entityType ? ` as ${/^[aeiou]/i.test(entityType) ? 'an' : 'a'} ${entityType}` : ''}: ${note}` });
      }
      continue; // another operation may accept a key some candidate carries
    }
    resolvedAny = true;
    if (byName && note && !crosswalkSaid.has(note)) { crosswalkSaid.add(note); ctx.emit({ stage: 'crosswalk', by: 'registry', message: `${tag}${note}` }); }

    for (const bundle of chosen) {
      const key = bindKey(bundle, op.accepts);
      if (!key.ok) {
        if (crosswalkSaid.has(`${bundle.id}|${op.key}`)) continue;
        crosswalkSaid.add(`${bundle.id}|${op.key}`);
        ctx.emit({ stage: 'crosswalk', by: 'registry', message: `${tag}${bundle.label}: no usable key for ${op.key} — ${key.reason}` });
        notes.push(key.reason);
        continue;
      }
      const readings = bindReadings(op.key, cand.candidateKey, { keyType: key.keyType, value: key.value }, req.period);
      if ('error' in readings) { notes.push(`${cand.candidateKey}: ${readings.error}`); continue; }
      const unit = req.units.get(cand.candidateKey);
      for (const binding of readings) {
        const operationId = binding.operation ?? op.operationId;
        // the same call and record selection from another candidate key would repeat a verdict
        const triedKey = JSON.stringify([cand.publisherId, operationId, binding.fetchArgs, binding.measure, binding.attributes ?? null, key.value, unit ?? null]);
        if (tried.has(triedKey)) continue;
        tried.add(triedKey);
        // a vintage of a product that could not be fetched for one concept (no cassette, not released) is not fetched for the next
        const readingKey = `${cand.publisherId}/${operationId}|${binding.reading ?? ''}|${binding.fetchArgs.product ?? ''}`;
        if (binding.reading && blockedReadings.has(readingKey)) { notes.push(`${cand.candidateKey}: ${binding.reading} skipped, blocked for an earlier concept`); continue; }
        // measure choice settled on data in hand: a concept the entity's whole response (already
        // fetched and recorded by an earlier attempt) does not carry is passed over without a new attempt
        const heldKey = JSON.stringify([cand.publisherId, operationId, binding.fetchArgs]);
        const inHand = held.get(heldKey);
        if (inHand && !selectRecords(inHand.records, binding.measure, req.period, { keyType: key.keyType, value: key.value }, binding.attributes).any) {
          absent.push(binding.measure);
          failures.push({ boundary: 'no_data', code: 'not_found', message: `${bundle.label} reports no ${binding.measure} in the ${operationId} response already fetched` });
          continue;
        }
        if (leafAttempts >= ctx.leafCap) { notes.push(`leaf attempt cap (${ctx.leafCap}) reached`); return finish(); }
        try { ctx.budget.take(); } catch (e) { failures.push(classify(e, ctx.signal)); return finish(); }
        leafAttempts++;

        const n = req.nextAttempt();
        const { attempt, done } = openAttempt(ctx, {
          n, source: cand.publisherId, operation: operationId, measure: cand.candidateKey,
          bindings: { [key.keyType]: key.value, measure: binding.measure, period: req.period.latest ? 'latest' : `${req.period.basis}:${req.period.year}`, entity: bundle.label, ...(binding.reading ? { reading: binding.reading } : {}) },
        });
        attempts.push(attempt);
        let result: OperationResult;
        try {
          result = await fetchOnce(ctx, cand.publisherId, operationId, binding.fetchArgs);
        } catch (e) {
          const c = recordFetchFailure(ctx, attempt, done, e, failures);
          ctx.emit({ stage: 'attempt', by: 'executor', message: `${tag}#${n} ${cand.publisherId}/${operationId} ${binding.measure}${binding.reading ? ` (${binding.reading})` : ''} for ${bundle.label}: ${attempt.disposition} (${c.code})`, data: { attempt: n, disposition: attempt.disposition } });
          if (c.boundary === 'cancelled' || c.code === 'deadline') return finish();
          // a blocked operation (offline, no key, rate limit) fails the same way for every concept: skip it;
          // a binder's further readings are other requests (another survey, another vintage) and are still tried
          if (c.boundary === 'operationally_blocked' && readings.length === 1) blockedOps.add(op.key);
          if (c.boundary === 'operationally_blocked' && binding.reading) blockedReadings.add(readingKey);
          continue;
        }
        held.set(heldKey, result);
        attempt.responses = result.responses;
        attempt.requests = result.responses.map((r) => r.url);
        const sel = selectRecords(result.records, binding.measure, req.period, { keyType: key.keyType, value: key.value }, binding.attributes);
        if (!sel.any) {
          done();
          attempt.disposition = 'errored'; attempt.failure = 'not_found';
          attempt.reason = `${bundle.label} reports no ${binding.measure}${binding.attributes ? ` (${Object.entries(binding.attributes).map(([a, v]) => `${a} ${v}`).join(', ')})` : ''} in this response`;
          failures.push({ boundary: 'no_data', code: 'not_found', message: attempt.reason });
          ctx.emit({ stage: 'attempt', by: 'executor', message: `${tag}#${n} ${cand.publisherId}/${operationId} ${binding.measure}: not reported by ${bundle.label}`, data: { attempt: n, disposition: 'errored' } });
          continue;
        }
        const toCheck = sel.matches.length > 0 ? sel.matches : sel.closest ? [sel.closest] : [];
        let admitted: Observation | undefined;
        let verdict;
        for (const rec of toCheck) {
          const structural = checkObservation(rec, {
            entity: { keyType: key.keyType, key: key.value, label: bundle.label }, measure: binding.measure,
            ...(unit ? { unit } : {}),
            period: req.period, attribute: req.attribute,
          });
          verdict = await adjudicate(structural, req.question, ctx.signal, req.judge);
          if (verdict.passed) { admitted = rec; break; }
          if (verdict.prune) break;
        }
        done();
        attempt.checks = verdict?.checks ?? [];
        if (admitted && verdict) {
          attempt.disposition = 'accepted';
          ctx.emit({ stage: 'validation', by: verdict.decidedBy === 'code' ? 'validator' : 'validator+model', message: `${tag}#${n} admitted ${binding.measure} ${labelOf(admitted)} = ${admitted.value} ${admitted.unit} (${verdict.match === 'key' ? `${key.keyType} match` : 'name match'})`, data: { attempt: n } });
          const p = admitted.period;
          const geo = admitted.geography;
          return finish({
            attemptN: n, source: cand.publisherId, operation: operationId, measure: cand.candidateKey,
            measureLabel: admitted.label ?? (cand.title ? binding.labelFor?.(cand.title) ?? cand.title : binding.measure), attribute: req.attribute,
            value: admitted.value!, unit: admitted.unit, ...(admitted.currency ? { currency: admitted.currency } : {}),
            period: { label: labelOf(admitted), ...(p.start ? { start: p.start } : {}), ...(p.end ? { end: p.end } : {}), basis: p.basis, ...(p.fiscalYear !== undefined ? { fiscalYear: p.fiscalYear } : {}) },
            entity: { label: bundle.label, keyType: key.keyType, key: key.value, keys: { ...(geo?.fips ? { fips: geo.fips } : {}), ...(geo?.name ? { name: geo.name } : {}), ...(admitted.entity ?? {}) }, ...(bundle.qid ? { qid: bundle.qid } : {}) },
            raw: admitted.raw,
            assurance: { match: byName ? 'name' : verdict.match, planVerdict: cand.verdict === 'composed' ? 'composed' : 'exact', warnings: [...(byName && note ? [note] : []), ...verdict.warnings, ...result.notes] },
          });
        }
        attempt.disposition = 'rejected';
        attempt.reason = verdict?.reason ?? `no ${req.period.text} value`;
        const failed = verdict?.checks.find((c) => !c.passed)?.name;
        attempt.failure = verdict?.prune ? 'different_question' : failed === 'sentinel' ? 'suppressed' : 'period';
        failures.push({ boundary: 'no_data', code: attempt.failure, message: `${binding.measure}: ${attempt.reason}` });
        ctx.emit({ stage: 'validation', by: verdict?.decidedBy === 'code+model' ? 'validator+model' : 'validator', message: `${tag}#${n} rejected ${binding.measure}: ${attempt.reason}`, data: { attempt: n } });
        if (verdict?.prune) { pruned.add(cand.publisherId); break; }
      }
      if (pruned.has(cand.publisherId)) break;
    }
  }
  return finish();

  function finish(evidence?: Omit<AdmittedEvidence, 'index'>): LeafResult {
    if (absent.length > 0) {
      const said = `${absent.length} candidate concept${absent.length === 1 ? '' : 's'} passed over without a new request: not in the response already fetched for ${req.entity} (${absent.slice(0, 6).join(', ')}${absent.length > 6 ? ', …' : ''})`;
      notes.push(said);
      ctx.emit({ stage: 'execution_plan', by: 'executor', message: `${tag}${said}` });
    }
    if (evidence) return { attempts, evidence, notes };
    if (ctx.signal.aborted && !failures.some((f) => f.boundary === 'cancelled' || f.code === 'deadline')) failures.push(classify(undefined, ctx.signal));
    const failure = summarise();
    return { attempts, notes, failure, ...(ambiguity && failure.code === 'ambiguous' ? { ambiguity } : {}) };
  }

  function summarise(): { boundary: Boundary; message: string; code?: string } {
    const pick = (b: Boundary) => failures.find((f) => f.boundary === b);
    // what stopped the search outranks what failed along the way
    const stopped = failures.find((f) => f.code === 'deadline') ?? failures.find((f) => f.code === 'budget');
    if (stopped) return stopped;
    const cancelled = pick('cancelled');
    if (cancelled) return cancelled;
    // a name that fits several entities of the kind asked is said as such, before "not found"
    const ambiguous = failures.find((f) => f.code === 'ambiguous');
    if (ambiguous && attempts.length === 0) return ambiguous;
    const unresolved = pick('entity_unresolved');
    if (unresolved && !resolvedAny) return unresolved;
    const blocked = pick('operationally_blocked');
    if (blocked && !failures.some((f) => f.boundary === 'no_data' && f.code !== 'not_found')) return blocked;
    if (failures.length === 0) return { boundary: 'no_access_path', message: `no candidate operation could be bound for "${req.entity}": ${notes.join('; ') || 'none eligible'}` };
    const periodMiss = failures.find((f) => f.code === 'period');
    return { boundary: 'no_data', code: periodMiss?.code ?? failures[0]!.code, message: `no ${req.attribute ?? 'value'} for ${req.entity} in ${req.period.text}: ${(periodMiss ?? failures[failures.length - 1]!).message}` };
  }
}

/** An identifier kind as a reader knows it ("ipeds_unitid" → "IPEDS unit id", "ein" → "EIN"). */
function keyName(k: string): string {
  const known: Record<string, string> = { ipeds_unitid: 'IPEDS unit id', ein: 'EIN', cik: 'SEC CIK', fips: 'FIPS code', object_id: 'e-file object id' };
  return known[k] ?? k.replace(/_/g, ' ');
}
