/**
 * From a planned operation to connector arguments for record reads (status and entity-list
 * questions): each connector's own record binders (`recordBinders`, src/connectors/<source>.ts) say
 * which identifier an operation takes and any further argument the publisher's layout needs (the
 * IRS EO BMF extract's state, an award search's group and window, the pages a list read may take).
 * An operation without a binder is a choice point that cannot be bound (the executor says why).
 */
import { boundOperations, recordBinderOf } from '../connectors/registry.ts';
import type { RecordBound, RecordHints } from '../connectors/binding.ts';

export type { RecordHints } from '../connectors/binding.ts';

/** A binding, with a note when an argument came from somewhere the question did not say (to be disclosed). */
export type Bound = RecordBound;

export const RECORD_OPERATIONS: readonly string[] = boundOperations('recordBinders');

export function bindRecordOperation(operationKey: string, key: { keyType: string; value: string }, hints: RecordHints): Bound {
  const b = recordBinderOf(operationKey);
  if (!b) return { error: `${operationKey} has no record binder in the executor yet (record reads implemented: ${RECORD_OPERATIONS.join(', ')})` };
  return b.bind(key, hints);
}

/** The identifier types an operation's record read is keyed by (empty when it has no binder). */
export function recordKeyTypes(operationKey: string): readonly string[] {
  return recordBinderOf(operationKey)?.takes ?? [];
}

const STATES: Readonly<Record<string, string>> = {
  alabama: 'al', alaska: 'ak', arizona: 'az', arkansas: 'ar', california: 'ca', colorado: 'co', connecticut: 'ct', delaware: 'de',
  'district of columbia': 'dc', 'washington dc': 'dc', 'washington d c': 'dc', florida: 'fl', georgia: 'ga', hawaii: 'hi', idaho: 'id', illinois: 'il',
  indiana: 'in', iowa: 'ia', kansas: 'ks', kentucky: 'ky', louisiana: 'la', maine: 'me', maryland: 'md', massachusetts: 'ma', michigan: 'mi',
  minnesota: 'mn', mississippi: 'ms', missouri: 'mo', montana: 'mt', nebraska: 'ne', nevada: 'nv', 'new hampshire': 'nh', 'new jersey': 'nj',
  'new mexico': 'nm', 'new york': 'ny', 'north carolina': 'nc', 'north dakota': 'nd', ohio: 'oh', oklahoma: 'ok', oregon: 'or', pennsylvania: 'pa',
  'puerto rico': 'pr', 'rhode island': 'ri', 'south carolina': 'sc', 'south dakota': 'sd', tennessee: 'tn', texas: 'tx', utah: 'ut', vermont: 'vt',
  virginia: 'va', washington: 'wa', 'west virginia': 'wv', wisconsin: 'wi', wyoming: 'wy',
};
const CODES = new Set(Object.values(STATES));

/** "Rhode Island", "RI", "the District of Columbia", "D.C." → two-letter code; null when it is not a state. */
export function stateCode(place: string | null | undefined): string | null {
  if (!place) return null;
  const t = place.toLowerCase().replace(/\./g, '').replace(/^the /, '').replace(/[^a-z ]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (STATES[t]) return STATES[t]!;
  if (CODES.has(t)) return t;
  return null;
}
