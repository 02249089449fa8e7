/**
 * From a planned operation to connector arguments for record reads (status and entity-list
 * questions): which identifier each operation takes, and any further argument the publisher's
 * layout needs. One binder per implemented operation, in a Map keyed by `publisher/operationId`;
 * an operation without a binder is a choice point that cannot be bound (the executor says why).
 *
 * The IRS EO BMF is published one extract per state, so a keyed read by EIN needs the state: it
 * comes from the question (the place it names) and is never guessed or scanned for.
 */
export interface RecordHints {
  /** Two-letter state code named by the question, lower case. */
  state?: string;
  /** A form type the question names (10-K), for filing lists. */
  form?: string;
}

type Bind = (key: { keyType: string; value: string }, hints: RecordHints) => { fetchArgs: Record<string, string> } | { error: string };
/** `takes`: the identifier types the read is keyed by (the records are matched on it even when the request is not). */
interface Binder { takes: readonly string[]; bind: Bind }

const needs = (op: string, type: string, got: string) => ({ error: `${op} takes a ${type}, not a ${got}` });

const BINDERS: ReadonlyMap<string, Binder> = new Map<string, Binder>(([
  ['sec-edgar/submissions-identity', ['cik'], (k) => k.keyType === 'cik' ? { fetchArgs: { cik: k.value } } : needs('submissions-identity', 'CIK', k.keyType)],
  ['sec-edgar/submissions', ['cik'], (k, h) => k.keyType === 'cik' ? { fetchArgs: { cik: k.value, ...(h.form ? { form: h.form } : {}) } } : needs('submissions', 'CIK', k.keyType)],
  ['propublica-nonprofits/organization', ['ein'], (k) => k.keyType === 'ein' ? { fetchArgs: { ein: k.value } } : needs('organization', 'EIN', k.keyType)],
  // the whole state extract: the record is still found by its EIN (examined by key), never by name
  ['irs-eo-bmf/eo-bmf-state', ['ein'], (k, h) => {
    if (k.keyType !== 'ein') return needs('eo-bmf-state', 'EIN', k.keyType);
    if (!h.state) return { error: 'the IRS EO BMF is published one extract per state; the question names no state, so the extract to read is unknown (name the state, e.g. "in DC")' };
    return { fetchArgs: { state: h.state } };
  }],
  ['irs-eo-bmf/eo-bmf-ein-lookup', ['ein'], (k, h) => {
    if (k.keyType !== 'ein') return needs('eo-bmf-ein-lookup', 'EIN', k.keyType);
    if (!h.state) return { error: 'the IRS EO BMF is published one extract per state; the question names no state, so the extract to read is unknown (name the state, e.g. "in DC")' };
    return { fetchArgs: { state: h.state, ein: k.value } };
  }],
] as Array<[string, readonly string[], Bind]>).map(([op, takes, bind]) => [op, { takes, bind }]));

export function bindRecordOperation(operationKey: string, key: { keyType: string; value: string }, hints: RecordHints): { fetchArgs: Record<string, string> } | { error: string } {
  const b = BINDERS.get(operationKey);
  if (!b) return { error: `${operationKey} has no record binder in the executor yet (record reads implemented: ${[...BINDERS.keys()].join(', ')})` };
  return b.bind(key, hints);
}

/** The identifier types an operation's record read is keyed by (empty when it has no binder). */
export function recordKeyTypes(operationKey: string): readonly string[] {
  return BINDERS.get(operationKey)?.takes ?? [];
}

export const RECORD_OPERATIONS: readonly string[] = [...BINDERS.keys()];

const STATES: Readonly<Record<string, string>> = {
  alabama: 'al', alaska: 'ak', arizona: 'az', arkansas: 'ar', california: 'ca', colorado: 'co', connecticut: 'ct', delaware: 'de',
  'district of columbia': 'dc', 'washington dc': 'dc', 'washington d c': 'dc', florida: 'fl', georgia: 'ga', hawaii: 'hi', idaho: 'id', illinois: 'il',
  indiana: 'in', iowa: 'ia', kansas: 'ks', kentucky: 'ky', louisiana: 'la', maine: 'me', maryland: 'md', massachusetts: 'ma', michigan: 'mi',
  minnesota: 'mn', mississippi: 'ms', missouri: 'mo', montana: 'mt', nebraska: 'ne', nevada: 'nv', 'new hampshire': 'nh', 'new jersey': 'nj',
  'new mexico': 'nm', 'new york': 'ny', 'north carolina': 'nc', 'north dakota': 'nd', ohio: 'oh', oklahoma: 'ok', oregon: 'or', pennsylvania: 'pa',
  'puerto rico': 'pr', 'rhode island': 'ri', 'south carolina': 'sc', 'south dakota': 'sd', tennessee: 'tn', texas: 'tx', utah: 'ut', vermont: 'vt',
  virginia: 'va', washington: 'wa', 'west virginia': 'wv', wisconsin: 'wi', wyoming: 'wy',
};
const CODES = new Set(Object.values(STATES));

/** "Rhode Island", "RI", "the District of Columbia", "D.C." → two-letter code; null when it is not a state. */
export function stateCode(place: string | null | undefined): string | null {
  if (!place) return null;
  const t = place.toLowerCase().replace(/\./g, '').replace(/^the /, '').replace(/[^a-z ]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (STATES[t]) return STATES[t]!;
  if (CODES.has(t)) return t;
  return null;
}

/** The state a question names ("… in Rhode Island", "… in DC"), read from its words. */
export function stateInQuestion(question: string): string | null {
  const m = /\b(?:in|of|from|based in|located in)\s+((?:the\s+)?[A-Z][A-Za-z.]*(?:\s+(?:of\s+)?[A-Z][A-Za-z.]*){0,2})/g;
  for (const x of question.matchAll(m)) {
    const words = x[1]!.split(/\s+/);
    // try the longest span first ("District of Columbia" before "District")
    for (let n = words.length; n >= 1; n--) { const c = stateCode(words.slice(0, n).join(' ')); if (c) return c; }
  }
  return null;
}
