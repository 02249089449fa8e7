/**
 * Census SAIPE (Small Area Income and Poverty Estimates) state time series:
 * `/data/timeseries/poverty/saipe?get=NAME,<variables>&for=state:*&time=<year>`, every state and DC
 * for one year (no Puerto Rico). SAIPE is model-based (ACS combined with administrative records), a
 * different estimate from the ACS survey tables, and each observation says so.
 *
 * Conventions handled here:
 *  - the body is the data API's array of arrays; the `time` predicate is echoed as a column before
 *    `state`; `_PT` variables are estimates, their bounds are `_LB90`/`_UB90` (90% confidence).
 *  - a year not (yet) published is answered 204 with an empty body: no data, not a parse error.
 */
import { PublisherError } from '../../http/errors.ts';
import { parseCensusNumber } from '../census-acs.ts';
import { pointer, type Observation, type OperationResult } from '../records.ts';
import { policyFor, requestFor, requireArgs } from '../request.ts';
import { ConnectorInputError, type OperationImpl, type RequestBuilder } from '../types.ts';

const SOURCE = 'census-acs';

/** What each SAIPE estimate is, for its unit (the series' variables documentation). */
const UNITS: Readonly<Record<string, { unit: string; currency?: string; label: string }>> = {
  SAEPOVRTALL_PT: { unit: '%', label: 'Poverty rate, all ages (SAIPE)' },
  SAEPOVRT0_17_PT: { unit: '%', label: 'Poverty rate, ages 0-17 (SAIPE)' },
  SAEPOVRT5_17R_PT: { unit: '%', label: 'Poverty rate, related children ages 5-17 (SAIPE)' },
  SAEPOVALL_PT: { unit: 'count', label: 'People in poverty, all ages (SAIPE)' },
  SAEPOV0_17_PT: { unit: 'count', label: 'People in poverty, ages 0-17 (SAIPE)' },
  SAEMHI_PT: { unit: 'USD', currency: 'USD', label: 'Median household income (SAIPE)' },
};

export const SAIPE_VARIABLES: ReadonlySet<string> = new Set(Object.keys(UNITS));

export const saipeMeasure = (year: number, variable: string) => `saipe-${year}/${variable}`;

export const buildSaipeRequest: RequestBuilder = (decl, args) => {
  if (!/^\d{4}$/.test(args.year ?? '')) throw new ConnectorInputError(`--year is a four-digit SAIPE year, not "${args.year}"`);
  const vars = (args.variables ?? '').split(',');
  const unknown = vars.filter((v) => !(v in UNITS));
  if (unknown.length > 0) throw new ConnectorInputError(`--variables are SAIPE estimates (${Object.keys(UNITS).join(', ')}); not ${unknown.join(', ')}`);
  return { request: requestFor(decl, args), policy: policyFor(decl, 'json', { queryParam: 'key' }) };
};

export const saipeStatesOperation: OperationImpl = {
  params: [
    { name: 'year', description: 'estimate year (SAIPE publishes about two years after)', required: true, example: '2023' },
    { name: 'variables', description: 'comma-separated SAIPE estimates', required: true, example: 'SAEPOVRTALL_PT' },
  ],
  async run(args, ctx, decl) {
    requireArgs(args, ['year', 'variables'], decl.id);
    const { request, policy } = buildSaipeRequest(decl, args);
    const raw = await ctx.http.request(request, policy, ctx);
    const year = Number(args.year);
    if (raw.status === 204) throw new PublisherError('not_found', `SAIPE has no state estimates for ${year} (204 No Content: not published yet)`, { method: raw.method, url: raw.url, status: 204, source: SOURCE });
    const t = raw.json as unknown;
    if (!Array.isArray(t) || t.length < 1 || !t.every((r) => Array.isArray(r))) throw new PublisherError('unexpected_shape', 'SAIPE responses are an array of arrays', { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
    const [header, ...rows] = t as (string | null)[][];
    const col = (c: string) => header!.indexOf(c);
    const period = { start: `${year}-01-01`, end: `${year}-12-31`, instant: false, basis: 'calendar' as const, label: `SAIPE ${year}` };
    const records: Observation[] = [];
    for (const row of rows) {
      const fips = row[col('state')] ?? undefined;
      if (!fips) continue;
      const time = row[col('time')];
      if (time && time !== String(year)) throw new PublisherError('unexpected_shape', `SAIPE answered time=${time} to a request for ${year}`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
      const name = row[col('NAME')] ?? undefined;
      for (const v of header!.filter((h): h is string => !!h && h in UNITS)) {
        const cell = row[col(v)];
        const parsed = parseCensusNumber(cell);
        const u = UNITS[v]!;
        const lb = col(v.replace(/_PT$/, '_LB90'));
        const ub = col(v.replace(/_PT$/, '_UB90'));
        records.push({
          type: 'observation', source: SOURCE, operation: decl.id, measure: saipeMeasure(year, v), label: u.label,
          value: parsed.value, status: parsed.status, asPublished: cell ?? undefined, unit: u.unit, ...(u.currency ? { currency: u.currency } : {}), scale: 1,
          period, geography: { level: 'state', fips, ...(name ? { name } : {}) },
          attributes: {
            dataset: 'timeseries/poverty/saipe', estimate: 'model-based (SAIPE), not an ACS survey estimate',
            ...(parsed.meaning ? { statusMeaning: parsed.meaning } : {}),
            ...(lb >= 0 ? { lower90: row[lb] ?? null } : {}), ...(ub >= 0 ? { upper90: row[ub] ?? null } : {}),
          },
          raw: pointer(raw),
        });
      }
    }
    if (records.length === 0) throw new PublisherError('not_found', `SAIPE returned no state rows for ${year}`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
    const notes = [`SAIPE ${year} (model-based state estimates, every state and DC): ${rows.length} rows`];
    if (raw.origin?.derived) notes.push(`replayed from a DERIVED cassette (${raw.origin.sample}): ${raw.origin.note ?? ''}`);
    const out: OperationResult = { source: SOURCE, operation: decl.id, records, responses: [pointer(raw)], complete: true, notes };
    return out;
  },
};
