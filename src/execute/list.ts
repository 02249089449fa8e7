/**
 * Entity-list questions ("List Apple's filings in 2024", "Which 10-K filings did Microsoft make?"):
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
import type { BoundRead, Examined, Item } from './record-search.ts';

export interface ListFilter {
  /** Record kind the list is made of (filing). */
  kind: string;
  /** Calendar year of the record's date, when the question names one. */
  year?: number;
  form?: string;
  cap: number;
}

/** The date a record is ordered and filtered by, per kind. */
const DATE_ATTR: Readonly<Record<string, string>> = { filing: 'filingDate' };
/** Which record kinds an operation lists. */
export const LIST_KINDS: Readonly<Record<string, string>> = { 'sec-edgar/submissions': 'filing' };

/** A form type the question names ("10-K", "Form 4", "DEF 14A"), as the SEC spells it. */
export function formInQuestion(question: string): string | undefined {
  const m = /\b(10-K|10-Q|8-K|20-F|40-F|6-K|S-1|S-3|S-4|S-8|11-K|DEF 14A|SC 13G|SC 13D)(\/A)?\b/i.exec(question) ?? /\bform (\d{1,3})\b/i.exec(question);
  return m ? `${m[1]!.toUpperCase()}${m[2] ?? ''}` : undefined;
}

export function examineList(filter: ListFilter, attribute: string | null) {
  return (result: OperationResult, read: BoundRead): Examined => {
    const checks: Check[] = [];
    const ofKind = result.records.filter((r): r is EntityRecord => r.type === 'entity' && r.kind === filter.kind);
    const mine = ofKind.filter((r) => r.keys[read.key.keyType] === read.key.value);
    if (ofKind.length > 0 && mine.length === 0) {
      checks.push({ name: 'entity', passed: false, detail: `the ${filter.kind} records are about ${ofKind[0]!.keys.name ?? 'another entity'} (${read.key.keyType} ${ofKind[0]!.keys[read.key.keyType] ?? 'absent'}), not ${read.bundle.label}` });
      return { reject: checks[0]!.detail, checks, prune: true, code: 'different_question' };
    }
    const others = ofKind.length - mine.length;
    checks.push({ name: 'entity', passed: true, detail: `${mine.length} ${filter.kind} record(s) carry ${read.key.keyType} ${read.key.value}${others ? `; ${others} about other entities left out` : ''}` });
    const dateOf = (r: EntityRecord) => { const v = r.attributes[DATE_ATTR[filter.kind] ?? 'date']; return typeof v === 'string' ? v : ''; };
    let kept = mine;
    if (filter.form) kept = kept.filter((r) => r.attributes.form === filter.form);
    if (filter.year !== undefined) kept = kept.filter((r) => dateOf(r).startsWith(String(filter.year)));
    checks.push({ name: 'period', passed: true, detail: `${kept.length} of ${mine.length} kept${filter.form ? `, form ${filter.form}` : ''}${filter.year !== undefined ? `, ${DATE_ATTR[filter.kind] ?? 'date'} in ${filter.year}` : ''}` });
    if (kept.length === 0) {
      return { reject: `${read.bundle.label} has no ${filter.form ? `${filter.form} ` : ''}${filter.kind} records${filter.year !== undefined ? ` dated ${filter.year}` : ''} in the response (${mine.length} ${filter.kind} records in all)`, checks, prune: false, code: 'not_found' };
    }
    kept = [...kept].sort((a, b) => dateOf(b).localeCompare(dateOf(a)));
    const listed = kept.slice(0, filter.cap);
    const warnings = [...(read.byName && read.note ? [read.note] : []), ...(read.namesakes > 1 ? [`${read.namesakes} registry entities are named "${read.asked}"; these are the records of ${read.bundle.label} (${read.key.keyType} ${read.key.value})`] : []), ...result.notes];
    if (!result.complete) warnings.push(`the publisher's paging was not read to its end, so the list may miss records: ${result.notes.join('; ') || 'pages unread'}`);
    const items: Item[] = listed.map((r) => {
      const [keyType, keyValue] = Object.entries(r.keys).find(([k, v]) => k !== 'name' && k !== read.key.keyType && v) ?? [read.key.keyType, read.key.value];
      const attributes: Record<string, string | number | boolean | null> = {};
      for (const [k, v] of Object.entries(r.attributes)) if (!Array.isArray(v)) attributes[k] = v;
      const date = dateOf(r);
      return {
        attemptN: read.attemptN, source: result.source, operation: result.operation,
        measure: `${result.source}/records/${filter.kind}`, measureLabel: r.label, attribute,
        value: null, unit: 'record',
        period: { label: date ? `${DATE_ATTR[filter.kind] ?? 'date'} ${date}` : 'undated', ...(date ? { end: date } : {}), basis: 'calendar' },
        entity: { label: read.bundle.label, keyType: read.key.keyType, key: read.key.value, keys: { ...r.keys } },
        raw: r.raw,
        record: { kind: filter.kind, key: `${keyType}=${keyValue}`, label: r.label, attributes },
        assurance: { match: read.byName ? 'name' as const : 'key' as const, planVerdict: read.candidate.verdict === 'composed' ? 'composed' as const : 'exact' as const, warnings },
      };
    });
    const notes = kept.length > listed.length ? [`${kept.length} records match; the ${listed.length} most recent are listed`] : [];
    return { admit: items, checks, complete: result.complete, total: kept.length, notes };
  };
}
