/**
 * Census ACS populations: every state (the all-states table), every county (all counties, or the
 * counties of one state), for one estimate variable and one survey vintage.
 *
 * Vintages follow the keyed reads (src/execute/binders/places.ts): a year named is that survey
 * year — for states the 1-year estimate first, then the 5-year estimate ending that year; for
 * counties the 5-year estimate, which publishes every county. The ACS 1-year county table is a
 * partial population by design (only counties of 65,000 people or more) and is read only after
 * the 5-year one, marked partial. "Latest" is the newest vintage the catalog declares.
 *
 * Request forms: a state table is asked as `group(<table>)` (estimate, margin of error and
 * annotations of every state in one response, shared by every question on that table); county
 * variables of the headline bundle (total population, white alone, median household income) are
 * asked together so one all-counties response per vintage serves any of them and their
 * correlations; other county variables alone. Within one state, the state's counties are asked
 * first (a smaller response), then all counties filtered by state FIPS.
 */
import type { OperationResult, Observation } from '../records.ts';
import { ACS_NEWEST_VINTAGE, acsSurveyLabel, SAME_ESTIMATE as REPUBLISHED } from '../../execute/binders/places.ts';
import { readFileSync } from 'node:fs';
import { COUNTY_BUNDLE, UNIVERSE_TOTAL } from '../census-acs.ts';
import { saipeMeasure, SAIPE_VARIABLES } from './census-saipe.ts';
import type { PopulationFailure, PopulationRow } from '../../population/types.ts';
import { countiesInEveryState, STATE_AREAS, type MembershipCheck, type PopulationAsk, type PopulationBinding, type PopulationProvider, type ProviderRows } from './provider.ts';

const SOURCE = 'census-acs';
const VARIABLE = /^[A-Z]+\d+[A-Z]*_(C\d+_)?\d+P?E$/;
/** Read together for every county, once per vintage (see the module note): the connector's own request form. */
export { COUNTY_BUNDLE };

/**
 * Variables that publish the same estimate: the total population is the universe total of several
 * tables and profiles (B01003 total population, B01001 sex by age, B02001 race, DP05 sex and age /
 * race), one controlled estimate per geography and vintage. A population asked for one of them is
 * read from whichever table the publisher (or the snapshot) has, the asked one first, and says so.
 */
const SAME_ESTIMATE: ReadonlyArray<readonly string[]> = [UNIVERSE_TOTAL];
export const equivalentsOf = (variable: string): string[] => [
  variable,
  ...(SAME_ESTIMATE.find((g) => g.includes(variable)) ?? []).filter((v) => v !== variable),
  // a data-profile percent that republishes a subject-table estimate (the keyed reads' table of them)
  ...(REPUBLISHED[variable] ? [REPUBLISHED[variable]!.variable] : []),
];
const whyEquivalent = (asked: string): 'universe_total' | 'republished' => (REPUBLISHED[asked] ? 'republished' : 'universe_total');

export function acsVariableOf(measureKey: string): string | undefined {
  const v = measureKey.slice(measureKey.lastIndexOf('/') + 1);
  return VARIABLE.test(v) ? v : undefined;
}

function family(variable: string): '' | '/subject' | '/profile' | '/cprofile' {
  if (/^S\d/.test(variable)) return '/subject';
  if (/^DP/.test(variable)) return '/profile';
  if (/^CP/.test(variable)) return '/cprofile';
  return '';
}

const recordMeasure = (product: string, year: number, variable: string) => `${product.replace('/', '-')}-${year}/${variable}`;

function period(survey: 'acs1' | 'acs5', year: number) {
  return { label: acsSurveyLabel(survey, year), start: `${survey === 'acs5' ? year - 4 : year}-01-01`, end: `${year}-12-31`, basis: 'survey' as const };
}

function bindVariable(ask: PopulationAsk, operation: string, variable: string): PopulationBinding[] | PopulationFailure {
  if (!ask.period.latest && ask.period.year === null) return { code: 'no_period', asked: ask.period.text, operation: `${SOURCE}/${operation}` };
  const year = ask.period.latest ? ACS_NEWEST_VINTAGE : ask.period.year!;
  // a vintage after the newest the catalog declares is not published (yet): no population for it, not a blocked request
  if (year > ACS_NEWEST_VINTAGE) return { code: 'no_period', asked: ask.period.text, operation: `${SOURCE}/${operation}` };
  if (/^K2\d/.test(variable)) return { code: 'not_a_population_measure', measure: ask.measureKey, operation: `${SOURCE}/${operation}` };
  const fam = family(variable);
  const out: PopulationBinding[] = [];
  if (ask.grain === 'state') {
    if (ask.scope.kind === 'state') return { code: 'scope_not_covered', asked: ask.scope.name, covers: 'states as members, not within a state', operation: `${SOURCE}/acs-all-states` };
    for (const survey of ['acs1', 'acs5'] as const) {
      if (survey === 'acs5' && year < 2009) continue;
      const product = `${survey}${fam}`;
      out.push({ source: SOURCE, operation: 'acs-all-states', grain: 'state', args: { year: String(year), product, variables: `group(${variable.split('_')[0]})` }, recordMeasure: recordMeasure(product, year, variable), period: period(survey, year) });
    }
  } else if (ask.grain === 'county') {
    if (year < 2009) return { code: 'no_period', asked: String(year), operation: `${SOURCE}/acs-all-counties` };
    const product = `acs5${fam}`;
    const vars = (COUNTY_BUNDLE as readonly string[]).includes(variable) ? COUNTY_BUNDLE.join(',') : variable;
    const rm = recordMeasure(product, year, variable);
    if (ask.scope.kind === 'state') out.push({ source: SOURCE, operation: 'acs-county', grain: 'county', args: { year: String(year), product, variables: variable, state: ask.scope.fips, county: '*' }, recordMeasure: rm, period: period('acs5', year) });
    out.push({ source: SOURCE, operation: 'acs-all-counties', grain: 'county', args: { year: String(year), product, variables: vars }, recordMeasure: rm, period: period('acs5', year) });
    // the 1-year survey publishes only counties of 65,000+: a partial population, read last and said so
    const one = `acs1${fam}`;
    out.push({ source: SOURCE, operation: 'acs-all-counties', grain: 'county', args: { year: String(year), product: one, variables: variable }, recordMeasure: recordMeasure(one, year, variable), period: period('acs1', year), notes: [{ code: 'survey_threshold', survey: acsSurveyLabel('acs1', year), threshold: 65000 }] });
  } else {
    return { code: 'no_population_operation', grain: ask.grain, source: SOURCE };
  }
  return out;
}

/**
 * The newest SAIPE year the catalog declares (the saipe dataset's temporal end): "latest" reads it,
 * and a later year is not published (the API answers 204).
 */
export const SAIPE_NEWEST_YEAR: number = (() => {
  const d = JSON.parse(readFileSync(new URL('../../../ard-okf/census-acs.json', import.meta.url), 'utf8')) as { entries: Array<{ data?: { datasets?: Array<{ id: string; temporal?: { end?: string } }> } }> };
  const end = d.entries.flatMap((e) => e.data?.datasets ?? []).find((x) => x.id === 'saipe')?.temporal?.end;
  if (!end || !/^\d{4}-/.test(end)) throw new Error('ard-okf/census-acs.json declares no temporal end for the saipe dataset, so its newest year ("latest") is unknown');
  return Number(end.slice(0, 4));
})();
const SAIPE_FIRST_YEAR = 1995;

/** SAIPE state estimates: the 50 states and DC for one year, a model-based estimate said so in its label. */
function bindSaipe(ask: PopulationAsk, operation: string): PopulationBinding[] | PopulationFailure {
  const v = ask.measureKey.slice(ask.measureKey.lastIndexOf('/') + 1);
  if (!SAIPE_VARIABLES.has(v)) return { code: 'not_a_population_measure', measure: ask.measureKey, operation: `${SOURCE}/${operation}` };
  if (ask.grain !== 'state') return { code: 'grain_mismatch', asked: ask.grain, returns: 'state', operation: `${SOURCE}/${operation}` };
  if (ask.scope.kind === 'state') return { code: 'scope_not_covered', asked: ask.scope.name, covers: 'states as members, not within a state', operation: `${SOURCE}/${operation}` };
  if (!ask.period.latest && ask.period.year === null) return { code: 'no_period', asked: ask.period.text, operation: `${SOURCE}/${operation}` };
  const year = ask.period.latest ? SAIPE_NEWEST_YEAR : ask.period.year!;
  if (year > SAIPE_NEWEST_YEAR || year < SAIPE_FIRST_YEAR) return { code: 'no_period', asked: ask.period.text || String(year), operation: `${SOURCE}/${operation}` };
  return [{
    source: SOURCE, operation, grain: 'state', args: { year: String(year), variables: v }, recordMeasure: saipeMeasure(year, v),
    period: { label: `SAIPE ${year}`, start: `${year}-01-01`, end: `${year}-12-31`, basis: 'calendar' },
    notes: [{ code: 'model_based', program: 'SAIPE' }],
  }];
}

/**
 * Vintages a "latest" read descends through below the newest declared, newest first: a vintage not
 * released or not recorded is one request (offline, a recorded snapshot answers for the rest), and
 * an older vintage read is disclosed against the newer ones (population/execute.ts withLatest).
 */
export const ACS_LATEST_DESCENT = 8;

/** The periods a read binds: the year asked, or, for "latest", the newest declared vintage and the ones below it. */
function periodsToBind(ask: PopulationAsk): PopulationAsk['period'][] {
  if (!ask.period.latest) return [ask.period];
  const out: PopulationAsk['period'][] = [];
  for (let y = ACS_NEWEST_VINTAGE; y >= ACS_NEWEST_VINTAGE - ACS_LATEST_DESCENT; y--) out.push(y === ACS_NEWEST_VINTAGE ? ask.period : { ...ask.period, latest: false, year: y });
  return out;
}

function bind(ask: PopulationAsk, operation: string): PopulationBinding[] | PopulationFailure {
  if (operation === 'saipe-states') return bindSaipe(ask, operation);
  const asked = acsVariableOf(ask.measureKey);
  if (!asked) return { code: 'not_a_population_measure', measure: ask.measureKey, operation: `${SOURCE}/${operation}` };
  const out: PopulationBinding[] = [];
  let failure: PopulationFailure | undefined;
  for (const period of periodsToBind(ask)) {
    for (const v of equivalentsOf(asked)) {
      const b = bindVariable({ ...ask, period }, operation, v);
      if (!Array.isArray(b)) { failure ??= b; continue; }
      out.push(...b.map((x) => (v === asked ? x : { ...x, notes: [...(x.notes ?? []), { code: 'equivalent_variable' as const, asked, read: v, why: whyEquivalent(asked) }], ...(REPUBLISHED[asked]?.variable === v ? { label: REPUBLISHED[asked]!.label } : {}) })));
    }
  }
  // (offline a table's variables are recorded together or not at all: one blocked request of a table skips its other variables)
  const table = (v: string) => (v === COUNTY_BUNDLE.join(',') ? 'bundle' : (/^group\((\w+)\)$/.exec(v)?.[1] ?? v.split('_')[0]!));
  const form = (b: PopulationBinding) => JSON.stringify([SOURCE, b.operation, { ...b.args, variables: table(b.args.variables!) }]);
  return out.length > 0 ? out.map((b) => ({ ...b, blockKey: form(b) })) : failure!;
}

function rows(result: OperationResult, b: PopulationBinding): ProviderRows {
  const obs = result.records.filter((r): r is Observation => r.type === 'observation' && r.measure === b.recordMeasure && r.geography?.level === b.grain);
  const first = obs[0];
  const out: PopulationRow[] = obs.map((o) => ({
    key: o.geography!.fips!, keyType: 'fips', label: o.geography!.name ?? o.geography!.fips!,
    value: o.value, status: o.status, ...(o.asPublished !== undefined ? { asPublished: o.asPublished } : {}),
    ...(o.marginOfError !== undefined ? { marginOfError: o.marginOfError } : {}),
    attributes: { stateFips: o.geography!.fips!.slice(0, 2), ...(o.attributes.estimateAnnotation !== undefined ? { estimateAnnotation: o.attributes.estimateAnnotation } : {}) },
  }));
  return { rows: out, declared: null, unit: first?.unit ?? 'count', ...(first?.currency ? { currency: first.currency } : {}), label: first?.label ?? b.recordMeasure.split('/')[1]!, notes: [] };
}

/** Every one of the 50 states and DC present (states), or a county row in each of them (counties). */
function membership(rs: readonly PopulationRow[], b: PopulationBinding): MembershipCheck {
  if (b.grain === 'state') {
    const have = new Set(rs.map((r) => r.key));
    return { verified: STATE_AREAS.every((f) => have.has(f)), expected: 'the 50 states and DC' };
  }
  if (b.args.state) {
    const states = new Set(rs.map((r) => r.key.slice(0, 2)));
    return { verified: states.size === 1 && states.has(b.args.state) && rs.length > 0, expected: `the counties of state ${b.args.state}` };
  }
  return countiesInEveryState(rs);
}

export const censusAcsPopulation: PopulationProvider = {
  source: SOURCE,
  // a published ACS vintage (and a SAIPE year) is revised rarely, by a re-release the API serves under the same request
  freshnessDays: 30,
  operations: { 'acs-all-states': 'state', 'acs-all-counties': 'county', 'acs-county': 'county', 'saipe-states': 'state' },
  bind,
  rows,
  membership,
};
