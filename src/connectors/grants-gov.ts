/**
 * Grants.gov search2 / fetchOpportunity, built to the published API shape. The offline snapshot
 * holds only the few real Grants.gov responses recorded in the samples (one search2 page, for the
 * keyword search "tribal energy development", and fetchOpportunity for twelve opportunities:
 * fixtures/publishers/grants-gov/); any other request — every other search — is blocked offline and
 * says so, never answered from another search's page. Shapes the samples lack are tested against a stub labelled SYNTHETIC (test/connectors/fixtures/).
 *
 * Conventions (from the API documentation and other projects' code; unverified here): an envelope
 * {errorcode, msg, data}; errorcode ≠ 0 is a failure even with HTTP 200; opportunity ids are strings
 * in search hits and numbers in fetchOpportunity; dates are MM/DD/YYYY; closeDate may be "". A retired
 * listing answers 200 + "Webservice Succeeds" with errorMessages "There is no record found…".
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { usDate } from './nsf-awards.ts';
import { pointer, type EntityRecord, type Observation, type OperationResult } from './records.ts';
import { decimal, policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';

const SOURCE = 'grants-gov';

export const buildGrantsRequest: RequestBuilder = (decl, args) => {
  if (decl.id === 'fetch-opportunity') {
    if (!/^\d+$/.test(args.opportunity_id ?? '')) throw new ConnectorInputError(`--opportunity_id is a number, not "${args.opportunity_id}"`);
    return { request: requestFor(decl, {}, { opportunity_id: Number(args.opportunity_id) }), policy: policyFor(decl, 'json') };
  }
  const rows = Number(args.rows ?? '25');
  return { request: requestFor(decl, {}, { keyword: args.keyword ?? '', agencies: args.agencies ?? '', rows, start: Number(args.start ?? '0') }), policy: policyFor(decl, 'json') };
};

async function call(decl: OperationDecl, args: Readonly<Record<string, string>>, ctx: ConnectorContext): Promise<RawResponse> {
  const { request, policy } = buildGrantsRequest(decl, args);
  let raw: RawResponse;
  try { raw = await ctx.http.request(request, policy, ctx); } catch (e) {
    if (e instanceof PublisherError && e.code === 'offline') {
      throw new PublisherError('offline', 'the offline snapshot has no recording of this Grants.gov request: it holds only the Grants.gov responses recorded in the samples (fixtures/publishers/grants-gov/), and a search for other words is never answered from another search\'s page; run with --live', { method: e.method, url: e.url, source: SOURCE });
    }
    throw e;
  }
  const env = raw.json as { errorcode?: number; msg?: string; data?: { errorMessages?: string[] } };
  if (env?.errorcode !== undefined && env.errorcode !== 0) throw new PublisherError('http_status', `Grants.gov answered errorcode ${env.errorcode}: ${env.msg ?? ''}`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
  const missing = env?.data?.errorMessages?.find((m) => /no record found/i.test(m));
  if (missing) throw new PublisherError('not_found', `Grants.gov: ${missing}`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
  return raw;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** fetchOpportunity dates: "Mar 08, 2016 12:00:00 AM EST" → 2016-03-08 (the day as published; the time is dropped). */
export function monDate(s: unknown): string | undefined {
  const m = typeof s === 'string' ? /^([A-Z][a-z]{2}) (\d{2}), (\d{4})\b/.exec(s) : null;
  const month = m ? MONTHS.indexOf(m[1]!) + 1 : 0;
  return m && month > 0 ? `${m[3]}-${String(month).padStart(2, '0')}-${m[2]}` : undefined;
}

/** The synopsis's award amounts (catalog measures synopsis/<field>), as published: "none" or "" is no amount, never 0. */
const AMOUNTS = ['awardCeiling', 'awardFloor', 'estimatedFunding'] as const;
export function synopsisObservations(d: Record<string, unknown>, raw: RawResponse, operation: string): Observation[] {
  const syn = (d.synopsis ?? {}) as Record<string, unknown>;
  const posted = monDate(syn.postingDate);
  const updated = monDate(syn.lastUpdatedDate);
  const date = updated ?? posted;
  const keys = { opportunity_id: String(d.id), ...(d.opportunityNumber ? { opportunity_number: String(d.opportunityNumber) } : {}) };
  return AMOUNTS.filter((f) => f in syn).map((f): Observation => {
    const text = syn[f] === null || syn[f] === undefined ? '' : String(syn[f]);
    const v = decimal(text.replace(/,/g, ''));
    return {
      type: 'observation', source: SOURCE, operation, measure: `synopsis/${f}`, label: f === 'awardCeiling' ? 'Award Ceiling' : f === 'awardFloor' ? 'Award Floor' : 'Estimated Total Program Funding',
      value: v ?? null, status: v === undefined ? (/^none$/i.test(text) ? 'not_applicable' : 'missing') : 'reported', asPublished: text, unit: 'USD', currency: 'USD', scale: 1,
      period: { ...(date ? { end: date } : {}), instant: true, basis: 'calendar', label: date ? `synopsis ${updated ? 'last updated' : 'posted'} ${date}` : 'synopsis (undated)' },
      entity: keys, attributes: {}, raw: pointer(raw),
    };
  });
}

export const grantsGov: Connector = {
  source: SOURCE,
  readerName: 'Grants.gov',
  topical: { search: 'search-opportunities', detail: 'fetch-opportunity', records: /\b(grants?|opportunit(?:y|ies)|funding|cooperative\s+agreements?)\b/i, recordsWord: 'grant and funding opportunities' },
  buildRequest: buildGrantsRequest,
  operations: {
    'search-opportunities': {
      params: [{ name: 'keyword', description: 'search words', required: true }, { name: 'agencies', description: 'pipe-joined agency codes (≤ about 193, more silently returns nothing)', required: false }, { name: 'rows', description: 'page size', required: false }, { name: 'start', description: 'start record (0-based)', required: false }],
      async run(args, ctx, decl) {
        requireArgs(args, ['keyword'], decl.id);
        if ((args.agencies ?? '').split('|').length > 193) throw new ConnectorInputError('Grants.gov silently returns no hits for more than about 193 agency codes: split the search');
        const raw = await call(decl, args, ctx);
        const data = (raw.json as { data?: { hitCount?: number; startRecord?: number; oppHits?: Array<Record<string, unknown>> } }).data;
        if (!Array.isArray(data?.oppHits)) throw new PublisherError('unexpected_shape', 'Grants.gov search lacks data.oppHits', { method: raw.method, url: raw.url, source: SOURCE });
        const records = data.oppHits.map((h): EntityRecord => ({
          type: 'entity', source: SOURCE, operation: decl.id, kind: 'opportunity', label: String(h.title ?? ''), keys: { opportunity_id: String(h.id), opportunity_number: String(h.number ?? '') },
          attributes: { agencyCode: (h.agencyCode as string) ?? null, status: (h.oppStatus as string) ?? null, openDate: usDate(h.openDate) ?? null, closeDate: usDate(h.closeDate) ?? null, cfda: (h.cfdaList as string[]) ?? [] }, raw: pointer(raw),
        }));
        const seen = (data.startRecord ?? 0) + records.length;
        const notes = [`search hits (a sample by relevance, not a population): ${records.length} of ${data.hitCount ?? '?'}`, ...(raw.origin?.synthetic || raw.origin?.kind === 'synthetic' ? ['SYNTHETIC stub response, not Grants.gov data'] : [])];
        return { source: SOURCE, operation: decl.id, records, responses: [pointer(raw)], complete: seen >= (data.hitCount ?? 0), notes };
      },
    },
    'fetch-opportunity': {
      params: [{ name: 'opportunity_id', description: 'numeric opportunity id', required: true }],
      async run(args, ctx, decl) {
        requireArgs(args, ['opportunity_id'], decl.id);
        const raw = await call(decl, args, ctx);
        const d = (raw.json as { data?: Record<string, unknown> }).data;
        if (!d?.id) throw new PublisherError('unexpected_shape', 'Grants.gov fetchOpportunity lacks data.id', { method: raw.method, url: raw.url, source: SOURCE });
        const rec: EntityRecord = { type: 'entity', source: SOURCE, operation: decl.id, kind: 'opportunity', label: String(d.opportunityTitle ?? ''), keys: { opportunity_id: String(d.id), opportunity_number: String(d.opportunityNumber ?? '') }, attributes: { synopsis: String((d.synopsis as Record<string, unknown> | undefined)?.synopsisDesc ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim() || null }, raw: pointer(raw) };
        const synthetic = raw.origin?.synthetic || raw.origin?.kind === 'synthetic';
        return { source: SOURCE, operation: decl.id, records: [rec, ...synopsisObservations(d, raw, decl.id)], responses: [pointer(raw)], complete: true, notes: synthetic ? ['SYNTHETIC stub response, not Grants.gov data'] : [] } satisfies OperationResult;
      },
    },
  },
};
