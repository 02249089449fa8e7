/**
 * The leaf search for record reads (status and entity-list questions): one entity, the planned
 * operations that carry records about it.
 *
 * Same choice points as the measure leaf (leaf.ts) — source (plan order, restricted to operations
 * the shape can read) → entity resolution (registry) → source key → fetch — with the shape's own
 * examination of the returned records in place of measure/period selection. An ordinary failure
 * (blocked, not found, unbindable) advances to the next option; a record about another entity than
 * the key was resolved to prunes that source. Every attempt is recorded; rejected attempts never
 * become evidence. The first attempt whose records pass examination is admitted and the search stops.
 */
import type { OperationResult } from '../connectors/records.ts';
import type { Assessment } from '../plan/plan.ts';
import { bindKey, type IdentityBundle } from '../resolve/bundle.ts';
import { resolveName } from '../resolve/registry.ts';
import type { AnyEvidence } from '../evidence/types.ts';
import type { Check } from '../validate/structural.ts';
import type { Attempt } from './attempt.ts';
import { bindRecordOperation, recordKeyTypes, stateCode, type RecordHints } from './bind-records.ts';
import { stateOf } from '../resolve/places.ts';
import type { QueryContext } from './context.ts';
import { chooseBundles, classify, fetchOnce, openAttempt, recordFetchFailure, type Boundary } from './leaf.ts';

export type Item = Omit<AnyEvidence, 'index'>;

/** What the shape concluded from one operation result. */
export type Examined =
  | { admit: Item[]; checks: Check[]; complete: boolean; total: number; notes: string[] }
  | { reject: string; checks: Check[]; prune: boolean; code: 'not_found' | 'polarity' | 'missing' | 'different_question' };

export interface BoundRead {
  bundle: IdentityBundle;
  key: { keyType: string; value: string };
  byName: boolean;
  note?: string;
  candidate: Assessment;
  attemptN: number;
  /** How many registry entities share the name asked (several → the choice is disclosed). */
  namesakes: number;
  /** The name as asked. */
  asked: string;
  /** What the binding took from elsewhere than the question (a state from the registry), to be disclosed. */
  disclosures?: string[];
}

export interface RecordSearchRequest {
  entity: string;
  /** Eligible assessments in plan priority, already restricted to operations this shape reads. */
  candidates: Assessment[];
  hints: RecordHints;
  nextAttempt: () => number;
  /** Words for progress and refusals ("501(c)(3) status", "SEC filings"). */
  what: string;
  examine(result: OperationResult, read: BoundRead): Examined;
}

export interface RecordSearchResult {
  attempts: Attempt[];
  items: Item[];
  complete: boolean;
  total: number;
  notes: string[];
  failure?: { boundary: Boundary; message: string; code?: string };
}

export async function searchRecordLeaf(ctx: QueryContext, req: RecordSearchRequest): Promise<RecordSearchResult> {
  const attempts: Attempt[] = [];
  const notes: string[] = [];
  /** `examined`: the records were read and judged (not a fetch that failed before any record was seen). */
  const failures: Array<{ boundary: Boundary; code: string; message: string; examined?: boolean }> = [];
  const pruned = new Set<string>();
  const said = new Set<string>();
  let resolvedAny = false;

  for (const cand of req.candidates) {
    const op = cand.operation;
    if (!op || ctx.signal.aborted) continue;
    if (pruned.has(cand.publisherId)) { notes.push(`${op.key}: skipped, ${cand.publisherId} pruned`); continue; }
    let bundles: IdentityBundle[];
    try { bundles = await resolveName(ctx.registry, req.entity, {}, ctx); } catch (e) { failures.push(classify(e, ctx.signal)); break; }
    const takes = recordKeyTypes(op.key);
    let { chosen, note, byName } = chooseBundles(bundles, takes);
    // a publisher that matches names itself (textually) needs no registry entity: the name goes as asked, disclosed
    if (chosen.length === 0 && takes.includes('name')) {
      note = `no registry entity is exactly "${req.entity}" (${note ?? 'no candidate'}); ${op.key} matches names textually, so "${req.entity}" is sent as asked and records are kept by that name`;
      chosen = [asAsked(req.entity)];
      byName = true;
    }
    if (chosen.length === 0) { failures.push({ boundary: 'entity_unresolved', code: 'entity_unresolved', message: `"${req.entity}" could not be resolved: ${note}` }); continue; }
    resolvedAny = true;
    if (byName && note && !said.has(note)) { said.add(note); ctx.emit({ stage: 'crosswalk', by: 'registry', message: note }); }

    for (const bundle of chosen.slice(0, 3)) {
      const key = bindKey(bundle, takes);
      if (!key.ok) {
        if (!said.has(`${bundle.id}|${op.key}`)) { said.add(`${bundle.id}|${op.key}`); ctx.emit({ stage: 'crosswalk', by: 'registry', message: `${bundle.label}: no usable key for ${op.key} — ${key.reason}` }); }
        notes.push(key.reason);
        continue;
      }
      const binding = bindRecordOperation(op.key, key, hintsFor(req.hints, bundle));
      if ('error' in binding) {
        notes.push(`${op.key}: ${binding.error}`);
        failures.push({ boundary: 'no_access_path', code: 'unbound', message: `${op.key}: ${binding.error}` });
        ctx.emit({ stage: 'crosswalk', by: 'executor', message: `${op.key} cannot be bound for ${bundle.label}: ${binding.error}` });
        continue;
      }
      if (binding.note && !said.has(binding.note)) { said.add(binding.note); ctx.emit({ stage: 'crosswalk', by: 'registry', message: `${op.key} for ${bundle.label}: ${binding.note}` }); }
      try { ctx.budget.take(); } catch (e) { failures.push(classify(e, ctx.signal)); return finish(); }
      const n = req.nextAttempt();
      const { attempt, done } = openAttempt(ctx, {
        n, source: cand.publisherId, operation: op.operationId,
        bindings: { [key.keyType]: key.value, ...binding.fetchArgs, entity: bundle.label },
      });
      attempts.push(attempt);
      let result: OperationResult;
      try {
        result = await fetchOnce(ctx, cand.publisherId, op.operationId, binding.fetchArgs);
      } catch (e) {
        const c = recordFetchFailure(ctx, attempt, done, e, failures);
        ctx.emit({ stage: 'attempt', by: 'executor', message: `#${n} ${op.key} for ${bundle.label} (${key.keyType} ${key.value}): ${attempt.disposition} (${c.code})`, data: { attempt: n, disposition: attempt.disposition } });
        if (c.boundary === 'cancelled' || c.code === 'deadline') return finish();
        continue;
      }
      attempt.responses = result.responses;
      attempt.requests = result.responses.map((r) => r.url);
      const verdict = req.examine(result, { bundle, key: { keyType: key.keyType, value: key.value }, byName, ...(note ? { note } : {}), candidate: cand, attemptN: n, namesakes: chosen.length, asked: req.entity, disclosures: binding.note ? [binding.note] : [] });
      done();
      attempt.checks = verdict.checks;
      if ('admit' in verdict) {
        attempt.disposition = 'accepted';
        ctx.emit({ stage: 'validation', by: 'validator', message: `#${n} admitted ${verdict.admit.length} record${verdict.admit.length === 1 ? '' : 's'} from ${op.key} for ${bundle.label} (${key.keyType} match)`, data: { attempt: n } });
        notes.push(...verdict.notes);
        return { attempts, items: verdict.admit, complete: verdict.complete, total: verdict.total, notes };
      }
      attempt.disposition = verdict.code === 'not_found' ? 'errored' : 'rejected';
      attempt.reason = verdict.reject; attempt.failure = verdict.code;
      failures.push({ boundary: 'no_data', code: verdict.code, message: `${op.key}: ${verdict.reject}`, examined: true });
      ctx.emit({ stage: 'validation', by: 'validator', message: `#${n} rejected ${op.key} for ${bundle.label}: ${verdict.reject}`, data: { attempt: n } });
      if (verdict.prune) { pruned.add(cand.publisherId); break; }
    }
  }
  return finish();

  function finish(): RecordSearchResult {
    if (ctx.signal.aborted && !failures.some((f) => f.boundary === 'cancelled' || f.code === 'deadline')) failures.push(classify(undefined, ctx.signal));
    return { attempts, items: [], complete: false, total: 0, notes, failure: summarise() };
  }

  function summarise(): { boundary: Boundary; message: string; code?: string } {
    const stopped = failures.find((f) => f.code === 'deadline') ?? failures.find((f) => f.code === 'budget') ?? failures.find((f) => f.boundary === 'cancelled');
    if (stopped) return stopped;
    if (!resolvedAny) return failures.find((f) => f.boundary === 'entity_unresolved') ?? { boundary: 'entity_unresolved', message: `"${req.entity}" could not be resolved` };
    // what the data said outranks how an operation failed: a rejected reading, then "no record", then a block
    const data = failures.find((f) => f.code === 'polarity' || f.code === 'missing' || f.code === 'different_question')
      ?? failures.find((f) => f.code === 'not_found' && f.examined) ?? failures.find((f) => f.code === 'not_found');
    if (data) return { boundary: 'no_data', code: data.code, message: `no ${req.what} for ${req.entity}: ${data.message}` };
    const blocks = failures.filter((f) => f.boundary === 'operationally_blocked');
    const blocked = blocks[0];
    // a block is what stopped the read: every blocked read is named (each recording missing), and the
    // operations that could not even be bound are said too
    const also = [...blocks.slice(1), ...failures.filter((f) => f.code === 'unbound')].map((f) => f.message);
    if (blocked) return also.length ? { ...blocked, message: `${blocked.message}; and ${also.join('; ')}` } : blocked;
    const unbound = failures.find((f) => f.code === 'unbound');
    if (unbound) return { boundary: 'no_access_path', code: 'unbound', message: unbound.message };
    if (failures.length === 0) return { boundary: 'no_access_path', message: `no operation could be bound for "${req.entity}": ${notes.join('; ') || 'none eligible'}` };
    return { boundary: failures[0]!.boundary, code: failures[0]!.code, message: failures[0]!.message };
  }
}

/**
 * The hints for one entity: when the question names no state, the state the registry places the
 * entity in (its wdt:P131) is offered to the binders that need one; they disclose using it.
 */
function hintsFor(hints: RecordHints, bundle: IdentityBundle): RecordHints {
  if (hints.state) return hints;
  const place = stateOf(bundle);
  const code = place ? stateCode(place.label) : null;
  return code ? { ...hints, registryState: { code, label: place!.label! } } : hints;
}

/** The entity as the question names it, for operations keyed by a name the publisher matches itself. */
function asAsked(name: string): IdentityBundle {
  return { id: `name:${name}`, label: name, altLabels: [], types: [], identifiers: {}, from: 'offline-snapshot', match: 'words' };
}
