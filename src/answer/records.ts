/**
 * Fact sheets and plain renderings for status and record-list evidence, written by code from the
 * admitted evidence only. The layout follows the evidence: boolean evidence → a yes/no with the
 * publisher's code shown; record evidence → a numbered list (list numbering is exempt from
 * grading) with the count stated as a derived figure (the arithmetic names what was counted).
 * Every other number written — identifiers, codes, form types, dates — is listed on the sheet as
 * not a measurement, so grading exempts it by name; an amount a record carries is a fact and is
 * graded like any value.
 */
import type { AnyEvidence, AdmittedEvidence } from '../evidence/types.ts';
import { formatValue, type Derived, type Fact, type FactSheet, type NonMeasure } from './factsheet.ts';
import { recordsNameOf } from '../connectors/registry.ts';

export interface RecordSheet extends FactSheet {
  layout: 'status' | 'list';
  /** Every evidence item, in order (E1…), whatever its value type. */
  items: Array<{ id: string; evidence: AnyEvidence }>;
  /** Records that matched (may exceed those listed). */
  total: number;
}

/** "Apple Inc. (CIK 0000320193)"; a name-keyed entity is its name alone (the key would repeat it). */
const whoOf = (e: AnyEvidence) => (e.entity.keyType === 'name' ? e.entity.label : `${e.entity.label} (${e.entity.keyType.toUpperCase()} ${e.entity.key})`);
const sourceName = (s: string) => recordsNameOf(s);
/** Whether a code's meaning only repeats it (a label code: 'filer category "Large accelerated filer"'), so it is said once. */
const said = (code: string, meaning: string) => meaning.toLowerCase() === code.toLowerCase() || meaning.includes(`"${code}"`);
/** A record label as a reader writes it: a YYYYMM tax period as a month (201904 → 2019-04). */
const readableLabel = (label: string) => label.replace(/\btax period (\d{4})(\d{2})\b/, 'the tax period $1-$2');
/** The evidence items a count covers: E1 alone, or E1…En. */
const span = (n: number) => (n === 1 ? 'E1' : `E1…E${n}`);
const cap = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

function nonMeasures(items: readonly AnyEvidence[]): NonMeasure[] {
  const out: NonMeasure[] = [];
  const add = (text: string | null | undefined, what: string) => {
    if (!text) return;
    for (const m of String(text).matchAll(/\d{4}-\d{2}-\d{2}|\d+/g)) if (!out.some((n) => n.text === m[0])) out.push({ text: m[0], what });
    // an amount written inside a record's text ("AS FOLLOWS: $4,000 - FOOD PANTRY"), as written: the filer's words, not a figure of the answer
    for (const m of String(text).matchAll(/\$\d{1,3}(?:,\d{3})+(?:\.\d+)?|\$\d+(?:\.\d+)?/g)) if (!out.some((n) => n.text === m[0])) out.push({ text: m[0], what });
  };
  for (const e of items) {
    for (const [k, v] of Object.entries(e.entity.keys)) if (k !== 'name') add(v, `${k} of ${e.entity.label}`);
    add(e.entity.label, 'part of the entity name');
    add(e.period.label, 'part of the period label');
    // the years a list is restricted to ("dated 2026"): a period, not a measurement
    const listing = e.record?.listing;
    if (listing?.unreadDeclared !== undefined) add(String(listing.unreadDeclared), 'records the publisher\'s response declares on pages not read (its filings.files metadata; not evidence)');
    if (listing?.from !== undefined) add(yearsText(listing), 'the period the list is restricted to');
    if (e.status) { add(e.status.code, `${e.status.field} code as published`); add(e.status.meaning, `meaning of ${e.status.field} code ${e.status.code}`); add(e.status.asked, 'part of the status asked'); }
    if (e.record) {
      add(e.record.key, 'record identifier');
      add(e.record.label, 'part of the record label');
      add(readableLabel(e.record.label), 'part of the record label');
      for (const [k, v] of Object.entries(e.record.attributes)) if (typeof v === 'string') add(v, `${k} of a listed record`);
    }
  }
  return out;
}

/**
 * `extra`: figures the caller's code computed from the listed values (a grant average, a sum of two
 * totals), each with its arithmetic and operands (E ids), graded derived.
 */
export function recordSheet(evidence: readonly AnyEvidence[], total = evidence.length, extra: readonly Derived[] = []): RecordSheet {
  const items = evidence.map((e, i) => ({ id: `E${i + 1}`, evidence: e }));
  const layout: RecordSheet['layout'] = evidence.every((e) => typeof e.value === 'boolean') ? 'status' : 'list';
  // only numeric values are facts a written number can be checked against
  const facts: Fact[] = items.filter((x) => typeof x.evidence.value === 'number').map((x) => ({ id: x.id, evidence: x.evidence as AdmittedEvidence }));
  const derived: Derived[] = [];
  if (layout === 'list') {
    if (total > items.length) derived.push({ id: 'D2', value: items.length, unit: 'records', arithmetic: `count of records listed (${span(items.length)}), the most recent of the ${total} matching`, operands: items.map((x) => x.id), label: 'number of records listed' });
    derived.push(...extra);
    derived.unshift({ id: 'D1', value: total, unit: 'records', arithmetic: `count of records matching the question in the publisher response(s)${total > items.length ? `; ${items.length} listed (${span(items.length)})` : ` (${span(items.length)})`}`, operands: items.map((x) => x.id), label: 'number of records' });
  }
  // the count is graded (derived), so it is never exempted as an identifier's digits
  // nor is a number that equals an admitted value (a grant count of 45 beside a record key holding "45")
  const exempt = nonMeasures(evidence).filter((n) => (layout !== 'list' || !derived.some((d) => String(d.value) === n.text)) && !facts.some((f) => String(f.evidence.value) === n.text));
  return { facts, derived, nonMeasures: exempt, layout, items, total };
}

export function renderRecords(sheet: RecordSheet, options: { hedge: boolean }): string {
  if (sheet.layout === 'status') {
    return sheet.items.map(({ evidence: e }) => {
      const s = e.status!;
      const yes = e.value === true;
      const verb = options.hedge ? (yes ? 'is reported as' : 'is reported as not') : (yes ? 'is' : 'is not');
      return `${yes ? 'Yes' : 'No'}. ${e.entity.label} (${e.entity.keyType.toUpperCase()} ${e.entity.key}) ${verb} ${s.asked}: its ${s.field} is "${s.code}"${said(s.code, s.meaning) ? '' : ` (${s.meaning})`}, according to ${sourceName(e.source)}.`;
    }).join(' ');
  }
  const first = sheet.items[0]!.evidence;
  const kind = first.record?.kind ?? 'record';
  const count = sheet.derived.find((d) => d.id === 'D1')!;
  // a list restricted to a period says so (the filter is disclosed in full; its words are said here)
  const listing = first.record?.listing;
  const dated = listing?.from !== undefined ? ` dated ${yearsText(listing)}` : '';
  // a partial paging read gives a floor, not the total
  const atLeast = listing?.partial ? 'at least ' : '';
  const more = listing?.unreadDeclared;
  const head = sheet.total > sheet.items.length
    ? `${cap(sourceName(first.source))} lists ${atLeast}${count.value} ${kind}s${dated} for ${whoOf(first)}${more ? `, and declares ${more} more on an overflow page that was not read` : ''}; the ${sheet.items.length} most recent:`
    : `${cap(sourceName(first.source))} lists ${atLeast}${count.value} ${kind}${count.value === 1 ? '' : 's'}${dated} for ${whoOf(first)}:`;
  const lines = sheet.items.map(({ evidence: e }, i) => {
    const r = e.record!;
    const extra = typeof e.value === 'number' ? `: ${formatValue(e.value, e.unit, e.currency)}` : '';
    const report = typeof r.attributes.reportDate === 'string' ? `, report date ${r.attributes.reportDate}` : '';
    // the record's key is said once: a label that already carries it ("tax period 201904") is not followed
    // by it again, and a YYYYMM tax period is written as a reader writes a month
    const keyValue = r.key.slice(r.key.indexOf('=') + 1);
    const label = readableLabel(r.label);
    const key = keyValue && r.label.includes(keyValue) ? '' : ` (${r.key.replace('=', ' ')})`;
    return `${i + 1}. ${label}${report}${extra}${key}`;
  });
  // a list read from a partial paging says so in the answer itself, not only in the disclosures
  // (its page counts and date ranges stay in the disclosures: they are not evidence, so not written here)
  const partial = more === undefined && sheet.items.some((x) => x.evidence.record?.listing?.partial);
  return [head, ...lines, ...(partial ? ['Note: the publisher declares further pages that could not be read, so older records may be missing (see the disclosures).'] : [])].join('\n');
}

/** The sheet as text for a drafting model: the same material as the plain rendering, with ids. */
export function recordSheetText(sheet: RecordSheet, question: string): string {
  const lines = [`Question: ${question}`, '', sheet.layout === 'status' ? 'Status evidence (read from the publisher field shown; the yes/no is decided by code):' : 'Listed records (admitted evidence):'];
  for (const { id, evidence: e } of sheet.items) {
    if (e.status) lines.push(`[${id}] ${e.entity.label} — ${e.status.asked}: ${e.value ? 'YES' : 'NO'} — ${e.status.field} "${e.status.code}" (${e.status.meaning}) — source: ${e.source} ${e.operation}`);
    else lines.push(`[${id}] ${e.record?.label ?? e.measureLabel} — ${e.record?.key ?? ''}${typeof e.value === 'number' ? ` — ${formatValue(e.value, e.unit, e.currency)}` : ''} — source: ${e.source} ${e.operation}`);
  }
  for (const d of sheet.derived) lines.push('', `[${d.id}] ${d.label}: ${d.value} = ${d.arithmetic}`);
  lines.push('', 'Numbers that are not measurements: ' + sheet.nonMeasures.map((n) => `${n.text} (${n.what})`).join('; '));
  return lines.join('\n');
}

/** "2026" or "2025–2026": the years a list is restricted to. */
function yearsText(l: { from?: number; to?: number }): string {
  return l.from === l.to ? String(l.from) : `${l.from}–${l.to}`;
}
