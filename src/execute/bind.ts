/**
 * From a planned candidate to connector arguments: which arguments an operation takes for a
 * measure, a bound entity key and the period asked. One binder per implemented operation, in a Map
 * keyed by `publisher/operationId`; an operation without a binder is a choice point that cannot be
 * bound (the executor moves on and says why), never a guess.
 *
 * A binder returns its readings in order (binders/types.ts): each is a choice point the executor
 * tries in turn. It also says what kind of entity the operation's key names, so resolution looks
 * only among states, counties, schools or organizations as the key implies.
 */
import type { EntityType } from '../resolve/bundle.ts';
import type { PeriodWanted } from '../validate/structural.ts';
import { ORGANIZATION_BINDERS } from './binders/organizations.ts';
import { PLACE_BINDERS } from './binders/places.ts';
import { measurePart, type BindError, type Binder, type Binding, type BindResult } from './binders/types.ts';

export type { Binding } from './binders/types.ts';

const LATEST: PeriodWanted = { year: null, basis: 'unspecified', latest: true, text: 'the latest period' };

const SEC_BINDERS: ReadonlyArray<[string, Binder]> = [
  // companyfacts holds every period of every concept: the period is chosen among its records
  ['sec-edgar/companyfacts', { bind: ({ measureKey, key }) => key.keyType === 'cik'
    ? [{ fetchArgs: { cik: key.value }, measure: measurePart(measureKey, 'sec-edgar') }]
    : { error: `companyfacts takes a CIK, not a ${key.keyType}` } }],
  ['sec-edgar/companyconcept', { bind: ({ measureKey, key }) => {
    const [taxonomy, tag] = measurePart(measureKey, 'sec-edgar').split('/');
    if (key.keyType !== 'cik' || !taxonomy || !tag) return { error: `companyconcept takes a CIK and a taxonomy/tag measure` };
    return [{ fetchArgs: { cik: key.value, taxonomy, tag }, measure: `${taxonomy}/${tag}` }];
  } }],
];

const BINDERS: ReadonlyMap<string, Binder> = new Map<string, Binder>([...SEC_BINDERS, ...PLACE_BINDERS, ...ORGANIZATION_BINDERS]);

const unbound = (operationKey: string): BindError => ({ code: 'no_binder', error: `${operationKey} has no argument binder in the executor yet (keyed reads implemented: ${[...BINDERS.keys()].join(', ')})` });

/** Every reading of an operation for a measure, key and period, in the order to try them. */
export function bindReadings(operationKey: string, measureKey: string, key: { keyType: string; value: string }, period: PeriodWanted = LATEST): BindResult {
  const b = BINDERS.get(operationKey);
  if (!b) return unbound(operationKey);
  const r = b.bind({ measureKey, key, period });
  if (!('error' in r) && r.length === 0) return { error: `${operationKey} has no reading of ${measureKey} for ${period.text}` };
  return r;
}

/** The first reading (callers that make one call per operation). */
export function bindOperation(operationKey: string, measureKey: string, key: { keyType: string; value: string }, period: PeriodWanted = LATEST): Binding | BindError {
  const r = bindReadings(operationKey, measureKey, key, period);
  return 'error' in r ? r : r[0]!;
}

/** The kind of entity an operation's key names (undefined: any kind, as for SEC filers). */
export function entityTypeFor(operationKey: string): EntityType | undefined {
  return BINDERS.get(operationKey)?.entityType;
}

export const KEYED_OPERATIONS: readonly string[] = [...BINDERS.keys()];
