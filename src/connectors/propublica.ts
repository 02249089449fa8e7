/**
 * ProPublica Nonprofit Explorer (API v2): an organization by EIN with its filings, and name search
 * with 0-based paging.
 *
 * EINs arrive as integers (leading zeros lost): re-padded to 9 digits. Filing figures are whole US
 * dollars for the tax period `tax_prd` (YYYYMM, the month the fiscal year ended); `formtype` 0/1/2 is
 * 990/990-EZ/990-PF. Search pages are a sample of matches, never a population: paging stops at the
 * declared last page (num_pages) and the result says whether every page was read.
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { monthEnd } from './irs-eo-bmf.ts';
import { pointer, type EntityRecord, type Observation, type OperationResult } from './records.ts';
import { policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { needsKey, ownMeasure, type KeyedBinder, type RecordBinder } from './binding.ts';

const SOURCE = 'propublica-nonprofits';
const FORM: Readonly<Record<number, string>> = { 0: '990', 1: '990-EZ', 2: '990-PF' };
/** Filing fields published as headline measures (ard-okf/propublica-nonprofits.json). */
const FIELDS = ['totrevenue', 'totfuncexpns', 'totassetsend', 'totliabend', 'totnetassetend'] as const;

export function padEin(ein: number | string): string {
  const d = String(ein).replace(/-/g, '');
  if (!/^\d{1,9}$/.test(d)) throw new ConnectorInputError(`an EIN is up to 9 digits, not "${ein}"`);
  return d.padStart(9, '0');
}

export const buildProPublicaRequest: RequestBuilder = (decl, args) => {
  const a: Record<string, string> = { ...args };
  if (decl.id === 'organization') a.ein = padEin(args.ein ?? '');
  const req = requestFor(decl, { ...a, page: a.page ?? '0' });
  if (decl.id === 'search' && args.state) {
    const u = new URL(req.url);
    u.searchParams.set('state[id]', args.state.toUpperCase());
    req.url = u.href;
  }
  return { request: req, policy: policyFor(decl, 'json') };
};

async function get(decl: OperationDecl, args: Readonly<Record<string, string>>, ctx: ConnectorContext): Promise<RawResponse> {
  const { request, policy } = buildProPublicaRequest(decl, args);
  return ctx.http.request(request, policy, ctx);
}

interface Org { ein: number; name: string; city?: string; state?: string; zipcode?: string; subsection_code?: number; foundation_code?: number; exempt_organization_status_code?: number; ntee_code?: string | null; ruling_date?: string; deductibility_code?: number }
interface Filing { tax_prd: number; tax_prd_yr: number; formtype: number; pdf_url: string | null; [k: string]: unknown }

/**
 * An organization response holds every filing with data: the period check picks the tax year asked
 * (the filing's tax_prd_yr, its period end disclosed) or, for "latest", the newest filing it holds.
 */
const KEYED: Readonly<Record<string, KeyedBinder>> = {
  organization: {
    entityType: 'organization',
    bind({ measureKey, key }) {
      if (key.keyType !== 'ein') return { error: `organization takes an EIN, not a ${key.keyType}` };
      const measure = ownMeasure(measureKey, SOURCE);
      if (!/^filing\/[a-z_]+$/.test(measure)) return { error: `${measureKey} is not a ProPublica filing field` };
      return [{ fetchArgs: { ein: key.value }, measure }];
    },
  },
};

const RECORDS: Readonly<Record<string, RecordBinder>> = {
  organization: { takes: ['ein'], bind: (k) => k.keyType === 'ein' ? { fetchArgs: { ein: k.value } } : needsKey('organization', 'EIN', k.keyType) },
};

export const propublica: Connector = {
  source: SOURCE,
  readerName: 'ProPublica Nonprofit Explorer',
  buildRequest: buildProPublicaRequest,
  keyedBinders: KEYED,
  recordBinders: RECORDS,
  listKinds: { organization: 'return' },
  // the organization record carries the BMF codes (subsection_code, foundation_code, exempt_organization_status_code), keyed by EIN alone
  statusFields: { organization: ['subsection', 'foundation', 'status'] },
  operations: {
    organization: {
      params: [{ name: 'ein', description: 'EIN (9 digits, hyphen optional)', required: true, example: '142007220' }],
      async run(args, ctx, decl) {
        requireArgs(args, ['ein'], decl.id);
        const raw = await get(decl, args, ctx);
        const body = raw.json as { organization?: Org; filings_with_data?: Filing[]; filings_without_data?: Filing[] };
        if (!body?.organization) throw new PublisherError('unexpected_shape', 'ProPublica organization response lacks "organization"', { method: raw.method, url: raw.url, source: SOURCE });
        const o = body.organization;
        const ein = padEin(o.ein);
        const records: OperationResult['records'] = [{
          type: 'entity', source: SOURCE, operation: decl.id, kind: 'organization', label: o.name, keys: { ein, name: o.name },
          attributes: { city: o.city ?? null, state: o.state ?? null, zip: o.zipcode ?? null, subsection: o.subsection_code != null ? String(o.subsection_code).padStart(2, '0') : null, foundation: o.foundation_code != null ? String(o.foundation_code).padStart(2, '0') : null, status: o.exempt_organization_status_code != null ? String(o.exempt_organization_status_code).padStart(2, '0') : null, ntee: o.ntee_code ?? null, rulingDate: o.ruling_date ?? null, deductibility: o.deductibility_code != null ? String(o.deductibility_code) : null, filingsWithoutData: (body.filings_without_data ?? []).length },
          raw: pointer(raw),
        } satisfies EntityRecord];
        // every return ProPublica lists, with or without extracted figures, as a record of its own
        for (const [f, withData] of [...(body.filings_with_data ?? []).map((x) => [x, true] as const), ...(body.filings_without_data ?? []).map((x) => [x, false] as const)]) {
          const form = (f.formtype_str as string | undefined) ?? FORM[f.formtype] ?? String(f.formtype);
          records.push({ type: 'entity', source: SOURCE, operation: decl.id, kind: 'return', label: `Form ${form} for tax period ${String(f.tax_prd)}`, keys: { ein, name: o.name, tax_period: String(f.tax_prd) }, attributes: { taxPeriod: String(f.tax_prd), taxYear: f.tax_prd_yr ?? null, periodEnd: monthEnd(String(f.tax_prd)) ?? null, form, withData, pdfUrl: f.pdf_url ?? null }, raw: pointer(raw) } satisfies EntityRecord);
        }
        for (const f of body.filings_with_data ?? []) {
          const end = monthEnd(String(f.tax_prd));
          for (const field of FIELDS) {
            const v = f[field];
            records.push({
              type: 'observation', source: SOURCE, operation: decl.id, measure: `filing/${field}`,
              value: typeof v === 'number' ? v : null, status: typeof v === 'number' ? 'reported' : 'missing',
              unit: 'USD', currency: 'USD', scale: 1,
              period: { ...(end ? { end } : {}), instant: field.endsWith('end'), basis: 'fiscal', fiscalYear: f.tax_prd_yr, fiscalPeriod: 'FY' },
              entity: { ein, name: o.name },
              attributes: { taxPeriod: String(f.tax_prd), form: FORM[f.formtype] ?? String(f.formtype), pdfUrl: f.pdf_url ?? null },
              raw: pointer(raw),
            } satisfies Observation);
          }
        }
        return { source: SOURCE, operation: decl.id, records, responses: [pointer(raw)], complete: true, notes: [] };
      },
    },
    search: {
      params: [
        { name: 'q', description: 'search text', required: true, example: 'rural' },
        { name: 'page', description: '0-based page to start from (default 0)', required: false },
        { name: 'state', description: 'two-letter state filter', required: false, example: 'OH' },
        { name: 'all', description: 'yes: keep paging to the last page', required: false },
      ],
      async run(args, ctx, decl) {
        requireArgs(args, ['q'], decl.id);
        let page = Number(args.page ?? '0');
        const records: EntityRecord[] = [];
        const responses: RawResponse[] = [];
        const notes: string[] = [];
        let lastPage = page;
        let total = 0;
        for (;;) {
          let raw: RawResponse;
          try { raw = await get(decl, { ...args, page: String(page) }, ctx); } catch (e) {
            if (responses.length === 0 || !(e instanceof PublisherError) || e.kind === 'cancelled') throw e;
            notes.push(`stopped before page ${page}: ${e.message}`);
            break;
          }
          responses.push(raw);
          const body = raw.json as { total_results: number; num_pages: number; cur_page: number; organizations: Array<{ ein: number; strein: string; name: string; city: string; state: string; ntee_code: string | null; subseccd: number | null; score: number }> };
          if (!Array.isArray(body?.organizations)) throw new PublisherError('unexpected_shape', 'ProPublica search response lacks "organizations"', { method: raw.method, url: raw.url, source: SOURCE });
          total = body.total_results;
          lastPage = body.num_pages - 1;
          for (const o of body.organizations) {
            records.push({ type: 'entity', source: SOURCE, operation: decl.id, kind: 'organization', label: o.name, keys: { ein: padEin(o.ein), name: o.name }, attributes: { city: o.city, state: o.state, ntee: o.ntee_code, subsection: o.subseccd != null ? String(o.subseccd).padStart(2, '0') : null, score: o.score, page: body.cur_page }, raw: pointer(raw) });
          }
          if (args.all !== 'yes' || body.cur_page >= lastPage) break;
          page = body.cur_page + 1;
        }
        const first = Number(args.page ?? '0');
        const readAll = first === 0 && responses.length > 0 && (responses.length === lastPage + 1);
        notes.unshift(`search results (a ranked sample of matches, not a population): ${records.length} of ${total} matches, pages ${first}–${first + responses.length - 1} of 0–${lastPage}`);
        return { source: SOURCE, operation: decl.id, records, responses: responses.map(pointer), complete: readAll, notes };
      },
    },
  },
};
