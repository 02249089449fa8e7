/**
 * From a planned candidate to connector arguments: which arguments an operation takes for a
 * measure and a bound entity key. One binder per implemented operation, in a Map keyed by
 * `publisher/operationId`; an operation without a binder is a choice point that cannot be bound
 * (the executor moves on and says why), never a guess.
 */
export interface Binding {
  /** Arguments of the whole-entity fetch (memoised per question). */
  fetchArgs: Record<string, string>;
  /** `<group>/<name>` the records must carry. */
  measure: string;
}

type Binder = (measureKey: string, key: { keyType: string; value: string }) => Binding | { error: string };

const measurePart = (measureKey: string, publisher: string) => measureKey.startsWith(`${publisher}/`) ? measureKey.slice(publisher.length + 1) : measureKey;

const BINDERS: ReadonlyMap<string, Binder> = new Map<string, Binder>([
  ['sec-edgar/companyfacts', (m, key) => key.keyType === 'cik'
    ? { fetchArgs: { cik: key.value }, measure: measurePart(m, 'sec-edgar') }
    : { error: `companyfacts takes a CIK, not a ${key.keyType}` }],
  ['sec-edgar/companyconcept', (m, key) => {
    const [taxonomy, tag] = measurePart(m, 'sec-edgar').split('/');
    if (key.keyType !== 'cik' || !taxonomy || !tag) return { error: `companyconcept takes a CIK and a taxonomy/tag measure` };
    return { fetchArgs: { cik: key.value, taxonomy, tag }, measure: `${taxonomy}/${tag}` };
  }],
]);

export function bindOperation(operationKey: string, measureKey: string, key: { keyType: string; value: string }): Binding | { error: string } {
  const b = BINDERS.get(operationKey);
  if (!b) return { error: `${operationKey} has no argument binder in the executor yet (keyed reads implemented: ${[...BINDERS.keys()].join(', ')})` };
  return b(measureKey, key);
}
