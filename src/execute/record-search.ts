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
import { exhausted, search, summarise, type Provider } from './engine.ts';
import type { Failure } from './failure.ts';
import { bindRecordOperation, recordKeyTypes, stateCode, type RecordHints } from './bind-records.ts';
import { stateOf } from '../resolve/places.ts';
import type { QueryContext } from './context.ts';
import { chooseBundles } from './leaf.ts';

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
  failure?: Failure;
  /** Every boundary the search reached, each with its source. */
  reached?: Failure[];
  exhausted?: boolean;
}

export async function searchRecordLeaf(ctx: QueryContext, req: RecordSearchRequest): Promise<RecordSearchResult> {
  const out = await search(ctx, recordChoices(ctx, req), { nextAttempt: req.nextAttempt });
  const got = out.admitted[0];
  if (got) return { attempts: out.attempts, items: got.items, complete: got.complete, total: got.total, notes: [...out.notes, ...got.notes] };
  const failure = summarise(out, {
    noData: `no ${req.what} for ${req.entity}`, unresolved: `"${req.entity}" could not be resolved`,
    nothingBound: `no operation could be bound for "${req.entity}"`, absenceIsAnswer: true,
  });
  return { attempts: out.attempts, items: [], complete: false, total: 0, notes: out.notes, failure, reached: out.reached, exhausted: exhausted(out) };
}

type Admitted = { items: Item[]; complete: boolean; total: number; notes: string[] };

/**
 * The record reads as choice points to the engine: source (plan order) → entity resolution →
 * source key (at most three namesakes) → the publisher's layout (state extract, form, year) → fetch;
 * the shape's own examination judges the records.
 */
function recordChoices(ctx: QueryContext, req: RecordSearchRequest): Provider<Admitted> {
  return async function* (h) {
    const said = new Set<string>();
    const once = (key: string, by: string, message: string) => { if (!said.has(key)) { said.add(key); h.emit('crosswalk', by, message); } };
    for (const cand of req.candidates) {
      const op = cand.operation;
      if (!op) continue;
      if (h.isPruned(cand.publisherId)) { h.note(`${op.key}: skipped, ${cand.publisherId} pruned`); continue; }
      const bundles = await resolveName(ctx.registry, req.entity, {}, ctx);
      const takes = recordKeyTypes(op.key);
      let { chosen, note, byName } = chooseBundles(bundles, takes);
      // a publisher that matches names itself (textually) needs no registry entity: the name goes as asked, disclosed
      if (chosen.length === 0 && takes.includes('name')) {
        note = `no registry entity is exactly "${req.entity}" (${note ?? 'no candidate'}); ${op.key} matches names textually, so "${req.entity}" is sent as asked and records are kept by that name`;
        chosen = [asAsked(req.entity)];
        byName = true;
      }
      if (chosen.length === 0) { yield { kind: 'boundary', failure: { boundary: 'entity_unresolved', code: 'entity_unresolved', source: cand.publisherId, message: `"${req.entity}" could not be resolved: ${note}`, params: { entity: req.entity } } }; continue; }
      h.resolved();
      if (byName && note) once(note, 'registry', note);

      for (const bundle of chosen.slice(0, 3)) {
        if (h.isPruned(cand.publisherId)) break;
        const key = bindKey(bundle, takes);
        if (!key.ok) {
          once(`${bundle.id}|${op.key}`, 'registry', `${bundle.label}: no usable key for ${op.key} — ${key.reason}`);
          h.note(key.reason);
          continue;
        }
        const binding = bindRecordOperation(op.key, key, hintsFor(req.hints, bundle));
        if ('error' in binding) {
          h.note(`${op.key}: ${binding.error}`);
          h.emit('crosswalk', 'executor', `${op.key} cannot be bound for ${bundle.label}: ${binding.error}`);
          yield { kind: 'boundary', failure: { boundary: 'no_access_path', code: 'unbound', source: cand.publisherId, message: `${op.key}: ${binding.error}` } };
          continue;
        }
        if (binding.note) once(binding.note, 'registry', `${op.key} for ${bundle.label}: ${binding.note}`);
        const boundKey = { keyType: key.keyType, value: key.value };
        yield {
          kind: 'fetch', source: cand.publisherId, operation: op.operationId, args: binding.fetchArgs,
          label: `${op.key} for ${bundle.label} (${key.keyType} ${key.value})`,
          bindings: { [key.keyType]: key.value, ...binding.fetchArgs, entity: bundle.label },
          examine: (result, attempt) => {
            const verdict = req.examine(result, { bundle, key: boundKey, byName, ...(note ? { note } : {}), candidate: cand, attemptN: attempt.n, namesakes: chosen.length, asked: req.entity, disclosures: binding.note ? [binding.note] : [] });
            if ('admit' in verdict) {
              return {
                admit: { items: verdict.admit, complete: verdict.complete, total: verdict.total, notes: verdict.notes }, checks: verdict.checks,
                said: `admitted ${verdict.admit.length} record${verdict.admit.length === 1 ? '' : 's'} from ${op.key} for ${bundle.label} (${key.keyType} match)`,
              };
            }
            return {
              reject: { boundary: 'no_data', code: verdict.code, message: `${op.key}: ${verdict.reject}` }, reason: verdict.reject, checks: verdict.checks,
              disposition: verdict.code === 'not_found' ? 'errored' : 'rejected', prune: verdict.prune,
              said: `rejected ${op.key} for ${bundle.label}: ${verdict.reject}`,
            };
          },
        };
      }
    }
  };
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
