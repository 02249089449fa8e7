/**
 * Shape from the question's surface: an ordered list of cue rules, first match wins.
 *
 * The order encodes the operational distinctions the model prompt states in words: grant
 * direction before anything else (it decides the traversal); two or more *named* entities make a
 * comparison, while a population the engine must find makes a ranking or filtered subset; a ratio
 * combines different measures; a span of periods makes a timeseries. When no rule fires and no
 * measure can be read, the interpreter says it cannot tell rather than defaulting to a shape.
 */
import type { Intent, Shape } from '../intent.ts';
import { grantDecision } from './grant-cues.ts';

export interface ShapeCues {
  q: string;
  entities: string[];
  threshold: boolean;
  span: boolean;
  periodsCount: number;
  limit: boolean;
  /** Named entities that only bound the population ("in Texas"). */
  scoped: number;
}

export interface ShapeDecision {
  shape: Shape;
  direction?: Intent['direction'];
  quantifier?: Intent['quantifier'];
  order?: Intent['order'];
  /** Grant questions: what is ranked or selected ("recipients", a cause), when the rule reads it. */
  attribute?: string;
  /** The name a rule read itself, when the mention finder reads it as a qualifier ("Ford Foundation grants"). */
  subject?: string;
  /**
   * Grant questions: the name a rule read as the question's organization when it is not the first
   * one named ("grants to Michigan organizations from the Joyce Foundation": the funder, not Michigan).
   */
  named?: string;
  /** Grant questions: two funders a rule read by name ("How much did Mott and Joyce give to X?"), set side by side. */
  funders?: string[];
  rule: string;
}

const SUPERLATIVE = /\b(highest|lowest|most|least|largest|biggest|smallest|fewest|best|worst|top|richest|poorest|greatest|leading)\b/i;
const ASC = /\b(lowest|least|smallest|fewest|worst|poorest)\b/i;
export const RECORD_NOUNS = /\b(awards?|grants?|projects?|filings?|contracts?|returns?|studies)\b/i;
/** A plural noun naming the members of a population. */
const AGG_MEMBERS = /\b(count(?:ies)|states|organi[sz]ations|nonprofits|non-profits|charities|foundations|companies|hospitals|churches)\b/i;
const MEASURE_WORDS = /\b(total|amount|ceiling|floor|how\s+much|paid|value|rate)\b/i;

export function decideShape(c: ShapeCues): ShapeDecision | null {
  const q = c.q;
  const lower = q.toLowerCase();
  const named = c.entities.length;
  const subjects = named - c.scoped;

  // Topical search verbs come first: "find awards related to X" is a search, not a correlation.
  if (/^\s*(find|search|look\s+up)\b/i.test(q) && !c.threshold) return { shape: 'topical', quantifier: 'existential', rule: 'search-verb' };
  // "are there any grants / funding opportunities for X?": a search for records on a topic, not a count
  if (/^\s*(?:are|is)\s+there\s+(?:any\s+)?(?:(?:federal|open|current)\s+)?(?:grants?|funding(?:\s+opportunit(?:y|ies))?|grant\s+opportunit(?:y|ies)|opportunit(?:y|ies))\s+(?:for|about|on|related\s+to|regarding|in)\b/i.test(q) && !c.threshold) return { shape: 'topical', quantifier: 'existential', rule: 'are-there-grants-for' };

  // Grant graph: who funds whom. Direction first, because it decides the traversal.
  const grant = grantDecision(q);
  if (grant) return grant;

  // Correlation: association between two measures across a population.
  if (/\b(correlat\w*|associated\s+with|association\s+between|relationship\s+between|related\s+to)\b/i.test(q)
    || /\bwith\s+more\s+\w+.*\bhave\s+more\b/i.test(q)
    // "are A and B related / associated (across counties)?"
    || /^\s*(?:are|do)\s+.+\s+and\s+.+\s+(?:related|associated)\b/i.test(q)) return { shape: 'correlation', quantifier: 'exhaustive', rule: 'association' };

  // Comparison: the same measure across entities the question names.
  if (named >= 2 && (/\b(compared?|comparing|comparison|vs\.?|versus)\b/i.test(q) || /\bor\b/i.test(q) || /\b(more|higher|lower|less|larger|bigger)\b/i.test(q))) return { shape: 'comparison', rule: 'named-entities' };
  // one entity compared across the years named ("compare Apple's revenue in 2021 and 2023") is its series
  if (/\bcompare\b/i.test(q) && named >= 1 && !(subjects === 1 && c.periodsCount >= 2)) return { shape: 'comparison', rule: 'compare-verb' };

  // Ratio: different measures combined, usually of one entity.
  if (/\b(share|fraction|percentage|proportion|percent)\s+of\b.*\b(came|come|comes|went|go|goes|is|are|was|were)\b/i.test(q)
    || /\bratio\b|\bmargin\b|\bpayout\b|\breturn\s+on\s+(?:total\s+)?(?:assets|equity)\b|\bas\s+an?\s+(?:percent(?:age)?|share|fraction|proportion)\s+of\b/i.test(q)) return { shape: 'ratio', rule: 'share-of' };

  // A list of one entity's records over a span ("List Apple's filings since 2023") is still a list: the
  // span filters its records by date, it does not make a series of one measure.
  if (c.span && named >= 1 && RECORD_NOUNS.test(q) && !MEASURE_WORDS.test(q) && /^\s*(list|show|what|which)\b/i.test(q)) return { shape: 'entity_list', quantifier: 'exhaustive', rule: 'records-of' };

  // Timeseries: one measure over a span of periods.
  if (c.periodsCount >= 2 || c.span
    || /\b(trend|over\s+time)\b/i.test(q)) return { shape: 'timeseries', rule: 'span' };

  // Filtered subset: a population tested against a threshold.
  if (c.threshold && (/^\s*(which|what|give|name|find|list|show)\b/i.test(q) || subjects === 0)) {
    const existential = /\b(some|a\s+few|any|examples?|several|a\s+couple)\b/i.test(q);
    return { shape: 'filtered_subset', quantifier: existential ? 'existential' : 'exhaustive', rule: 'threshold' };
  }

  // Ranking: the engine must find the population and order it.
  if (/^\s*rank\b/i.test(q) || (/^\s*top\s+\d+/i.test(q))
    || (/^\s*(which|what|who)\b/i.test(q) && SUPERLATIVE.test(q) && subjects === 0)
    || (/^\s*(which|what)\s+(?:are|were)\s+the\b/i.test(q) && SUPERLATIVE.test(q))
    // members of a population asked with a superlative: a place named with them bounds it ("which five California counties have the highest …")
    || (/^\s*(which|what)\s+(?:[\w.-]+\s+){0,3}(count(?:y|ies)|states|cities|towns|organi[sz]ations|nonprofits|charities|companies|foundations)\b/i.test(q) && SUPERLATIVE.test(q))
    // an imperative naming members ("name / list / show / give me the five California counties with the lowest …")
    || (/^\s*(?:name|list|show|give(?:\s+me)?|tell\s+me)\s+(?:the\s+)?(?:[\w.-]+\s+){0,3}(count(?:y|ies)|states|cities|towns|organi[sz]ations|nonprofits|charities|companies|foundations)\b/i.test(q) && SUPERLATIVE.test(q))) {
    return { shape: 'ranking', quantifier: 'exhaustive', order: ASC.test(q) ? 'asc' : 'desc', rule: 'superlative' };
  }

  // "How many people live in Harris County?": the people of one named place are its own total population, read by its key
  if (/^\s*how\s+many\s+(?:people|persons|residents|inhabitants)\s+(?:(?:live|lived|living|reside|resided|residing)\s+|(?:are|were)\s+there\s+)?in\b/i.test(q) && subjects === 0 && named === 1 && !c.threshold) return { shape: 'point', rule: 'people-of-place' };

  // Aggregate: a count or total over a population.
  // (a count of one named entity's own things, "how many Apple shares were outstanding", is that entity's measure: a point)
  if (/^\s*how\s+many\b/i.test(lower) && !/\b(does|do|did|has|have)\b\s+(?:the\s+)?[A-Z]/.test(q) && subjects === 0) return { shape: 'aggregate', quantifier: 'exhaustive', rule: 'how-many' };
  if (/\b(total|average|sum|combined)\b.*\b(all|across|combined|in\s+total)\b|\bin\s+total\b/i.test(q) && !/\bcompare\b/i.test(q)) return { shape: 'aggregate', quantifier: 'exhaustive', rule: 'total-over-all' };
  // "the average poverty rate of Texas counties", "total revenue of Rhode Island nonprofits": a measure combined over named members
  if (/^\s*(?:what\s+(?:is|was|are|were)\s+)?(?:the\s+)?(total|average|mean|sum|combined)\b/i.test(q) && AGG_MEMBERS.test(q.replace(/\bUnited States\b/gi, ' ')) && subjects === 0) return { shape: 'aggregate', quantifier: 'exhaustive', rule: 'combined-over-members' };

  // Status: a yes/no question about a classification or state.
  if (/^\s*(is|are|was|does|do)\b/i.test(q) && named >= 1 && /501\(c\)|\b(tax[- ]exempt|charity|foundation|active|filer|open|closed|registered|still|exempt|status|accelerated)\b/i.test(q)) return { shape: 'status', rule: 'yes-no-status' };

  // Topical: search for records by subject, no named subject entity.
  if (/^\s*(find|search|look\s+up|are\s+there\s+any)\b/i.test(q) || /^\s*show\s+me\s+\w+(\s+\w+)?\s+(opportunities|projects|awards|grants)\b/i.test(q)
    || /\b(named\s+after|in\s+their\s+name)\b/i.test(q)) return { shape: 'topical', quantifier: 'existential', rule: 'search' };

  // Entity list: the records of one named entity.
  if (named >= 1 && RECORD_NOUNS.test(q) && !MEASURE_WORDS.test(q) && (/^\s*(list|show|what|which)\b/i.test(q))) return { shape: 'entity_list', quantifier: 'exhaustive', rule: 'records-of' };

  return null;
}
