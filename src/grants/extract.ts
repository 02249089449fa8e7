/**
 * CSV inputs of the grant graph, told apart by their header row:
 * - a grants extract in the OrgGraph `grants_detail` layout (one row per grant parsed from a
 *   990 or 990-PF return: `grant_bucket` schedule_i | 3a paid | 3b approved for future payment);
 * - an IRS Exempt Organizations Business Master File extract (`EIN,NAME,…,NTEE_CD`), read only for
 *   the NTEE codes that classify recipients by cause.
 *
 * Output: a ParsedDoc. Rows are addressed as RFC 7111 fragments (`row=N`, the header is row 1).
 * The extract's `region_*` columns are the extracting tool's own classification, not IRS data, and
 * are not read. An unusable row is an issue with its row number, never a silent skip.
 */
import { createHash } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import { normaliseName } from '../resolve/registry.ts';
import { canonical } from '../resolve/identifiers.ts';
import { dollars } from './efile.ts';
import type { FilingCover, GrantEdge, NteeCode, ParsedDoc, ParseIssue, SourceDoc } from './types.ts';

export class ExtractFormatError extends Error {
  constructor(message: string) { super(message); this.name = 'ExtractFormatError'; }
}

const EXTRACT_COLUMNS = ['grantee_name', 'grant_amount', 'grant_bucket', 'foundation_name', 'foundation_ein', 'tax_year'];
const BMF_COLUMNS = ['EIN', 'NAME', 'STATE', 'NTEE_CD'];

export type CsvLayout = 'grants_extract' | 'bmf_extract';

export function csvLayout(header: readonly string[]): CsvLayout | null {
  if (EXTRACT_COLUMNS.every((c) => header.includes(c))) return 'grants_extract';
  if (BMF_COLUMNS.every((c) => header.includes(c))) return 'bmf_extract';
  return null;
}

export interface CsvInput { text: string; fileName: string; sha256?: string; upstream?: string | null; note?: string | null }

const BUCKETS: Record<string, Pick<GrantEdge, 'part' | 'status'> & { form: string }> = {
  schedule_i: { part: 'schedule_i', status: 'paid', form: '990' },
  '3a': { part: 'pf_paid', status: 'paid', form: '990PF' },
  '3b': { part: 'pf_future', status: 'approved_future', form: '990PF' },
};

const blank = (s: string | undefined): string | null => (s === undefined || s.trim() === '' ? null : s.trim());

export function parseCsvInput(input: CsvInput): ParsedDoc {
  const text = input.text.replace(/^\uFEFF/, '');
  let rows: string[][];
  try {
    rows = parseCsv(text, { skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (e) {
    throw new ExtractFormatError(`${input.fileName} is not readable CSV (${(e as Error).message}); nothing was read from it`);
  }
  const header = rows[0] ?? [];
  const layout = csvLayout(header);
  if (!layout) {
    throw new ExtractFormatError(`${input.fileName}: the header names neither a grants extract (needs ${EXTRACT_COLUMNS.join(', ')}) nor a Business Master File extract (needs ${BMF_COLUMNS.join(', ')})`);
  }
  const sha256 = input.sha256 ?? createHash('sha256').update(input.text).digest('hex');
  const docId = `sha256-${sha256}`;
  const col = new Map(header.map((h, i) => [h, i]));
  const get = (r: string[], c: string) => r[col.get(c) ?? -1];
  const issues: ParseIssue[] = [];
  const doc: SourceDoc = {
    docId, kind: layout, sha256, bytes: Buffer.byteLength(input.text), fileName: input.fileName,
    title: layout === 'grants_extract' ? `grants extract ${basename(input.fileName)} (${rows.length - 1} rows)` : `IRS Exempt Organizations Business Master File extract ${basename(input.fileName)} (${rows.length - 1} organizations)`,
    upstream: input.upstream ?? null, note: input.note ?? null,
  };
  if (layout === 'bmf_extract') {
    const ntee: NteeCode[] = [];
    rows.slice(1).forEach((r) => {
      const ein = canonical('ein', get(r, 'EIN') ?? '');
      const code = blank(get(r, 'NTEE_CD'));
      if (ein && code) ntee.push({ ein, code, name: get(r, 'NAME') ?? '', docId });
    });
    return { doc, edges: [], covers: [], ntee, issues };
  }
  const edges: GrantEdge[] = [];
  const covers = new Map<string, FilingCover>();
  rows.slice(1).forEach((r, i) => {
    const record = `row=${i + 2}`;
    const bucket = BUCKETS[get(r, 'grant_bucket') ?? ''];
    if (!bucket) { issues.push({ docId, record, code: 'unknown_bucket', message: `${record}: grant_bucket "${get(r, 'grant_bucket')}" is not schedule_i, 3a or 3b` }); return; }
    const fein = canonical('ein', get(r, 'foundation_ein') ?? '');
    if (!fein) { issues.push({ docId, record, code: 'no_funder_ein', message: `${record}: foundation_ein "${get(r, 'foundation_ein')}" is not a nine-digit EIN` }); return; }
    const taxYear = Number(get(r, 'tax_year'));
    if (!Number.isInteger(taxYear) || taxYear < 1990) { issues.push({ docId, record, code: 'no_tax_year', message: `${record}: tax_year "${get(r, 'tax_year')}" is not a year` }); return; }
    const amount = dollars(get(r, 'grant_amount'));
    if (amount === undefined) { issues.push({ docId, record, code: 'no_amount', message: `${record}: grant_amount "${get(r, 'grant_amount')}" is not a number` }); return; }
    const name = blank(get(r, 'grantee_name'));
    if (!name) { issues.push({ docId, record, code: 'no_recipient_name', message: `${record}: no grantee_name` }); return; }
    const rein = canonical('ein', get(r, 'grantee_ein') ?? '') ?? null;
    const state = blank(get(r, 'grantee_state'));
    const cash = bucket.part === 'schedule_i' ? dollars(get(r, 'cash_grant_amount')) : undefined;
    const nonCash = bucket.part === 'schedule_i' ? dollars(get(r, 'non_cash_amount')) : undefined;
    const funderName = get(r, 'foundation_name') ?? '';
    edges.push({
      funder: { ein: fein, name: funderName },
      recipient: { key: rein ? { kind: 'ein', ein: rein } : { kind: 'name', nameKey: normaliseName(name), state }, name, ein: rein, city: blank(get(r, 'grantee_city')), state, country: blank(get(r, 'grantee_country')) },
      amount, cash: cash ?? null, nonCash: nonCash ?? null, purpose: blank(get(r, 'grant_purpose_raw')), taxYear,
      status: bucket.status, part: bucket.part, source: { docId, record },
    });
    const key = `${fein}|${taxYear}|${bucket.form}`;
    const c = covers.get(key) ?? { funderEin: fein, funderName, taxYear, form: bucket.form, docId, edges: 0 };
    c.edges++;
    covers.set(key, c);
  });
  return { doc, edges, covers: [...covers.values()], ntee: [], issues };
}

function basename(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}
