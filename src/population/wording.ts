/**
 * The English of population answers: typed population notes, exclusions and caveats worded once,
 * here, with Intl plural and list formatting. Nothing upstream writes these sentences, and nothing
 * reads them back.
 */
import type { Exclusion, PopulationFailure, PopulationNote, PopulationRead } from './types.ts';
import type { ComputeRefusal } from './compute/common.ts';
import type { CorrelationCaveat } from './compute/correlation.ts';
import type { RatioWarning } from './compute/ratio.ts';
import { latestWords } from '../answer/wording.ts';

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
    case 'latest': return latestWords(n.disclosure);
    case 'model_based': return `${n.program} values are model-based estimates (the ACS combined with administrative records), not the ACS survey's own estimates`;
    case 'period_not_published': return `no population of this measure for ${n.asked} was read; its latest, ${n.read}, is correlated instead`;
    case 'stored_graph': return `read from the population graph stored in Assay's store on ${n.storedAt.slice(0, 10)} (${n.graph}), not asked of the publisher again; its rows are ${allOf(n.responses.map((r) => `the response to ${r.url}${/^\d{4}-\d{2}-\d{2}/.test(r.retrievedAt) ? ` retrieved ${r.retrievedAt}` : ''} (sha256 ${r.sha256.slice(0, 12)}…)`))}`;
    case 'stored_graph_refetched': return `the population graph stored earlier was not used (${n.why === 'stale' ? `stored ${n.storedAt?.slice(0, 10) ?? 'earlier'}, older than the ${n.maxAgeDays}-day freshness policy` : n.why === 'incomplete' ? `it holds ${n.found ?? 0} of the ${n.declared ?? 0} rows it was stored with` : 'stored in an older format'}): the publisher was asked again${n.revised ? ' and its response has changed since, so the graph was replaced' : ''}`;
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

// ---------------------------------------------------------------------------------------------
// Refusals and boundaries of population reads and computations: typed codes worded here, once.

const pct = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
const REASON_WORDS: Record<string, string> = {
  trimmed_sample: 'a TRIMMED sample', derived_sample: 'a DERIVED sample', survey_threshold: 'a survey that publishes only larger areas',
  search_results: 'a page of search results', unread_pages: 'pages left unread', membership_unverified: 'members not verified against the whole',
};
const reasonWords = (codes: readonly string[]) => allOf(codes.map((c) => REASON_WORDS[c] ?? c.replace(/_/g, ' ')));

/** A population read that could not be made (the boundary an engine records). */
export function populationFailureText(f: PopulationFailure): string {
  switch (f.code) {
    case 'no_population_operation': return `${f.source} has no operation returning a population at ${f.grain} grain`;
    case 'grain_mismatch': return `${f.operation} returns ${f.returns === 'unknown' ? 'rows of another grain' : grainWord(f.returns)}, not ${grainWord(f.asked)}`;
    case 'scope_not_covered': return `${f.operation} covers ${f.covers}, not ${f.asked}`;
    case 'no_period': return `${f.operation} publishes no population for ${f.asked}`;
    case 'not_a_population_measure': return `${f.measure} is not read as a population by ${f.operation}`;
    case 'measure_absent': return `the ${f.operation} response holds no ${f.measure} rows`;
    case 'operationally_blocked': return f.message;
    case 'no_data': return f.message;
  }
}

/** Why a computation over a population read does not answer (the shape's refusal). */
export function computeRefusalText(r: ComputeRefusal): string {
  switch (r.code) {
    case 'partial_population': return `${r.operation} returned ${r.verdict === 'sample' ? 'a sample' : 'a partial population'} (${r.usable.toLocaleString('en-US')} usable of ${r.declared === null ? 'an undeclared number of' : r.declared.toLocaleString('en-US')} rows${r.reasons.length ? `; ${reasonWords(r.reasons)}` : ''}): no ranking, count or statistic over it stands for the whole`;
    case 'no_usable_members': return `${r.operation} holds ${count(r.members, 'member')}, none with a usable value (${r.excluded.toLocaleString('en-US')} excluded)`;
    case 'suppressed_series': return `${r.measure} is suppressed or missing for most members of ${r.operation}: ${r.usable.toLocaleString('en-US')} usable of ${r.members.toLocaleString('en-US')} (${pct(r.members ? (100 * r.usable) / r.members : 0)}); a statistic over the rest would not stand for the population`;
    case 'threshold_unit_mismatch': return `the threshold "${r.threshold}" is ${unitNoun(r.thresholdUnit)}, but ${r.measure ? lowerFirst(r.measure) : 'the measure'} is ${unitNoun(r.measureUnit)}: no member is tested against it (a condition on one measure and a question about another are not combined)`;
    case 'grain_mismatch': return `the two measures are published at different grains (${allOf(r.grains.map((g) => grainWord(g, 1)))}): no key aligns their rows`;
    case 'period_mismatch': return `the components cover different periods (${allOf(r.periods)}): a ratio of one entity's measures needs both for the same period`;
    case 'entity_mismatch': return `the components were read for different entities (${allOf(r.entities)}): a ratio of one entity's measures needs both for the same one`;
    case 'too_few_aligned': return `only ${count(r.aligned, 'member')} aligned on both measures; a correlation needs at least ${r.minimum}`;
    case 'no_variation': return `${r.measure} has the same value for every aligned member: no association can be measured`;
    case 'zero_denominator': return `the denominator ${r.denominator} is zero`;
    case 'unit_mismatch': return `the components' units do not divide (${r.units[0]} by ${r.units[1]}): ${r.why}`;
    case 'not_additive': return `${r.measure} is ${r.kind === 'rate' ? 'a rate' : 'a median'}: the members' own ${r.kind === 'rate' ? 'rates' : 'medians'} do not add up to a total (an average, or the rate of the whole from its counts, can be asked)`;
    case 'threshold_not_applied': return `the question sets a condition ("${r.threshold}") that ${r.shape === 'ranking' ? 'a ranking of every member' : 'a count or total over every member'} would leave out: only the members passing it, asked for themselves ("which … have …"), can be tested against it`;
    case 'rate_asked_as_count': return `"${r.words}" asks for a rate per people, not a count: ask it as a ratio to the total population`;
  }
}

/** A unit as the kind of quantity it measures, for a reader. */
const unitNoun = (u: string) => (u === '%' || u === 'percent' ? 'a percentage' : u === 'fraction' ? 'a fraction of 1 (0 to 1)' : u === 'USD' ? 'an amount in dollars' : u === 'count' || u === 'people' ? 'a count' : `in ${u}`);
/** A measure's label without the publisher's code before it ("SAEPOVRTALL_PT: Poverty rate" → "poverty rate"). */
const lowerFirst = (label: string) => { const s = label.replace(/^[A-Z0-9_]+:\s*/, ''); return /^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s; };

/** A candidate measure whose unit cannot be the quantity asked (a percent for "the number of people"). */
export function quantityMismatchText(measure: string, asked: string, unit: string, others = 0): string {
  return `${measure} is in ${unit === '%' ? 'percent' : unit}, not ${a(asked === 'count' ? 'count' : asked === 'money' ? 'money amount' : asked)} as asked${others > 0 ? ` (and ${count(others, 'other candidate measure')} of another kind of quantity, not read)` : ''}`;
}
const a = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** A ratio whose component(s) a cross-check disputes. */
export const disputedComponentText = (labels: readonly string[]) => `the ratio is computed from the primary read${labels.length === 1 ? '' : 's'} of ${allOf(labels)}, which a cross-check disputes: it is only as certain as ${labels.length === 1 ? 'that component' : 'those components'}`;

/** A candidate measure counted over another universe than the one asked (families for "poverty rate"). */
export function universeMismatchText(measure: string, universe: string, asked: string | null, words: string, others = 0): string {
  return `${measure} counts ${universe}, not ${asked ?? 'people'}${asked ? '' : ` ("${words}" names no universe: people, not ${universe})`}: another statistic, not read${others > 0 ? ` (and ${count(others, 'other candidate measure')} over ${universe})` : ''}`;
}

