/**
 * The one place Assay's decisions become English: notes (what the reader must know about how a
 * value was read), refusals (the boundary reached, why, and what would make the question
 * answerable). Everything upstream carries typed codes with parameters; this module words them,
 * with Intl plural and list formatting. Tests assert codes and parameters; a few pin these words.
 */
import type { Note } from '../execute/notes.ts';
import { publisherName } from './render.ts';

const plurals = new Intl.PluralRules('en');
/** "1 candidate" / "3 candidates". */
export function count(n: number, one: string, other = `${one}s`): string {
  return `${n} ${plurals.select(n) === 'one' ? one : other}`;
}
const orList = new Intl.ListFormat('en', { type: 'disjunction' });
const andList = new Intl.ListFormat('en', { type: 'conjunction' });
/** "a or b", "a, b, or c". */
export const anyOf = (items: readonly string[]): string => orList.format(items);
/** "a and b", "a, b, and c". */
export const allOf = (items: readonly string[]): string => andList.format(items);

/** An identifier kind as a reader knows it ("country_currency" → "country currency"). */
const keyWords = (keyType: string) => keyType.replace(/_/g, ' ');

export function renderNote(n: Note): string {
  switch (n.code) {
    case 'entity_ambiguous_answered': return `"${n.entity}" is ambiguous (${n.candidates.join('; ')}); answered for the most likely, ${n.chosen}`;
    case 'scope_read': return `no entity named: the figure is for the ${n.scope.replace(/^the /i, '')}, the only scope ${publisherName(n.source)} publishes it for`;
    case 'code_read': return `read by the publisher's own ${keyWords(n.keyType)} "${n.key}", not through the organisation registry`;
    case 'code_bound': return `"${n.asked}" bound to the publisher's own ${keyWords(n.keyType)} "${n.key}", not through the organisation registry`;
    case 'period_missing': return `no ${n.measure} value for ${n.period}: ${n.detail}`;
    case 'readings_aliases': return `readings collapsed as aliases: ${n.groups.map((g) => `${g.join(' = ')} (same value)`).join('; ')}`;
    case 'readings_all': return `"${n.attribute}" read ${n.readings.length} ways: ${n.readings.join(', ')}`;
    case 'reading_chosen': return `"${n.attribute}" read as ${n.reading}; other readings differ materially (see alternatives)`;
    case 'measures_differ': return `the values compared are different published measures: ${n.items.map((e) => `${e.entity}, ${e.measure}`).join('; ')}`;
    case 'period_ends_differ': return `${n.period} ends on different dates: ${n.items.map((e) => `${e.entity} ${e.end ?? 'not stated'}`).join('; ')}`;
    case 'text': return n.text;
  }
}
