/**
 * The English of population answers: typed population notes, exclusions and caveats worded once,
 * here, with Intl plural and list formatting. Nothing upstream writes these sentences, and nothing
 * reads them back.
 */
import type { Exclusion, PopulationNote, PopulationRead } from './types.ts';
import type { CorrelationCaveat } from './compute/correlation.ts';
import type { RatioWarning } from './compute/ratio.ts';

const plurals = new Intl.PluralRules('en');
export const count = (n: number, one: string, other = `${one}s`) => `${n.toLocaleString('en-US')} ${plurals.select(n) === 'one' ? one : other}`;
const andList = new Intl.ListFormat('en', { type: 'conjunction' });
export const allOf = (xs: readonly string[]) => andList.format(xs);

export const GRAIN_NOUN: Record<string, [string, string]> = {
  state: ['state', 'states'], county: ['county', 'counties'], place: ['place', 'places'], organization: ['organization', 'organizations'],
  company: ['company', 'companies'], opportunity: ['opportunity', 'opportunities'],
};
export const grainWord = (g: string, n = 2) => (GRAIN_NOUN[g] ?? [g, `${g}s`])[n === 1 ? 0 : 1];

const CLASS_WORDS: Record<string, string> = {
  private_foundation: 'private foundations', private_operating_foundation: 'private operating foundations', private_nonoperating_foundation: 'private non-operating foundations',
  public_charity: 'public charities', supporting_organization: 'supporting organizations', church: 'churches', hospital: 'hospitals', '501c3': '501(c)(3) organizations',
};
export const classWords = (id: string) => CLASS_WORDS[id] ?? (/^501c(\d+)$/.test(id) ? `501(c)(${id.slice(4)}) organizations` : id.replace(/_/g, ' '));

const EXCLUSION_WORDS: Record<Exclusion['code'], string> = {
  value_suppressed: 'suppressed or not computable by the publisher',
  value_not_applicable: 'not applicable',
  value_not_published: 'not published in this release',
  value_missing: 'no value reported',
  outside_grain: 'not of the grain asked',
  outside_scope: 'outside the bound asked',
  not_in_class: 'not of the class asked',
};

export function exclusionText(e: Exclusion, grain: string): string {
  const ex = e.examples.slice(0, 3).map((x) => `${x.label}${x.asPublished !== undefined && x.asPublished !== '' && e.code.startsWith('value_') ? ` (published as "${x.asPublished}")` : ''}`);
  const which = e.code === 'outside_scope' || e.code === 'not_in_class' ? '' : `: ${allOf(ex)}${e.count > ex.length ? ', …' : ''}`;
  return `${count(e.count, grainWord(grain, 1), grainWord(grain))} excluded, ${EXCLUSION_WORDS[e.code]}${e.detail && e.code !== 'outside_grain' ? ` (${e.detail})` : ''}${which}`;
}

const value = (v: number | null) => (v === null ? 'no value' : v.toLocaleString('en-US'));

export function populationNoteText(n: PopulationNote, read: Pick<PopulationRead, 'grain'>): string | null {
  switch (n.code) {
    case 'trimmed_sample': return `the recorded response is a TRIMMED sample (${n.sample})`;
    case 'derived_sample': return `the recorded response is a DERIVED sample, not a byte-for-byte publisher response (${n.sample})`;
    case 'membership_verified': return `every member is present despite that (checked: ${n.expected})`;
    case 'membership_unverified': return `whether every ${grainWord(n.grain, 1)} is present cannot be checked from the response: a partial population`;
    case 'survey_threshold': return `${n.survey} publishes only geographies of ${n.threshold.toLocaleString('en-US')} people or more: a partial population`;
    case 'search_results': return `search results (${n.shown} shown${n.hitCount !== null ? ` of ${n.hitCount} the search reported` : ''}), not a population`;
    case 'unread_pages': return `${count(n.pages, 'page')} of the response not read`;
    case 'state_equivalents_excluded': return `not ranked or counted as states: ${allOf(n.rows.map((r) => `${r.label} (${value(r.value)})`))}, state equivalents in the publisher's table`;
    case 'county_equivalents_excluded': return `${count(n.count, 'county equivalent')} of ${n.area} not counted among US counties`;
    case 'scope_filter': return `bounded to ${n.scope} by ${n.field}`;
    case 'class_filter': return `${classWords(n.class)}: IRS ${n.field} code ${allOf(n.codes)}`;
    case 'survey_vintage': return null;
    case 'newer_release_not_read': return `a newer release (${n.label}) was not read: ${n.why}`;
    case 'sample_recorded': return `replayed from the offline snapshot (${n.sample}${n.recordedAt ? `, recorded ${n.recordedAt}` : ''})`;
    case 'periods_differ': return `each ${grainWord(read.grain, 1)}'s own period: ${count(n.members, grainWord(read.grain, 1), grainWord(read.grain))} with periods ending from ${n.earliest} to ${n.latest}`;
    case 'coverage_of': return `coverage: ${n.of}`;
    case 'period_not_published': return `no population of this measure for ${n.asked} was read; its latest, ${n.read}, is correlated instead`;
    case 'equivalent_variable': return n.why === 'republished'
      ? `read as ${n.read} of the subject table, the estimate the data profile's ${n.asked} republishes`
      : `read as ${n.read}, the same published estimate as ${n.asked} (the total population is the universe total of both tables)`;
  }
}

const CAVEATS: Record<CorrelationCaveat, string> = {
  correlation_not_causation: 'a correlation is not a cause',
  ecological_fallacy: 'an association across areas says nothing about the individuals in them (ecological fallacy)',
  spatial_autocorrelation: 'neighbouring areas are not independent observations (spatial autocorrelation), so no significance is claimed',
  periods_differ: 'the two measures are of different periods',
};
export const caveatText = (c: CorrelationCaveat) => CAVEATS[c];

export function ratioWarningText(w: RatioWarning): string {
  switch (w.code) {
    case 'periods_differ': return `the components are of different periods: ${w.numerator} and ${w.denominator}${w.years !== null ? ` (${count(w.years, 'year')} apart)` : ''}`;
    case 'match_methods_differ': return `the components were matched differently (${w.numerator} and ${w.denominator})`;
    case 'entities_differ': return `the components are about different entities: ${w.numerator} and ${w.denominator}`;
  }
}

/** Everything a reader must know about one population read, worded. */
export function readDisclosures(read: PopulationRead): string[] {
  const out: string[] = [];
  for (const n of [...read.completeness.reasons, ...read.notes]) {
    const t = populationNoteText(n, read);
    if (t && !out.includes(t)) out.push(t);
  }
  for (const e of read.completeness.excluded) if (e.code !== 'outside_grain' || read.grain !== 'state') out.push(exclusionText(e, read.grain));
  return out;
}

/** A mean of areas' own values: each area once, whatever its size. */
export function unweightedText(kind: 'rate' | 'median' | 'amount', grain: string, scope: string | null): string {
  const whole = scope ?? 'the areas taken together';
  const what = kind === 'rate' ? `not the rate of ${whole}` : kind === 'median' ? `not the median of ${whole}` : 'not weighted by size';
  return `an unweighted mean of the ${grainWord(grain)}' own values, each ${grainWord(grain, 1)} counted once whatever its population: ${what}`;
}
