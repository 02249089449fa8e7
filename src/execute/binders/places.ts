/**
 * The executor's ACS keyed reads (states, counties, places by FIPS code). The binding itself —
 * vintages, surveys, request forms — is the census-acs connector's own binder
 * (src/connectors/census-acs.ts); what this file adds is executor knowledge: the newest vintage the
 * bundled catalog declares (for callers without validated descriptors), and Census's documented
 * equalities between tables (SAME_ESTIMATE), read as further readings of the same survey and year.
 * CDC/ATSDR SVI 2018 and CDC PLACES reads are bound by their connectors' own binders.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Binder, Binding, BindRequest, BindResult } from './types.ts';
import { acsVariable, KEYED as ACS_KEYED } from '../../connectors/census-acs.ts';
export { acsSurveyLabel } from '../../connectors/census-acs.ts';

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

/**
 * The total population is one controlled estimate per geography and vintage, published as the
 * universe total of several tables and profiles (B01003 total population, B01001 sex by age, B02001
 * race, DP05 demographic and housing estimates): a total population asked from one of them may be
 * read from any other of the same survey and vintage, and the evidence says which table it came from.
 */
const UNIVERSE_TOTAL: readonly string[] = ['B01003_001E', 'B01001_001E', 'B02001_001E', 'DP05_0001E', 'DP05_0033E'];

/** The other variables that publish the estimate a variable publishes, each with its table and label. */
function sameEstimates(variable: string): Array<{ variable: string; table: string; label: string; why: string }> {
  const out: Array<{ variable: string; table: string; label: string; why: string }> = [];
  const republished = SAME_ESTIMATE[variable];
  if (republished) out.push({ ...republished, table: `subject table ${republished.table}`, why: `the estimate the data profile's ${variable} republishes` });
  if (UNIVERSE_TOTAL.includes(variable)) {
    for (const v of UNIVERSE_TOTAL) if (v !== variable) out.push({ variable: v, table: `table ${v.split('_')[0]!}`, label: 'Total population', why: `the same total population estimate as ${variable} (the universe total of each table)` });
  }
  return out;
}

const surveyOf = (b: Binding) => (b.fetchArgs.product ?? '').split('/')[0]!;

/**
 * The connector's own ACS binder (src/connectors/census-acs.ts), with the newest vintage the bundled
 * catalog declares when the caller gives no descriptors, and each reading of an estimate followed by
 * the same estimate from the other tables that publish it (`sameEstimates`), as further readings of
 * the same survey and vintage.
 */
function acsBinder(level: Level): Binder {
  const own = ACS_KEYED[`acs-${level}`]!;
  const bundled = { newestDeclaredYear: () => ACS_NEWEST_VINTAGE };
  return {
    entityType: level,
    bind({ measureKey, key, period, declared }: BindRequest): BindResult {
      const d = declared ?? bundled;
      const r = own.bind({ measureKey, key, period, declared: d });
      if ('error' in r) return r;
      const variable = acsVariable(measureKey)!;
      const others = sameEstimates(variable).map((same) => {
        const alt = own.bind({ measureKey: `census-acs/${same.variable}`, key, period, declared: d });
        return { same, readings: 'error' in alt ? [] : alt };
      });
      const out: Binding[] = [];
      const taken = new Set<Binding>();
      for (const b of r) {
        out.push(b);
        for (const { same, readings } of others) {
          for (const x of readings) {
            if (taken.has(x) || surveyOf(x) !== surveyOf(b) || x.period?.end !== b.period?.end) continue;
            taken.add(x);
            out.push({
              ...x,
              reading: `${b.reading}, table ${same.variable.split('_')[0]}`,
              labelFor: () => same.label,
              note: `read as ${same.variable} of the ${b.reading} ${same.table}, ${same.why}`,
            });
          }
        }
      }
      return out;
    },
  };
}

/** The ACS keyed reads (SVI and PLACES are bound by their connectors, src/connectors/cdc-svi.ts and cdc-places.ts). */
export const ACS_BINDERS: ReadonlyArray<[string, Binder]> = [
  ['census-acs/acs-state', acsBinder('state')],
  ['census-acs/acs-county', acsBinder('county')],
  ['census-acs/acs-place', acsBinder('place')],
];
