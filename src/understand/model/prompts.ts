/**
 * The two understanding prompts, compiled once. They are built from the question alone: no
 * catalog, no source, no listing of what happens to be mounted (a test fails if one appears).
 * They state the distinctions that decide which operation a question needs, because shape
 * decides eligibility downstream and no later stage re-derives it.
 */
import type { ChatMessage } from '../../llm/types.ts';
import { SHAPES, type Intent } from '../intent.ts';

const STRUCTURE_SYSTEM = `You read one question about public data and say what kind of question it is and who it is about.
Answer with JSON only, matching the schema. You are not told which data sources exist, and you must not guess any.

Shapes (choose exactly one of: ${SHAPES.join(', ')}):
- point: one named entity (or the nation), one measure, one period. "What was Apple's total revenue in 2023?"
- status: a yes/no classification or state of one named entity. "Is the Sierra Club a 501(c)(3)?"
- entity_list: the records belonging to one named entity (its awards, filings, projects). "Show research awards received by MIT."
- comparison: the SAME measure across two or more entities the question NAMES. "Which had more revenue in 2023, Apple or Microsoft?"
- timeseries: one measure over a span of periods. "How did Apple's revenue change from 2019 to 2024?"
- ranking: order a population the engine must FIND (no members named). "Which states have the highest poverty rate?"
- aggregate: a count, total or average over a population. "How many active 501(c)(3) organizations are there?"
- filtered_subset: the members of a population passing a threshold. "Which nonprofits granted more than $100 million?"
- ratio: DIFFERENT measures combined, usually of one entity. "What share of a nonprofit's revenue came from government grants?"
- correlation: association between two measures across a population. "Is county poverty associated with diabetes prevalence?"
- topical: find records about a subject; relevant examples are the answer. "Find education grant opportunities."
- grant_graph: who funds whom. direction: forward = what X funds; reverse = who funds X; intersection = whom X and Y both fund; population = the largest funders overall.

Distinctions that matter: named entities + one measure = comparison; different measures = ratio; a population the engine must find = ranking or filtered_subset, never comparison.

Entity fields:
- entity: the entity as the question names it, or null (a national total, an exchange rate with no named currency, a population question).
- canonical_entity: its full commonly used name, disambiguated by the question's context ("St. Jude" in a question about medical research funding is "St. Jude Children's Research Hospital").
- entity_status: resolved (you know which real-world entity is meant), ambiguous (the question does not say which of several; then give 2-5 entity_candidates, full names, most likely first), none (no entity).
- entities: every named entity, for comparisons and intersections; otherwise [].
- type: the most specific open noun phrase for what the entity is (company, university, nonprofit, county, state, city, currency, ...).
- geography: {level, within} when the question ranges over or names places (level: state, county, city, metro, nation; within: an enclosing place), else null.
- codes: codes the question names that identify a thing by its own code rather than a name: a currency ({kind: "currency", value: "Mexican peso"}) or a record number with the noun it numbers ({kind: "record_id", value: "362478", noun: "opportunity"}); text is the words used. Otherwise [].`;

const MEASURE_SYSTEM = `You read one question about public data and say which quantity it asks for and over which span.
Answer with JSON only, matching the schema. You are not told which data sources exist, and you must not guess any.

- attribute: the measure asked for, in plain words, without the entity ("total revenue", "poverty rate"); null for topical searches and record lists.
- attributes: for a ratio or a correlation, the component measures in order (numerator first); otherwise [].
- interpretations: when the measure could mean materially different published quantities a careful analyst would not conflate ("profit": net income, operating income, gross profit), list the readings; otherwise [].
- period: {text, basis, year, quarter, date, latest, offset}. basis is "fiscal" only when the question says fiscal/FY, "calendar" only when it says calendar year or a date, otherwise "unspecified". latest=true for latest/most recent/current. null when no period is named.
- periods: every period of a span, in order, for questions over time (from 2019 to 2024 → six years); otherwise [].
- quantifier: exhaustive (all members: "which nonprofits...") or existential (some examples: "give me some..."), or null.
- threshold: {op, value, unit, text} for "more than $100 million" (value 100000000, unit USD), "above 30%" (value 30, unit %); else null.
- order: desc for highest/largest/most, asc for lowest/smallest/least; null otherwise. limit: N for "top N", else null.
- quantity: the kind of answer asked: count ("how many employees", population), money ("how much revenue", assets, tuition), percent (a rate or share of a population: "poverty rate", "admission rate"), ratio (one quantity per another: an exchange rate, a debt-to-equity ratio), date ("when"), yes_no (a status question), records (a list or search of records); null when the question does not say.
- grain: the period grain asked: quarter when a quarter is named or "quarterly", month, day for a date, year for a year; null when no period is named.
- span: for a span relative to now or open at one end: {text, last, unit, since, basis} ("over the last five years" → last 5, unit year; "since 2025" → since 2025); null otherwise. A year relative to now ("this year", "last year") goes in period with year null and offset 0 or -1.
- form: a form type the question names, as its issuer spells it ("10-K", "8-K", "DEF 14A", "990"), else null.
- status: for a yes/no status question, {id, text}: id is 501c<N> for a 501(c)(N) organization, private_foundation, public_charity, tax_exempt, large_accelerated_filer, accelerated_filer, non_accelerated_filer, smaller_reporting_company or emerging_growth_company; text the words used. null otherwise.`;

export interface RenderedPrompts {
  structure: { system: string; user: string };
  measure: { system: string; user: string };
}

/**
 * The prompts for one question; in a conversation, with the previous turn's intent as explicit
 * context (what that question was read as — it names no source and no catalog entry either).
 */
export function renderPrompts(question: string, previous?: Intent): RenderedPrompts {
  const user = `Question: ${JSON.stringify(question)}${previous ? `\n\n${previousContext(previous)}` : ''}`;
  return { structure: { system: STRUCTURE_SYSTEM, user }, measure: { system: MEASURE_SYSTEM, user } };
}

export function messages(p: { system: string; user: string }): ChatMessage[] {
  return [{ role: 'system', content: p.system }, { role: 'user', content: p.user }];
}

/** The previous turn as the model reads it: its question and the intent it was read as. */
export function previousContext(previous: Intent): string {
  return `This question follows another in the same conversation: ${JSON.stringify(previous.question)}, read as this intent:\n${JSON.stringify(previous)}\n`
    + 'If this question leaves something unsaid — an elliptical follow-up ("and in 2022?", "what about Microsoft?", "and its net income?", "compare that with Alphabet") or a reference ("its", "that", "them") — take what it leaves unsaid from that intent and keep what it says itself. A whole question of its own ignores it.';
}
