/**
 * Follow-up questions: an elliptical turn read with the previous turn's intent as explicit context.
 *
 * Input: the new question and the previous turn's intent (or null when there is none). Output:
 * - `standalone` — the question is not elliptical; interpret it as any other;
 * - `followup` — a new intent: the previous one with the parts the fragment names replaced, and
 *   the lists of fields carried over and replaced (for the answer's disclosures and the progress
 *   trace);
 * - `not_understood` — the question is elliptical but cannot be read: no previous turn, nothing
 *   readable in the fragment, or the result does not validate. A typed code, never a guess.
 *
 * The forms, by what the fragment names (after an opener such as "and", "what about", "how about",
 * "same for", or a bare "in …?" / "for …?"):
 *   a period   "and in 2022?", "what about fiscal 2021?", "and from 2015 to 2018?" → period(s)
 *   an entity  "what about Microsoft?", "and for Cook County?"                   → entity
 *   a measure  "and its net income?", "what about gross profit?"                 → attribute
 *   a target   "compare that with Alphabet", "versus Microsoft and Alphabet"     → comparison
 * and any mix of the first three ("what about Microsoft in 2022?").
 *
 * Reading is deterministic and uses the offline interpreter's own period and entity finders, so a
 * fragment's "2022" or "Microsoft" is read exactly as in a whole question. It never consults a
 * source or the catalog (interpretation stays blind to the corpus), and it decides nothing about
 * which entity a name denotes — resolution does that downstream, as for any intent.
 */
import { parseIntent, type Intent, type ValidationIssue } from './intent.ts';
import { findPeriods } from './offline/periods.ts';
import { findEntities } from './offline/entities.ts';
import { quantityAsked } from './offline/quantity.ts';

export type FollowupPart = 'period' | 'entity' | 'measure' | 'comparison';

/** A field of the intent and its value, as carried over or as replaced. */
export interface FieldValue { field: keyof Intent; value: unknown }

/**
 * A question read as a follow-up, as the answer and the progress trace disclose it: what the
 * question named, the fields taken from the previous turn and those it set, and the one sentence
 * saying so.
 */
export interface FollowupRead { parts: FollowupPart[]; carried: FieldValue[]; replaced: FieldValue[]; said: string }

export type FollowupReading =
  | { kind: 'standalone' }
  | { kind: 'followup'; parts: FollowupPart[]; intent: Intent; carried: FieldValue[]; replaced: FieldValue[] }
  | { kind: 'not_understood'; code: 'no_previous_turn' | 'nothing_read' | 'invalid_intent'; parts: FollowupPart[]; issues?: ValidationIssue[] };

const END = String.raw`\s*[?.!]*\s*$`;
const LEAD = String.raw`^\s*(?:(?:ok(?:ay)?|so|now|then|and)\s*,?\s+)?`;
/** "compare that with X", "and compare it to X", "versus X", "vs. X", "against X". */
const COMPARE = new RegExp(`${LEAD}(?:(?:compare|contrast)\\s+(?:that|it|this|them|these|those)\\s+(?:with|to|against|and)|versus|vs\\.?|against)\\s+(.+?)${END}`, 'i');
/** "what about X", "how about X", "what of X", "same for X", "and X", "and for X". */
const OPENER = new RegExp(`${LEAD}(?:(?:what|how)\\s+about|what\\s+of|(?:the\\s+)?same\\s+(?:for|in)|and|also)\\s+(.+?)${END}`, 'i');
/** A bare "in 2022?" or "for Microsoft?" (a question mark: a fragment asked, not a heading). */
const BARE = new RegExp(`^\\s*((?:in|for)\\s+.+?)\\s*\\?\\s*$`, 'i');
/** A fragment with a finite verb of its own is a whole question ("and what was Microsoft's revenue?"). */
const OWN_VERB = /\b(?:was|were|is|are|did|does|do|has|have|had|will|would|can|could|much|many)\b/i;
const MAX_FRAGMENT_WORDS = 7;
/** Words that carry no measure of their own in a fragment ("and its …", "what about the …"). */
const FUNCTION_WORDS = /\b(?:its|their|his|her|the|a|an|in|for|of|about|then|also|instead|too|same|that|this|it|them|one|ones|year|years)\b/gi;

const words = (s: string) => s.trim().split(/\s+/).filter(Boolean).length;

/** Which elliptical form the question has, and its fragment; null when it is a whole question. */
export function ellipsisOf(question: string): { compare: boolean; fragment: string } | null {
  const c = COMPARE.exec(question);
  if (c) return { compare: true, fragment: c[1]! };
  const m = OPENER.exec(question) ?? BARE.exec(question);
  if (!m) return null;
  const fragment = m[1]!;
  if (words(fragment) > MAX_FRAGMENT_WORDS || OWN_VERB.test(fragment)) return null;
  return { compare: false, fragment };
}

/** The names in a comparison target: "Alphabet", "Microsoft and Alphabet", "Microsoft, Alphabet". */
function targetNames(fragment: string): string[] {
  const found = findEntities(fragment).map((e) => e.text);
  if (found.length) return found;
  return fragment.split(/\s*(?:,|\band\b|\bor\b)\s*/i).map((s) => s.trim()).filter((s) => /[A-Za-z]/.test(s));
}

function strip(text: string, pieces: readonly string[]): string {
  let out = text;
  for (const p of pieces) out = out.replace(p, ' ');
  return out;
}

const SHOWN: ReadonlyArray<keyof Intent> = [
  'shape', 'entity', 'entities', 'type', 'geography', 'codes', 'attribute', 'attributes', 'period', 'periods',
  'span', 'quantity', 'grain', 'form', 'status', 'order', 'limit', 'threshold', 'quantifier', 'direction',
];
const isEmpty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function readFollowup(question: string, previous: Intent | null): FollowupReading {
  const form = ellipsisOf(question);
  if (!form) return { kind: 'standalone' };
  const parts: FollowupPart[] = [];
  const next: Intent = structuredClone(previous ?? ({} as Intent));
  next.question = question;

  if (form.compare) {
    parts.push('comparison');
    const names = targetNames(form.fragment);
    if (!previous) return { kind: 'not_understood', code: 'no_previous_turn', parts };
    if (names.length === 0) return { kind: 'not_understood', code: 'nothing_read', parts };
    const before = previous.shape === 'comparison' ? previous.entities : [previous.canonical_entity ?? previous.entity].filter((x): x is string => !!x);
    next.shape = 'comparison';
    next.entities = [...before, ...names.filter((n) => !before.includes(n))];
    next.entity = null;
    next.canonical_entity = null;
    next.entity_status = 'none';
    next.entity_candidates = [];
    if (next.periods.length && !next.period) { next.period = next.periods[next.periods.length - 1]!; next.periods = []; }
  } else {
    const pm = findPeriods(form.fragment);
    const rest = strip(form.fragment, pm.consumed);
    const mentions = findEntities(rest);
    const leftover = strip(rest, mentions.map((m) => m.text)).replace(/['’]s\b/g, ' ').replace(FUNCTION_WORDS, ' ').replace(/[^A-Za-z0-9%&\- ]+/g, ' ').replace(/\s+/g, ' ').trim();
    if (pm.period || pm.periods.length || pm.spanOf) parts.push('period');
    if (mentions.length) parts.push('entity');
    if (leftover) parts.push('measure');
    if (!previous) return { kind: 'not_understood', code: 'no_previous_turn', parts };
    if (parts.length === 0) return { kind: 'not_understood', code: 'nothing_read', parts };

    if (parts.includes('period')) {
      next.span = pm.spanOf ?? null;
      if (pm.periods.length > 1 || pm.span) {
        next.periods = pm.periods;
        next.period = null;
        if (next.shape === 'point') next.shape = 'timeseries';
      } else {
        next.period = pm.period ?? pm.periods[0] ?? null;
        next.periods = [];
        if (next.shape === 'timeseries') next.shape = 'point';
      }
      next.grain = next.period?.quarter ? 'quarter' : next.period?.date ? 'day' : next.period || next.periods.length ? 'year' : next.grain;
    }
    if (parts.includes('entity')) {
      const names = mentions.map((m) => m.text);
      if (names.length > 1) {
        next.shape = 'comparison';
        next.entities = names;
        next.entity = null;
        next.canonical_entity = null;
        next.entity_status = 'none';
      } else {
        if (next.shape === 'comparison') next.shape = next.periods.length ? 'timeseries' : 'point';
        next.entity = names[0]!;
        next.canonical_entity = names[0]!;
        next.entity_status = 'resolved';
        next.entities = [];
      }
      next.entity_candidates = [];
      // The previous entity's kind and place were said of it, not of the new one.
      next.type = null;
      next.codes = [];
    }
    if (parts.includes('measure')) {
      next.attribute = leftover;
      next.attributes = [];
      next.interpretations = [];
      next.form = null;
      next.status = null;
      next.quantity = quantityAsked(form.fragment, next.shape, leftover, null);
    }
  }

  const parsed = parseIntent(next);
  if (!parsed.ok) return { kind: 'not_understood', code: 'invalid_intent', parts, issues: parsed.issues };
  return { kind: 'followup', parts, intent: parsed.intent, ...compareIntents(previous!, parsed.intent) };
}

/** The shown fields of `next` that equal the previous turn's (carried) and those that differ (replaced). */
function compareIntents(previous: Intent, next: Intent): { carried: FieldValue[]; replaced: FieldValue[] } {
  const carried: FieldValue[] = [];
  const replaced: FieldValue[] = [];
  for (const f of SHOWN) {
    const before = previous[f];
    const after = next[f];
    if (isEmpty(after) && isEmpty(before)) continue;
    if (same(before, after)) carried.push({ field: f, value: after });
    else replaced.push({ field: f, value: after });
  }
  return { carried, replaced };
}

/** The fields that make a question a follow-up when they are taken from the turn before. */
const MAIN: ReadonlyArray<keyof Intent> = ['entity', 'entities', 'attribute', 'attributes', 'period', 'periods', 'span'];
const PART_OF: Partial<Record<keyof Intent, FollowupPart>> = { entity: 'entity', entities: 'comparison', attribute: 'measure', attributes: 'measure', period: 'period', periods: 'period', span: 'period' };

/** The words a field's value is said with ("Apple", "total revenue", a period's own text). */
function surfaces(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (typeof v === 'number') return [String(v)];
  if (Array.isArray(v)) return v.flatMap(surfaces);
  if (v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string') return [(v as { text: string }).text];
  return [];
}

/**
 * A model's reading of a question asked after `previous` (the model saw that intent as context):
 * which fields it took from the previous turn. A field is carried when its value equals the
 * previous turn's and the question does not say it itself (none of its words are in the
 * question); replaced when it differs. The question is a follow-up only when an entity, measure or
 * period was carried: a whole question that restates them stands alone (null). Decided by code,
 * from the two intents and the question's text — the model is not asked what it carried.
 */
export function carriedByModel(question: string, previous: Intent, next: Intent): FollowupRead | null {
  const q = question.toLowerCase();
  const said = (v: unknown) => surfaces(v).some((s) => s.trim() !== '' && q.includes(s.toLowerCase()));
  const { carried: equal, replaced } = compareIntents(previous, next);
  const carried = equal.filter((c) => !said(c.value));
  const restated = equal.filter((c) => said(c.value));
  if (!carried.some((c) => MAIN.includes(c.field))) return null;
  const parts = [...new Set([...replaced, ...restated].flatMap((c) => { const p = c.field === 'shape' && next.shape === 'comparison' ? 'comparison' : PART_OF[c.field]; return p ? [p] : []; }))];
  const reading = { kind: 'followup' as const, parts, intent: next, carried, replaced: [...replaced, ...restated] };
  return { parts, carried, replaced: reading.replaced, said: describeFollowup(reading, previous.question) };
}

/** A reading of the follow-up reader as the answer discloses it. */
export function followupRead(r: Extract<FollowupReading, { kind: 'followup' }>, fromQuestion: string): FollowupRead {
  return { parts: r.parts, carried: r.carried, replaced: r.replaced, said: describeFollowup(r, fromQuestion) };
}

/** The one sentence a reader sees about a follow-up (disclosure and progress): which fields were carried. */
export function describeFollowup(r: Extract<FollowupReading, { kind: 'followup' }>, fromQuestion: string): string {
  const shown = (v: unknown): string => {
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { text?: unknown }).text === 'string') return `"${(v as { text: string }).text}"`;
    if (Array.isArray(v)) return v.map(shown).join(', ');
    return typeof v === 'string' ? `"${v}"` : JSON.stringify(v);
  };
  const keep = r.carried.filter((c) => !['quantity', 'grain', 'shape'].includes(c.field));
  // A field this turn emptied (a timeseries' periods when one year is asked) is implied by the one it set.
  const changed = r.replaced.filter((c) => !['quantity', 'grain'].includes(c.field) && !isEmpty(c.value));
  return `Read as a follow-up to "${fromQuestion}": ${keep.length ? `carried over ${keep.map((c) => `${c.field} ${shown(c.value)}`).join(', ')}` : 'nothing carried over'}`
    + `${changed.length ? `; this turn set ${changed.map((c) => `${c.field} ${shown(c.value)}`).join(', ')}` : ''}.`;
}

/** Why an elliptical question could not be read, and what to send instead. */
export function followupRefusal(r: Extract<FollowupReading, { kind: 'not_understood' }>): { reason: string; answerable_if: string } {
  switch (r.code) {
    case 'no_previous_turn':
      return {
        reason: 'the question is a follow-up (it names only what changes from an earlier question), but there is no previous turn in this conversation to carry the rest from',
        answerable_if: 'the whole question is asked (who, what and when), or it is sent in a conversation after the question it follows',
      };
    case 'nothing_read':
      return { reason: 'the question reads as a follow-up, but no period, entity, measure or comparison target could be read from it', answerable_if: 'the follow-up names what changes (e.g. "and in 2022?", "what about Microsoft?", "and its net income?")' };
    case 'invalid_intent':
      return {
        reason: `the follow-up could not be combined with the previous question: ${(r.issues ?? []).map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        answerable_if: 'the whole question is asked',
      };
  }
}
