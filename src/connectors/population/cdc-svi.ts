/**
 * CDC/ATSDR SVI 2018 county populations: the county file's poverty, per-capita income and
 * population columns for every county of the 50 states and DC (3,142; no Puerto Rico). One
 * vintage: ACS 2014–2018 5-year estimates republished in SVI 2018, so a year named must be 2018
 * (the survey's end year) or one of the years it spans; -999 is CDC's suppression marker.
 */
import type { Observation, OperationResult } from '../records.ts';
import { SVI_SURVEY, SVI_VINTAGE } from '../cdc-svi.ts';
import type { PopulationFailure } from '../../population/types.ts';
import { countiesInEveryState, type PopulationAsk, type PopulationBinding, type PopulationProvider, type ProviderRows } from './provider.ts';

const SOURCE = 'cdc-svi';
const PERIOD = { label: `${SVI_SURVEY} (CDC/ATSDR ${SVI_VINTAGE})`, start: '2014-01-01', end: '2018-12-31', basis: 'survey' as const };

function bind(ask: PopulationAsk, operation: string): PopulationBinding[] | PopulationFailure {
  const m = /(svi2018\/[A-Z_]+)$/.exec(ask.measureKey);
  if (!m) return { code: 'not_a_population_measure', measure: ask.measureKey, operation: `${SOURCE}/${operation}` };
  if (ask.grain !== 'county') return { code: 'grain_mismatch', asked: ask.grain, returns: 'county', operation: `${SOURCE}/county-poverty-all` };
  if (!ask.period.latest && ask.period.year !== null && (ask.period.year < 2014 || ask.period.year > 2018)) return { code: 'no_period', asked: ask.period.text, operation: `${SOURCE}/county-poverty-all` };
  return [{ source: SOURCE, operation: 'county-poverty-all', grain: 'county', args: {}, recordMeasure: m[1]!, period: PERIOD }];
}

function rows(result: OperationResult, b: PopulationBinding): ProviderRows {
  const obs = result.records.filter((r): r is Observation => r.type === 'observation' && r.measure === b.recordMeasure);
  return {
    rows: obs.map((o) => ({
      key: o.geography!.fips!, keyType: 'fips' as const, label: o.geography!.name ?? o.geography!.fips!, value: o.value, status: o.status,
      ...(o.asPublished !== undefined ? { asPublished: o.asPublished } : {}), marginOfError: o.marginOfError ?? null,
      attributes: { stateFips: o.geography!.fips!.slice(0, 2), stateAbbr: o.attributes.stateAbbr ?? null },
    })),
    declared: null, unit: obs[0]?.unit ?? 'count', ...(obs[0]?.currency ? { currency: obs[0].currency } : {}), label: obs[0]?.label ?? b.recordMeasure, notes: [],
  };
}

export const cdcSviPopulation: PopulationProvider = {
  source: SOURCE,
  // the SVI 2018 file is a fixed release; a corrected file would be republished at the same address
  freshnessDays: 90,
  operations: { 'county-poverty-all': 'county' }, bind, rows, membership: countiesInEveryState };
