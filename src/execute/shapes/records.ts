/**
 * The record-read shapes of ask: status (one field of the entity's record, read as the boolean
 * asked) and entity list (the entity's records, to the paging boundary). From a plan to a record
 * search: which status or list the question asks, which planned operations can read it (in plan
 * order), the hints the publisher's layout needs (a state for the IRS BMF, a form type, a year),
 * then the leaf search. A question whose status no declared reader answers, or whose plan offers no
 * operation that carries the field, is refused with that boundary — never read from a guessed field.
 */
import type { Assessment } from '../../plan/plan.ts';
import type { Intent } from '../../understand/index.ts';
import { RECORD_OPERATIONS, stateCode, type RecordHints } from '../bind-records.ts';
import { examineList, LIST_KINDS, type ListPeriod } from '../list.ts';
import { searchRecordLeaf, type RecordSearchResult } from '../record-search.ts';
import { examineStatus } from '../status.ts';
import { statusReader } from '../../validate/status.ts';
import { text } from '../notes.ts';
import { refusal } from './common.ts';
import type { ShapeExecutor, ShapeInput, ShapeOutcome } from './types.ts';

/** Records listed at most (most recent first); the total is always stated. */
export const LIST_CAP = 100;

/** Status and entity-list questions: one record search, its records admitted as evidence, the list's total stated. */
export const records: ShapeExecutor = {
  shapes: ['status', 'entity_list'],
  name: 'record reads',
  async execute(i) {
    const r = await searchRecords(i);
    if ('kind' in r) return r;
    const context = { attribute: i.intent.attribute, entity: i.intent.canonical_entity ?? i.intent.entity };
    if (r.failure || r.items.length === 0) {
      return { kind: 'refused', attempts: r.attempts, failure: r.failure ?? { boundary: 'no_data', code: 'no_records', message: 'no records' }, ...(r.reached ? { reached: r.reached } : {}), ...(r.exhausted !== undefined ? { exhausted: r.exhausted } : {}), context };
    }
    return { kind: 'evidence', answer: 'records', items: r.items, attempts: r.attempts, notes: r.notes.map(text), total: r.total };
  },
};

async function searchRecords(i: ShapeInput): Promise<RecordSearchResult | ShapeOutcome> {
  const { ctx, intent, nextAttempt } = i;
  const candidates = i.planned.candidates;
  const entity = intent.canonical_entity ?? intent.entity;
  if (!entity) return refusal('entity_unresolved', 'no_entity', `the question names no entity for a ${intent.shape === 'status' ? 'status' : 'list'} read`);
  // the place the intent puts the entity in ("the Red Cross in DC"): the IRS BMF extract to read; when
  // the question names none, the record search offers each entity's registry state instead (disclosed)
  const state = stateCode(intent.geography?.within);
  // the intent's own fields (understand/ read the words): the form type, the record noun, the period
  const form = intent.form ?? undefined;
  const today = new Date(ctx.clock.now()).toISOString().slice(0, 10);
  const range = listPeriod(intent, today);
  const year = range && range.from === range.to ? range.from : undefined;
  const awardGroup = awardGroupOf(intent.attribute ?? '');
  const hints: RecordHints = { ...(state ? { state } : {}), ...(form ? { form } : {}), ...(year !== undefined ? { year } : {}), ...(awardGroup ? { awardGroup } : {}), today };
  const planned = candidates.filter((c) => c.operation && c.verdict !== 'infeasible');

  if (intent.shape === 'status') {
    // the intent says which status is asked (its status id); no question words are re-read here
    const ask = statusReader(intent.status);
    if (!ask) return refusal('no_access_path', 'no_status_reader', `no declared status reader answers "${intent.attribute ?? intent.question}" (readers: 501(c)(N) subsection, private foundation, public charity, tax-exempt, SEC filer category)`, { attribute: intent.attribute, missing: 'a status field with a documented code table for this yes/no' });
    const usable = dedupe(planned.filter((c) => ask.operations.includes(c.operation!.key)));
    ctx.emit({ stage: 'execution_plan', by: 'executor', message: `status "${ask.asked}": keyed reads of ${usable.map((c) => c.operation!.key).join(', ') || 'none'}${state ? ` (state ${state.toUpperCase()}, where the question places the entity)` : ''}; the first record whose field reads as a boolean wins` });
    if (usable.length === 0) return refusal('no_access_path', 'no_status_operation', `the plan offers no operation carrying the field that answers "${ask.asked}" (${ask.operations.join(' or ')})`, { attribute: intent.attribute, missing: ask.operations.join(' or ') });
    return searchRecordLeaf(ctx, { entity, candidates: usable, hints, nextAttempt, what: `"${ask.asked}" status`, examine: examineStatus(ask, intent.attribute) });
  }

  const usable = dedupe(planned.filter((c) => LIST_KINDS[c.operation!.key] && RECORD_OPERATIONS.includes(c.operation!.key)));
  ctx.emit({ stage: 'execution_plan', by: 'executor', message: `entity list: records by entity via ${usable.map((c) => c.operation!.key).join(', ') || 'none'}, paged to the publisher's declared boundary${form ? `, form ${form}` : ''}${range ? `, dated ${range.from === range.to ? range.from : `${range.from}–${range.to}`} (${range.words})` : ''}; at most ${LIST_CAP} listed, the total stated` });
  if (usable.length === 0) return refusal('no_access_path', 'no_list_operation', `the plan offers no records-by-entity operation this build can list (${Object.keys(LIST_KINDS).join(', ')})`, { attribute: intent.attribute, missing: 'a records_by_entity operation for these records' });
  return searchRecordLeaf(ctx, {
    entity, candidates: usable, hints, nextAttempt, what: intent.attribute ?? 'records',
    examine: (result, read) => examineList({ kind: LIST_KINDS[result.source + '/' + result.operation]!, cap: LIST_CAP, ...(range ? { period: range } : {}), ...(form ? { form } : {}) }, intent.attribute)(result, read),
  });
}

/**
 * The years a list question restricts its records to: a year it names ("in 2024"), a span ("since
 * 2023": that year through the clock's year; "from 2019 to 2021"), or a year relative to the
 * question's clock ("this year", "last year" — resolved here, since the interpreter has no clock).
 */
export function listPeriod(intent: Intent, today: string): ListPeriod | undefined {
  const clockYear = Number(today.slice(0, 4));
  const p = intent.period;
  if (p && !p.latest && p.year !== null) return { from: p.year, to: p.year, words: `"${p.text}"` };
  // a year relative to the question's clock ("this year": offset 0, "last year": −1), resolved here: the interpreter has no clock
  if (p && !p.latest && p.year === null && p.offset !== undefined) { const y = clockYear + p.offset; return { from: y, to: y, words: `"${p.text}", by the question's clock (${today})` }; }
  const years = intent.periods.map((x) => x.year).filter((y): y is number => y !== null);
  if (years.length === 0) return undefined;
  const from = Math.min(...years);
  const to = intent.periods.some((x) => x.latest) ? clockYear : Math.max(...years);
  return { from, to, words: intent.periods.some((x) => x.latest) ? `"since ${from}", through the question's clock year (${today})` : `"${from} to ${to}"` };
}

/** The award-type group the record noun names (intent.attribute: "federal contracts"): USAspending searches one group per request. */
function awardGroupOf(text: string): RecordHints['awardGroup'] {
  const contracts = /\bcontracts?\b|\bprocurement\b/i.test(text);
  const grants = /\bgrants?\b|\bcooperative agreements?\b/i.test(text);
  return contracts && !grants ? 'contracts' : grants && !contracts ? 'grants' : undefined;
}

/** One choice point per operation (the plan may list an operation once per measure it serves). */
function dedupe(cands: Assessment[]): Assessment[] {
  const seen = new Set<string>();
  return cands.filter((c) => { const k = c.operation!.key; if (seen.has(k)) return false; seen.add(k); return true; });
}
