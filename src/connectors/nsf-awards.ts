/**
 * NSF Awards API v1: awards by awardee name, by keyword, and one award by id.
 *
 * Amounts and ids arrive as strings; dates as MM/DD/YYYY (converted to ISO). Only the requested
 * printFields come back. Offsets are 1-based, 25 awards per call; name matching is textual.
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { readPages } from './paging.ts';
import { pointer, type EntityRecord, type Observation, type OperationResult } from './records.ts';
import { decimal, policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { needsKey, type RecordBinder } from './binding.ts';

const SOURCE = 'nsf-awards';
const PAGE = 25;

export function usDate(s: unknown): string | undefined {
  const m = typeof s === 'string' ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s) : null;
  return m ? `${m[3]}-${m[1]}-${m[2]}` : undefined;
}

export const buildNsfRequest: RequestBuilder = (decl, args) => {
  if (decl.id === 'award' && !/^\d{7}$/.test(args.id ?? '')) throw new ConnectorInputError(`--id is a 7-digit NSF award id, not "${args.id}"`);
  return { request: requestFor(decl, { ...args, offset: args.offset ?? '1' }), policy: policyFor(decl, 'json') };
};

/**
 * `response.award[]` → one award record each (the list an awardee's awards are read from): keyed by
 * the NSF award id, with the awardee name as published, the date the list is ordered by (award
 * date, else start date, ISO) and the estimated total amount as a number.
 */
export function nsfAwardRecords(awards: Array<Record<string, string>>, raw: RawResponse, operation: string): EntityRecord[] {
  return awards.map((a) => {
    const date = usDate(a.date) ?? usDate(a.startDate);
    return {
      type: 'entity', source: SOURCE, operation, kind: 'award', label: a.title ?? `NSF award ${a.id ?? ''}`.trim(),
      keys: { name: a.awardeeName ?? '', ...(a.id ? { nsf_award_id: a.id } : {}) },
      attributes: { date: date ?? null, startDate: usDate(a.startDate) ?? null, expDate: usDate(a.expDate) ?? null, amount: decimal(a.estimatedTotalAmt) ?? null },
      raw: pointer(raw),
    } satisfies EntityRecord;
  });
}

/** `response.award[]` → observations of the estimated total amount (and obligated, when printed). */
export function nsfAwards(awards: Array<Record<string, string>>, raw: RawResponse, operation: string): Observation[] {
  const out: Observation[] = [];
  for (const a of awards) {
    const start = usDate(a.startDate ?? a.date);
    const end = usDate(a.expDate);
    for (const f of ['estimatedTotalAmt', 'fundsObligatedAmt'] as const) {
      if (!(f in a)) continue;
      const v = decimal(a[f]);
      out.push({
        type: 'observation', source: SOURCE, operation, measure: `award/${f}`, label: a.title,
        value: v ?? null, status: v === undefined ? 'missing' : 'reported', asPublished: a[f], unit: 'USD', currency: 'USD', scale: 1,
        period: { ...(start ? { start } : {}), ...(end ? { end } : {}), instant: false, basis: 'calendar', label: a.startDate ? 'award period' : 'award date' },
        entity: { name: a.awardeeName ?? '' },
        attributes: { awardId: a.id ?? null, ...(a.date ? { awardDate: usDate(a.date) ?? a.date } : {}) },
        raw: pointer(raw),
      });
    }
  }
  return out;
}

function list(required: string[]) {
  return {
    params: [...required.map((n) => ({ name: n, description: n === 'awardee' ? 'awardee name or its prefix' : 'search words', required: true })), { name: 'pages', description: `maximum pages of ${PAGE} (default 1)`, required: false }],
    async run(args: Readonly<Record<string, string>>, ctx: ConnectorContext, decl: OperationDecl): Promise<OperationResult> {
      requireArgs(args, required, decl.id);
      const out = await readPages((n) => { const { request, policy } = buildNsfRequest(decl, { ...args, offset: String(1 + n * PAGE) }); return ctx.http.request(request, policy, ctx); }, (raw) => {
        const awards = (raw.json as { response?: { award?: Array<Record<string, string>> } })?.response?.award;
        if (!Array.isArray(awards)) throw new PublisherError('unexpected_shape', 'NSF response lacks response.award', { method: raw.method, url: raw.url, source: SOURCE });
        return { records: [...nsfAwardRecords(awards, raw, decl.id), ...nsfAwards(awards, raw, decl.id)], more: awards.length === PAGE };
      }, { first: 0, maxPages: args.pages ? Number(args.pages) : 1 });
      return { source: SOURCE, operation: decl.id, records: out.records, responses: out.responses.map(pointer), complete: out.complete, notes: ['name and keyword matching is textual: variants of an institution\'s name are missed', ...out.notes] };
    },
  };
}

/** Pages an award list may take (the connector states when more were left). */
export const LIST_PAGES = 40;

/** The name is matched textually by the publisher; the records are then kept by that name. */
const RECORDS: Readonly<Record<string, RecordBinder>> = {
  'awards-by-awardee': { takes: ['name'], bind: (k) => k.keyType === 'name' ? { fetchArgs: { awardee: k.value, pages: String(LIST_PAGES) } } : needsKey('awards-by-awardee', 'name', k.keyType) },
};

export const nsfAwardsConnector: Connector = {
  source: SOURCE,
  readerName: 'the NSF award search',
  recordsName: 'the NSF Award Search API',
  buildRequest: buildNsfRequest,
  recordBinders: RECORDS,
  listKinds: { 'awards-by-awardee': 'award' },
  operations: {
    'awards-by-awardee': list(['awardee']),
    'awards-search': list(['keyword']),
    award: {
      params: [{ name: 'id', description: 'NSF award id', required: true, example: '1547580' }],
      async run(args, ctx, decl) {
        requireArgs(args, ['id'], decl.id);
        const { request, policy } = buildNsfRequest(decl, args);
        const raw = await ctx.http.request(request, policy, ctx);
        const awards = (raw.json as { response?: { award?: Array<Record<string, string>> } })?.response?.award ?? [];
        if (awards.length === 0) throw new PublisherError('not_found', `NSF has no award ${args.id}`, { method: raw.method, url: raw.url, source: SOURCE });
        return { source: SOURCE, operation: decl.id, records: nsfAwards(awards, raw, decl.id), responses: [pointer(raw)], complete: true, notes: [] };
      },
    },
  },
};
