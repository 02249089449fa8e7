/**
 * Measure ambiguity. Readings come from the intent (`interpretations`) or, when the interpreter
 * gave none, from a small lexicon of measure words with materially different published readings
 * (the offline interpreter does not split measures). Readings are settled on fetched values:
 * equal values collapse as aliases; the caller is interrupted only if the rest differ materially.
 */
const LEXICON: ReadonlyMap<string, string[]> = new Map([
  ['profit', ['net income', 'operating income', 'gross profit']],
  ['profits', ['net income', 'operating income', 'gross profit']],
  ['earnings', ['net income', 'operating income']],
  ['income', ['net income', 'operating income']],
]);

export function readingsFor(attribute: string | null, interpretations: readonly string[]): string[] {
  if (interpretations.length >= 2) return [...interpretations];
  if (!attribute) return [];
  return LEXICON.get(attribute.trim().toLowerCase()) ?? [];
}

/** Material difference: more than 0.5% apart relative to the larger magnitude. */
export function differMaterially(a: number, b: number): boolean {
  const m = Math.max(Math.abs(a), Math.abs(b));
  return m > 0 && Math.abs(a - b) / m > 0.005;
}

/** Groups readings by equal value; returns groups in reading order (first reading of each group leads). */
export function collapseAliases<T extends { value: number }>(items: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (const it of items) {
    const g = groups.find((x) => !differMaterially(x[0]!.value, it.value));
    if (g) g.push(it); else groups.push([it]);
  }
  return groups;
}
