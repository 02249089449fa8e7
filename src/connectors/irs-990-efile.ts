/**
 * IRS Form 990 e-file XML: one return by object id, and the grants it reports — Schedule I
 * (grants to organizations in the US, Form 990) and 990-PF Part XV (grants and contributions paid).
 *
 * Grants become edge observations: value = amount in USD for the return's tax period, entity = the
 * grantor (EIN, name), counterparty = the recipient (name, EIN when given, address), with purpose.
 * EINs are read as text (leading zeros kept). Element names changed across schema versions; the
 * names handled here are the 2013+ ones (BusinessNameLine1Txt, GrantOrContributionPdDurYrGrp…).
 */
import { parseCsv, xmlParser } from './parsers.ts';
import { PublisherError } from '../http/errors.ts';
import type { RawResponse } from '../http/client.ts';
import { pointer, type EntityKeys, type EntityRecord, type Observation, type OperationResult } from './records.ts';
import { decimal, policyFor, requestFor, requireArgs } from './request.ts';
import { ConnectorInputError, type Connector, type ConnectorContext, type RequestBuilder } from './types.ts';
import type { OperationDecl } from './declarations.ts';

const SOURCE = 'irs-990-efile';

type X = Record<string, unknown>;
const parser = () => xmlParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false, trimValues: true, isArray: (name) => ['RecipientTable', 'GrantOrContributionPdDurYrGrp', 'GrantOrContriApprvForFutGrp', 'GrantsOtherAsstToIndivInUSGrp'].includes(name) });

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as X)[k] : undefined), o);

export const buildEfileRequest: RequestBuilder = (decl, args) => {
  if (decl.id === 'efile-index') {
    if (!/^\d{4}$/.test(args.year ?? '')) throw new ConnectorInputError(`--year is the four-digit processing year of the index, not "${args.year}"`);
    return { request: requestFor(decl, { year: args.year! }), policy: policyFor(decl, 'csv') };
  }
  const id = args.object_id ?? '';
  if (!/^\d{18}$/.test(id)) throw new ConnectorInputError(`--object_id is the 18-digit e-file object id (e.g. 202403589349300950), not "${id}"`);
  // the IRS files returns by processing year, which is the object id's first four digits
  const year = args.year ?? id.slice(0, 4);
  return { request: requestFor(decl, { year, object_id: id }), policy: policyFor(decl, 'xml') };
};

async function fetchReturn(decl: OperationDecl, args: Readonly<Record<string, string>>, ctx: ConnectorContext): Promise<{ raw: RawResponse; ret: X }> {
  requireArgs(args, ['object_id'], decl.id);
  const { request, policy } = buildEfileRequest(decl, args);
  const raw = await ctx.http.request(request, policy, ctx);
  let doc: X;
  try { doc = parser().parse(raw.text) as X; } catch (e) {
    throw new PublisherError('unexpected_shape', `the e-file return is not well-formed XML (${(e as Error).message})`, { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
  }
  const ret = doc.Return as X | undefined;
  if (!ret?.ReturnHeader) throw new PublisherError('unexpected_shape', 'the XML has no Return/ReturnHeader (is it an IRS e-file return?)', { method: raw.method, url: raw.url, status: raw.status, source: SOURCE });
  return { raw, ret };
}

function header(ret: X) {
  const h = ret.ReturnHeader as X;
  const filer = h.Filer as X;
  return {
    ein: str(filer?.EIN) ?? '',
    name: str(at(filer, 'BusinessName', 'BusinessNameLine1Txt')) ?? str(at(filer, 'BusinessName', 'BusinessNameLine1')) ?? '',
    formType: str(h.ReturnTypeCd) ?? str(h.ReturnType) ?? '',
    taxYear: str(h.TaxYr) ?? str(h.TaxYear),
    periodStart: str(h.TaxPeriodBeginDt) ?? str(h.TaxPeriodBeginDate),
    periodEnd: str(h.TaxPeriodEndDt) ?? str(h.TaxPeriodEndDate),
    returnVersion: str((ret as X)['@returnVersion']),
  };
}

function address(a: unknown): string | null {
  if (!a || typeof a !== 'object') return null;
  const x = a as X;
  return [str(x.AddressLine1Txt), str(x.AddressLine2Txt), str(x.CityNm), str(x.StateAbbreviationCd), str(x.ZIPCd)].filter(Boolean).join(', ') || null;
}

export function grants(ret: X, raw: RawResponse, operation: string): Observation[] {
  const h = header(ret);
  const data = ret.ReturnData as X;
  const grantor: EntityKeys = { ein: h.ein, name: h.name };
  const period = { ...(h.periodStart ? { start: h.periodStart } : {}), ...(h.periodEnd ? { end: h.periodEnd } : {}), instant: false, basis: 'fiscal' as const, ...(h.taxYear ? { fiscalYear: Number(h.taxYear), fiscalPeriod: 'FY' } : {}) };
  const out: Observation[] = [];
  const push = (amountText: string | undefined, measure: string, counterparty: EntityKeys, attributes: Observation['attributes']) => {
    const v = decimal(amountText);
    out.push({
      type: 'observation', source: SOURCE, operation, measure, value: v ?? null, status: v === undefined ? 'missing' : 'reported', asPublished: amountText,
      unit: 'USD', currency: 'USD', scale: 1, period, entity: grantor, counterparty, attributes: { formType: h.formType, ...attributes }, raw: pointer(raw),
    });
  };
  for (const t of (at(data, 'IRS990ScheduleI', 'RecipientTable') as X[] | undefined) ?? []) {
    const name = str(at(t, 'RecipientBusinessName', 'BusinessNameLine1Txt')) ?? str(t.RecipientPersonNm) ?? '';
    const cp: EntityKeys = { name, ...(str(t.RecipientEIN) ? { ein: str(t.RecipientEIN) } : {}) };
    const common = { purpose: str(t.PurposeOfGrantTxt) ?? null, recipientAddress: address(t.USAddress), ircSection: str(t.IRCSectionDesc) ?? null };
    push(str(t.CashGrantAmt), 'IRS990ScheduleI/CashGrantAmt', cp, common);
    if (t.NonCashAssistanceAmt !== undefined) push(str(t.NonCashAssistanceAmt), 'IRS990ScheduleI/NonCashAssistanceAmt', cp, { ...common, nonCashDescription: str(t.NonCashAssistanceDesc) ?? null });
  }
  // Schedule I Part III: grants to individuals, reported by type of assistance (no recipients named)
  for (const t of (at(data, 'IRS990ScheduleI', 'GrantsOtherAsstToIndivInUSGrp') as X[] | undefined) ?? []) {
    const type = str(t.GrantTypeTxt) ?? '';
    const common = { grantType: type, recipientCount: decimal(str(t.RecipientCnt)) ?? null, recipientsAreIndividuals: true };
    push(str(t.CashGrantAmt), 'IRS990ScheduleI/GrantsOtherAsstToIndivInUSGrp/CashGrantAmt', { name: `individuals: ${type}` }, common);
    if (t.NonCashAssistanceAmt !== undefined) push(str(t.NonCashAssistanceAmt), 'IRS990ScheduleI/GrantsOtherAsstToIndivInUSGrp/NonCashAssistanceAmt', { name: `individuals: ${type}` }, common);
  }
  for (const g of (at(data, 'IRS990PF', 'SupplementaryInformationGrp', 'GrantOrContributionPdDurYrGrp') as X[] | undefined) ?? []) {
    const name = str(at(g, 'RecipientBusinessName', 'BusinessNameLine1Txt')) ?? str(g.RecipientPersonNm) ?? '';
    push(str(g.Amt), 'IRS990PF/GrantOrContributionPdDurYrGrp/Amt', { name, ...(str(g.RecipientEIN) ? { ein: str(g.RecipientEIN) } : {}) }, {
      purpose: str(g.GrantOrContributionPurposeTxt) ?? null, recipientAddress: address(g.RecipientUSAddress ?? g.RecipientForeignAddress),
      recipientFoundationStatus: str(g.RecipientFoundationStatusTxt) ?? null, relationship: str(g.RecipientRelationshipTxt) ?? null,
    });
  }
  return out;
}

function result(operation: string, records: OperationResult['records'], raw: RawResponse, notes: string[]): OperationResult {
  if (raw.origin?.trimmed) notes.push(`replayed from a TRIMMED sample (${raw.origin.sample}): ${raw.origin.note ?? ''}`);
  return { source: SOURCE, operation, records, responses: [pointer(raw)], complete: true, notes };
}

const params = [
  { name: 'object_id', description: '18-digit e-file object id', required: true, example: '202403589349300950' },
  { name: 'year', description: 'processing-year folder (default: the first four digits of the object id)', required: false },
];

export const irs990Efile: Connector = {
  source: SOURCE,
  readerName: 'IRS Form 990 e-file data',
  buildRequest: buildEfileRequest,
  operations: {
    'efile-index': {
      params: [{ name: 'year', description: 'processing year of the index', required: true, example: '2024' }, { name: 'ein', description: 'keep this filer EIN', required: false }],
      async run(args, ctx, decl) {
        requireArgs(args, ['year'], decl.id);
        const { request, policy } = buildEfileRequest(decl, args);
        const raw = await ctx.http.request(request, policy, ctx);
        const rows = parseCsv(raw.text.replace(/^\uFEFF/, ''), { columns: true, skip_empty_lines: true, relax_column_count: true }) as Array<Record<string, string>>;
        const ein = args.ein?.replace(/-/g, '');
        const records: EntityRecord[] = rows.filter((r) => !ein || r.EIN === ein).map((r) => ({
          type: 'entity', source: SOURCE, operation: decl.id, kind: 'return', label: `${r.RETURN_TYPE ?? ''} ${r.TAX_PERIOD ?? ''} ${r.TAXPAYER_NAME ?? ''}`.trim(),
          keys: { object_id: r.OBJECT_ID ?? '', ein: (r.EIN ?? '').padStart(9, '0'), name: r.TAXPAYER_NAME ?? '' },
          attributes: { returnType: r.RETURN_TYPE ?? null, taxPeriod: r.TAX_PERIOD ?? null, submitted: r.SUB_DATE ?? null }, raw: pointer(raw),
        }));
        return result(decl.id, records, raw, []);
      },
    },
    'efile-return': {
      params,
      async run(args, ctx, decl) {
        const { raw, ret } = await fetchReturn(decl, args, ctx);
        const h = header(ret);
        const record: EntityRecord = {
          type: 'entity', source: SOURCE, operation: decl.id, kind: 'return', label: `${h.formType} ${h.taxYear ?? ''} ${h.name}`.trim(),
          keys: { object_id: args.object_id, ein: h.ein, name: h.name },
          attributes: { formType: h.formType, taxYear: h.taxYear ?? null, periodStart: h.periodStart ?? null, periodEnd: h.periodEnd ?? null, returnVersion: h.returnVersion ?? null, schedules: Object.keys((ret.ReturnData as X) ?? {}).filter((k) => !k.startsWith('@')) },
          raw: pointer(raw),
        };
        return result(decl.id, [record, ...grants(ret, raw, decl.id)], raw, []);
      },
    },
    'schedule-i-grants': {
      params,
      async run(args, ctx, decl) {
        const { raw, ret } = await fetchReturn(decl, args, ctx);
        const g = grants(ret, raw, decl.id);
        const notes = g.length === 0 ? [`the return (${header(ret).formType}) reports no grants in Schedule I or 990-PF Part XV`] : [];
        return result(decl.id, g, raw, notes);
      },
    },
  },
};
