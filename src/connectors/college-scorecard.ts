/**
 * College Scorecard (api.data.gov): a school by IPEDS UNITID, name search, and schools ranked by a
 * field. Requires a data.gov key (DATA_GOV_API_KEY, sent as api_key, never recorded).
 *
 * Fields are dot paths (latest.cost.tuition.in_state); null means suppressed or unavailable and
 * becomes a marked absence, never zero. `latest` values are the most recent the Scorecard has for
 * each field (their years can differ); per-year objects are keyed by year.
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import { pointer, type EntityRecord, type Observation, type OperationResult } from './records.ts';
import { policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type RequestBuilder } from './types.ts';
import { ownMeasure, type KeyedBinder } from './binding.ts';

const SOURCE = 'college-scorecard';

/**
 * Headline fields, with units; more can be asked for with --fields. The Scorecard publishes its
 * rates and shares as fractions of 1 (Yale's admission rate is 0.0693): unit `fraction`, never
 * `%`. A field missing here is stamped `1` (unit not known), so every field the catalog declares a
 * measure for must be listed with the unit its card declares (test/connectors/scorecard-units.test.ts).
 */
export const FIELDS: Readonly<Record<string, { unit: string; currency?: string }>> = {
  'latest.cost.tuition.in_state': { unit: 'USD', currency: 'USD' },
  'latest.cost.tuition.out_of_state': { unit: 'USD', currency: 'USD' },
  'latest.student.size': { unit: 'students' },
  'latest.admissions.admission_rate.overall': { unit: 'fraction' },
  'latest.earnings.10_yrs_after_entry.median': { unit: 'USD', currency: 'USD' },
  'latest.completion.completion_rate_4yr_150nt': { unit: 'fraction' },
  'latest.completion.rate_suppressed.overall': { unit: 'fraction' },
};

export const buildScorecardRequest: RequestBuilder = (decl, args) => {
  if (decl.id === 'school' && !/^\d{6}$/.test(args.unitid ?? '')) throw new ConnectorInputError(`--unitid is a 6-digit IPEDS UNITID, not "${args.unitid}"`);
  return { request: requestFor(decl, { ...args, page: args.page ?? '0' }), policy: policyFor(decl, 'json', { queryParam: 'api_key' }) };
};

const path = (o: unknown, p: string): unknown => p.split('.').reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), o);

export function schoolRecords(school: Record<string, unknown>, raw: RawResponse, operation: string, fields: readonly string[]): OperationResult['records'] {
  const name = String(path(school, 'school.name') ?? '');
  const unitid = String(school.id ?? '');
  const entity = { name, ipeds_unitid: unitid };
  const rec: EntityRecord = { type: 'entity', source: SOURCE, operation, kind: 'school', label: name, keys: { ...entity, ...(school.ope6_id ? { ope6_id: String(school.ope6_id) } : {}), ...(school.ope8_id ? { ope8_id: String(school.ope8_id) } : {}) }, attributes: { city: (path(school, 'school.city') as string) ?? null, state: (path(school, 'school.state') as string) ?? null, ownership: (path(school, 'school.ownership') as number) ?? null }, raw: pointer(raw) };
  const obs = fields.map((f): Observation => {
    const v = path(school, f);
    const meta = FIELDS[f] ?? { unit: '1' };
    const num = typeof v === 'number' ? v : null;
    return {
      type: 'observation', source: SOURCE, operation, measure: f, value: num, status: v === null || v === undefined ? 'suppressed' : num === null ? 'missing' : 'reported',
      unit: meta.unit, ...(meta.currency ? { currency: meta.currency } : {}), scale: 1,
      period: { instant: false, basis: 'survey', label: f.startsWith('latest.') ? 'latest available (year varies by field)' : `${f.split('.')[0]}` },
      entity, attributes: v === null ? { statusMeaning: 'null in the Scorecard: suppressed or unavailable' } : {}, raw: pointer(raw),
    };
  });
  return [rec, ...obs];
}

function results(raw: RawResponse): Array<Record<string, unknown>> {
  const r = (raw.json as { results?: Array<Record<string, unknown>> })?.results;
  if (!Array.isArray(r)) throw new PublisherError('unexpected_shape', 'Scorecard response lacks "results"', { method: raw.method, url: raw.url, source: SOURCE });
  return r;
}

function listOp(kind: 'search' | 'ranked') {
  return {
    params: kind === 'search'
      ? [{ name: 'name', description: 'name text', required: true, example: 'Yale' }, { name: 'page', description: '0-based page (default 0)', required: false }]
      : [{ name: 'field', description: 'dot-path field to rank by (descending)', required: true, example: 'latest.earnings.10_yrs_after_entry.median' }, { name: 'page', description: '0-based page (default 0)', required: false }],
    async run(args: Readonly<Record<string, string>>, ctx: Parameters<Connector['operations'][string]['run']>[1], decl: Parameters<Connector['operations'][string]['run']>[2]): Promise<OperationResult> {
      requireArgs(args, [kind === 'search' ? 'name' : 'field'], decl.id);
      if (kind === 'ranked' && !/^[a-z0-9_.]+$/.test(args.field!)) throw new ConnectorInputError(`--field is a Scorecard dot path such as latest.student.size, not "${args.field}"`);
      const { request, policy } = buildScorecardRequest(decl, args);
      const raw = await ctx.http.request(request, policy, ctx);
      const r = results(raw);
      const meta = (raw.json as { metadata?: { total?: number; page?: number; per_page?: number } }).metadata ?? {};
      const fields = kind === 'ranked' ? [args.field!] : Object.keys(FIELDS);
      const page = meta.page ?? Number(args.page ?? '0');
      const seen = (page + 1) * (meta.per_page ?? r.length);
      const notes = [kind === 'search' ? `name matches (a sample, not a population): page ${page}, ${r.length} of ${meta.total ?? '?'}` : `ranked by ${args.field} descending (nulls last): page ${page} of the ordered list`];
      return { source: SOURCE, operation: decl.id, records: r.flatMap((x) => schoolRecords(x, raw, decl.id, fields)), responses: [pointer(raw)], complete: kind === 'ranked' ? true : seen >= (meta.total ?? Infinity), notes };
    },
  };
}

/**
 * A `latest.*` field is the newest value the Scorecard has for that field (its year varies by field
 * and is not stated): it answers "latest" questions only; a named year ends as no data.
 */
const KEYED: Readonly<Record<string, KeyedBinder>> = {
  school: {
    entityType: 'school',
    bind({ measureKey, key }) {
      if (key.keyType !== 'ipeds_unitid') return { error: `school takes an IPEDS UNITID, not a ${key.keyType}` };
      // catalog `latest/cost.tuition.in_state` is the Scorecard dot path `latest.cost.tuition.in_state`
      const field = ownMeasure(measureKey, SOURCE).replace('/', '.');
      if (!/^[a-z0-9_]+(\.[a-z0-9_]+)+$/.test(field)) return { error: `${measureKey} is not a Scorecard field path` };
      return [{ fetchArgs: { unitid: key.value, fields: field }, measure: field, ...(field.startsWith('latest.') ? { reading: 'the Scorecard\'s latest value for the field (its year varies by field)' } : {}) }];
    },
  },
};

export const collegeScorecard: Connector = {
  source: SOURCE,
  readerName: 'the College Scorecard',
  buildRequest: buildScorecardRequest,
  keyedBinders: KEYED,
  operations: {
    school: {
      params: [{ name: 'unitid', description: 'IPEDS UNITID', required: true, example: '130794' }, { name: 'fields', description: 'comma-separated dot paths (default: headline fields)', required: false }],
      async run(args, ctx, decl) {
        requireArgs(args, ['unitid'], decl.id);
        const { request, policy } = buildScorecardRequest(decl, args);
        const raw = await ctx.http.request(request, policy, ctx);
        const r = results(raw);
        if (r.length === 0) throw new PublisherError('not_found', `the Scorecard has no school with UNITID ${args.unitid}`, { method: raw.method, url: raw.url, source: SOURCE });
        const fields = args.fields ? args.fields.split(',') : Object.keys(FIELDS);
        const notes = raw.origin?.trimmed ? [`replayed from a TRIMMED sample (${raw.origin.sample}): ${raw.origin.note ?? ''}`] : [];
        return { source: SOURCE, operation: decl.id, records: r.flatMap((s) => schoolRecords(s, raw, decl.id, fields)), responses: [pointer(raw)], complete: true, notes };
      },
    },
    'school-search': listOp('search'),
    'schools-ranked': listOp('ranked'),
  },
};
