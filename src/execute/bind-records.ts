/**
 * From a planned operation to connector arguments for record reads (status and entity-list
 * questions): which identifier each operation takes, and any further argument the publisher's
 * layout needs. One binder per implemented operation, in a Map keyed by `publisher/operationId`;
 * an operation without a binder is a choice point that cannot be bound (the executor says why).
 *
 * The IRS EO BMF is published one extract per state, so a keyed read by EIN needs the state: it
 * comes from the intent's geography (the place the question puts the entity in), else from the
 * identity registry's place for the organization (disclosed), and is never guessed or scanned for;
 * ProPublica's organization record carries the same BMF codes by EIN alone.
 */
export interface RecordHints {
  /** Two-letter state code the intent places the entity in (its geography), lower case. */
  state?: string;
  /**
   * The state the identity registry places the entity in (its wdt:P131), set per entity by the record
   * search: read only when the question names no state, and disclosed when it is.
   */
  registryState?: { code: string; label: string };
  /** A form type the question names (10-K), for filing lists. */
  form?: string;
  /** The year the question names, for publishers that filter a list by year in the request. */
  year?: number;
  /** Award-type group the question names, for award searches that take one group per request. */
  awardGroup?: 'contracts' | 'grants';
  /** Today (YYYY-MM-DD, the question's clock): the end of an award search over every searchable year. */
  today?: string;
}

/** Pages a list read may take (the connector states when more were left). */
export const LIST_PAGES = { nsf: 40, nih: 10, usaspending: 10 } as const;
/** USAspending award type codes, one group per request (its search rejects mixed groups). */
const AWARD_TYPES = { contracts: 'A,B,C,D', grants: '02,03,04,05' } as const;
/** USAspending's searchable history starts with FY2008. */
const USASPENDING_FIRST = '2007-10-01';

/** A binding, with a note when an argument came from somewhere the question did not say (to be disclosed). */
export type Bound = { fetchArgs: Record<string, string>; note?: string } | { error: string };
type Bind = (key: { keyType: string; value: string }, hints: RecordHints) => Bound;
/** `takes`: the identifier types the read is keyed by (the records are matched on it even when the request is not). */
interface Binder { takes: readonly string[]; bind: Bind }

const needs = (op: string, type: string, got: string) => ({ error: `${op} takes a ${type}, not a ${got}` });

const BINDERS: ReadonlyMap<string, Binder> = new Map<string, Binder>(([
  ['sec-edgar/submissions-identity', ['cik'], (k) => k.keyType === 'cik' ? { fetchArgs: { cik: k.value } } : needs('submissions-identity', 'CIK', k.keyType)],
  ['sec-edgar/submissions', ['cik'], (k, h) => k.keyType === 'cik' ? { fetchArgs: { cik: k.value, ...(h.form ? { form: h.form } : {}) } } : needs('submissions', 'CIK', k.keyType)],
  ['propublica-nonprofits/organization', ['ein'], (k) => k.keyType === 'ein' ? { fetchArgs: { ein: k.value } } : needs('organization', 'EIN', k.keyType)],
  // name-keyed publishers match the name textually; the records are then kept by that name
  ['nsf-awards/awards-by-awardee', ['name'], (k) => k.keyType === 'name' ? { fetchArgs: { awardee: k.value, pages: String(LIST_PAGES.nsf) } } : needs('awards-by-awardee', 'name', k.keyType)],
  ['nih-reporter/projects-by-organization', ['name'], (k, h) => k.keyType === 'name'
    ? { fetchArgs: { org: k.value, ...(h.year !== undefined ? { fiscal_year: String(h.year) } : {}), pages: String(LIST_PAGES.nih) } }
    : needs('projects-by-organization', 'name', k.keyType)],
  ['usaspending/spending-by-award', ['name', 'uei'], (k, h) => {
    if (k.keyType !== 'name' && k.keyType !== 'uei') return needs('spending-by-award', 'recipient name or UEI', k.keyType);
    if (!h.awardGroup) return { error: 'USAspending searches one award-type group per request (contracts or grants); the question names neither, so which awards to list is unknown (ask for "contracts" or "grants")' };
    const start = h.year !== undefined ? `${h.year}-01-01` : USASPENDING_FIRST;
    const end = h.year !== undefined ? `${h.year}-12-31` : h.today;
    if (!end) return { error: 'no end date for the award search (the question names no year and the run has no clock)' };
    return { fetchArgs: { recipient: k.value, award_types: AWARD_TYPES[h.awardGroup], start, end, pages: String(LIST_PAGES.usaspending) } };
  }],
  // the whole state extract: the record is still found by its EIN (examined by key), never by name
  ['irs-eo-bmf/eo-bmf-state', ['ein'], (k, h) => {
    if (k.keyType !== 'ein') return needs('eo-bmf-state', 'EIN', k.keyType);
    const s = bmfState(h);
    return 'error' in s ? s : { fetchArgs: { state: s.state }, ...(s.note ? { note: s.note } : {}) };
  }],
  ['irs-eo-bmf/eo-bmf-ein-lookup', ['ein'], (k, h) => {
    if (k.keyType !== 'ein') return needs('eo-bmf-ein-lookup', 'EIN', k.keyType);
    const s = bmfState(h);
    return 'error' in s ? s : { fetchArgs: { state: s.state, ein: k.value }, ...(s.note ? { note: s.note } : {}) };
  }],
] as Array<[string, readonly string[], Bind]>).map(([op, takes, bind]) => [op, { takes, bind }]));

/**
 * The BMF extract to read: the state the question places the entity in; else the state the identity
 * registry places it in (the STATE column of the extract row its registry node was built from), said
 * in a note; else unbound — never guessed, never a scan of every extract.
 */
function bmfState(h: RecordHints): { state: string; note?: string } | { error: string } {
  if (h.state) return { state: h.state };
  if (h.registryState) {
    return { state: h.registryState.code, note: `the question names no state; the identity registry places the organization in ${h.registryState.label} (located in, wdt:P131), so the IRS EO BMF extract for ${h.registryState.label} (eo_${h.registryState.code}) is read` };
  }
  return { error: 'the IRS EO BMF is published one extract per state; the question names no state and the identity registry places the organization in none, so the extract to read is unknown (name the state, e.g. "in DC")' };
}

export function bindRecordOperation(operationKey: string, key: { keyType: string; value: string }, hints: RecordHints): Bound {
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
