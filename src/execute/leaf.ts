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
import { measureRecords, type Observation, type OperationResult } from '../connectors/records.ts';
import type { Assessment } from '../plan/plan.ts';
import { bindKey, type EntityType, type IdentityBundle } from '../resolve/bundle.ts';
import { resolveName } from '../resolve/registry.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import { adjudicate, type SemanticJudge } from '../validate/adjudicate.ts';
import { checkObservation, isAnnual, type Check, type PeriodWanted } from '../validate/structural.ts';
import type { Attempt } from './attempt.ts';
import { bindReadings, entityTypeFor } from './bind.ts';
import type { BindRequest } from './binders/types.ts';
import { grainAvailability, recordQuantity, type Eligibility } from './eligibility.ts';
import type { QuantityKind } from '../understand/intent.ts';
import { checkGrain } from '../validate/grain.ts';
import { byNewest, latestDisclosure, type DeclaredPeriod, type LatestDisclosure } from '../validate/latest.ts';
import type { QueryContext } from './context.ts';
import { exhausted, search, summarise, type Choice, type Examination, type FetchChoice, type Provider, type SearchHandle, type SearchOutcome, type SummaryWords } from './engine.ts';
import type { KeyedBinding } from '../connectors/binding.ts';
import type { Failure } from './failure.ts';

export interface LeafRequest {
  question: string;
  entity: string;
  attribute: string | null;
  /** The kind of quantity asked (intent.quantity): a record whose unit cannot be it is rejected. */
  quantity?: QuantityKind | null;
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
  /** The geography settled before the read (ask/scope.ts): bound as it is, never re-resolved by name. */
  pinned?: IdentityBundle;
  /** Whether a candidate can answer what the intent asks, before any request (eligibility.ts). */
  eligible?: Eligibility;
  /** For a "latest" read: the period each candidate operation declares, by operation key (searchLeaf sets it). */
  declared?: ReadonlyMap<string, DeclaredPeriod>;
}

export interface LeafResult {
  attempts: Attempt[];
  evidence?: Omit<AdmittedEvidence, 'index'>;
  failure?: Failure;
  /** Every boundary the search reached, each with its source (absent when it admitted a value). */
  reached?: Failure[];
  /** Whether every choice point was tried (false: the search was stopped first). */
  exhausted?: boolean;
  /** The entity name fits several entities of the kind the operation reads (three Cook Counties): never picked silently. */
  ambiguity?: { entity: string; type: EntityType; candidates: string[] };
  notes: string[];
  /** A "latest" read: the newest declared period read, or the newer ones declared and why they were not read. */
  latest?: LatestDisclosure;
  /** A "latest" read that passed over candidate concepts of the same response for one holding a newer period. */
  latestConcept?: { read: string; end: string; passedOver: Array<{ measure: string; end: string }> };
}

/**
 * Which registry candidates to try for a name. Exact name matches when any exist. Otherwise the
 * candidates whose label starts with the name and that carry an identifier the operation accepts
 * (the others cannot be bound anyway): exactly one such candidate is used, marked as chosen by name
 * — unless other candidates of the kind read start with the name too (the key alone does not say
 * which "Yale" is meant: Yale University has no CIK, Yale Transaction Finders, Inc. has one)
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
  // the one candidate carrying this read's key is not the one meant when others of the kind read start with
  // the name too ("Yale": Yale University, Yale Club of Washington and Yale Transaction Finders, Inc. — only the last has a CIK)
  const named = bundles.filter((b) => b.match === 'prefix' && (!type || b.types.includes(type)));
  if (bindable.length === 1 && named.length > 1) {
    return { chosen: [], byName: false, note: `${named.length} candidates start with the name (${named.slice(0, 5).map((b) => b.label).join('; ')}); only "${bindable[0]!.label}" has the identifier this read takes (${accepts.map(keyName).join(' or ')}), which does not make it the one meant` };
  }
  if (bindable.length === 1) return { chosen: bindable, byName: true, note: `"${bindable[0]!.label}" chosen by name${bindable[0]!.spelledAs ? ` (the name asked read as "${bindable[0]!.spelledAs}")` : ''}: the only one of ${bundles.length} registry candidate${bundles.length === 1 ? '' : 's'} whose name starts with the name asked and that has the identifier this read takes (${accepts.map(keyName).join(' or ')})` };
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
/** A response's observations by measure, in response order (a companyfacts result holds ~25 k, read once per candidate measure). */
const byMeasure = new WeakMap<readonly unknown[], Map<string, readonly Observation[]>>();
function observationsOf(records: OperationResult['records'], measure: string): readonly Observation[] {
  let m = byMeasure.get(records);
  if (!m) {
    const groups = new Map<string, Observation[]>();
    for (const r of records) {
      if (r.type !== 'observation') continue;
      const g = groups.get(r.measure);
      if (g) g.push(r);
      else groups.set(r.measure, [r]);
    }
    byMeasure.set(records, m = groups);
  }
  return m.get(measure) ?? [];
}

export function selectRecords(records: OperationResult['records'], measure: string, want: PeriodWanted, key?: { keyType: string; value: string }, attributes?: Readonly<Record<string, string>>): { matches: Observation[]; closest?: Observation; any: boolean } {
  let obs = observationsOf(records, measure);
  if (key) obs = obs.filter((o) => { const k = recordKey(o, key.keyType); return k === undefined || k === key.value; });
  if (attributes) obs = obs.filter((o) => Object.entries(attributes).every(([a, v]) => o.attributes[a] === v));
  if (obs.length === 0) return { matches: [], any: false };
  const annual = obs.filter(yearly);
  const hasCurrent = obs.some((o) => o.attributes.current !== undefined);
  const current = (o: Observation) => o.attributes.current === true;
  let matches: Observation[];
  if (!want.latest && want.quarter && want.year !== null) {
    // a quarter asked: that quarter's own value (by the basis asked), or a balance at its end — never the year's
    const asked = { grain: 'quarter' as const, year: want.year, quarter: want.quarter, basis: want.basis };
    matches = obs.filter((o) => {
      const g = checkGrain(asked, o.period);
      if (!g.ok) return false;
      if (g.read === 'quarter') return true;
      return g.read === 'instant' && (o.period.fiscalYear === want.year && o.period.fiscalPeriod === `Q${want.quarter}`);
    });
  } else if (want.latest) {
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

export type { Boundary, Failure } from './failure.ts';

/**
 * The keyed measure leaf as a provider of choice points to the engine: source (the plan's
 * assessments) → entity resolution (among the kind of entity the operation's key names) → source
 * key → concept (each binder reading) → fetch and record selection. Each choice point is its own
 * step below (`candidateChoices` → `resolveFor` → `keyOf` → `readingChoice` → `examineReading`).
 *
 * A "latest" read orders what it tries by period (rule 4, "latest means latest"):
 *  - within one operation, the readings of every candidate of that operation go newest vintage
 *    first (`latestOfOperation`), the plan's candidate order kept within one vintage: a later
 *    candidate's newer vintage is read before an earlier candidate's older one;
 *  - a reading older than the newest period a later candidate of another operation declares waits
 *    until those are tried (`floors`): an older vintage of one operation never goes before a newer
 *    period another declares.
 */
export function keyedChoices(ctx: QueryContext, req: LeafRequest, found: { ambiguity?: LeafResult['ambiguity'] }): Provider<LeafEvidence> {
  return async function* (h) {
    const later: Later[] | undefined = req.period.latest && req.declared ? [] : undefined;
    const run: LeafRun = { ctx, req, found, h, said: new Set(), deferred: [], judging: false, ...(later ? { later, floor: floors(req.candidates, req.declared!) } : {}) };
    yield* candidatesInOrder(run);
    if (later) yield* newestReadingsFirst(later);
    // only now, with every candidate the code settles alone tried and none admitted, may the judge settle the others
    if (req.judge && run.deferred.length > 0) {
      run.judging = true;
      h.emit('execution_plan', 'executor', `no candidate passed on the code's checks alone; asking the model about the ${run.deferred.length} whose label the code could not settle, in order`);
      yield* run.deferred;
    }
  };
}

type LeafEvidence = Omit<AdmittedEvidence, 'index'>;
type LeafChoice = FetchChoice<LeafEvidence>;
type LeafItem = Choice<LeafEvidence>;

/** What the steps of one keyed leaf search share. */
interface LeafRun {
  ctx: QueryContext;
  req: LeafRequest;
  found: { ambiguity?: LeafResult['ambiguity'] };
  h: SearchHandle;
  /** Progress lines already said once (a chosen-by-name note, an unusable key). */
  said: Set<string>;
  /** A "latest" read: the readings set aside behind a newer period another operation declares, and each candidate's floor. */
  later?: Later[];
  floor?: string[];
  /**
   * Readings whose records passed every check but left the residual semantic question: with a judge,
   * they are tried again (the model asked) only after every other choice, so a model's yes can narrow
   * the answer but never choose a residual measure over one the code accepts on its own.
   */
  deferred: LeafChoice[];
  /** Whether the deferred readings are being judged (the model is asked only then). */
  judging: boolean;
}

/** The plan's candidates in order; a "latest" read takes each operation's candidates together, newest vintage first. */
async function* candidatesInOrder(run: LeafRun): AsyncGenerator<LeafItem> {
  const { req, h } = run;
  let beyond = false;
  const taken = new Set<number>();
  for (const [ci, cand] of req.candidates.entries()) {
    if (!cand.operation || taken.has(ci)) continue;
    if (cand.tier === 'fallback' && !beyond) {
      beyond = true;
      const next = [...new Set(req.candidates.filter((c) => c.tier === 'fallback').map((c) => c.candidateKey))];
      h.emit('execution_plan', 'executor', `no planned candidate answered; backtracking to the next eligible candidates from other sources (${next.join(', ')})`);
    }
    taken.add(ci);
    if (run.later) yield* latestOfOperation(run, ci, taken);
    else yield* candidateChoices(run, ci);
  }
}

/**
 * A "latest" read of one candidate's operation. Its choices stream as they are bound until the
 * first reading that asks for a vintage: from there, this candidate's readings and those of every
 * later candidate of the same operation and tier are tried newest vintage first, candidate order
 * kept within a vintage (each through the floor of its own candidate).
 */
async function* latestOfOperation(run: LeafRun, ci: number, taken: Set<number>): AsyncGenerator<LeafItem> {
  const own = candidateChoices(run, ci)[Symbol.asyncIterator]();
  let first: LeafChoice | undefined;
  for (let n = await own.next(); !n.done; n = await own.next()) {
    if (n.value.kind === 'boundary') { yield n.value; continue; }
    if (n.value.bindings.vintageEnd === undefined) { yield* placed(run, ci, n.value); continue; }
    first = n.value;
    break;
  }
  if (!first) return;
  const pool: Array<{ ci: number; choice: LeafChoice }> = [{ ci, choice: first }];
  for (let n = await own.next(); !n.done; n = await own.next()) {
    if (n.value.kind === 'boundary') yield n.value;
    else pool.push({ ci, choice: n.value });
  }
  const cand = run.req.candidates[ci]!;
  for (const [cj, other] of run.req.candidates.entries()) {
    if (cj <= ci || taken.has(cj) || other.operation?.key !== cand.operation!.key || (other.tier === 'fallback') !== (cand.tier === 'fallback')) continue;
    taken.add(cj);
    for await (const x of candidateChoices(run, cj)) {
      if (x.kind === 'boundary') yield x;
      else pool.push({ ci: cj, choice: x });
    }
  }
  const ordered = pool.map((p, i) => ({ ...p, i, end: endKey(choiceEnd(run.req, p.ci, p.choice)) })).sort((a, b) => b.end.localeCompare(a.end) || a.i - b.i);
  for (const p of ordered) yield* placed(run, p.ci, p.choice);
}

/** The period a reading asks for: its vintage, else the period its candidate's operation declares. */
const choiceEnd = (req: LeafRequest, ci: number, c: LeafChoice) => c.bindings.vintageEnd ?? req.declared?.get(req.candidates[ci]!.operation!.key)?.end ?? '';

/** A choice yielded now, or set aside when it is older than a newer period a later candidate of another operation declares. */
function* placed(run: LeafRun, ci: number, choice: LeafChoice): Generator<LeafItem> {
  const { later, floor, req } = run;
  const cand = req.candidates[ci]!;
  const end = choiceEnd(req, ci, choice);
  if (later && floor && endKey(end) < floor[ci]!) later.push({ choice, end, fallback: cand.tier === 'fallback' });
  else yield choice;
}

/** One candidate's choice points: eligibility and grain, entity resolution, each entity's key, each binder reading. */
async function* candidateChoices(run: LeafRun, ci: number): AsyncGenerator<LeafItem> {
  const { req, h } = run;
  const cand = req.candidates[ci]!;
  const op = cand.operation!;
  if (h.isPruned(cand.publisherId)) { h.note(`${cand.candidateKey}: skipped, ${cand.publisherId} pruned`); return; }
  if (h.isBlocked(op.key)) return;
  const gate = candidateGate(req, cand);
  if (gate) { yield { kind: 'boundary', failure: gate }; return; }
  const who = await resolveFor(run, cand);
  if ('failure' in who) { yield { kind: 'boundary', failure: who.failure }; return; } // another operation may accept a key some candidate carries
  h.resolved();
  if (who.byName && who.note && !run.said.has(who.note)) { run.said.add(who.note); h.emit('crosswalk', 'registry', who.note); }
  for (const bundle of who.chosen) {
    if (h.isPruned(cand.publisherId)) break;
    const key = keyOf(run, bundle, op);
    if (!key) continue;
    const readings = bindReadings(op.key, cand.candidateKey, key, req.period, run.ctx.runtime.descriptors);
    if ('error' in readings) { h.note(`${cand.candidateKey}: ${readings.error}`); continue; }
    for (const binding of readings) {
      if (h.isPruned(cand.publisherId)) break;
      yield readingChoice(run, cand, { bundle, key, byName: who.byName, ...(who.note ? { note: who.note } : {}) }, binding, readings.length);
    }
  }
}

const tierOf = (cand: Assessment) => (cand.tier === 'fallback' ? { fallback: true } : {});
const plural = (t: EntityType) => (t === 'county' ? 'counties' : `${t}s`);

/** Why a candidate cannot be read at all, before resolution: not eligible for what is asked, or the place settled is of another grain. */
function candidateGate(req: LeafRequest, cand: Assessment): Failure | undefined {
  const op = cand.operation!;
  const ineligible = req.eligible?.(cand, req.units.get(cand.candidateKey));
  if (ineligible) return { ...ineligible, source: ineligible.source ?? cand.publisherId, operation: op.key, ...tierOf(cand) };
  const entityType = entityTypeFor(op.key);
  const pin = req.pinned;
  if (!pin || !entityType || !pin.fipsLevel || pin.fipsLevel === entityType) return undefined;
  // the place settled is of another grain than the operation reads (the state asked; a county file)
  return { ...tierOf(cand), boundary: 'entity_unresolved', code: 'scope_grain', source: cand.publisherId, operation: op.key, message: `${pin.label} is a ${pin.fipsLevel}; ${op.key} reads ${plural(entityType)}`, params: { entity: pin.label, grain: pin.fipsLevel, reads: entityType } };
}

type Resolved = { chosen: IdentityBundle[]; byName: boolean; note?: string } | { failure: Failure };

/** Entity resolution (memoised per question), among the kind of entity the operation's key names; the pinned place as it is. */
async function resolveFor(run: LeafRun, cand: Assessment): Promise<Resolved> {
  const { ctx, req } = run;
  const op = cand.operation!;
  if (req.pinned) return { chosen: [req.pinned], byName: false };
  const entityType = entityTypeFor(op.key);
  let bundles = await resolveName(ctx.registry, req.entity, entityType ? { type: entityType } : {}, ctx);
  // "Georgia (U.S. state)", "Washington (state)": a disambiguating suffix the kind asked already settles
  const bare = req.entity.replace(/\s*\([^()]*\)\s*$/, '').trim();
  if (bundles.length === 0 && entityType && bare && bare !== req.entity) bundles = await resolveName(ctx.registry, bare, { type: entityType }, ctx);
  const { chosen, note, byName, ambiguous } = chooseBundles(bundles, op.accepts, entityType);
  if (chosen.length > 0) return { chosen, byName, ...(note ? { note } : {}) };
  const at = { ...tierOf(cand), boundary: 'entity_unresolved' as const, source: cand.publisherId, operation: op.key };
  if (ambiguous) {
    run.found.ambiguity ??= { entity: req.entity, type: entityType!, candidates: ambiguous };
    return { failure: { ...at, code: 'ambiguous', message: `"${req.entity}" is ambiguous: ${note}`, params: { entity: req.entity, candidates: ambiguous } } };
  }
  const as = entityType ? ` as ${/^[aeiou]/i.test(entityType) ? 'an' : 'a'} ${entityType}` : '';
  return { failure: { ...at, code: 'entity_unresolved', message: `"${req.entity}" could not be resolved${as}: ${note}`, params: { entity: req.entity, ...(entityType ? { entityType } : {}), candidates: bundles.length } } };
}

/** The identifier of an entity the operation accepts, or undefined (said once per entity and operation). */
function keyOf(run: LeafRun, bundle: IdentityBundle, op: NonNullable<Assessment['operation']>): { keyType: string; value: string } | undefined {
  const key = bindKey(bundle, op.accepts);
  if (key.ok) return { keyType: key.keyType, value: key.value };
  const once = `${bundle.id}|${op.key}`;
  if (!run.said.has(once)) {
    run.said.add(once);
    run.h.emit('crosswalk', 'registry', `${bundle.label}: no usable key for ${op.key} — ${key.reason}`);
    run.h.note(key.reason);
  }
  return undefined;
}

/** The entity a reading is for: the bundle chosen, the key bound, and whether it was chosen by name. */
interface Who { bundle: IdentityBundle; key: { keyType: string; value: string }; byName: boolean; note?: string }

/** One binder reading as a fetch choice: the call, how blocks and duplicates apply to it, and how its response is judged. */
function readingChoice(run: LeafRun, cand: Assessment, who: Who, binding: KeyedBinding, readings: number): LeafChoice {
  const { req } = run;
  const op = cand.operation!;
  const { bundle, key } = who;
  const operationId = binding.operation ?? op.operationId;
  const unit = req.units.get(cand.candidateKey);
  // a vintage of a product that is blocked for one concept (rate limit, refused key) is not fetched for the next;
  // a request with no recording blocks only itself (the engine's rule), so another table of the vintage is still tried
  const readingKey = `${cand.publisherId}/${operationId}|${binding.reading ?? ''}|${binding.fetchArgs.product ?? ''}`;
  const choice: LeafChoice = {
    kind: 'fetch', source: cand.publisherId, operation: operationId, measure: cand.candidateKey, args: binding.fetchArgs, ...tierOf(cand),
    label: `${binding.measure}${binding.reading ? ` (${binding.reading})` : ''} for ${bundle.label}`,
    // the same call and record selection from another candidate key would repeat a verdict
    identity: JSON.stringify([cand.publisherId, operationId, binding.fetchArgs, binding.measure, binding.attributes ?? null, key.value, unit ?? null]),
    skipIfBlocked: binding.reading ? [op.key, readingKey] : [op.key],
    // a blocked operation (offline, no key, rate limit) fails the same way for every concept: skip it;
    // a binder's further readings are other requests (another survey, another vintage) and are still tried
    marksBlocked: [...(readings === 1 ? [op.key] : []), ...(binding.reading ? [readingKey] : [])],
    bindings: {
      [key.keyType]: key.value, measure: binding.measure, period: req.period.latest ? 'latest' : `${req.period.basis}:${req.period.year}`, entity: bundle.label,
      ...(binding.reading ? { reading: binding.reading } : {}), ...(binding.period ? { vintage: binding.period.label, vintageEnd: binding.period.end } : {}),
    },
    // measure choice settled on data in hand: a concept the entity's whole response (already
    // fetched and recorded by an earlier attempt) does not carry is passed over without a new attempt
    absentIn: (held) => selectRecords(measureRecords(held, binding.measure), binding.measure, req.period, key, binding.attributes).any ? undefined
      : { boundary: 'no_data', code: 'not_found', source: cand.publisherId, message: `${bundle.label} reports no ${binding.measure} in the ${operationId} response already fetched` },
    examine: (result, attempt) => examineReading(run, { cand, who, binding, operationId, unit, choice }, result, attempt),
  };
  return choice;
}

/** A reading being judged: its candidate, entity, binding, the operation called and the catalog unit. */
interface Reading { cand: Assessment; who: Who; binding: KeyedBinding; operationId: string; unit: string | undefined; /** The choice read, set aside as it is when its record waits for the judge. */ choice: LeafChoice }

/** The validators' verdict on one reading's response: a record of the period asked that passes every check, or why none did. */
async function examineReading(run: LeafRun, r: Reading, result: OperationResult, attempt: Attempt): Promise<Examination<LeafEvidence>> {
  const { req } = run;
  const { binding, who } = r;
  const sel = selectRecords(measureRecords(result, binding.measure), binding.measure, req.period, who.key, binding.attributes);
  if (!sel.any) return notReported(r);
  // a grain none of the source's records is at: refused naming the grains it has, never another grain's value
  const grain = req.period.quarter ? 'quarter' : req.period.grain ?? null;
  if (sel.matches.length === 0 && grain && grain !== 'year') {
    const periods = measureRecords(result, binding.measure).filter((o): o is Observation => o.type === 'observation' && o.measure === binding.measure).map((o) => o.period);
    const unavailable = grainAvailability(grain, periods);
    if (unavailable) return { reject: unavailable, reason: unavailable.message, checks: [], said: `rejected ${binding.measure}: ${unavailable.message}` };
  }
  const toCheck = sel.matches.length > 0 ? sel.matches : sel.closest ? [sel.closest] : [];
  let verdict: Verdict | undefined;
  for (const rec of toCheck) {
    // the kind of quantity on the unit the record states (the catalog card may state none)
    const wrongKind = recordQuantity(req.quantity ?? null, rec);
    if (wrongKind) return { reject: wrongKind, reason: wrongKind.message, checks: [], said: `rejected ${binding.measure}: ${wrongKind.message}` };
    verdict = await judged(run, r, rec);
    // "latest" is the newest period the response holds for what is asked, not the first concept that validates
    const passedOver = verdict.passed && req.period.latest ? await laterInResponse(run.ctx, judgeNow(run), r.cand, r.cand.operation!.key, result, { key: who.key, label: who.bundle.label, entityKey: who.key }, binding.measure, rec, verdict.checks) : undefined;
    if (passedOver) return passedOver;
    if (verdict.passed) return admitted(req, r, rec, verdict, result, attempt);
    if (verdict.prune) break;
  }
  if (verdict && awaitsJudge(run, verdict)) return setAside(run, r, verdict);
  return rejected(req, binding, verdict);
}

/** The request with the judge only while the deferred readings are judged (none before: the code's checks alone decide). */
function judgeNow(run: LeafRun): LeafRequest {
  if (run.judging || !run.req.judge) return run.req;
  const { judge: _judge, ...rest } = run.req;
  return rest;
}

/** A record that passed every check but the residual question, read while a judge waits for the clean candidates to be tried. */
const awaitsJudge = (run: LeafRun, v: Verdict) => !!run.req.judge && !run.judging && v.checks.every((c) => c.passed) && !!v.residual;

/** The reading set aside: rejected for now, and tried again (the model asked) once every other choice was tried. */
function setAside(run: LeafRun, r: Reading, verdict: Verdict): Examination<LeafEvidence> {
  run.deferred.push({ ...r.choice, identity: `${r.choice.identity ?? r.choice.label}|judged` });
  const reason = `${verdict.residual}: set aside, asked of the model only if no candidate passes on the code's checks alone`;
  return { reject: { boundary: 'no_data', code: 'residual', message: `${r.binding.measure}: ${reason}` }, reason, checks: verdict.checks, by: 'validator', said: `set aside ${r.binding.measure}: ${reason}` };
}

type Verdict = Awaited<ReturnType<typeof adjudicate>>;

/** The structural checks on one record, then the judge (which may only reject). */
async function judged(run: LeafRun, r: Reading, rec: Observation): Promise<Verdict> {
  const { req } = run;
  // a record without its own label is judged by the label its evidence will carry (the catalog's title):
  // with none, whether the measure means what was asked would never be asked at all
  const labelled = rec.label ? rec : { ...rec, label: r.cand.title ? r.binding.labelFor?.(r.cand.title) ?? r.cand.title : undefined };
  const structural = checkObservation(labelled, {
    entity: { keyType: r.who.key.keyType, key: r.who.key.value, label: r.who.bundle.label }, measure: r.binding.measure,
    ...(r.unit ? { unit: r.unit } : {}),
    period: req.period, attribute: req.attribute,
    altLabels: run.ctx.runtime.descriptors?.altLabels(r.cand.publisherId, r.cand.candidateKey.slice(r.cand.publisherId.length + 1)) ?? [],
  });
  return adjudicate(structural, req.question, run.ctx.signal, run.judging ? req.judge : undefined);
}

/** The response holds no record of the measure for this entity: "no such record", not a judged one. */
function notReported(r: Reading): Examination<LeafEvidence> {
  const { binding, who } = r;
  const reason = `${who.bundle.label} reports no ${binding.measure}${binding.attributes ? ` (${Object.entries(binding.attributes).map(([a, v]) => `${a} ${v}`).join(', ')})` : ''} in this response`;
  return { reject: { boundary: 'no_data', code: 'not_found', message: reason }, checks: [], disposition: 'errored', said: `${r.cand.publisherId}/${r.operationId} ${binding.measure}: not reported by ${who.bundle.label}` };
}

/** The record admitted as evidence, with how it was matched and every warning it carries. */
function admitted(req: LeafRequest, r: Reading, rec: Observation, verdict: Verdict, result: OperationResult, attempt: Attempt): Examination<LeafEvidence> {
  const { cand, who, binding } = r;
  const { bundle, key } = who;
  return {
    checks: verdict.checks, by: verdict.decidedBy === 'code' ? 'validator' : 'validator+model',
    said: `admitted ${binding.measure} ${labelOf(rec)} = ${rec.value} ${rec.unit} (${verdict.match === 'key' ? `${key.keyType} match` : 'name match'})`,
    admit: {
      attemptN: attempt.n, source: cand.publisherId, operation: r.operationId, measure: cand.candidateKey,
      measureLabel: rec.label ?? (cand.title ? binding.labelFor?.(cand.title) ?? cand.title : binding.measure), attribute: req.attribute,
      value: rec.value!, unit: rec.unit, ...(rec.currency ? { currency: rec.currency } : {}),
      period: evidencePeriod(rec),
      entity: { label: bundle.label, keyType: key.keyType, key: key.value, keys: recordKeys(rec), ...(bundle.qid ? { qid: bundle.qid } : {}) },
      raw: rec.raw,
      assurance: { match: who.byName ? 'name' : verdict.match, planVerdict: cand.verdict === 'composed' ? 'composed' : 'exact', warnings: [...(who.byName && who.note ? [who.note] : []), ...(binding.note ? [binding.note] : []), ...verdict.warnings, ...result.notes] },
    },
  };
}

/** The period of admitted evidence, as the record states it. */
function evidencePeriod(rec: Observation): LeafEvidence['period'] {
  const p = rec.period;
  return { label: labelOf(rec), ...(p.start ? { start: p.start } : {}), ...(p.end ? { end: p.end } : {}), basis: p.basis, ...(p.fiscalYear !== undefined ? { fiscalYear: p.fiscalYear } : {}) };
}

/** Every identifier the record carries for its entity (a geography's FIPS code and name first). */
function recordKeys(rec: Observation): Record<string, string> {
  const geo = rec.geography;
  return { ...(geo?.fips ? { fips: geo.fips } : {}), ...(geo?.name ? { name: geo.name } : {}), ...(rec.entity ?? {}) };
}

/** Every record checked and none passed: the typed reason (the period, a sentinel, the kind, the grain, a residual, another question). */
function rejected(req: LeafRequest, binding: KeyedBinding, verdict: Verdict | undefined): Examination<LeafEvidence> {
  const reason = verdict?.reason ?? `no ${req.period.text} value`;
  const failed: string | undefined = verdict?.checks.find((c) => !c.passed)?.name;
  const code = verdict?.prune ? 'different_question' : failed === 'sentinel' ? 'suppressed' : failed === 'kind' || failed === 'grain' ? failed : !failed && verdict?.residual ? 'residual' : 'period';
  return {
    reject: { boundary: 'no_data', code, message: `${binding.measure}: ${reason}` }, reason, checks: verdict?.checks ?? [],
    prune: verdict?.prune ?? false, by: verdict?.decidedBy === 'code+model' ? 'validator+model' : 'validator', said: `rejected ${binding.measure}: ${reason}`,
  };
}

interface Later { choice: LeafChoice; end: string; fallback: boolean }

const endKey = (e: string) => (/^\d{4}$/.test(e) ? `${e}-12-31` : e.slice(0, 10));

/**
 * Per candidate: the newest period a later candidate of another operation declares that reads the
 * same kind of entity ('' when none): a state table declares nothing for a county.
 */
function floors(cands: readonly Assessment[], declared: ReadonlyMap<string, DeclaredPeriod>): string[] {
  const last = new Map<string, number>();
  cands.forEach((c, i) => { if (c.operation) last.set(c.operation.key, i); });
  return cands.map((c, i) => {
    let f = '';
    const mine = c.operation ? entityTypeFor(c.operation.key) : undefined;
    for (const [op, at] of last) {
      const theirs = entityTypeFor(op);
      if (at <= i || op === c.operation?.key || (mine && theirs && mine !== theirs)) continue;
      const e = endKey(declared.get(op)?.end ?? '');
      if (e > f) f = e;
    }
    return f;
  });
}

/** The readings set aside: planned before fallback, each newest period first (the vintage a reading asks, else its operation's declared end); equal ends keep their order. */
function newestReadingsFirst(later: readonly Later[]): FetchChoice<Omit<AdmittedEvidence, 'index'>>[] {
  return later.map((l, i) => ({ l, i }))
    .sort((a, b) => Number(a.l.fallback) - Number(b.l.fallback) || endKey(b.l.end).localeCompare(endKey(a.l.end)) || a.i - b.i)
    .map((x) => x.l.choice);
}

/**
 * A record that passed, in a "latest" read, yields to a later candidate of the same response whose
 * own record passes the same checks and reaches a later period: a concept a filer stopped using
 * (Apple's Revenues, to FY2018) is passed over, said with both periods (`newer_in_response`).
 */
async function laterInResponse(
  ctx: QueryContext, req: LeafRequest, cand: Assessment, opKey: string, result: OperationResult,
  who: { key: { keyType: string; value: string }; label: string; entityKey: { keyType: string; value: string } }, measure: string, rec: Observation, checks: Check[],
): Promise<{ reject: Failure; reason: string; checks: Check[]; said: string } | undefined> {
  const passes = async (o: Observation, m: string, u: string | undefined) => {
    if (recordQuantity(req.quantity ?? null, o)) return false;
    const st = checkObservation(o, { entity: { keyType: who.key.keyType, key: who.key.value, label: who.label }, measure: m, ...(u ? { unit: u } : {}), period: req.period, attribute: req.attribute });
    return (await adjudicate(st, req.question, ctx.signal, req.judge)).passed;
  };
  const newer = await newerInResponse(req, cand, opKey, result, who.entityKey, rec.period.end ?? '', passes, ctx.runtime.descriptors);
  if (!newer) return undefined;
  const message = `${measure} ends ${rec.period.end}; the same response holds ${newer.measure} to ${newer.end}, a later candidate for what is asked`;
  return {
    reject: { boundary: 'no_data', code: 'newer_in_response', message, params: { measure, end: rec.period.end ?? '', newer: newer.measure, newerEnd: newer.end } },
    reason: message, checks, said: `passed over ${measure}: ${message}`,
  };
}

/**
 * For a "latest" read: a candidate after `cand` of the same operation (an eligible one) whose measure
 * the same response holds to a later period end than `end`, the latest such; undefined when none.
 */
async function newerInResponse(
  req: LeafRequest, cand: Assessment, opKey: string, result: OperationResult, entityKey: { keyType: string; value: string }, end: string,
  passes: (o: Observation, measure: string, unit: string | undefined) => Promise<boolean>, descriptors?: BindRequest['declared'],
): Promise<{ measure: string; end: string } | undefined> {
  const later: Array<{ measure: string; end: string; rec: Observation; unit: string | undefined }> = [];
  const after = req.candidates.slice(req.candidates.indexOf(cand) + 1);
  for (const c of after) {
    const unit = req.units.get(c.candidateKey);
    if (c.operation?.key !== opKey || req.eligible?.(c, unit)) continue;
    const readings = bindReadings(opKey, c.candidateKey, entityKey, req.period, descriptors);
    if ('error' in readings) continue;
    for (const b of readings) {
      if (b.operation && b.operation !== cand.operation?.operationId) continue; // another request, not this response
      const rec = selectRecords(measureRecords(result, b.measure), b.measure, req.period, entityKey, b.attributes).matches[0];
      const e = rec?.period.end ?? '';
      if (rec && e > end) later.push({ measure: b.measure, end: e, rec, unit });
    }
  }
  later.sort((a, b) => b.end.localeCompare(a.end));
  for (const l of later) if (await passes(l.rec, l.measure, l.unit)) return { measure: l.measure, end: l.end };
  return undefined;
}

export async function searchLeaf(ctx: QueryContext, req: LeafRequest): Promise<LeafResult> {
  const found: { ambiguity?: LeafResult['ambiguity'] } = {};
  const declared = req.period.latest ? declaredOf(ctx, req) : undefined;
  // "latest means latest": the candidates of the source declaring the newest period first (rule 4); the disclosure is typed, not the validator's
  const ordered: LeafRequest = declared ? { ...req, candidates: newestFirst(req.candidates, declared), period: { ...req.period, latestDisclosed: true }, declared } : req;
  const out = await search(ctx, keyedChoices(ctx, ordered, found), { nextAttempt: req.nextAttempt, ...(req.branch ? { branch: req.branch } : {}) });
  const r = leafResult(out, {
    noData: `no ${req.attribute ?? 'value'} for ${req.entity} in ${req.period.text}`,
    nothingBound: `no candidate operation could be bound for "${req.entity}"`,
  }, found.ambiguity);
  if (declared && r.evidence) r.latest = latestRead(r.evidence, declared, out, req.candidates);
  if (req.period.latest && r.evidence) {
    // concepts of the same response passed over for a later one: said with the period each ends
    const passedOver = out.reached.filter((f) => f.code === 'newer_in_response' && f.params).map((f) => ({ measure: String(f.params!.measure), end: String(f.params!.end) }));
    if (passedOver.length > 0) r.latestConcept = { read: r.evidence.measure.replace(`${r.evidence.source}/`, ''), end: r.evidence.period.end ?? r.evidence.period.label, passedOver: [...new Map(passedOver.map((p) => [p.measure, p])).values()] };
  }
  return r;
}

/** The period each candidate's operation declares (catalog dataset temporal end), by operation key. */
function declaredOf(ctx: QueryContext, req: LeafRequest): Map<string, DeclaredPeriod> | undefined {
  const d = ctx.runtime.descriptors;
  if (!d) return undefined;
  const out = new Map<string, DeclaredPeriod>();
  for (const c of req.candidates) {
    if (!c.operation || out.has(c.operation.key)) continue;
    if (req.eligible?.(c, req.units.get(c.candidateKey))) continue; // an ineligible candidate declares nothing this question can read
    const p = d.declaredPeriod(c.publisherId, c.operation.operationId, c.operation.key);
    if (p) out.set(c.operation.key, p);
  }
  return out;
}

/** Candidates newest declared period first, planned before fallback, discovery order kept within equal ends (validate/latest.ts byNewest). */
export function newestFirst(cands: readonly Assessment[], declared: ReadonlyMap<string, DeclaredPeriod>): Assessment[] {
  const rank = (tier: Assessment[]) => byNewest(tier.map((c) => ({ candidate: c.candidateKey, source: c.publisherId, end: (c.operation && declared.get(c.operation.key)?.end) || '0000', c }))).map((x) => x.c);
  return [...rank(cands.filter((c) => c.tier !== 'fallback')), ...rank(cands.filter((c) => c.tier === 'fallback'))];
}

/** Failure codes that say an operation cannot read this entity at all (it declares nothing for it). */
const CANNOT_READ_ENTITY = new Set(['entity_unresolved', 'ambiguous', 'scope_grain', 'unbound']);

/**
 * The typed "latest" disclosure of a read: what was read, against the newest period every other
 * eligible operation declares, each newer one with why it was not read (the code its attempts or
 * choice points ended with). The operation read is not its own rival: its response held the newest
 * period it publishes for this entity.
 */
function latestRead(ev: LeafEvidence, declared: ReadonlyMap<string, DeclaredPeriod>, out: SearchOutcome<unknown>, cands: readonly Assessment[]): LatestDisclosure {
  const opOf = new Map(cands.flatMap((c) => (c.operation ? [[c.candidateKey, c.operation.key] as const] : [])));
  const opOfAttempt = (a: Pick<Attempt, 'measure' | 'source' | 'operation'>) => (a.measure && opOf.get(a.measure)) || `${a.source}/${a.operation}`;
  const readOp = opOf.get(ev.measure) ?? `${ev.source}/${ev.operation}`;
  const { rivals, why } = rivalsOf(readOp, declared, out, opOfAttempt);
  // a candidate beyond the relevance cut is tried only when every planned one fails: one the search never
  // reached is no rival of a planned read (SEC's filings declare nothing for a county's obesity)
  const planned = new Set(cands.filter((c) => c.tier !== 'fallback' && c.operation).map((c) => c.operation!.key));
  for (const [k, d] of rivals) if (!planned.has(d.candidate) && why.get(d.candidate) === 'not_attempted') { rivals.delete(k); why.delete(d.candidate); }
  const own = declared.get(readOp)?.end ?? '';
  const recordEnd = ev.period.end ?? '';
  const vintaged = vintagesOf(readOp, out, opOf, opOfAttempt);
  if (vintaged.length === 0) {
    // the operation read declares its own newest period, and its response held the newest it has for this entity
    return latestDisclosure({ candidate: readOp, source: ev.source, end: own > recordEnd ? own : recordEnd, label: ev.period.label }, [...rivals.values()], why);
  }
  // another operation reading the same declared dataset is not a rival of its own: the vintages named here say what of it was not read
  const dataset = declared.get(readOp);
  for (const [k, d] of rivals) if (dataset && d.source === dataset.source && d.label === dataset.label) { rivals.delete(k); why.delete(d.candidate); }
  const mine = newerVintages(readOp, ev, vintaged, why);
  if (own > recordEnd && ![...mine.values()].some((d) => d.end >= own)) mine.set(own, { candidate: readOp, source: ev.source, end: own, label: declared.get(readOp)?.label ?? own });
  return latestDisclosure({ candidate: `${readOp}@${ev.period.label ?? recordEnd}`, source: ev.source, end: recordEnd, label: ev.period.label }, [...mine.values(), ...rivals.values()], why);
}

type AttemptOp = (a: Pick<Attempt, 'measure' | 'source' | 'operation'>) => string;

/**
 * The other eligible operations' declared periods (one per declared dataset period of a source:
 * several operations read one dataset, the best-explained one kept), each with why it was not read:
 * what its request ended with, else why its choice points failed before any request. An operation
 * none of whose choice points could bind this entity declares nothing for it.
 */
function rivalsOf(readOp: string, declared: ReadonlyMap<string, DeclaredPeriod>, out: SearchOutcome<unknown>, opOfAttempt: AttemptOp): { rivals: Map<string, DeclaredPeriod>; why: Map<string, string> } {
  const tried = new Map<string, string>();
  for (const a of out.attempts) {
    const op = opOfAttempt(a);
    if (a.disposition !== 'accepted' && !tried.has(op)) tried.set(op, a.failure ?? a.disposition);
  }
  const reached = new Map<string, string[]>();
  for (const f of out.reached) if (f.operation) reached.set(f.operation, [...(reached.get(f.operation) ?? []), f.code]);
  const canRead = (op: string) => tried.has(op) || !reached.has(op) || reached.get(op)!.some((c) => !CANNOT_READ_ENTITY.has(c));
  const whyNot = (op: string) => tried.get(op) ?? reached.get(op)?.find((c) => !CANNOT_READ_ENTITY.has(c)) ?? 'not_attempted';
  const rank = (op: string) => (tried.has(op) ? 2 : reached.has(op) ? 1 : 0);
  const rivals = new Map<string, DeclaredPeriod>();
  for (const [op, d] of declared) {
    if (op === readOp || !canRead(op)) continue;
    const k = `${d.source}|${d.label ?? d.end}`;
    const had = rivals.get(k);
    if (!had || rank(op) > rank(had.candidate)) rivals.set(k, d);
  }
  return { rivals, why: new Map([...rivals.values()].map((d) => [d.candidate, whyNot(d.candidate)])) };
}

type Vintaged = { disposition: string; failure?: string; bindings: Record<string, string> };

/** The vintages of the operation read: attempted, or skipped as not in the offline snapshot (no attempt made). */
function vintagesOf(readOp: string, out: SearchOutcome<unknown>, opOf: ReadonlyMap<string, string>, opOfAttempt: AttemptOp): Vintaged[] {
  const skipped = out.reached.filter((f) => f.params?.skipped === 'not_recorded' && f.params.vintageEnd && opOf.get(String(f.params.measure)) === readOp)
    .map((f) => ({ disposition: 'errored', failure: f.code, bindings: { vintage: String(f.params!.vintage), vintageEnd: String(f.params!.vintageEnd) } }));
  return [...out.attempts.filter((a) => a.bindings.vintageEnd && opOfAttempt(a) === readOp), ...skipped];
}

/** Each newer vintage of the operation read that it tried (or skipped) and could not read: a rival of its own, with its code. */
function newerVintages(readOp: string, ev: LeafEvidence, vintaged: readonly Vintaged[], why: Map<string, string>): Map<string, DeclaredPeriod> {
  const recordEnd = ev.period.end ?? '';
  const mine = new Map<string, DeclaredPeriod>();
  for (const a of vintaged) {
    const end = a.bindings.vintageEnd!;
    const label = a.bindings.vintage ?? end;
    if (a.disposition === 'accepted' || end <= recordEnd || mine.has(label)) continue;
    mine.set(label, { candidate: `${readOp}@${label}`, source: ev.source, end, label });
    why.set(`${readOp}@${label}`, a.failure ?? a.disposition);
  }
  return mine;
}

/** An engine outcome as a leaf result: the admitted evidence, or the failure it leads with and every boundary reached. */
export function leafResult<T extends Omit<AdmittedEvidence, 'index'>>(out: SearchOutcome<T>, words: SummaryWords, ambiguity?: LeafResult['ambiguity']): LeafResult {
  const evidence = out.admitted[0];
  if (evidence) return { attempts: out.attempts, evidence, notes: out.notes };
  if (out.stopped?.code === 'leaf_cap') out.notes.push(`leaf attempt cap (${out.stopped.params?.cap}) reached`);
  const failure = summarise(out, words);
  return { attempts: out.attempts, notes: out.notes, failure, reached: out.reached, exhausted: exhausted(out), ...(ambiguity && failure.code === 'ambiguous' ? { ambiguity } : {}) };
}

/** An identifier kind as a reader knows it ("ipeds_unitid" → "IPEDS unit id", "ein" → "EIN"). */
export function keyName(k: string): string {
  const known: Record<string, string> = { ipeds_unitid: 'IPEDS unit id', ein: 'EIN', cik: 'SEC CIK', fips: 'FIPS code', object_id: 'e-file object id' };
  return known[k] ?? k.replace(/_/g, ' ');
}
