/**
 * The access-path algebra by shape: which declared operation kinds answer a shape exactly, which
 * compose into an answer, and how the missing operation is named when none is declared.
 * Code only; no model participates in planning.
 */
import type { AccessPathKind } from '../ard/index.ts';
import type { Intent, Shape } from '../understand/intent.ts';

export interface Requirement {
  /** Operation kinds that answer the shape in one declared operation. */
  exact: AccessPathKind[];
  /** Operation kinds from which the answer composes soundly (fan-out, local sort/count/filter). */
  composed: AccessPathKind[];
  /** Composed kinds that are sound only over a complete population (a search page is not one). */
  needsComplete: AccessPathKind[];
  /** The operation a refusal names when none is declared. */
  missing: string;
}

const R = (exact: AccessPathKind[], composed: AccessPathKind[], needsComplete: AccessPathKind[], missing: string): Requirement => ({ exact, composed, needsComplete, missing });

const BY_SHAPE: Record<Exclude<Shape, 'grant_graph'>, Requirement> = {
  point: R(['keyed_read', 'period_read'], ['records_by_entity', 'population_scan', 'ordered_top_n'], ['population_scan'], 'a keyed or period-addressable read'),
  status: R(['keyed_read', 'join_key'], ['records_by_entity', 'population_scan'], ['population_scan'], 'a keyed read of the status field'),
  entity_list: R(['records_by_entity', 'edges_forward'], ['keyed_read', 'join_key', 'search'], [], 'a records-by-entity operation'),
  comparison: R([], ['keyed_read', 'period_read', 'records_by_entity', 'population_scan'], ['population_scan'], 'comparable keyed reads'),
  timeseries: R(['period_read'], ['keyed_read', 'records_by_entity', 'population_scan'], ['population_scan'], 'a period-addressable read'),
  ranking: R(['ordered_top_n', 'server_aggregate'], ['population_scan'], ['population_scan', 'ordered_top_n', 'server_aggregate'], 'an entity-grain population scan or an ordered top-N'),
  aggregate: R(['server_aggregate'], ['population_scan', 'ordered_top_n'], ['population_scan', 'ordered_top_n', 'server_aggregate'], 'a server-side aggregate or an entity-grain population scan'),
  filtered_subset: R([], ['population_scan', 'ordered_top_n', 'server_aggregate'], ['population_scan', 'ordered_top_n', 'server_aggregate'], 'an entity-grain population scan to test every member'),
  ratio: R([], ['keyed_read', 'period_read', 'records_by_entity', 'population_scan'], ['population_scan'], 'compatible keyed reads of each component measure'),
  correlation: R([], ['population_scan', 'server_aggregate', 'ordered_top_n'], ['population_scan', 'server_aggregate', 'ordered_top_n'], 'complete entity-grain population scans of both measures, joinable on a shared key'),
  topical: R(['search'], ['records_by_entity'], [], 'a search operation'),
};

const GRANT: Record<NonNullable<Intent['direction']>, Requirement> = {
  forward: R(['edges_forward'], ['records_by_entity'], [], 'forward grant edges (the grants an organization made)'),
  reverse: R(['edges_reverse'], [], [], 'reverse grant edges (who funds an organization)'),
  intersection: R([], ['edges_reverse'], [], 'reverse grant edges to intersect (whom two funders both fund)'),
  population: R([], ['edges_reverse'], [], 'a graph-wide population of grant edges'),
};

export function requirementFor(intent: Intent): Requirement {
  if (intent.shape === 'grant_graph') return GRANT[intent.direction ?? 'reverse'];
  const base = BY_SHAPE[intent.shape];
  // An existential subset can be generated and tested: candidates from a search, values by key.
  if (intent.shape === 'filtered_subset' && intent.quantifier === 'existential') return { ...base, composed: [...base.composed, 'search'] };
  return base;
}

/** Geographic words an operation's grain may name, by the level a question asks about. */
const LEVEL_WORDS: Record<string, RegExp> = {
  state: /\bstates?\b/i, county: /\bcount(y|ies)\b|\bmunicipios?\b/i, city: /\bplaces?\b|\bcit(y|ies)\b|\btowns?\b/i,
  metro: /\bmetro(politan)?\b|\bcbsa\b/i, nation: /\bnation(al)?\b|\bus\b/i,
};
const ANY_GEO = /\b(states?|count(y|ies)|places?|cit(y|ies)|towns?|metro\w*|tracts?|municipios?|territor\w*)\b/i;

/** A geographic operation must return rows at the level the question asks about; others are not geographic. */
export function grainMismatch(level: string | null | undefined, grain: string, coverageOf: string, kind: AccessPathKind): string | null {
  if (!level || !LEVEL_WORDS[level]) return null;
  if (!ANY_GEO.test(grain)) return null;
  // A population scan accepting a state key covers organizations in one state, not state-level rows.
  if (kind === 'population_scan' && !/\bone (state|county|place)\b/i.test(grain)) return null;
  // The grain names the row; the coverage may name the enclosing area ("every county in the 50 states"), which is not the row.
  const row = grain.replace(/\(.*$/, '');
  return LEVEL_WORDS[level]!.test(row) || (!ANY_GEO.test(row) && LEVEL_WORDS[level]!.test(coverageOf)) ? null : `returns ${grain}, not ${level}-level rows`;
}
