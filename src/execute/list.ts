/**
 * Entity-list questions ("List Apple's filings in 2024", "Show the Ford Foundation's tax returns",
 * "List NSF awards made to UCAR", "What NIH projects does Johns Hopkins have?"):
 * the records a publisher keeps by entity, read through the operation's own paging to its declared
 * boundary (the connector reads every overflow page it lists, and says which it could not read).
 *
 * Each listed record is its own evidence item (cited to the response it came from), keyed by the
 * publisher's key for it; records are kept only when they carry the bound entity key (another
 * entity's records prune the source). Filters the question states — a year, a form type — are
 * applied here and disclosed; at most `cap` records are listed, most recent first, and the total is
 * stated. Completeness is the operation's own: a list built from a partial read says so.
 */
import type { EntityRecord, OperationResult } from '../connectors/records.ts';
import type { Check } from '../validate/structural.ts';
import { normaliseName } from '../resolve/registry.ts';
import type { BoundRead, Examined, Item } from './record-search.ts';
import { listKinds } from '../connectors/registry.ts';

export interface ListFilter {
  /** Record kind the list is made of (filing, return, award, project). */
  kind: string;
  /** Years of the record (its date, or the year the publisher files it under), when the question names a period. */
  period?: ListPeriod;
  /** One year (shorthand for a period from and to it). */
  year?: number;
  form?: string;
  cap: number;
}

/** The years a list is restricted to (inclusive), and the question's words for them (disclosed). */
export interface ListPeriod { from: number; to: number; words: string }

/** Disclosure wording (the renderer reads the typed `record.listing`, never these words). */
const LIST_PERIOD_NOTE = 'list period: ';

const PARTIAL_NOTE = "the publisher's paging was not read to its end";
const UNREAD_COUNT = 'its response declares ';

/** The pages a result declares but could not read (the connector's typed `unreadPages`): records each holds and the years they span. */
export function unreadPages(result: OperationResult): Array<{ name: string; count: number; from: number; to: number }> {
  return (result.unreadPages ?? []).map((u) => ({ name: u.name, count: u.records, from: Number(u.from.slice(0, 4)), to: Number(u.to.slice(0, 4)) }));
}

/**
 * How each record kind is read: the attribute it is ordered by (a date), the year it is filed under
 * when that is not its date's year (a project's federal fiscal year, a return's tax year), the key
 * that identifies one record, and the amount it carries (a fact, graded like any value).
 */
interface KindSpec { date: string; yearAttr?: string; key: readonly string[]; amount?: { attr: string; unit: string; currency: string }; dateLabel: string }
const KINDS: Readonly<Record<string, KindSpec>> = {
  filing: { date: 'filingDate', key: ['accession_number'], dateLabel: 'filingDate' },
  return: { date: 'periodEnd', yearAttr: 'taxYear', key: ['tax_period'], dateLabel: 'tax period ending' },
  award: { date: 'date', key: ['nsf_award_id', 'award_id'], amount: { attr: 'amount', unit: 'USD', currency: 'USD' }, dateLabel: 'dated' },
  project: { date: 'date', yearAttr: 'fiscalYear', key: ['appl_id'], amount: { attr: 'amount', unit: 'USD', currency: 'USD' }, dateLabel: 'budget start' },
};
const specOf = (kind: string): KindSpec => KINDS[kind] ?? { date: 'date', key: [], dateLabel: 'date' };

/** Which record kinds an operation lists (`source/operation` → kind): declared by each connector (`listKinds`), not listed here. */
export const LIST_KINDS: Readonly<Record<string, string>> = listKinds();

/**
 * Whether a record's key is the bound entity's. Identifiers match exactly; a name matches as the
 * publisher matches it (textually): equal once case, punctuation and legal forms are set aside, or
 * one a prefix of the other at a word boundary (NSF truncates "... Atmospheric Research" to "... Atmospheric Res").
 */
export function sameEntity(keyType: string, wanted: string, got: string | undefined): boolean {
  if (got === undefined) return false;
  if (keyType !== 'name') return got === wanted;
  const a = normaliseName(wanted);
  const b = normaliseName(got);
  if (!a || !b) return false;
  return a === b || a.startsWith(`${b} `) || b.startsWith(`${a} `) || (b.length >= 12 && a.startsWith(b)) || (a.length >= 12 && b.startsWith(a));
}

export function examineList(filter: ListFilter, attribute: string | null) {
  const spec = specOf(filter.kind);
  return (result: OperationResult, read: BoundRead): Examined => {
    const checks: Check[] = [];
    const ofKind = result.records.filter((r): r is EntityRecord => r.type === 'entity' && r.kind === filter.kind);
    const mine = ofKind.filter((r) => sameEntity(read.key.keyType, read.key.value, r.keys[read.key.keyType]));
    if (ofKind.length > 0 && mine.length === 0) {
      checks.push({ name: 'entity', passed: false, detail: `the ${filter.kind} records are about ${ofKind[0]!.keys.name ?? 'another entity'} (${read.key.keyType} ${ofKind[0]!.keys[read.key.keyType] ?? 'absent'}), not ${read.bundle.label}` });
      return { reject: checks[0]!.detail, checks, prune: true, code: 'different_question' };
    }
    const others = ofKind.length - mine.length;
    const how = read.key.keyType === 'name' ? `name "${read.key.value}" (matched textually, as the publisher matches it)` : `${read.key.keyType} ${read.key.value}`;
    checks.push({ name: 'entity', passed: true, detail: `${mine.length} ${filter.kind} record(s) carry ${how}${others ? `; ${others} about other entities left out` : ''}` });
    const dateOf = (r: EntityRecord) => { const v = r.attributes[spec.date]; return typeof v === 'string' ? v : ''; };
    const yearOf = (r: EntityRecord) => { const y = spec.yearAttr ? r.attributes[spec.yearAttr] : undefined; return typeof y === 'number' ? y : Number(dateOf(r).slice(0, 4)) || undefined; };
    let kept = mine;
    if (filter.form) kept = kept.filter((r) => r.attributes.form === filter.form);
    const p = filter.period ?? (filter.year !== undefined ? { from: filter.year, to: filter.year, words: `"${filter.year}"` } : undefined);
    if (p) kept = kept.filter((r) => { const y = yearOf(r); return y !== undefined && y >= p.from && y <= p.to; });
    const yearWord = spec.yearAttr ? `${spec.yearAttr} (else ${spec.date})` : spec.date;
    const years = p ? (p.from === p.to ? `${p.from}` : `${p.from}–${p.to}`) : '';
    checks.push({ name: 'period', passed: true, detail: `${kept.length} of ${mine.length} kept${filter.form ? `, form ${filter.form}` : ''}${p ? `, ${yearWord} in ${years}` : ''}` });
    if (kept.length === 0) {
      return { reject: `${read.bundle.label} has no ${filter.form ? `${filter.form} ` : ''}${filter.kind} records${p ? ` dated ${years}` : ''} in the response (${mine.length} ${filter.kind} records in all)`, checks, prune: false, code: 'not_found' };
    }
    kept = [...kept].sort((a, b) => dateOf(b).localeCompare(dateOf(a)));
    const listed = kept.slice(0, filter.cap);
    // unread overflow pages the publisher declares (their record counts and date ranges): a page whose
    // dates lie outside the period asked cannot hold a record of the list, so the list is whole without it
    const unread = unreadPages(result);
    const missing = p ? unread.filter((u) => u.to >= p.from && u.from <= p.to) : unread;
    const complete = result.complete || (unread.length > 0 && missing.length === 0);
    const warnings = [...(read.byName && read.note ? [read.note] : []), ...(read.disclosures ?? []), ...(read.namesakes > 1 ? [`${read.namesakes} registry entities are named "${read.asked}"; these are the records of ${read.bundle.label} (${read.key.keyType} ${read.key.value})`] : [])];
    if (p) warnings.push(`${LIST_PERIOD_NOTE}${yearWord} in ${years} (${p.words}); ${kept.length} of the ${mine.length} ${filter.kind} records read`);
    // each publisher note said once: the unread pages go inside the one partial-paging warning
    const more = !complete && !p && !filter.form && missing.length > 0 ? missing.reduce((a, u) => a + u.count, 0) : undefined;
    if (complete && !result.complete) warnings.push(...result.notes.map((n) => `${n} — its records are dated outside ${years}, so the list for ${years} is whole`));
    else if (!complete) {
      warnings.push(`${PARTIAL_NOTE}${more !== undefined ? ` (${UNREAD_COUNT}${more} more ${filter.kind} records)` : ''}, so the list may miss records: ${result.notes.join('; ') || 'pages unread'}`);
    } else warnings.push(...result.notes);
    const items: Item[] = listed.map((r) => {
      const [keyType, keyValue] = spec.key.map((k) => [k, r.keys[k]] as const).find(([, v]) => v)
        ?? Object.entries(r.keys).find(([k, v]) => k !== 'name' && k !== read.key.keyType && v) ?? [read.key.keyType, read.key.value];
      const attributes: Record<string, string | number | boolean | null> = {};
      // the amount is the item's value (a graded fact), not an attribute exempted as an identifier
      for (const [k, v] of Object.entries(r.attributes)) if (!Array.isArray(v) && k !== spec.amount?.attr) attributes[k] = v;
      const amount = spec.amount ? r.attributes[spec.amount.attr] : undefined;
      const date = dateOf(r);
      return {
        attemptN: read.attemptN, source: result.source, operation: result.operation,
        measure: `${result.source}/records/${filter.kind}`, measureLabel: r.label, attribute,
        ...(typeof amount === 'number' && spec.amount ? { value: amount, unit: spec.amount.unit, currency: spec.amount.currency } : { value: null, unit: 'record' }),
        period: { label: date ? `${spec.dateLabel} ${date}` : 'undated', ...(date ? { end: date } : {}), basis: 'calendar' },
        entity: { label: read.bundle.label, keyType: read.key.keyType, key: read.key.value, keys: { ...r.keys } },
        raw: r.raw,
        record: { kind: filter.kind, key: `${keyType}=${keyValue}`, label: r.label, attributes, listing: { ...(p ? { from: p.from, to: p.to } : {}), partial: !complete, ...(more !== undefined ? { unreadDeclared: more } : {}) } },
        assurance: { match: read.byName ? 'name' as const : 'key' as const, planVerdict: read.candidate.verdict === 'composed' ? 'composed' as const : 'exact' as const, warnings },
      };
    });
    const notes = kept.length > listed.length ? [`${kept.length} records match; the ${listed.length} most recent are listed`] : [];
    return { admit: items, checks, complete, total: kept.length, notes };
  };
}
