/**
 * CDC PLACES county populations: one measure's crude prevalence for every county, from the long
 * Socrata table (one row per county and measure) or the wide GIS-friendly county file (every
 * measure of every county in one response; src/connectors/population/cdc-places-wide.ts).
 *
 * Crude prevalence is the headline PLACES value; the age-adjusted one answers another question.
 * Releases: the long table read by `all-counties-measure` is the 2023 release; the wide file holds
 * whichever release CDC published last when it was retrieved (its period says which). A year named
 * is the release year; "latest" reads the long table first, then the wide file, and says so when a
 * newer release than the one read exists.
 */
import type { Observation, OperationResult } from '../records.ts';
import type { PopulationFailure, PopulationPeriod } from '../../population/types.ts';
import { PLACES_LONG_RELEASE, wideRelease } from './cdc-places-wide.ts';
import { countiesInEveryState, type PopulationAsk, type PopulationBinding, type PopulationProvider, type ProviderRows } from './provider.ts';

const SOURCE = 'cdc-places';

const releasePeriod = (release: number | null): PopulationPeriod => (release
  ? { label: `PLACES ${release} release`, start: `${release}-01-01`, end: `${release}-12-31`, basis: 'release' }
  : { label: 'PLACES county release current when retrieved', basis: 'release' });

function bind(ask: PopulationAsk, operation: string): PopulationBinding[] | PopulationFailure {
  const m = /measureid\/([A-Z0-9]+)$/.exec(ask.measureKey);
  if (!m) return { code: 'not_a_population_measure', measure: ask.measureKey, operation: `${SOURCE}/${operation}` };
  if (ask.grain !== 'county') return { code: 'grain_mismatch', asked: ask.grain, returns: 'county', operation: `${SOURCE}/${operation}` };
  const measure = m[1]!;
  const year = ask.period.latest ? null : ask.period.year;
  const out: PopulationBinding[] = [];
  if (year === null || year === PLACES_LONG_RELEASE) out.push({ source: SOURCE, operation: 'all-counties-measure', grain: 'county', args: { measure, value_type: 'CrdPrv' }, recordMeasure: `measureid/${measure}`, attributes: { valueType: 'CrdPrv' }, period: releasePeriod(PLACES_LONG_RELEASE) });
  // the wide file's release is known only from the response: the period is checked after the read
  out.push({ source: SOURCE, operation: 'all-counties-wide', grain: 'county', args: {}, recordMeasure: `measureid/${measure}`, attributes: { valueType: 'CrdPrv' }, period: releasePeriod(year) });
  return out;
}

function rows(result: OperationResult, b: PopulationBinding): ProviderRows {
  const obs = result.records.filter((r): r is Observation => r.type === 'observation' && r.measure === b.recordMeasure && Object.entries(b.attributes ?? {}).every(([k, v]) => r.attributes[k] === v));
  const release = b.operation === 'all-counties-wide' ? wideRelease(result) : PLACES_LONG_RELEASE;
  return {
    rows: obs.map((o) => ({
      key: o.geography!.fips!, keyType: 'fips' as const, label: o.geography!.name ?? o.geography!.fips!, value: o.value, status: o.status,
      ...(o.asPublished !== undefined ? { asPublished: o.asPublished } : {}),
      attributes: { stateFips: o.geography!.fips!.slice(0, 2), ...(o.confidenceInterval ? { ciLow: o.confidenceInterval.low, ciHigh: o.confidenceInterval.high } : {}) },
    })),
    declared: null, unit: '%', label: obs[0]?.label ?? `${b.recordMeasure.split('/')[1]} crude prevalence`,
    notes: release !== null ? [] : [{ code: 'coverage_of', of: 'the PLACES release current when the file was retrieved' }],
    ...(release !== null ? { period: releasePeriod(release) } : {}),
  };
}

export const cdcPlacesPopulation: PopulationProvider = {
  source: SOURCE,
  // PLACES republishes a release's data under the same dataset id (a corrected release, a new one): a week at most
  freshnessDays: 7,
  operations: { 'all-counties-measure': 'county', 'all-counties-wide': 'county' }, bind, rows, membership: countiesInEveryState };
