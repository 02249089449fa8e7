/**
 * Form 990 e-file XML → grant edges.
 *
 * Input: the text of one IRS e-file return (2013+ schemas: `…Txt`/`…Nm`/`…Cd` element names, with
 * the older `BusinessNameLine1`/`City`/`State`/`ZIPCode` spellings IRSx maps onto the same paths).
 * Output: a ParsedDoc — Schedule I recipient tables (paid), 990-PF Part XV line 3a (paid during the
 * year) and line 3b (approved for future payment: kept apart as not paid), the filing it covers,
 * and the records it could not use, each with a reason. Grants to individuals reported in
 * aggregate (Schedule I Part III) name no recipient and are not edges.
 *
 * Never: guess a recipient's EIN, or read a return that is not well-formed XML (fast-xml-parser's
 * validator says where it breaks).
 */
import { createHash } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { normaliseName } from '../resolve/registry.ts';
import { canonical } from '../resolve/identifiers.ts';
import type { GrantEdge, ParsedDoc, ParseIssue, PaymentStatus, SourceDoc } from './types.ts';

type X = Record<string, unknown>;

const GROUPS = ['RecipientTable', 'GrantOrContributionPdDurYrGrp', 'GrantOrContriApprvForFutGrp'];
const parser = () => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false, trimValues: true, isArray: (name) => GROUPS.includes(name) });

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as X)[k] : undefined), o);
/** The first of several spellings an element had across schema versions. */
const first = (o: unknown, ...names: string[]): string | undefined => {
  for (const n of names) { const v = str(at(o, ...n.split('/'))); if (v !== undefined) return v; }
  return undefined;
};

export class EfileFormatError extends Error {
  constructor(message: string) { super(message); this.name = 'EfileFormatError'; }
}

/** Whole dollars as filed; undefined for anything that is not a number. */
export function dollars(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (!/^-?\d+(\.\d+)?$/.test(t)) return undefined;
  return Number(t);
}

export interface EfileInput { text: string; fileName: string; sha256?: string }

/** The object id an e-file return is published under, from its file name (`202403589349300950_public.xml`). */
export function objectIdFromName(fileName: string): string | undefined {
  return /(?:^|[\\/])(\d{18})_public\b/.exec(fileName)?.[1];
}

export function parseEfile(input: EfileInput): ParsedDoc {
  const text = input.text.replace(/^\uFEFF/, '');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new EfileFormatError(`${input.fileName} is not well-formed XML (line ${valid.err.line}: ${valid.err.msg}); nothing was read from it`);
  const root = parser().parse(text) as X;
  const ret = root.Return as X | undefined;
  const h = ret?.ReturnHeader as X | undefined;
  if (!ret || !h) throw new EfileFormatError(`${input.fileName} has no Return/ReturnHeader: it is not an IRS e-file return`);
  const filer = h.Filer as X | undefined;
  const ein = canonical('ein', first(filer, 'EIN') ?? '');
  if (!ein) throw new EfileFormatError(`${input.fileName}: the return header carries no well-formed filer EIN`);
  const funderName = first(filer, 'BusinessName/BusinessNameLine1Txt', 'BusinessName/BusinessNameLine1', 'Name/BusinessNameLine1') ?? '';
  const form = first(h, 'ReturnTypeCd', 'ReturnType') ?? '';
  const taxYear = Number(first(h, 'TaxYr', 'TaxYear') ?? (first(h, 'TaxPeriodBeginDt', 'TaxPeriodBeginDate') ?? '').slice(0, 4));
  if (!Number.isInteger(taxYear) || taxYear < 1990) throw new EfileFormatError(`${input.fileName}: the return header states no tax year`);
  const sha256 = input.sha256 ?? createHash('sha256').update(input.text).digest('hex');
  const objectId = objectIdFromName(input.fileName);
  const docId = objectId ?? `sha256-${sha256}`;
  const version = str((ret as X)['@returnVersion']) ?? 'unknown';
  const doc: SourceDoc = {
    docId, kind: 'efile_xml', sha256, bytes: Buffer.byteLength(input.text), fileName: input.fileName,
    title: `Form ${form} of ${funderName || ein} (EIN ${ein}), tax year ${taxYear}, return version ${version}`,
    upstream: objectId ? `https://s3.amazonaws.com/irs-form-990/${objectId}_public.xml` : null,
    note: null,
  };
  const data = ret.ReturnData as X | undefined;
  const edges: GrantEdge[] = [];
  const issues: ParseIssue[] = [];
  const funder = { ein, name: funderName };
  const push = (g: X, path: string, part: GrantEdge['part'], status: PaymentStatus, amounts: { amount?: number; cash?: number; nonCash?: number }) => {
    const name = first(g, 'RecipientBusinessName/BusinessNameLine1Txt', 'RecipientBusinessName/BusinessNameLine1', 'RecipientPersonNm', 'RecipientNameBusiness/BusinessNameLine1') ?? '';
    const name2 = first(g, 'RecipientBusinessName/BusinessNameLine2Txt', 'RecipientBusinessName/BusinessNameLine2');
    const us = (at(g, 'USAddress') ?? at(g, 'RecipientUSAddress')) as X | undefined;
    const foreign = (at(g, 'ForeignAddress') ?? at(g, 'RecipientForeignAddress')) as X | undefined;
    const city = first(us ?? foreign, 'CityNm', 'City') ?? null;
    const state = us ? (first(us, 'StateAbbreviationCd', 'State') ?? null) : (first(foreign, 'ProvinceOrStateNm', 'ProvinceOrState') ?? null);
    const country = us ? 'US' : (first(foreign, 'CountryCd', 'Country') ?? null);
    const rein = canonical('ein', first(g, 'RecipientEIN', 'EINOfRecipient') ?? '') ?? null;
    if (!name) { issues.push({ docId, record: path, code: 'no_recipient_name', message: `${path} names no recipient; not an edge` }); return; }
    const amount = amounts.amount ?? ((amounts.cash ?? 0) + (amounts.nonCash ?? 0));
    if (amounts.amount === undefined && amounts.cash === undefined && amounts.nonCash === undefined) {
      issues.push({ docId, record: path, code: 'no_amount', message: `${path} (${name}) states no amount; not an edge` }); return;
    }
    const nameKey = normaliseName(name);
    edges.push({
      funder, recipient: { key: rein ? { kind: 'ein', ein: rein } : { kind: 'name', nameKey, state }, name: name2 && !/^(attn|c\/o)\b/i.test(name2) ? `${name} ${name2}` : name, ein: rein, city, state, country },
      amount, cash: amounts.cash ?? null, nonCash: amounts.nonCash ?? null,
      purpose: first(g, 'PurposeOfGrantTxt', 'GrantOrContributionPurposeTxt') ?? null,
      taxYear, status, part, source: { docId, record: path },
    });
  };
  const schedI = (at(data, 'IRS990ScheduleI', 'RecipientTable') as X[] | undefined) ?? [];
  schedI.forEach((t, i) => {
    const cash = dollars(first(t, 'CashGrantAmt', 'AmountOfCashGrant'));
    const nonCash = dollars(first(t, 'NonCashAssistanceAmt', 'AmountOfNonCashAssistance'));
    push(t, `IRS990ScheduleI/RecipientTable[${i + 1}]`, 'schedule_i', 'paid', { ...(cash !== undefined ? { cash } : {}), ...(nonCash !== undefined ? { nonCash } : {}) });
  });
  const supp = at(data, 'IRS990PF', 'SupplementaryInformationGrp');
  ((at(supp, 'GrantOrContributionPdDurYrGrp') as X[] | undefined) ?? []).forEach((g, i) => {
    const amount = dollars(first(g, 'Amt', 'Amount'));
    push(g, `IRS990PF/SupplementaryInformationGrp/GrantOrContributionPdDurYrGrp[${i + 1}]`, 'pf_paid', 'paid', amount !== undefined ? { amount } : {});
  });
  ((at(supp, 'GrantOrContriApprvForFutGrp') as X[] | undefined) ?? []).forEach((g, i) => {
    const amount = dollars(first(g, 'Amt', 'Amount'));
    push(g, `IRS990PF/SupplementaryInformationGrp/GrantOrContriApprvForFutGrp[${i + 1}]`, 'pf_future', 'approved_future', amount !== undefined ? { amount } : {});
  });
  const covers = [{ funderEin: ein, funderName, taxYear, form, docId, edges: edges.length }];
  return { doc, edges, covers, ntee: [], issues };
}
