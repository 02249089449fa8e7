/**
 * Entity kind against the keys an operation accepts, and a question's "right now" against the
 * grain an operation declares. Both are checks the planner makes from the catalog's declarations;
 * neither names a source.
 *
 * The intent's `type` is an open noun phrase, so this is a small table of general knowledge
 * (companies are identified by CIK or ticker, charities by EIN, places by FIPS), read only when
 * the phrase mentions one of its words; any other type gets no check. An operation is judged only
 * if it is keyed by an identifier this table knows and does not take a plain name.
 */
import type { OperationRef } from '../discover/index.ts';
import { asksForNow, type Intent } from '../understand/intent.ts';

const KIND_KEYS: { words: RegExp; keys: string[]; label: string }[] = [
  { words: /\b(compan(y|ies)|corporations?|firms?|issuers?|filers?|public compan)/i, keys: ['cik', 'ticker', 'lei', 'ein'], label: 'a company' },
  { words: /\b(nonprofits?|non-profits?|charit(y|ies)|foundations?|tax-exempt|501\(c\))/i, keys: ['ein'], label: 'a nonprofit' },
  { words: /\b(universit(y|ies)|colleges?|schools?|institutions? of higher)/i, keys: ['ipeds_unitid', 'ope_id', 'ein'], label: 'a college or university' },
  { words: /\b(states?|count(y|ies)|cit(y|ies)|towns?|places?|metro\w*|tracts?|municipios?)\b/i, keys: ['fips'], label: 'a place' },
];
const KNOWN_KEYS = new Set(KIND_KEYS.flatMap((k) => k.keys));

/** Why the operation cannot be keyed by the intent's entity, or null when it can (or cannot be told). */
export function kindMismatch(intent: Intent, op: OperationRef): string | null {
  const specific = intent.entity_status !== 'none' || intent.entities.length > 0;
  if (!specific || !intent.type || op.accepts.includes('name')) return null;
  const kind = KIND_KEYS.find((k) => k.words.test(intent.type!));
  if (!kind) return null;
  if (op.accepts.length === 0) {
    // A scan keyed by nothing returns its population: the entity must be one of its members.
    const noun = grainNoun(op.grain);
    const rows = noun ? KIND_KEYS.find((k) => k.words.test(noun)) : undefined;
    return rows && rows !== kind ? `returns ${op.grain}; ${intent.type} is not one of those rows` : null;
  }
  const known = op.accepts.filter((a) => KNOWN_KEYS.has(a));
  if (known.length === 0 || op.accepts.some((a) => kind.keys.includes(a))) return null;
  return `is keyed by ${op.accepts.join(' or ')}, which does not identify ${intent.type} (${kind.label} is identified by ${kind.keys.join(', ')})`;
}

/** Grains dated by the day or finer: the only ones that can hold today's value. */
const DAILY = /\b(day|days|daily|business day|hour|minute|real[- ]?time)\b/i;

function wantsToday(intent: Intent): boolean {
  return [intent.period, ...intent.periods].some((p) => p !== null && asksForNow(p));
}

/** Words every freshness refusal carries, so a plan can say that freshness was the reason. */
const STALE_MARK = 'the question asks for the value right now';

/** Why the operation cannot give a value as of today, or null. */
export function freshnessMismatch(intent: Intent, op: OperationRef): string | null {
  if (!wantsToday(intent) || DAILY.test(op.grain)) return null;
  return `returns ${op.grain}, not values dated by the day; ${STALE_MARK}`;
}

/** What one row of a grain is: "one prime award" → "award", "one organization (EIN, ...)" → "organization". */
export function grainHead(grain: string): string | null {
  const m = /^one\s+([^(;:×]*?)(?:\s+per\s+|\s*[(;:×]|$)/i.exec(grain);
  const last = m?.[1]!.trim().split(/\s+/).pop()?.toLowerCase();
  return last ? singular(last) : null;
}

/**
 * Every kind of row a grain declares: its head, and the nested lists it says it carries
 * ("one organization; filings_with_data has one entry per return" → organization, return).
 */
export function grainRowNouns(grain: string): string[] {
  const out = new Set<string>();
  const head = grainHead(grain);
  if (head) out.add(head);
  for (const m of grain.matchAll(/\bone\s+(?:entry|row|record|item)\s+per\s+([a-z-]+)/gi)) out.add(singular(m[1]!.toLowerCase()));
  return [...out];
}

/** Whom a grain's rows belong to: "one fact per company" → "company", otherwise its head. */
export function grainNoun(grain: string): string | null {
  const per = /\bper\s+([a-z-]+)/i.exec(grain);
  return per ? singular(per[1]!.toLowerCase()) : grainHead(grain);
}

export const singular = (w: string): string => (/ies$/.test(w) ? `${w.slice(0, -3)}y` : /(ss|us|is)$/.test(w) ? w : w.replace(/s$/, ''));

/** Whether the source's own words name the entity's kind (a nonprofit's records come from sources about nonprofits). */
export function sourceNamesKind(type: string | null, sourceText: string): boolean {
  if (!type) return false;
  const kind = KIND_KEYS.find((k) => k.words.test(type));
  return kind ? kind.words.test(sourceText) : false;
}
