// Parsing filings and extracts into grant edges: Schedule I, 990-PF paid and approved for future
// payment (kept apart), the extract's buckets, and clear errors for what is not a filing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEfile, EfileFormatError } from '../../src/grants/efile.ts';
import { parseCsvInput, ExtractFormatError } from '../../src/grants/extract.ts';
import { BMF_DC, EXTRACT, NO_GRANTS, PF, SCHED_I, extractRows, paid, sum } from './helpers.ts';

const xml = (f: string) => ({ text: readFileSync(f, 'utf8'), fileName: f });

describe('e-file XML', () => {
  it('reads the Schedule I recipient table: EIN, cash and non-cash, purpose, address', () => {
    const p = parseEfile(xml(SCHED_I));
    expect(p.doc.docId).toBe('202403589349300950');
    expect(p.covers).toEqual([{ funderEin: '741894581', funderName: 'UCHEALTH NORTHERN COLORADO FOUNDATION', taxYear: 2023, form: '990', docId: '202403589349300950', edges: 4 }]);
    expect(p.edges).toHaveLength(4);
    const first = p.edges[0]!;
    expect(first).toMatchObject({ amount: 877418 + 269673, cash: 877418, nonCash: 269673, status: 'paid', part: 'schedule_i', purpose: 'VARIOUS PROGRAM SUPPORT', taxYear: 2023 });
    expect(first.recipient).toMatchObject({ ein: '841262971', name: 'POUDRE VALLEY HEALTH CARE INC', city: 'FORT COLLINS', state: 'CO', country: 'US' });
    expect(first.source.record).toBe('IRS990ScheduleI/RecipientTable[1]');
    // the recipient tables' amounts, read from the XML text with a regular expression (not the parser);
    // the rest of the return's Schedule I total (8,355,995, MANIFEST §3b) is Part III, grants to individuals
    const text = readFileSync(SCHED_I, 'utf8');
    const tables = [...text.matchAll(/<RecipientTable>([\s\S]*?)<\/RecipientTable>/g)].map((m) => m[1]!);
    const amt = (t: string, tag: string) => Number(new RegExp(`<${tag}>(\\d+)<`).exec(t)?.[1] ?? 0);
    expect(p.edges.reduce((s, e) => s + e.amount, 0)).toBe(tables.reduce((s, t) => s + amt(t, 'CashGrantAmt') + amt(t, 'NonCashAssistanceAmt'), 0));
    expect(p.edges.reduce((s, e) => s + e.amount, 0)).toBe(5_820_757);
  });

  it('reads 990-PF grants paid during the year, recipients named by person or business name, without EINs', () => {
    const p = parseEfile(xml(PF));
    expect(p.edges.map((e) => [e.recipient.name, e.amount, e.status])).toEqual([
      ['UNIVERSITY OF MASSACHUSETTS', 2000, 'paid'], ['BENTLEY UNIVERSITY', 2000, 'paid'], ['SETON HALL UNIVERSITY', 2000, 'paid'], ["ST JOSEPH'S CHURCH", 6000, 'paid'],
    ]);
    expect(p.edges.every((e) => e.recipient.key.kind === 'name' && e.cash === null)).toBe(true);
    expect(p.edges.reduce((s, e) => s + e.amount, 0)).toBe(12_000); // TotalGrantOrContriPdDurYrAmt
  });

  it('keeps grants approved for future payment apart (line 3b), as not paid', () => {
    // SYNTHETIC test input: the real 990-PF with its last paid group relabelled as a line-3b group
    // (no sample return with line 3b was available offline).
    const text = readFileSync(PF, 'utf8');
    const i = text.lastIndexOf('<GrantOrContributionPdDurYrGrp>');
    const j = text.indexOf('</GrantOrContributionPdDurYrGrp>', i);
    const relabelled = `${text.slice(0, i)}<GrantOrContriApprvForFutGrp>${text.slice(i + '<GrantOrContributionPdDurYrGrp>'.length, j)}</GrantOrContriApprvForFutGrp>${text.slice(j + '</GrantOrContributionPdDurYrGrp>'.length)}`;
    const p = parseEfile({ text: relabelled, fileName: 'synthetic-3b.xml' });
    expect(p.edges.filter((e) => e.status === 'paid').map((e) => e.amount)).toEqual([2000, 2000, 2000]);
    expect(p.edges.filter((e) => e.status === 'approved_future')).toMatchObject([{ amount: 6000, part: 'pf_future', recipient: { name: "ST JOSEPH'S CHURCH" } }]);
  });

  it('covers a return with no grants (the filing is held; it has no edges)', () => {
    const p = parseEfile(xml(NO_GRANTS));
    expect(p.edges).toEqual([]);
    expect(p.covers).toMatchObject([{ form: '990', taxYear: 2014, edges: 0 }]);
  });

  it('refuses what is not a well-formed e-file return, naming the file', () => {
    expect(() => parseEfile({ text: '<Return><ReturnHeader>', fileName: 'broken.xml' })).toThrow(EfileFormatError);
    expect(() => parseEfile({ text: '<Return><ReturnHeader>', fileName: 'broken.xml' })).toThrow(/broken\.xml is not well-formed XML/);
    expect(() => parseEfile({ text: '<html><body/></html>', fileName: 'page.xml' })).toThrow(/not an IRS e-file return/);
  });
});

describe('CSV inputs', () => {
  const rows = extractRows();
  const p = parseCsvInput({ text: readFileSync(EXTRACT, 'utf8'), fileName: EXTRACT });

  it('reads every extract row as an edge, addressed by its RFC 7111 row', () => {
    expect(p.doc.kind).toBe('grants_extract');
    expect(p.issues).toEqual([]);
    expect(p.edges).toHaveLength(rows.length);
    expect(p.edges[0]!.source.record).toBe('row=2');
    expect(p.edges.filter((e) => e.status === 'paid').reduce((s, e) => s + e.amount, 0)).toBe(sum(rows.filter(paid)));
    expect(p.edges.filter((e) => e.status === 'approved_future')).toHaveLength(rows.filter((r) => r.grant_bucket === '3b').length);
    expect(p.edges.filter((e) => e.recipient.ein !== null)).toHaveLength(rows.filter((r) => r.grantee_ein !== '').length);
  });

  it('declares one filing per funder, tax year and form', () => {
    const expected = new Set(rows.map((r) => `${r.foundation_ein.replace('-', '')}|${r.tax_year}|${r.grant_bucket === 'schedule_i' ? '990' : '990PF'}`));
    expect(new Set(p.covers.map((c) => `${c.funderEin}|${c.taxYear}|${c.form}`))).toEqual(expected);
    expect(p.covers.reduce((s, c) => s + c.edges, 0)).toBe(rows.length);
  });

  it('reads NTEE codes from a Business Master File extract', () => {
    const b = parseCsvInput({ text: readFileSync(BMF_DC, 'utf8'), fileName: BMF_DC });
    expect(b.doc.kind).toBe('bmf_extract');
    expect(b.edges).toEqual([]);
    expect(b.ntee.find((n) => n.ein === '530196605')).toMatchObject({ code: 'P210' }); // American National Red Cross
  });

  it('refuses a CSV that is neither, saying which columns it needs', () => {
    expect(() => parseCsvInput({ text: 'a,b\n1,2\n', fileName: 'x.csv' })).toThrow(ExtractFormatError);
    expect(() => parseCsvInput({ text: 'a,b\n1,2\n', fileName: 'x.csv' })).toThrow(/needs grantee_name, grant_amount/);
  });

  it('reports an unusable row with its row number and reads the rest', () => {
    const text = readFileSync(EXTRACT, 'utf8').split('\n');
    text[2] = text[2]!.replace(',3a,', ',9z,');
    const q = parseCsvInput({ text: text.join('\n'), fileName: 'edited.csv' });
    expect(q.issues).toMatchObject([{ record: 'row=3', code: 'unknown_bucket' }]);
    expect(q.edges).toHaveLength(rows.length - 1);
  });
});
