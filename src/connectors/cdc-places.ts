/**
 * CDC PLACES county estimates: the long Socrata form (one row per county × measure × value type,
 * lower-cased field names, every value a string) and the wide "GIS friendly" file (one row per
 * county, `<MEASURE>_CrudePrev`, `_Crude95CI`, `_AdjPrev`, `_Adj95CI` columns).
 *
 * Values are percentages of adults; the confidence interval is a padded string "( 7.1,  7.8)" in the
 * wide file and two fields in the long one. A blank value is "not published" (some measures are
 * released only in alternate years), never zero. County FIPS stays a 5-character string. `Year` is
 * the BRFSS survey year the model used, not the release year.
 */
import { parseCsv as parse } from './parsers.ts';
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { pointer, type Observation, type OperationResult } from './records.ts';
import { decimal, policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { ownMeasure, type KeyedBinder, type KeyedBinding } from './binding.ts';

const SOURCE = 'cdc-places';

export function parseCi(s: string | undefined): { low: number; high: number } | undefined {
  const m = s ? /^\(\s*([-\d.]+),\s*([-\d.]+)\s*\)$/.exec(s.trim()) : null;
  return m ? { low: Number(m[1]), high: Number(m[2]) } : undefined;
}

export const buildPlacesRequest: RequestBuilder = (decl, args) => {
  if (args.county_fips !== undefined && !/^\d{5}$/.test(args.county_fips)) throw new ConnectorInputError(`--county_fips is the 5-digit county FIPS with its leading zero (06059), not "${args.county_fips}"`);
  if (args.measure !== undefined && !/^[A-Z0-9]+$/.test(args.measure)) throw new ConnectorInputError(`--measure is a PLACES measure id such as DIABETES, not "${args.measure}"`);
  return { request: requestFor(decl, args), policy: policyFor(decl, 'json', { header: 'X-App-Token' }) };
};

type Row = Record<string, string | undefined>;

/** Long-form rows (SODA JSON field names) → observations. */
export function placesLong(rows: Row[], raw: RawResponse, operation: string): Observation[] {
  return rows.map((r) => {
    const v = decimal(r.data_value);
    const low = decimal(r.low_confidence_limit);
    const high = decimal(r.high_confidence_limit);
    return {
      type: 'observation', source: SOURCE, operation, measure: `measureid/${r.measureid}`, label: r.measure,
      value: v ?? null, status: v === undefined ? 'not_published' : 'reported', asPublished: r.data_value ?? '',
      unit: '%', scale: 1,
      period: { ...(r.year ? { start: `${r.year}-01-01`, end: `${r.year}-12-31` } : {}), instant: false, basis: 'survey', label: `BRFSS ${r.year ?? '?'} model-based estimate` },
      geography: { level: 'county', fips: r.locationid ?? '', ...(r.locationname ? { name: `${r.locationname} County, ${r.statedesc ?? r.stateabbr ?? ''}`.trim() } : {}) },
      ...(low !== undefined && high !== undefined ? { confidenceInterval: { low, high } } : {}),
      attributes: { valueType: r.datavaluetypeid ?? null, population: decimal(r.totalpopulation) ?? null, ...(v === undefined ? { statusMeaning: 'blank in PLACES: not published for this release' } : {}) },
      raw: pointer(raw),
    } satisfies Observation;
  });
}

/** The wide county file (CSV) → observations, one per county × measure × crude/age-adjusted. */
export function placesWide(csv: string, raw: RawResponse, operation: string, releaseLabel: string): Observation[] {
  const rows = parse(csv.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true }) as Row[];
  const out: Observation[] = [];
  for (const r of rows) {
    for (const col of Object.keys(r)) {
      const m = /^([A-Z0-9]+)_(Crude|Adj)Prev$/.exec(col);
      if (!m) continue;
      const v = decimal(r[col]);
      const ci = parseCi(r[`${m[1]}_${m[2]}95CI`]);
      out.push({
        type: 'observation', source: SOURCE, operation, measure: `measureid/${m[1]}`,
        value: v ?? null, status: v === undefined ? 'not_published' : 'reported', asPublished: r[col] ?? '', unit: '%', scale: 1,
        period: { instant: false, basis: 'survey', label: releaseLabel },
        geography: { level: 'county', fips: r.CountyFIPS ?? '', name: `${r.CountyName} County, ${r.StateDesc}` },
        ...(ci ? { confidenceInterval: ci } : {}),
        attributes: { valueType: m[2] === 'Crude' ? 'CrdPrv' : 'AgeAdjPrv', population: decimal(r.TotalPopulation) ?? null },
        raw: pointer(raw),
      });
    }
  }
  return out;
}

function rowsOf(raw: RawResponse): Row[] {
  if (!Array.isArray(raw.json)) throw new PublisherError('unexpected_shape', 'Socrata responses are a JSON array of rows', { method: raw.method, url: raw.url, source: SOURCE });
  return raw.json as Row[];
}

function notesFor(raw: RawResponse): string[] {
  return raw.origin?.derived || raw.origin?.trimmed ? [`replayed from a ${raw.origin.derived ? 'DERIVED' : ''}${raw.origin.derived && raw.origin.trimmed ? '/' : ''}${raw.origin.trimmed ? 'TRIMMED' : ''} cassette (${raw.origin.sample}): ${raw.origin.note ?? ''}`] : [];
}

async function get(decl: OperationDecl, args: Readonly<Record<string, string>>, ctx: ConnectorContext) {
  const { request, policy } = buildPlacesRequest(decl, args);
  return ctx.http.request(request, policy, ctx);
}

/** A release whose records carry the BRFSS year they model: read whole for the county; crude prevalence is the headline value. */
const KEYED: Readonly<Record<string, KeyedBinder>> = {
  'county-measure': {
    entityType: 'county',
    bind({ measureKey, key }) {
      if (key.keyType !== 'fips' || key.value.length !== 5) return { error: `county-measure takes a 5-digit county FIPS code, not ${key.keyType} ${key.value}` };
      const measure = ownMeasure(measureKey, SOURCE);
      const m = /^measureid\/([A-Z0-9]+)$/.exec(measure);
      if (!m) return { error: `${measureKey} names no PLACES measure id (the planned candidate is the operation itself)` };
      // the age-adjusted row answers another question
      const readings: KeyedBinding[] = [
        { fetchArgs: { county_fips: key.value, measure: m[1]! }, measure, attributes: { valueType: 'CrdPrv' }, reading: 'CDC PLACES crude prevalence' },
        // the county's row of the wide file of every county (one download, every measure): another release, named by its response
        { operation: 'all-counties-wide', fetchArgs: {}, measure, attributes: { valueType: 'CrdPrv' }, reading: 'CDC PLACES county file (every county), crude prevalence', note: 'read from the county\'s row of the PLACES county file of every county (GIS friendly format), in the release its download names, after the county\'s own request (whose release may be newer) could not be read' },
      ];
      return readings;
    },
  },
};

export const cdcPlaces: Connector = {
  source: SOURCE,
  readerName: 'CDC PLACES',
  releaseBasis: 'survey',
  buildRequest: buildPlacesRequest,
  keyedBinders: KEYED,
  // CDC's missing-data marker
  sentinels: new Set([-999]),
  operations: {
    'county-measure': {
      params: [{ name: 'county_fips', description: '5-digit county FIPS', required: true, example: '06059' }, { name: 'measure', description: 'PLACES measure id', required: true, example: 'ARTHRITIS' }],
      async run(args, ctx, decl) {
        requireArgs(args, ['county_fips', 'measure'], decl.id);
        const raw = await get(decl, args, ctx);
        const rows = rowsOf(raw);
        if (rows.length === 0) throw new PublisherError('not_found', `PLACES has no ${args.measure} estimate for county ${args.county_fips} in this release`, { method: raw.method, url: raw.url, source: SOURCE });
        return { source: SOURCE, operation: decl.id, records: placesLong(rows, raw, decl.id), responses: [pointer(raw)], complete: true, notes: notesFor(raw) };
      },
    },
    'all-counties-measure': {
      params: [{ name: 'measure', description: 'PLACES measure id', required: true, example: 'ARTHRITIS' }, { name: 'value_type', description: 'CrdPrv or AgeAdjPrv', required: true, example: 'CrdPrv' }],
      async run(args, ctx, decl) {
        requireArgs(args, ['measure', 'value_type'], decl.id);
        if (!['CrdPrv', 'AgeAdjPrv'].includes(args.value_type!)) throw new ConnectorInputError('--value_type is CrdPrv (crude) or AgeAdjPrv (age-adjusted)');
        const raw = await get(decl, args, ctx);
        const rows = rowsOf(raw);
        // one page of $limit=5000 holds every county; a full page would mean more exist
        return { source: SOURCE, operation: decl.id, records: placesLong(rows, raw, decl.id), responses: [pointer(raw)], complete: rows.length < 5000, notes: notesFor(raw) };
      },
    },
  },
};
