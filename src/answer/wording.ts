/**
 * The one place Assay's decisions become English: notes (what the reader must know about how a
 * value was read), refusals (the boundary reached, why, and what would make the question
 * answerable). Everything upstream carries typed codes with parameters; this module words them,
 * with Intl plural and list formatting. Tests assert codes and parameters; a few pin these words.
 */
import type { RefusalBoundary, Refusal } from '../ask/types.ts';
import { reachedBySource } from '../execute/engine.ts';
import type { Failure } from '../execute/failure.ts';
import type { Note } from '../execute/notes.ts';
import type { LatestDisclosure } from '../validate/latest.ts';
import type { RefusalContext } from '../execute/shapes/types.ts';
import { ERROR_CODES } from '../http/errors.ts';
import { publisherName } from './render.ts';
import { keyName } from '../execute/leaf.ts';
import type { OfferedEntity } from '../ask/types.ts';

const plurals = new Intl.PluralRules('en');
/** "1 candidate" / "3 candidates". */
export function count(n: number, one: string, other = `${one}s`): string {
  return `${n} ${plurals.select(n) === 'one' ? one : other}`;
}
const orList = new Intl.ListFormat('en', { type: 'disjunction' });
const andList = new Intl.ListFormat('en', { type: 'conjunction' });
/** "a or b", "a, b, or c". */
export const anyOf = (items: readonly string[]): string => orList.format(items);
/** "a and b", "a, b, and c". */
export const allOf = (items: readonly string[]): string => andList.format(items);

/** An identifier kind as a reader knows it ("country_currency" → "country currency"). */
const keyWords = (keyType: string) => keyType.replace(/_/g, ' ');

export function renderNote(n: Note): string {
  switch (n.code) {
    case 'entity_ambiguous_answered': return `"${n.entity}" is ambiguous (${n.candidates.join('; ')}); answered for the most likely, ${n.chosen}`;
    case 'scope_reading': return n.by
      ? `"${n.entity}" read as ${n.chosen} (the ${n.grain}, as "${n.by}" says); the same name is also ${andList.format(n.alternatives)}`
      : `"${n.entity}" names several geographies (${[n.chosen, ...n.alternatives].join('; ')}); answered for the most likely, ${n.chosen} (the ${n.grain})`;
    case 'latest': return latestWords(n.disclosure);
    case 'latest_concept': return `"latest" read from ${n.read}, the candidate concept with the newest period in the response (to ${n.end}); passed over: ${andList.format(n.passedOver.map((x) => `${x.measure} (to ${x.end})`))}`;
    case 'scope_read': return `no entity named: the figure is for the ${n.scope.replace(/^the /i, '')}, the only scope ${publisherName(n.source)} publishes it for`;
    case 'code_read': return `read by the publisher's own ${keyWords(n.keyType)} "${n.key}", not through the organisation registry`;
    case 'code_bound': return `"${n.asked}" bound to the publisher's own ${keyWords(n.keyType)} "${n.key}", not through the organisation registry`;
    case 'period_missing': return `no ${n.measure} value for ${n.period}: ${n.detail}`;
    case 'drafting_fallback': return `the model that words answers (${n.model}) ${n.why === 'failed' ? 'did not answer' : 'drafted nothing'}, so the answer is in the plain rendering; the figures and citations are the same`;
    case 'readings_aliases': return `readings collapsed as aliases: ${n.groups.map((g) => `${g.join(' = ')} (same value)`).join('; ')}`;
    case 'readings_all': return `"${n.attribute}" read ${n.readings.length} ways: ${n.readings.join(', ')}`;
    case 'reading_compared': return `"${n.attribute}" compared as ${n.reading}, the first of its readings (${n.readings.join(', ')}); name another to compare on it`;
    case 'reading_chosen': return `"${n.attribute}" read as ${n.reading}; other readings differ materially (see alternatives)`;
    case 'measures_differ': return `the values compared are different published measures: ${n.items.map((e) => `${e.entity}, ${e.measure}`).join('; ')}`;
    case 'period_ends_differ': return `${n.period} ends on different dates: ${n.items.map((e) => `${e.entity} ${e.end ?? 'not stated'}`).join('; ')}`;
    case 'relative_year': return `"${n.words}" read as ${n.year}, by the question's clock (${n.today})`;
    case 'text': return n.text;
    case 'entity_chosen': return `"${n.asked}" read as ${n.chosen}${n.key ? ` (${keyText(n.key.keyType, n.key.value)})` : ''}, the registered entity chosen in answer to the clarification`;
    case 'variant_read': return `"${n.attribute}" does not say which ${n.family} is meant: read as "${n.family}, ${n.read}"; the publisher also has ${andList.format(n.others.map((o) => `"${n.family}, ${o}"`))} (name one in the question to read it)`;
  }
}

// ---------------------------------------------------------------------------------------------
// Refusals

/** A refusal as data: the boundary reached, its code and typed parameters, the question's words, every boundary the search reached. */
export interface RefusalDecision {
  boundary: RefusalBoundary;
  code?: string;
  /** The failure's own account (a publisher's message, a validator's reason), carried as written. */
  detail: string;
  params?: Failure['params'];
  context?: RefusalContext;
  reached?: readonly Failure[];
  exhausted?: boolean;
  /** Readings taken before the search (a place's scope), disclosed with the refusal. */
  notes?: readonly Note[];
}

/** Why a newer declared period was not read, from the failure code its attempts ended with. */
const NOT_READ: Readonly<Record<string, string>> = {
  offline: 'not in the offline snapshot', not_attempted: 'not tried', not_found: 'no value for this entity', period: 'no value for the period',
  quantity_mismatch: 'not the kind of quantity asked', entity_unresolved: 'the entity could not be bound to it', residual: 'its label could not be settled',
  partial_population: 'the response read was not the whole population',
};

/** The "latest" disclosure: the newest declared period read, or the older one read and every newer one with why not. */
export function latestWords(d: LatestDisclosure): string {
  if (d.code === 'latest_available') return `latest available: ${d.period}, the newest period in ${publisherName(d.source)}'s response; no other eligible source declares a newer one`;
  const newer = d.newer.map((x) => `${x.period}, ${publisherName(x.source)}: ${NOT_READ[x.reason] ?? x.reason.replace(/_/g, ' ')}`);
  return `"latest" read as ${d.read.period}; ${count(d.newer.length, 'newer declared period')} not read: ${andList.format(newer)}`;
}

const a = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** What would make the question answerable, from the boundary, the code and its parameters. */
function answerableIf(d: RefusalDecision): string {
  const c = d.context ?? {};
  const p = d.params ?? {};
  const what = `${c.attribute ?? 'the value'}${c.entity ? ` for ${c.entity}` : ''}${c.period ? ` in ${c.period}` : ''}`;
  switch (d.boundary) {
    case 'no_access_path': return `a source declaring ${c.missing ?? 'the operation this shape needs'}`;
    case 'no_candidate_source': return `a catalogued source publishing ${c.attribute ?? 'this measure'}`;
    case 'entity_unresolved': {
      const candidates = Array.isArray(p.candidates) ? p.candidates as readonly string[] : [];
      if (d.code === 'grain_missing' && Array.isArray(p.available)) return `${a(String(p.asked))} the identity registry holds (it has ${anyOf((p.available as readonly string[]).map((x) => `"${x}"`))} by that name), or one of those named`;
      if (d.code === 'ambiguous' && candidates.length > 0) return `the one meant named in full: ${anyOf(candidates.map((x) => `"${x}"`))}`;
      if (typeof p.entityType === 'string' && p.candidates === 0) return `${a(p.entityType)} the identity registry holds, named as registered (this read is keyed by ${p.entityType}), or an intent naming the canonical entity`;
      return 'the entity named unambiguously (its full legal name), or an intent naming the canonical entity';
    }
    case 'no_data':
      // a record was found but its label does not plainly say it is what was asked, and nothing may settle that
      if (d.code === 'missing_input') return `a read of ${c.attribute ?? 'the measure'} bound with ${inputWords(Array.isArray(p.missing) ? (p.missing as readonly string[]) : [])} from the question`;
      if (d.code === 'residual') return `a configured model to settle whether the publisher's label means ${c.attribute ? `"${c.attribute}"` : 'what was asked'} (it is consulted only after every structural check has passed), or the question asked in the publisher's own wording`;
      return `a publisher response holding ${what} (the source has the measure, but not for this entity and period)`;
    case 'operationally_blocked': {
      if (d.code === 'model_unavailable') return 'the configured model answering (check ASSAY_LLM_URL, ASSAY_LLM_MODEL and ASSAY_LLM_KEY, and that the endpoint serves OpenAI chat completions), or the question asked of a gateway without a model (offline interpreter, plain renderer)';
      const fix = d.code && d.code in ERROR_CODES ? ERROR_CODES[d.code as keyof typeof ERROR_CODES].fix : undefined;
      return fix ?? 'the blocked call succeeding (credential, rate limit or snapshot)';
    }
    case 'not_understood': return `${c.missing ?? 'a rephrased question'}, or an intent sent with --intent`;
    case 'unsupported_shape': return 'an executor for this shape (this build runs point, status, entity list, comparison and timeseries reads)';
    case 'unverified_figures': return 'a draft whose every figure is found in the evidence, or a non-strict request';
    case 'low_assurance': return 'evidence matched on a canonical identifier, or a lower assurance floor';
    case 'cancelled': return 'asking again without cancelling';
    case 'bad_resume': return 'a run id that returned a clarification and an option number it listed';
  }
}

/** A read's arguments as a reader knows them (the connector's parameter names are for `assay fetch`). */
const INPUT_WORDS: Readonly<Record<string, string>> = {
  year: 'a year', variables: 'the estimate to read', start: 'the first date', end: 'the last date', ein: 'an EIN', name: 'a name',
  cik: 'a CIK', fips: 'a FIPS code', state: 'a state', concept: 'the concept to read', unitid: 'a school id', id: 'the record\'s id',
};
/** A read that could not be made because arguments it needs were not bound from the question (`missing_input`). */
export function missingInputText(p: NonNullable<Failure['params']>): string {
  const missing = Array.isArray(p.missing) ? (p.missing as readonly string[]) : [];
  const op = typeof p.operation === 'string' && p.operation ? p.operation : 'the read';
  return `${op} could not be asked: it needs ${inputWords(missing)}, and ${missing.length === 1 ? 'that was' : 'those were'} not bound from the question`;
}
const inputWords = (missing: readonly string[]) => allOf(missing.map((m) => INPUT_WORDS[m] ?? m.replace(/_/g, ' ')));

/** The refusal a reader and a client see: the reason, what would make it answerable, and every boundary reached by source. */
export function renderRefusal(d: RefusalDecision): Refusal {
  const reason = `${d.context?.comparing ? `cannot compare: ${d.context.comparing} — ` : ''}${d.code === 'missing_input' ? missingInputText(d.params ?? {}) : d.detail}`;
  const reached = d.reached && d.reached.length > 0 ? reachedBySource(d.reached) : undefined;
  return {
    boundary: d.boundary, reason, answerable_if: answerableIf(d), ...(d.code ? { code: d.code } : {}),
    ...(reached ? { reached: reached.map((s) => ({ source: s.source, boundaries: s.boundaries.map((b) => ({ boundary: b.boundary, code: b.code, count: b.count, ...(b.request ? { request: b.request } : {}) })) })) } : {}),
    ...(d.exhausted !== undefined && reached ? { exhausted: d.exhausted } : {}),
    ...(d.notes && d.notes.length > 0 ? { disclosures: d.notes.map(renderNote) } : {}),
  };
}

/** The refusal as one paragraph: the boundary, the reason, and — after a search — whether it tried every choice point and where. */
export function refusalText(r: Refusal): string {
  const head = `Not answered (${r.boundary.replace(/_/g, ' ')}): ${r.reason}${r.disclosures ? `\nRead as: ${r.disclosures.join('; ')}` : ''}`;
  if (!r.reached || r.reached.length < 2) return head;
  const where = r.reached.map((s) => `${s.source} (${s.boundaries.map((b) => `${b.code.replace(/_/g, ' ')}${b.count > 1 ? ` ×${b.count}` : ''}`).join(', ')})`);
  return `${head}\n${r.exhausted ? `Every choice point was tried, in ${count(r.reached.length, 'source')}` : `The search stopped before every choice point was tried; it reached ${count(r.reached.length, 'source')}`}: ${where.join('; ')}.`;
}

// ---------------------------------------------------------------------------------------------
// Clarifications of a name (src/ask/names.ts)

/**
 * A name the question asks about that Assay will not guess: several registered names start with it
 * (`entity_candidates`), or it was not written as a registered name is (`did_you_mean`: in lower case,
 * with no registered name as written, or with look-alike letters of another script).
 */
export type NameClarification =
  | { code: 'entity_candidates'; asked: string; offered: readonly OfferedEntity[] }
  | { code: 'did_you_mean'; asked: string; why: 'lower_case' | 'no_candidate' | 'lookalike_letters'; offered: readonly OfferedEntity[] };

/** The identifier a reader is shown for an offered entity: the one a planned source reads it by, else the first it has. */
export function offeredKey(e: OfferedEntity): string | null {
  const order = [...(e.readable_by ?? []), 'cik', 'ein', 'ipeds_unitid', 'fips', ...Object.keys(e.identifiers)];
  const k = order.find((t) => t !== 'qid' && (e.identifiers[t]?.length ?? 0) > 0);
  if (!k) return null;
  return keyText(k, e.identifiers[k]![0]!);
}

/** An identifier as a reader knows it ("SEC CIK 320193": a CIK without its padding zeros). */
export const keyText = (keyType: string, value: string): string => `${keyName(keyType)} ${keyType === 'cik' ? value.replace(/^0+(?=\d)/, '') : value}`;

/** One offered entity as an option's label: its name, kind, identifier, and whether the planned sources can read it. */
export function offeredLabel(e: OfferedEntity): string {
  const key = offeredKey(e);
  const kind = e.kinds.length ? e.kinds.join(', ') : 'kind not recorded';
  const reads = e.readable_by === null ? '' : e.readable_by.length ? `; the sources planned read it by ${anyOf(e.readable_by.map(keyName))}` : '; no source planned for this question can read it';
  return `${e.label} (${kind}${key ? `, ${key}` : ''}${reads})`;
}

const WHY_NOT_READ: Readonly<Record<Extract<NameClarification, { code: 'did_you_mean' }>['why'], (asked: string) => string>> = {
  lower_case: (asked) => `"${asked}" is written in lower case, and names are read by their capitals`,
  no_candidate: (asked) => `no registered name is "${asked}"`,
  lookalike_letters: (asked) => `"${asked}" is written with letters of another script that look Latin`,
};

/** The clarification's question: what is asked of the reader, and why Assay did not decide. */
export function nameClarificationQuestion(c: NameClarification): string {
  if (c.code === 'entity_candidates') {
    return `"${c.asked}" is the start of ${count(c.offered.length, 'registered name')}, and which one is meant is not Assay's to guess. Which one do you mean?`;
  }
  const one = c.offered.length === 1 ? c.offered[0]! : undefined;
  const key = one ? offeredKey(one) : null;
  const ask = one ? `Did you mean ${one.label}${key ? ` (${key})` : ''}?` : 'Did you mean one of these?';
  return `${ask} ${WHY_NOT_READ[c.why](c.asked)}; nothing is read on a guess.`;
}
