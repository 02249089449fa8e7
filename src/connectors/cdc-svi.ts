/**
 * CDC/ATSDR Social Vulnerability Index 2018, US county file: Census-derived county poverty,
 * per-capita income and population, each value saying which survey and vintage it comes from.
 *
 * The file is one CSV download (one row per county of the 50 states and DC; no Puerto Rico). SVI
 * republishes ACS 2014–2018 5-year estimates: `E_x` is an estimate with its margin of error `M_x`
 * (ACS MOEs are at 90% confidence), `EP_x` a percent with `MP_x`. So every value's period is the
 * survey (2014–2018, basis `survey`) and its vintage is the SVI 2018 release that carried it.
 * CDC's missing-data marker is -999 (or -999.0): a suppressed cell, never the number -999.
 * FIPS stays a 5-character string with its leading zero.
 *
 * The one-county operation downloads the same file and keeps one row: the publisher offers no
 * per-county request, so both operations send the same request (and replay the same cassette).
 */
import { parseCsv as parse } from './parsers.ts';
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { pointer, type Observation, type OperationResult, type Period } from './records.ts';
import { decimal, policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { ownMeasure, type KeyedBinder } from './binding.ts';
import { CENSUS_SENTINEL_VALUES } from './census-acs.ts';

const SOURCE = 'cdc-svi';
export const SVI_VINTAGE = 'SVI 2018';
export const SVI_SURVEY = 'ACS 5-year 2014–2018';
const PERIOD: Period = { start: '2014-01-01', end: '2018-12-31', instant: false, basis: 'survey', label: `${SVI_SURVEY} (republished in CDC/ATSDR ${SVI_VINTAGE})` };
const MISSING = -999;

/** The columns read, with their margin-of-error column, unit and label. EP_PCI repeats E_PCI as a float and is not read. */
export const SVI_MEASURES: ReadonlyArray<{ column: string; moe: string; unit: string; currency?: string; label: string; acs?: string }> = [
  { column: 'E_POV', moe: 'M_POV', unit: 'count', label: 'Persons below poverty (estimate)', acs: 'S1701_C02_001E' },
  { column: 'EP_POV', moe: 'MP_POV', unit: '%', label: 'Persons below poverty (percent)', acs: 'S1701_C03_001E' },
  { column: 'E_PCI', moe: 'M_PCI', unit: 'USD', currency: 'USD', label: 'Per capita income' },
  { column: 'E_TOTPOP', moe: 'M_TOTPOP', unit: 'count', label: 'Total population' },
];

export const buildSviRequest: RequestBuilder = (decl, args) => {
  if (args.county_fips !== undefined && !/^\d{5}$/.test(args.county_fips)) throw new ConnectorInputError(`--county_fips is the 5-digit county FIPS with its leading zero (01001), not "${args.county_fips}"`);
  // the file has no per-county URL: county_fips selects a row after the download
  return { request: requestFor(decl, {}), policy: policyFor(decl, 'csv') };
};

type Row = Record<string, string | undefined>;

function rowsOf(raw: RawResponse): Row[] {
  let rows: Row[];
  try {
    rows = parse(raw.text.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true }) as Row[];
  } catch (e) {
    throw new PublisherError('unexpected_shape', `the SVI county file is not readable CSV (${(e as Error).message})`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
  }
  const header = rows[0] ? Object.keys(rows[0]) : [];
  const lacking = ['FIPS', ...SVI_MEASURES.flatMap((m) => [m.column, m.moe])].filter((c) => !header.includes(c));
  if (rows.length === 0 || lacking.length > 0) {
    throw new PublisherError('unexpected_shape', `the SVI county file ${rows.length === 0 ? 'has no rows' : `lacks the column(s) ${lacking.join(', ')}`}; is this the SVI 2018 US county file?`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
  }
  return rows;
}

/** A cell → a number, or null with `suppressed` for CDC's -999 and `missing` for a blank or non-number. */
export function sviNumber(s: string | undefined): { value: number | null; status: 'reported' | 'suppressed' | 'missing' } {
  const n = decimal(s);
  if (n === undefined) return { value: null, status: 'missing' };
  if (n === MISSING) return { value: null, status: 'suppressed' };
  return { value: n, status: 'reported' };
}

/** One county row → one observation per measure, each with its MOE, survey period and SVI vintage. */
export function sviObservations(row: Row, raw: RawResponse, operation: string): Observation[] {
  return SVI_MEASURES.map((m) => {
    const v = sviNumber(row[m.column]);
    const moe = sviNumber(row[m.moe]);
    return {
      type: 'observation', source: SOURCE, operation, measure: `svi2018/${m.column}`, label: m.label,
      value: v.value, status: v.status, asPublished: row[m.column] ?? '',
      unit: m.unit, ...(m.currency ? { currency: m.currency } : {}), scale: 1,
      period: { ...PERIOD },
      geography: { level: 'county', fips: row.FIPS ?? '', ...(row.LOCATION ? { name: row.LOCATION } : {}) },
      marginOfError: moe.value,
      attributes: {
        vintage: SVI_VINTAGE, survey: SVI_SURVEY, moeColumn: m.moe, moeAsPublished: row[m.moe] ?? null, moeConfidence: '90%',
        stateAbbr: row.ST_ABBR ?? null,
        ...(m.acs ? { acsVariable: m.acs, acsVariableFrom: 'CDC SVI 2018 documentation (not checked against the ACS offline)' } : {}),
        ...(v.status === 'suppressed' ? { statusMeaning: 'CDC SVI -999: no data for this county in the SVI file' } : {}),
        ...(moe.status === 'suppressed' ? { moeStatus: 'suppressed' } : {}),
      },
      raw: pointer(raw),
    } satisfies Observation;
  });
}

function notesFor(raw: RawResponse): string[] {
  const notes = [`values are ${SVI_SURVEY} estimates as republished in the CDC/ATSDR ${SVI_VINTAGE} county file; margins of error at 90% confidence`];
  if (raw.origin?.derived || raw.origin?.trimmed) notes.push(`replayed from a ${[raw.origin.derived ? 'DERIVED' : '', raw.origin.trimmed ? 'TRIMMED' : ''].filter(Boolean).join('/')} cassette (${raw.origin.sample}): ${raw.origin.note ?? ''}`);
  return notes;
}

async function download(decl: OperationDecl, args: Readonly<Record<string, string>>, ctx: ConnectorContext): Promise<{ raw: RawResponse; rows: Row[] }> {
  const { request, policy } = buildSviRequest(decl, args);
  const raw = await ctx.http.request(request, policy, ctx);
  return { raw, rows: rowsOf(raw) };
}

/** SVI 2018 holds one vintage (ACS 2014–2018 republished): read whole for the county; the period check decides. */
const KEYED: Readonly<Record<string, KeyedBinder>> = {
  'county-poverty': {
    entityType: 'county',
    bind({ measureKey, key }) {
      if (key.keyType !== 'fips' || key.value.length !== 5) return { error: `county-poverty takes a 5-digit county FIPS code, not ${key.keyType} ${key.value}` };
      const measure = ownMeasure(measureKey, SOURCE);
      if (!/^svi2018\/[A-Z_]+$/.test(measure)) return { error: `${measureKey} is not an SVI 2018 column` };
      return [{ fetchArgs: { county_fips: key.value }, measure, reading: `CDC/ATSDR ${SVI_VINTAGE} (${SVI_SURVEY})` }];
    },
  },
};

export const cdcSvi: Connector = {
  source: SOURCE,
  readerName: 'the CDC/ATSDR Social Vulnerability Index',
  buildRequest: buildSviRequest,
  keyedBinders: KEYED,
  // SVI republishes ACS estimates, so the Census jam values can reach it too
  sentinels: new Set([MISSING, ...CENSUS_SENTINEL_VALUES]),
  operations: {
    'county-poverty-all': {
      params: [],
      async run(args, ctx, decl): Promise<OperationResult> {
        const { raw, rows } = await download(decl, args, ctx);
        const records = rows.flatMap((r) => sviObservations(r, raw, decl.id));
        const suppressed = rows.filter((r) => sviNumber(r.EP_POV).status === 'suppressed').map((r) => `${r.LOCATION ?? r.FIPS} (${r.FIPS})`);
        const notes = notesFor(raw);
        notes.push(`${rows.length} counties (50 states and DC; Puerto Rico is not in the SVI US county file)`);
        if (suppressed.length > 0) notes.push(`poverty suppressed (-999) for ${suppressed.join(', ')}`);
        return { source: SOURCE, operation: decl.id, records, responses: [pointer(raw)], complete: true, notes };
      },
    },
    'county-poverty': {
      params: [{ name: 'county_fips', description: '5-digit county FIPS', required: true, example: '17031' }],
      async run(args, ctx, decl): Promise<OperationResult> {
        requireArgs(args, ['county_fips'], decl.id);
        const { raw, rows } = await download(decl, args, ctx);
        const row = rows.find((r) => r.FIPS === args.county_fips);
        if (!row) {
          const why = args.county_fips!.startsWith('72') ? ': Puerto Rico is not in the SVI US county file' : '';
          throw new PublisherError('not_found', `the ${SVI_VINTAGE} county file has no county ${args.county_fips}${why}`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
        }
        return { source: SOURCE, operation: decl.id, records: sviObservations(row, raw, decl.id), responses: [pointer(raw)], complete: true, notes: notesFor(raw) };
      },
    },
  },
};
