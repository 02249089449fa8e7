/**
 * US geography the population layer needs to check grain and scope: the state-level FIPS codes
 * (the 50 states, the District of Columbia, Puerto Rico and the island areas), their USPS codes and
 * names, and how a scope named in a question ("in Texas", "Rhode Island organizations", "in DC",
 * "in the United States") binds to one of them. Codes are text with their leading zero.
 *
 * Which rows are "states" is decided here once: the 50 states. The District of Columbia and Puerto
 * Rico appear in most state-level publisher tables (Census reports both as state equivalents) but
 * are not states; a population of states excludes them and says so (with their values), unless the
 * question names them ("states and DC"). Their counties (DC's 11001, Puerto Rico's municipios) are
 * county equivalents: a US county population keeps the District's and excludes Puerto Rico's,
 * likewise disclosed, because the county files of CDC (SVI, PLACES) cover the 50 states and DC.
 */

export type StateKind = 'state' | 'district' | 'territory';

export interface StateArea { fips: string; abbr: string; name: string; kind: StateKind }

/** From the Census state FIPS list (publisher-samples/census/geography/fips_codes_state_county.csv). */
const TABLE: ReadonlyArray<readonly [string, string, string, StateKind]> = [
  ['01', 'AL', 'Alabama', 'state'],
  ['02', 'AK', 'Alaska', 'state'],
  ['04', 'AZ', 'Arizona', 'state'],
  ['05', 'AR', 'Arkansas', 'state'],
  ['06', 'CA', 'California', 'state'],
  ['08', 'CO', 'Colorado', 'state'],
  ['09', 'CT', 'Connecticut', 'state'],
  ['10', 'DE', 'Delaware', 'state'],
  ['11', 'DC', 'District of Columbia', 'district'],
  ['12', 'FL', 'Florida', 'state'],
  ['13', 'GA', 'Georgia', 'state'],
  ['15', 'HI', 'Hawaii', 'state'],
  ['16', 'ID', 'Idaho', 'state'],
  ['17', 'IL', 'Illinois', 'state'],
  ['18', 'IN', 'Indiana', 'state'],
  ['19', 'IA', 'Iowa', 'state'],
  ['20', 'KS', 'Kansas', 'state'],
  ['21', 'KY', 'Kentucky', 'state'],
  ['22', 'LA', 'Louisiana', 'state'],
  ['23', 'ME', 'Maine', 'state'],
  ['24', 'MD', 'Maryland', 'state'],
  ['25', 'MA', 'Massachusetts', 'state'],
  ['26', 'MI', 'Michigan', 'state'],
  ['27', 'MN', 'Minnesota', 'state'],
  ['28', 'MS', 'Mississippi', 'state'],
  ['29', 'MO', 'Missouri', 'state'],
  ['30', 'MT', 'Montana', 'state'],
  ['31', 'NE', 'Nebraska', 'state'],
  ['32', 'NV', 'Nevada', 'state'],
  ['33', 'NH', 'New Hampshire', 'state'],
  ['34', 'NJ', 'New Jersey', 'state'],
  ['35', 'NM', 'New Mexico', 'state'],
  ['36', 'NY', 'New York', 'state'],
  ['37', 'NC', 'North Carolina', 'state'],
  ['38', 'ND', 'North Dakota', 'state'],
  ['39', 'OH', 'Ohio', 'state'],
  ['40', 'OK', 'Oklahoma', 'state'],
  ['41', 'OR', 'Oregon', 'state'],
  ['42', 'PA', 'Pennsylvania', 'state'],
  ['44', 'RI', 'Rhode Island', 'state'],
  ['45', 'SC', 'South Carolina', 'state'],
  ['46', 'SD', 'South Dakota', 'state'],
  ['47', 'TN', 'Tennessee', 'state'],
  ['48', 'TX', 'Texas', 'state'],
  ['49', 'UT', 'Utah', 'state'],
  ['50', 'VT', 'Vermont', 'state'],
  ['51', 'VA', 'Virginia', 'state'],
  ['53', 'WA', 'Washington', 'state'],
  ['54', 'WV', 'West Virginia', 'state'],
  ['55', 'WI', 'Wisconsin', 'state'],
  ['56', 'WY', 'Wyoming', 'state'],
  ['60', 'AS', 'American Samoa', 'territory'],
  ['66', 'GU', 'Guam', 'territory'],
  ['69', 'MP', 'Northern Mariana Islands', 'territory'],
  ['72', 'PR', 'Puerto Rico', 'territory'],
  ['74', 'UM', 'U.S. Minor Outlying Islands', 'territory'],
  ['78', 'VI', 'U.S. Virgin Islands', 'territory'],
];

export const STATE_AREAS: readonly StateArea[] = TABLE.map(([fips, abbr, name, kind]) => ({ fips, abbr, name, kind }));
const BY_FIPS = new Map(STATE_AREAS.map((s) => [s.fips, s]));
const BY_ABBR = new Map(STATE_AREAS.map((s) => [s.abbr, s]));
const BY_NAME = new Map(STATE_AREAS.map((s) => [s.name.toLowerCase(), s]));

export const stateByFips = (fips: string): StateArea | undefined => BY_FIPS.get(fips.slice(0, 2));
export const stateByAbbr = (abbr: string): StateArea | undefined => BY_ABBR.get(abbr.toUpperCase());

/** The 50 states (not DC, not Puerto Rico or the island areas). */
export const FIFTY_STATES: readonly StateArea[] = STATE_AREAS.filter((s) => s.kind === 'state');

/** What a population is bounded by: the nation, or one state-level area. */
export type Scope = { kind: 'nation' } | { kind: 'state'; fips: string; abbr: string; name: string };

export const NATION: Scope = { kind: 'nation' };

const DC_WORDS = /^(d\.?\s?c\.?|washington,?\s+d\.?\s?c\.?|the district( of columbia)?|district of columbia)$/i;
const NATION_WORDS = /^(the\s+)?(united states( of america)?|u\.?\s?s\.?(\s?a\.?)?|america|nation(wide|al)?|country|whole country|us as a whole)$/i;

/**
 * A place named as a population's bound → a scope, or undefined when it is not a state-level area
 * or the nation (a city or county bound is not something these populations are keyed by).
 * Two-letter codes are read only in capitals ("in", "or" and "me" are words).
 */
export function scopeFromText(text: string | null | undefined): Scope | undefined {
  const t = (text ?? '').trim().replace(/[?!,;:]+$/, '');
  if (!t) return undefined;
  if (NATION_WORDS.test(t)) return NATION;
  const plain = t.replace(/\.$/, '');
  const dc = DC_WORDS.test(t) || DC_WORDS.test(plain) ? BY_FIPS.get('11') : undefined;
  const s = dc ?? BY_NAME.get(plain.toLowerCase().replace(/^the state of\s+/, '').replace(/\s+state$/, '')) ?? (/^[A-Z]{2}$/.test(plain) ? BY_ABBR.get(plain) : undefined);
  return s ? { kind: 'state', fips: s.fips, abbr: s.abbr, name: s.name } : undefined;
}

/** Every state-level area named in a text ("Rhode Island organizations" → RI), longest names first. */
export function statesNamedIn(text: string): StateArea[] {
  const found: StateArea[] = [];
  let rest = ` ${text} `;
  for (const s of [...STATE_AREAS].sort((a, b) => b.name.length - a.name.length)) {
    const re = new RegExp(`[^A-Za-z]${s.name.replace(/\./g, '\\.')}(?![A-Za-z])`, 'i');
    if (re.test(rest)) { found.push(s); rest = rest.replace(re, ' '); }
  }
  if (/(^|[^A-Za-z])(D\.?C\.?|Washington,? D\.C\.)(?![A-Za-z])/.test(rest) && !found.some((s) => s.fips === '11')) found.push(BY_FIPS.get('11')!);
  return found;
}

export function scopeOf(s: StateArea): Scope {
  return { kind: 'state', fips: s.fips, abbr: s.abbr, name: s.name };
}

export const scopeLabel = (s: Scope): string => (s.kind === 'nation' ? 'the United States' : s.fips === '11' ? 'the District of Columbia' : s.name);
