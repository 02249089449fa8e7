/**
 * IRS Exempt Organizations Business Master File extract (one CSV per state or region): the complete
 * population of tax-exempt organizations registered there as of the extract.
 *
 * EINs stay text (9 digits, leading zeros kept). SUBSECTION is the 501(c) paragraph as two digits
 * ("03" = 501(c)(3)); CLASSIFICATION, DEDUCTIBILITY, FOUNDATION and STATUS are IRS codes, decoded
 * where the IRS documents a short meaning. Blank = missing (non-filers have no amounts or period).
 * Amounts are whole US dollars for the tax period TAX_PERIOD (YYYYMM, the month the year ended).
 */
import { parseCsv as parse } from './parsers.ts';
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { pointer, type EntityRecord, type Observation, type OperationResult } from './records.ts';
import { decimal, policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { needsKey, type RecordBinder, type RecordHints } from './binding.ts';

const SOURCE = 'irs-eo-bmf';

export const DEDUCTIBILITY: Readonly<Record<string, string>> = { '1': 'contributions are deductible', '2': 'contributions are not deductible', '4': 'contributions are deductible by treaty (foreign organization)' };
export const STATUS: Readonly<Record<string, string>> = {
  '01': 'unconditional exemption', '02': 'conditional exemption', '12': 'trust described in section 4947(a)(2)', '25': 'organization terminating its private foundation status',
};

/** FOUNDATION codes (EO BMF instructions): which are private foundations, which public charities, and what each means. */
export const PRIVATE_FOUNDATION_CODES: ReadonlySet<string> = new Set(['02', '03', '04']);
export const PUBLIC_CHARITY_CODES: ReadonlySet<string> = new Set(['10', '11', '12', '13', '14', '15', '16', '17', '18', '21', '22', '23', '24']);
/** 00: not a 501(c)(3) organization, so neither a private foundation nor a public charity. */
export const NOT_501C3_FOUNDATION_CODE = '00';
export const FOUNDATION: Readonly<Record<string, string>> = {
  '00': 'not a 501(c)(3) organization', '02': 'private operating foundation exempt from excise tax', '03': 'private operating foundation',
  '04': 'private non-operating foundation', '09': 'suspense (foundation status not determined)', '10': 'church', '11': 'school', '12': 'hospital or medical research organization',
  '13': 'organization operated for a governmental college or university', '14': 'governmental unit', '15': 'publicly supported organization (170(b)(1)(A)(vi))',
  '16': 'publicly supported organization (509(a)(2))', '17': 'supporting organization (509(a)(3))', '18': 'organization testing for public safety (509(a)(4))',
  '21': 'supporting organization, Type I', '22': 'supporting organization, Type II', '23': 'supporting organization, Type III functionally integrated', '24': 'supporting organization, Type III not functionally integrated',
};
/** STATUS codes that answer "is it exempt" by themselves; 12 and 25 describe a situation, not a yes/no. */
export const EXEMPT_STATUS: Readonly<Record<string, boolean>> = { '01': true, '02': true };

/** "03" → "501(c)(3)"; other paragraphs the same way. */
export function subsectionLabel(code: string): string {
  return /^\d{2}$/.test(code) ? `501(c)(${Number(code)})` : code;
}

/** YYYYMM → the last day of that month (ISO date). */
export function monthEnd(yyyymm: string): string | undefined {
  const m = /^(\d{4})(\d{2})$/.exec(yyyymm);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0));
  return d.toISOString().slice(0, 10);
}

export const buildBmfRequest: RequestBuilder = (decl, args) => {
  if (!/^[a-z]{2}$|^region[1-4]$|^pr$|^xx$/.test((args.state ?? '').toLowerCase())) throw new ConnectorInputError(`--state is a two-letter state code (e.g. ri, dc), not "${args.state}"`);
  return { request: requestFor(decl, { state: args.state!.toLowerCase() }), policy: policyFor(decl, 'csv') };
};

type Row = Record<string, string>;

function rows(raw: RawResponse): Row[] {
  try {
    return parse(raw.text.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true }) as Row[];
  } catch (e) {
    throw new PublisherError('unexpected_shape', `the BMF extract is not readable CSV (${(e as Error).message})`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
  }
}

function organization(r: Row, raw: RawResponse, operation: string): EntityRecord {
  return {
    type: 'entity', source: SOURCE, operation, kind: 'organization', label: r.NAME!,
    keys: { ein: r.EIN!, name: r.NAME! },
    attributes: {
      subsection: r.SUBSECTION || null, subsectionLabel: r.SUBSECTION ? subsectionLabel(r.SUBSECTION) : null,
      classification: r.CLASSIFICATION || null, deductibility: r.DEDUCTIBILITY || null, deductibilityLabel: DEDUCTIBILITY[r.DEDUCTIBILITY ?? ''] ?? null,
      foundation: r.FOUNDATION || null, status: r.STATUS || null, statusLabel: STATUS[r.STATUS ?? ''] ?? null,
      ntee: r.NTEE_CD || null, ruling: r.RULING || null, taxPeriod: r.TAX_PERIOD || null,
      street: r.STREET || null, city: r.CITY || null, state: r.STATE || null, zip: r.ZIP || null, careOf: r.ICO || null, sortName: r.SORT_NAME || null,
    },
    raw: pointer(raw),
  };
}

function amounts(r: Row, raw: RawResponse, operation: string): Observation[] {
  const end = monthEnd(r.TAX_PERIOD ?? '');
  return (['ASSET_AMT', 'INCOME_AMT', 'REVENUE_AMT'] as const).map((f) => {
    const v = decimal(r[f]);
    return {
      type: 'observation', source: SOURCE, operation, measure: `bmf/${f}`,
      value: v ?? null, status: v === undefined ? 'missing' : 'reported', asPublished: r[f] ?? '',
      unit: 'USD', currency: 'USD', scale: 1,
      period: { ...(end ? { end } : {}), instant: f === 'ASSET_AMT', basis: 'fiscal', ...(end ? { fiscalPeriod: 'FY', label: `tax period ending ${end}` } : { label: 'no tax period on file (non-filer)' }) },
      entity: { ein: r.EIN!, name: r.NAME! },
      attributes: { taxPeriod: r.TAX_PERIOD || null },
      raw: pointer(raw),
    } satisfies Observation;
  });
}

async function extract(decl: OperationDecl, args: Readonly<Record<string, string>>, ctx: ConnectorContext) {
  const { request, policy } = buildBmfRequest(decl, args);
  const raw = await ctx.http.request(request, policy, ctx);
  return { raw, rows: rows(raw) };
}

function filterRows(all: Row[], args: Readonly<Record<string, string>>): Row[] {
  const ein = args.ein?.replace(/-/g, '');
  if (ein !== undefined && !/^\d{9}$/.test(ein)) throw new ConnectorInputError(`an EIN is 9 digits (12-3456789 or 123456789), not "${args.ein}"`);
  const name = args.name?.toUpperCase();
  return all.filter((r) => (!ein || r.EIN === ein)
    && (!name || (r.NAME ?? '').includes(name) || (r.SORT_NAME ?? '').includes(name))
    && (!args.subsection || r.SUBSECTION === args.subsection.padStart(2, '0'))
    && (!args.ntee || (r.NTEE_CD ?? '').startsWith(args.ntee.toUpperCase())));
}

function result(operation: string, records: OperationResult['records'], raw: RawResponse, notes: string[], complete: boolean): OperationResult {
  return { source: SOURCE, operation, records, responses: [pointer(raw)], complete, notes };
}

/**
 * The BMF is published one extract per state, so a keyed read by EIN needs the state: the one the
 * question places the entity in; else the one the identity registry places it in (said in a note);
 * else unbound — never guessed, never a scan of every extract.
 */
function extractState(h: RecordHints): { state: string; note?: string } | { error: string } {
  if (h.state) return { state: h.state };
  if (h.registryState) {
    return { state: h.registryState.code, note: `the question names no state; the identity registry places the organization in ${h.registryState.label} (located in, wdt:P131), so the IRS EO BMF extract for ${h.registryState.label} (eo_${h.registryState.code}) is read` };
  }
  return { error: 'the IRS EO BMF is published one extract per state; the question names no state and the identity registry places the organization in none, so the extract to read is unknown (name the state, e.g. "in DC")' };
}

/** The whole state extract: the record is still found by its EIN (examined by key), never by name. */
const RECORDS: Readonly<Record<string, RecordBinder>> = {
  'eo-bmf-state': { takes: ['ein'], bind(k, h) {
    if (k.keyType !== 'ein') return needsKey('eo-bmf-state', 'EIN', k.keyType);
    const s = extractState(h);
    return 'error' in s ? s : { fetchArgs: { state: s.state }, ...(s.note ? { note: s.note } : {}) };
  } },
  'eo-bmf-ein-lookup': { takes: ['ein'], bind(k, h) {
    if (k.keyType !== 'ein') return needsKey('eo-bmf-ein-lookup', 'EIN', k.keyType);
    const s = extractState(h);
    return 'error' in s ? s : { fetchArgs: { state: s.state, ein: k.value }, ...(s.note ? { note: s.note } : {}) };
  } },
};

export const irsEoBmf: Connector = {
  source: SOURCE,
  readerName: 'the IRS Exempt Organizations Business Master File',
  buildRequest: buildBmfRequest,
  recordBinders: RECORDS,
  statusFields: { 'eo-bmf-ein-lookup': ['subsection', 'foundation', 'status'], 'eo-bmf-state': ['subsection', 'foundation', 'status'] },
  operations: {
    'eo-bmf-state': {
      params: [
        { name: 'state', description: 'two-letter state code of the extract', required: true, example: 'ri' },
        { name: 'subsection', description: 'keep one 501(c) paragraph, e.g. 03', required: false },
        { name: 'ntee', description: 'keep NTEE codes starting with this', required: false },
        { name: 'amounts', description: 'also emit asset/income/revenue observations (yes/no, default no)', required: false },
      ],
      async run(args, ctx, decl) {
        requireArgs(args, ['state'], decl.id);
        const { raw, rows: all } = await extract(decl, args, ctx);
        const kept = filterRows(all, args);
        const records: OperationResult['records'] = [];
        for (const r of kept) {
          records.push(organization(r, raw, decl.id));
          if (args.amounts === 'yes') records.push(...amounts(r, raw, decl.id));
        }
        const filtered = args.subsection || args.ntee ? ` filtered to ${[args.subsection && subsectionLabel(args.subsection.padStart(2, '0')), args.ntee && `NTEE ${args.ntee}*`].filter(Boolean).join(', ')}` : '';
        return result(decl.id, records, raw, [`the complete BMF extract for ${args.state!.toUpperCase()}: ${all.length} organizations${filtered ? `, ${kept.length}${filtered}` : ''}`], true);
      },
    },
    'eo-bmf-ein-lookup': {
      params: [
        { name: 'state', description: 'two-letter state code of the extract', required: true, example: 'ri' },
        { name: 'ein', description: '9-digit EIN', required: false },
        { name: 'name', description: 'name contains (case-insensitive)', required: false },
      ],
      async run(args, ctx, decl) {
        requireArgs(args, ['state'], decl.id);
        if (!args.ein && !args.name) throw new ConnectorInputError('eo-bmf-ein-lookup needs --ein or --name');
        const { raw, rows: all } = await extract(decl, args, ctx);
        const kept = filterRows(all, args);
        if (kept.length === 0) throw new PublisherError('not_found', `no organization ${args.ein ? `with EIN ${args.ein}` : `named like "${args.name}"`} in the ${args.state!.toUpperCase()} extract`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
        return result(decl.id, kept.flatMap((r) => [organization(r, raw, decl.id), ...amounts(r, raw, decl.id)]), raw, [], true);
      },
    },
  },
};
