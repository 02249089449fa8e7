/**
 * Binders for the Census ACS reads keyed by a FIPS code (states, counties, places). CDC/ATSDR SVI
 * 2018 and CDC PLACES reads are bound by their connectors' own binders.
 *
 * ACS vintages. A year the question names is the survey year asked: for a state, the 1-year
 * estimate of that year first, then the 5-year estimate ending that year (each disclosed by its
 * label, "ACS 5-year 2014–2018"); for a county or place, the 5-year estimate (the only survey that
 * publishes every county and place). "Latest" is the newest vintage the catalog declares for the
 * ACS dataset (ard-okf/census-acs.json: temporal end 2024); a vintage that cannot be fetched (no
 * cassette offline, not released) is a refusal naming it, never an older year in its place.
 *
 * Request forms. A state's value is read from the all-states table (`group(<table>)`, one request
 * for every state: the estimate with its margin of error and annotations, shared by every state of
 * a comparison); a county's or place's from the variable for every county (place) of its state
 * (one request shared by the counties of a comparison within a state). The record is still found
 * by its FIPS code, never by name.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Binder, Binding, BindRequest, BindResult } from './types.ts';
import { measurePart } from './types.ts';

/**
 * The newest ACS vintage the catalog declares: the latest year any census-acs dataset's `temporal.end`
 * reaches in ard-okf/census-acs.json (the bundled catalog; read once, so the descriptor is the one
 * place that says it). "latest" reads this vintage.
 */
export const ACS_NEWEST_VINTAGE = newestDeclaredYear(new URL('../../../ard-okf/census-acs.json', import.meta.url));

export function newestDeclaredYear(descriptor: URL): number {
  const years: number[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) { x.forEach(walk); return; }
    if (!x || typeof x !== 'object') return;
    const t = (x as { temporal?: { end?: unknown } }).temporal;
    if (t && typeof t.end === 'string' && /^\d{4}-/.test(t.end)) years.push(Number(t.end.slice(0, 4)));
    Object.values(x).forEach(walk);
  };
  walk(JSON.parse(readFileSync(descriptor, 'utf8')));
  if (years.length === 0) throw new Error(`${fileURLToPath(descriptor)} declares no dataset temporal end, so the newest ACS vintage ("latest") is unknown: add temporal.end to the census-acs dataset`);
  return Math.max(...years);
}

type Level = 'state' | 'county' | 'place';

const FIPS_LENGTH: Record<Level, number> = { state: 2, county: 5, place: 7 };

/** `acs5-2009/B19013_001E` → the variable; the group is the variables file the catalog read it from, not a vintage to fetch. */
function acsVariable(measureKey: string): string | undefined {
  const m = measurePart(measureKey, 'census-acs');
  const v = m.includes('/') ? m.slice(m.lastIndexOf('/') + 1) : m;
  return /^[A-Z]+\d+[A-Z]*_(C\d+_)?\d+P?E$/.test(v) ? v : undefined;
}

/** Which ACS product family publishes a variable: subject tables (S…), data profiles (DP…), comparison profiles (CP…), else detailed tables. */
function family(variable: string): '' | '/subject' | '/profile' | '/cprofile' {
  if (/^S\d/.test(variable)) return '/subject';
  if (/^DP/.test(variable)) return '/profile';
  if (/^CP/.test(variable)) return '/cprofile';
  return '';
}

/** "Median household income … (median household income …)": the catalog appends the table concept, often the label again. */
function dropRepeatedConcept(t: string): string {
  if (!t.endsWith(')')) return t;
  let depth = 0;
  let open = -1;
  for (let k = t.length - 1; k >= 0; k--) {
    if (t[k] === ')') depth++;
    else if (t[k] === '(' && --depth === 0) { open = k; break; }
  }
  const head = open > 0 ? t.slice(0, open).trimEnd() : '';
  return head && head.toLowerCase() === t.slice(open + 1, -1).toLowerCase() ? head : t;
}

export function acsSurveyLabel(survey: 'acs1' | 'acs5', year: number): string {
  return survey === 'acs5' ? `ACS 5-year ${year - 4}–${year}` : `ACS 1-year ${year}`;
}

/** The record measure the census connector writes for a product and year (`acs1-subject-2018/S1701_C03_001E`). */
const recordMeasure = (product: string, year: number, variable: string) => `${product.replace('/', '-')}-${year}/${variable}`;

/**
 * Estimates Census publishes in more than one table. A data-profile percent republishes a
 * subject-table estimate: DP03's "percentage of people whose income in the past 12 months is below
 * the poverty level — all people" is S1701's "percent below poverty level" of the population whose
 * poverty status is determined (S1701_C03_001E; MANIFEST §2d: Illinois 2018, 12.1, equal to the
 * B17001 ratio). When the profile of a year cannot be read (not released, no recording), the same
 * estimate is read from the table it republishes, as a further reading of the same survey and
 * year, and the evidence says which table it came from. Only equalities Census documents belong here.
 */
export const SAME_ESTIMATE: Readonly<Record<string, { variable: string; table: string; label: string }>> = {
  DP03_0128PE: { variable: 'S1701_C03_001E', table: 'S1701 (poverty status in the past 12 months)', label: 'Percent below poverty level (population for whom poverty status is determined)' },
};

function acsBinder(level: Level): Binder {
  return {
    entityType: level,
    bind({ measureKey, key, period }: BindRequest): BindResult {
      if (key.keyType !== 'fips' || key.value.length !== FIPS_LENGTH[level]) return { error: `acs-${level} takes a ${FIPS_LENGTH[level]}-digit ${level} FIPS code, not ${key.keyType} ${key.value}` };
      const variable = acsVariable(measureKey);
      if (!variable) return { error: `${measureKey} is not an ACS estimate variable` };
      if (!period.latest && period.year === null) return { error: 'the question names no survey year' };
      const year = period.latest ? ACS_NEWEST_VINTAGE : period.year!;
      if (year < 2005) return { error: `the ACS began in 2005; there is no ${year} estimate` };
      const fam = family(variable);
      // supplemental estimates (K2… tables) are a 1-year product of their own, for geographies of 65,000+
      const supplemental = /^K2\d/.test(variable);
      const surveys: Array<'acs1' | 'acs5' | 'acsse'> = supplemental ? ['acsse'] : level === 'state' ? ['acs1', 'acs5'] : ['acs5'];
      const out: Binding[] = [];
      for (const survey of surveys) {
        if (survey === 'acs5' && year < 2009) continue; // the first 5-year estimates are 2005–2009
        if (survey === 'acsse' && year < 2014) continue; // the supplemental estimates began with 2014
        const product = survey === 'acsse' ? survey : `${survey}${fam}`;
        const reading = survey === 'acsse' ? `ACS 1-year supplemental estimates ${year}` : acsSurveyLabel(survey, year);
        // the catalog read the variable from one vintage's metadata; its dollars are that vintage's
        const labelFor = (t: string) => dropRepeatedConcept(t.replace(/^[A-Z0-9_]+: /, '').replace(/\b(19|20)\d\d inflation-adjusted/gi, `${year} inflation-adjusted`));
        const push = (prod: string, v: string, extra: Partial<Binding> = {}) => {
          if (level === 'state') out.push({ operation: 'acs-all-states', fetchArgs: { year: String(year), product: prod, variables: `group(${v.split('_')[0]})` }, measure: recordMeasure(prod, year, v), reading, labelFor, ...extra });
          else if (level === 'county') out.push({ operation: 'acs-county', fetchArgs: { year: String(year), product: prod, variables: v, state: key.value.slice(0, 2), county: '*' }, measure: recordMeasure(prod, year, v), reading, labelFor, ...extra });
          else out.push({ operation: 'acs-place', fetchArgs: { year: String(year), product: prod, variables: v, state: key.value.slice(0, 2), place: '*' }, measure: recordMeasure(prod, year, v), reading, labelFor, ...extra });
        };
        push(product, variable);
        const same = survey === 'acsse' ? undefined : SAME_ESTIMATE[variable];
        if (same) {
          const alt = `${survey}${family(same.variable)}`;
          push(alt, same.variable, {
            reading: `${reading}, table ${same.variable.split('_')[0]}`,
            labelFor: () => same.label,
            note: `read as ${same.variable} of the ${reading} subject table ${same.table}, the estimate the data profile's ${variable} republishes`,
          });
        }
      }
      return out.length ? out : { error: `no ACS survey publishes ${level}s for ${year}` };
    },
  };
}

/** The ACS keyed reads (SVI and PLACES are bound by their connectors, src/connectors/cdc-svi.ts and cdc-places.ts). */
export const ACS_BINDERS: ReadonlyArray<[string, Binder]> = [
  ['census-acs/acs-state', acsBinder('state')],
  ['census-acs/acs-county', acsBinder('county')],
  ['census-acs/acs-place', acsBinder('place')],
];
