/**
 * Treasury Fiscal Data: debt to the penny, average interest rates, rates of exchange.
 *
 * Every value arrives as a string ("40260641972390.03"); the string "null" means missing. Units come
 * from meta.dataTypes (CURRENCY → USD, PERCENTAGE → %), or, when a response carries no meta, from the
 * field's known meaning. record_date is a point in time; record_fiscal_year is the federal fiscal year
 * (October–September), kept beside the calendar date. Paging follows meta.total-pages / links.next
 * to the declared last page; a result is complete only when every page was read.
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { pointer, type Observation, type OperationResult } from './records.ts';
import { decimal, policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';

const SOURCE = 'treasury-fiscal-data';
const KNOWN_TYPES: Readonly<Record<string, string>> = {
  debt_held_public_amt: 'CURRENCY', intragov_hold_amt: 'CURRENCY', tot_pub_debt_out_amt: 'CURRENCY', avg_interest_rate_amt: 'PERCENTAGE', exchange_rate: 'NUMBER',
};
const DATASET: Readonly<Record<string, string>> = {
  'debt-to-penny-range': 'debt_to_penny', 'debt-to-penny-latest': 'debt_to_penny', 'avg-interest-rates-range': 'avg_interest_rates', 'avg-interest-rates-latest': 'avg_interest_rates', 'rates-of-exchange-range': 'rates_of_exchange',
};

export const buildTreasuryRequest: RequestBuilder = (decl, args) => {
  for (const k of ['start', 'end'] as const) if (args[k] !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(args[k]!)) throw new ConnectorInputError(`--${k} is a date YYYY-MM-DD, not "${args[k]}"`);
  const req = requestFor(decl, args);
  if (args.page && args.page !== '1') { const u = new URL(req.url); u.searchParams.set('page[number]', args.page); req.url = u.href; }
  return { request: req, policy: policyFor(decl, 'json') };
};

interface Page { data: Array<Record<string, string | null>>; meta?: { count?: number; 'total-count'?: number; 'total-pages'?: number; dataTypes?: Record<string, string>; labels?: Record<string, string> }; links?: { next: string | null } }

export function treasuryObservations(page: Page, raw: RawResponse, operation: string, dataset: string): Observation[] {
  const types = { ...KNOWN_TYPES, ...page.meta?.dataTypes };
  const out: Observation[] = [];
  for (const row of page.data) {
    const date = row.record_date ?? undefined;
    const fy = decimal(row.record_fiscal_year ?? undefined);
    for (const [field, text] of Object.entries(row)) {
      const t = types[field];
      if (t !== 'CURRENCY' && t !== 'PERCENTAGE' && t !== 'NUMBER') continue;
      const missing = text === null || text === 'null' || text === '';
      const v = missing ? undefined : decimal(text);
      const series = [row.security_type_desc, row.security_desc, row.country_currency_desc].filter(Boolean).join(' / ');
      out.push({
        type: 'observation', source: SOURCE, operation, measure: `${dataset}/${field}`, label: page.meta?.labels?.[field] ?? undefined,
        value: v ?? null, status: v === undefined ? 'missing' : 'reported', asPublished: text ?? undefined,
        unit: t === 'CURRENCY' ? 'USD' : t === 'PERCENTAGE' ? '%' : field === 'exchange_rate' ? 'foreign currency units per USD' : '1',
        ...(t === 'CURRENCY' ? { currency: 'USD' } : {}), scale: 1,
        period: { ...(date ? { end: date } : {}), instant: true, basis: 'calendar', ...(fy !== undefined ? { fiscalYear: fy } : {}), label: fy !== undefined ? `as of ${date} (federal FY${fy}, Oct–Sep)` : `as of ${date}` },
        attributes: { ...(series ? { series } : {}), ...(row.effective_date ? { effectiveDate: row.effective_date } : {}) },
        raw: pointer(raw),
      });
    }
  }
  return out;
}

function op(dataset: string, needsRange: boolean) {
  return {
    params: [
      ...(needsRange ? [{ name: 'start', description: 'first record_date YYYY-MM-DD', required: true, example: '2025-01-01' }, { name: 'end', description: 'last record_date YYYY-MM-DD', required: true, example: '2025-03-06' }] : []),
      { name: 'pages', description: 'maximum pages to read (default: all)', required: false },
    ],
    async run(args: Readonly<Record<string, string>>, ctx: ConnectorContext, decl: OperationDecl): Promise<OperationResult> {
      if (needsRange) requireArgs(args, ['start', 'end'], decl.id);
      const maxPages = args.pages ? Number(args.pages) : Infinity;
      const records: Observation[] = [];
      const responses: RawResponse[] = [];
      const notes: string[] = [];
      let totalPages = 1;
      let complete = false;
      for (let page = 1; page <= Math.min(totalPages, maxPages); page++) {
        const { request, policy } = buildTreasuryRequest(decl, { ...args, page: String(page) });
        let raw: RawResponse;
        try { raw = await ctx.http.request(request, policy, ctx); } catch (e) {
          if (responses.length === 0 || !(e instanceof PublisherError) || e.kind === 'cancelled') throw e;
          notes.push(`stopped before page ${page} of ${totalPages}: ${e.message}`);
          break;
        }
        responses.push(raw);
        const body = raw.json as Page;
        if (!Array.isArray(body?.data)) throw new PublisherError('unexpected_shape', 'Treasury response lacks "data"', { method: raw.method, url: raw.url, source: SOURCE });
        totalPages = body.meta?.['total-pages'] ?? 1;
        records.push(...treasuryObservations(body, raw, decl.id, dataset));
        if (decl.data.kind === 'ordered_top_n') break; // the top record(s) are the answer; later pages are not wanted
        if (page >= totalPages || body.links?.next === null) { complete = true; break; }
      }
      if (decl.data.kind === 'ordered_top_n') {
        complete = true;
        notes.push('the latest record only (sorted by record_date descending, page size 1)');
        // a month of average rates has one row per security type; page size 1 keeps only the first
        const first = records[0];
        if (dataset === 'avg_interest_rates' && first) notes.push(`one security type for record date ${first.period.end ?? '(none)'} (${String(first.attributes.series ?? 'first row')}), not every security type of that month: read avg-interest-rates-range over that month for all of them`);
      }
      const derived = responses.find((r) => r.origin?.derived);
      if (derived) notes.push(`replayed from a DERIVED cassette (${derived.origin?.sample}): ${derived.origin?.note ?? ''}`);
      return { source: SOURCE, operation: decl.id, records, responses: responses.map(pointer), complete, notes };
    },
  };
}

export const treasury: Connector = {
  source: SOURCE,
  readerName: 'Treasury Fiscal Data',
  buildRequest: buildTreasuryRequest,
  operations: Object.fromEntries(Object.entries(DATASET).map(([id, ds]) => [id, op(ds, id.endsWith('-range'))])),
};
