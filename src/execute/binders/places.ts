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
import { acsVariable, KEYED as ACS_KEYED, productFamily, recordMeasure } from '../../connectors/census-acs.ts';
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
 * The connector's own ACS binder (src/connectors/census-acs.ts), with the newest vintage the bundled
 * catalog declares, and each reading of a data-profile estimate followed by the same estimate from
 * the table it republishes (SAME_ESTIMATE), as a further reading of the same survey and year.
 */
function acsBinder(level: Level): Binder {
  const own = ACS_KEYED[`acs-${level}`]!;
  const declared = { newestDeclaredYear: () => ACS_NEWEST_VINTAGE };
  return {
    entityType: level,
    bind({ measureKey, key, period }: BindRequest): BindResult {
      const r = own.bind({ measureKey, key, period, declared });
      if ('error' in r) return r;
      const variable = acsVariable(measureKey)!;
      const same = SAME_ESTIMATE[variable];
      const out: Binding[] = [];
      for (const b of r) {
        out.push(b);
        const survey = (b.fetchArgs.product ?? '').split('/')[0]!;
        if (!same || survey === 'acsse') continue;
        const year = Number(b.fetchArgs.year);
        const product = `${survey}${productFamily(same.variable)}`;
        out.push({
          ...b,
          fetchArgs: { ...b.fetchArgs, product, variables: level === 'state' ? `group(${same.variable.split('_')[0]})` : same.variable },
          measure: recordMeasure(product, year, same.variable),
          reading: `${b.reading}, table ${same.variable.split('_')[0]}`,
          labelFor: () => same.label,
          note: `read as ${same.variable} of the ${b.reading} subject table ${same.table}, the estimate the data profile's ${variable} republishes`,
        });
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
