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
import { boundOperations, keyedBinderOf } from '../connectors/registry.ts';
import { newestDeclaredYear } from './binders/places.ts';
import type { BindError, Binder, Binding, BindRequest, BindResult } from './binders/types.ts';

export type { Binding } from './binders/types.ts';

const LATEST: PeriodWanted = { year: null, basis: 'unspecified', latest: true, text: 'the latest period' };

/** Every keyed read is bound by its connector (`keyedBinders`, src/connectors/<source>.ts). */
const BINDERS: ReadonlyMap<string, Binder> = new Map<string, Binder>(boundOperations('keyedBinders').map((k): [string, Binder] => [k, keyedBinderOf(k)!]));

/**
 * For a caller without validated descriptors: the newest year the bundled catalog's descriptor of a
 * source declares (ard-okf/<source>.json), read once per source.
 */
const bundledYears = new Map<string, number | undefined>();
const BUNDLED: NonNullable<BindRequest['declared']> = {
  newestDeclaredYear(source) {
    if (!bundledYears.has(source)) {
      let y: number | undefined;
      try { y = newestDeclaredYear(new URL(`../../ard-okf/${source}.json`, import.meta.url)); } catch { y = undefined; }
      bundledYears.set(source, y);
    }
    return bundledYears.get(source);
  },
};

const unbound = (operationKey: string): BindError => ({ code: 'no_binder', error: `${operationKey} has no argument binder in the executor yet (keyed reads implemented: ${[...BINDERS.keys()].join(', ')})` });

/** Every reading of an operation for a measure, key and period, in the order to try them. */
export function bindReadings(operationKey: string, measureKey: string, key: { keyType: string; value: string }, period: PeriodWanted = LATEST, declared?: BindRequest['declared']): BindResult {
  const b = BINDERS.get(operationKey);
  if (!b) return unbound(operationKey);
  const r = b.bind({ measureKey, key, period, declared: declared ?? BUNDLED });
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
