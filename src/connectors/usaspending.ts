/**
 * USAspending: awards by id, recipients by id, recipient search, and the search/aggregate endpoints
 * (spending by award, by recipient, by state) with paging to the publisher's last page.
 *
 * Amounts are US dollars (obligations unless the field says outlays). recipient_id is a hash with a
 * -C (child), -P (parent) or -R (recipient) suffix, sometimes spelled `-['C']` in aggregates: kept as
 * published plus a normalised form. DUNS is retired (null); UEI is the key. Search responses carry a
 * `messages` array of warnings (e.g. nothing before FY2008 is searchable), surfaced as notes.
 */
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import type { OperationDecl } from './declarations.ts';
import { readPages } from './paging.ts';
import { pointer, type EntityRecord, type Observation, type OperationResult } from './records.ts';
import { policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import { needsKey, type RecordBinder } from './binding.ts';

const SOURCE = 'usaspending';

export function normaliseRecipientId(id: string): string {
  return id.replace(/-\['([CPR])'\]$/, '-$1');
}

export const buildUsaRequest: RequestBuilder = (decl, args) => {
  if (decl.data.method === 'GET') {
    if (decl.id === 'award' && !/^[A-Za-z0-9_.\-]+$/.test(args.award_id ?? '')) throw new ConnectorInputError(`--award_id is a generated_unique_award_id such as ASST_NON_NNM11AA01A_080, not "${args.award_id}"`);
    if (decl.id === 'recipient' && !/^[0-9a-f-]{36}-[CPR]$/.test(args.recipient_id ?? '')) throw new ConnectorInputError(`--recipient_id is a USAspending recipient hash ending -C, -P or -R, not "${args.recipient_id}"`);
    return { request: requestFor(decl, args), policy: policyFor(decl, 'json') };
  }
  const types = (args.award_types ?? 'A').split(',').map((t) => t.trim()).filter(Boolean);
  const body: Record<string, unknown> = { start: args.start, end: args.end, award_types: types[0], keyword: args.keyword, page: Number(args.page ?? '1') };
  for (const k of ['start', 'end'] as const) if (args[k] !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(args[k]!)) throw new ConnectorInputError(`--${k} is a date YYYY-MM-DD`);
  const request = requestFor(decl, {}, body);
  // one award-type group (A,B,C,D contracts; 02,03,04,05 grants) and the recipient, as the search API's own filters
  if (request.body && (types.length > 1 || args.recipient)) {
    const b = JSON.parse(request.body) as { filters?: Record<string, unknown> };
    b.filters = { ...b.filters, award_type_codes: types, ...(args.recipient ? { recipient_search_text: [args.recipient] } : {}) };
    request.body = JSON.stringify(b);
  }
  return { request, policy: policyFor(decl, 'json') };
};

const usd = (measure: string, value: number | null | undefined, raw: RawResponse, operation: string, extra: Partial<Observation>): Observation => ({
  type: 'observation', source: SOURCE, operation, measure, value: typeof value === 'number' ? value : null, status: typeof value === 'number' ? 'reported' : 'missing',
  unit: 'USD', currency: 'USD', scale: 1, period: { instant: false, basis: 'fiscal' }, attributes: {}, raw: pointer(raw), ...extra,
});

type Row = Record<string, unknown>;

/** One page of spending_by_award results → award records with their amounts. */
export function awardRows(raw: RawResponse, operation: string): { records: OperationResult['records']; more: boolean } {
  const body = raw.json as { results?: Row[]; page_metadata?: { hasNext?: boolean } };
  if (!Array.isArray(body?.results)) throw new PublisherError('unexpected_shape', 'USAspending search response lacks "results"', { method: raw.method, url: raw.url, source: SOURCE });
  const records: OperationResult['records'] = [];
  const awards: EntityRecord[] = [];
  for (const r of body.results) {
    const entity = { name: String(r['Recipient Name'] ?? ''), ...(r['Recipient UEI'] ? { uei: String(r['Recipient UEI']) } : {}), ...(r.recipient_id ? { recipient_id: normaliseRecipientId(String(r.recipient_id)) } : {}) };
    const awardId = String(r.generated_internal_id ?? r['Award ID'] ?? '');
    const period = { ...(r['Start Date'] ? { start: String(r['Start Date']) } : {}), ...(r['End Date'] ? { end: String(r['End Date']) } : {}), instant: false, basis: 'calendar' as const, label: 'period of performance' };
    const awardType = (r['Award Type'] ?? r['Contract Award Type'] ?? null) as string | null;
    // the award as a record of its own (what a recipient's list is made of), and its amount as an observation
    awards.push({ type: 'entity', source: SOURCE, operation, kind: 'award', label: String(r.Description ?? r['Award ID'] ?? awardId), keys: { ...entity, award_id: String(r['Award ID'] ?? awardId) }, attributes: { date: (r['Start Date'] as string) ?? null, endDate: (r['End Date'] as string) ?? null, amount: typeof r['Award Amount'] === 'number' ? r['Award Amount'] : null, agency: (r['Awarding Agency'] as string) ?? null, awardType }, raw: pointer(raw) } satisfies EntityRecord);
    records.push(usd('award/Award Amount', r['Award Amount'] as number, raw, operation, { entity, period, attributes: { awardId, agency: (r['Awarding Agency'] as string) ?? null, awardType } }));
  }
  return { records: [...records, ...awards], more: body.page_metadata?.hasNext === true };
}

/** One page of a spending_by_category response → totals per recipient or state. */
export function categoryRows(raw: RawResponse, operation: string, category: 'recipient' | 'state'): { records: OperationResult['records']; more: boolean } {
  const body = raw.json as { results?: Row[]; page_metadata?: { hasNext?: boolean } };
  if (!Array.isArray(body?.results)) throw new PublisherError('unexpected_shape', 'USAspending category response lacks "results"', { method: raw.method, url: raw.url, source: SOURCE });
  return {
    records: body.results.map((r) => category === 'state'
      ? usd('spending_by_state/amount', r.amount as number, raw, operation, { geography: { level: 'state', name: String(r.name) }, attributes: { stateCode: String(r.code) } })
      : usd('spending_by_recipient/amount', r.amount as number, raw, operation, { entity: { name: String(r.name), ...(r.uei ? { uei: String(r.uei) } : {}), ...(r.recipient_id ? { recipient_id: normaliseRecipientId(String(r.recipient_id)) } : {}) }, attributes: { recipientIdAsPublished: (r.recipient_id as string) ?? null } })),
    more: body.page_metadata?.hasNext === true,
  };
}

function messages(responses: RawResponse[]): string[] {
  const all = new Set<string>();
  for (const r of responses) for (const m of ((r.json as { messages?: string[] })?.messages ?? [])) all.add(`USAspending says: ${m.trim()}`);
  return [...all];
}

function searchOp(parse: (raw: RawResponse, op: string) => { records: OperationResult['records']; more: boolean }, needsRange: boolean) {
  return {
    params: [
      ...(needsRange ? [{ name: 'start', description: 'period start YYYY-MM-DD (2007-10-01 or later)', required: true }, { name: 'end', description: 'period end YYYY-MM-DD', required: true }] : [{ name: 'keyword', description: 'recipient name or UEI', required: true }]),
      { name: 'award_types', description: 'award type codes of one group, comma-separated (A,B,C,D contracts; 02,03,04,05 grants)', required: false },
      ...(needsRange ? [{ name: 'recipient', description: 'recipient name or UEI to filter by (recipient_search_text)', required: false }] : []),
      { name: 'pages', description: 'maximum pages to read (default 1)', required: false },
    ],
    async run(args: Readonly<Record<string, string>>, ctx: ConnectorContext, decl: OperationDecl): Promise<OperationResult> {
      requireArgs(args, needsRange ? ['start', 'end'] : ['keyword'], decl.id);
      const maxPages = args.pages ? Number(args.pages) : 1;
      const out = await readPages((n) => { const { request, policy } = buildUsaRequest(decl, { ...args, page: String(n) }); return ctx.http.request(request, policy, ctx); }, (raw) => parse(raw, decl.id), { first: 1, maxPages, maxRows: decl.data.pagination.maxRows });
      return { source: SOURCE, operation: decl.id, records: out.records, responses: out.responses.map(pointer), complete: out.complete, notes: [...out.notes, ...messages(out.responses)] };
    },
  };
}

/** Pages an award search may take; award type codes, one group per request (the search rejects mixed groups); the searchable history starts with FY2008. */
export const LIST_PAGES = 10;
const AWARD_TYPES = { contracts: 'A,B,C,D', grants: '02,03,04,05' } as const;
const FIRST_SEARCHABLE = '2007-10-01';

const RECORDS: Readonly<Record<string, RecordBinder>> = {
  'spending-by-award': {
    takes: ['name', 'uei'],
    bind(k, h) {
      if (k.keyType !== 'name' && k.keyType !== 'uei') return needsKey('spending-by-award', 'recipient name or UEI', k.keyType);
      if (!h.awardGroup) return { error: 'USAspending searches one award-type group per request (contracts or grants); the question names neither, so which awards to list is unknown (ask for "contracts" or "grants")' };
      const start = h.year !== undefined ? `${h.year}-01-01` : FIRST_SEARCHABLE;
      const end = h.year !== undefined ? `${h.year}-12-31` : h.today;
      if (!end) return { error: 'no end date for the award search (the question names no year and the run has no clock)' };
      return { fetchArgs: { recipient: k.value, award_types: AWARD_TYPES[h.awardGroup], start, end, pages: String(LIST_PAGES) } };
    },
  },
};

export const usaspending: Connector = {
  source: SOURCE,
  readerName: 'USAspending',
  recordsName: 'USAspending.gov',
  buildRequest: buildUsaRequest,
  recordBinders: RECORDS,
  listKinds: { 'spending-by-award': 'award' },
  operations: {
    award: {
      params: [{ name: 'award_id', description: 'generated_unique_award_id', required: true, example: 'ASST_NON_NNM11AA01A_080' }],
      async run(args, ctx, decl) {
        requireArgs(args, ['award_id'], decl.id);
        const { request, policy } = buildUsaRequest(decl, args);
        const raw = await ctx.http.request(request, policy, ctx);
        const a = raw.json as Row & { recipient?: Row; period_of_performance?: Row; awarding_agency?: { toptier_agency?: { name?: string } } };
        if (!a?.generated_unique_award_id) throw new PublisherError('unexpected_shape', 'USAspending award lacks generated_unique_award_id', { method: raw.method, url: raw.url, source: SOURCE });
        const rec = a.recipient ?? {};
        const entity = { name: String(rec.recipient_name ?? ''), ...(rec.recipient_uei ? { uei: String(rec.recipient_uei) } : {}), ...(rec.recipient_hash ? { recipient_id: String(rec.recipient_hash) } : {}) };
        const pop = a.period_of_performance ?? {};
        const period = { ...(pop.start_date ? { start: String(pop.start_date) } : {}), ...(pop.end_date ? { end: String(pop.end_date) } : {}), instant: false, basis: 'calendar' as const, label: 'period of performance' };
        const record: EntityRecord = { type: 'entity', source: SOURCE, operation: decl.id, kind: `award:${a.category}`, label: String(a.description ?? a.generated_unique_award_id), keys: { award_id: String(a.generated_unique_award_id) }, attributes: { category: (a.category as string) ?? null, type: (a.type_description as string) ?? null, dateSigned: (a.date_signed as string) ?? null, recipient: entity.name, agency: a.awarding_agency?.toptier_agency?.name ?? null }, raw: pointer(raw) };
        const obs = (['total_obligation', 'total_outlay', 'total_account_outlay', 'total_funding', 'total_subaward_amount'] as const).filter((f) => f in a)
          .map((f) => usd(`award/${f}`, a[f] as number, raw, decl.id, { entity, period, attributes: { awardId: String(a.generated_unique_award_id) } }));
        return { source: SOURCE, operation: decl.id, records: [record, ...obs], responses: [pointer(raw)], complete: true, notes: [] };
      },
    },
    recipient: {
      params: [{ name: 'recipient_id', description: 'recipient hash with -C/-P/-R', required: true, example: '0b441d38-e3c0-de89-ee08-69fc9e6ee58a-C' }],
      async run(args, ctx, decl) {
        requireArgs(args, ['recipient_id'], decl.id);
        const { request, policy } = buildUsaRequest(decl, args);
        const raw = await ctx.http.request(request, policy, ctx);
        const r = raw.json as Row & { alternate_names?: string[]; location?: Row };
        if (!r?.recipient_id) throw new PublisherError('unexpected_shape', 'USAspending recipient lacks recipient_id', { method: raw.method, url: raw.url, source: SOURCE });
        const keys = { name: String(r.name), recipient_id: String(r.recipient_id), ...(r.uei ? { uei: String(r.uei) } : {}), ...(r.duns ? { duns: String(r.duns) } : {}) };
        const rec: EntityRecord = { type: 'entity', source: SOURCE, operation: decl.id, kind: 'recipient', label: String(r.name), keys, attributes: { level: (r.recipient_level as string) ?? null, parent: (r.parent_name as string) ?? null, alternateNames: r.alternate_names ?? [], businessTypes: (r.business_types as string[]) ?? [], state: (r.location?.state_code as string) ?? null }, raw: pointer(raw) };
        const total = usd('recipient/total_transaction_amount', r.total_transaction_amount as number, raw, decl.id, { entity: keys, period: { instant: false, basis: 'fiscal', label: 'trailing 12 months as of retrieval (USAspending default)' }, attributes: { transactions: (r.total_transactions as number) ?? null } });
        return { source: SOURCE, operation: decl.id, records: [rec, total], responses: [pointer(raw)], complete: true, notes: [] };
      },
    },
    'spending-by-award': searchOp(awardRows, true),
    'spending-by-recipient': searchOp((raw, op) => categoryRows(raw, op, 'recipient'), true),
    'spending-by-state': searchOp((raw, op) => categoryRows(raw, op, 'state'), true),
    'recipient-search': searchOp((raw, op) => {
      const body = raw.json as { results?: Row[]; page_metadata?: { hasNext?: boolean; total?: number } };
      if (!Array.isArray(body?.results)) throw new PublisherError('unexpected_shape', 'USAspending recipient search lacks "results"', { method: raw.method, url: raw.url, source: SOURCE });
      return { records: body.results.map((r): EntityRecord => ({ type: 'entity', source: SOURCE, operation: op, kind: 'recipient', label: String(r.name), keys: { name: String(r.name), recipient_id: String(r.id), ...(r.uei ? { uei: String(r.uei) } : {}) }, attributes: { level: (r.recipient_level as string) ?? null, amount: (r.amount as number) ?? null }, raw: pointer(raw) })), more: body.page_metadata?.hasNext === true };
    }, false),
  },
};
