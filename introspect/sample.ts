/**
 * Order-independent samples: keep the k distinct values with the smallest hash. The same graph
 * gives the same samples whichever order a store scans it in, so cards and sidecars are
 * deterministic without sorting every value.
 */
export interface Sample {
  keys: string[];
  hashes: number[];
}

export const newSample = (): Sample => ({ keys: [], hashes: [] });

/** FNV-1a over the first 64 code units and the length: cheap, and plenty to spread samples. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5 ^ key.length;
  const n = Math.min(key.length, 64);
  for (let i = 0; i < n; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function offer(sample: Sample, key: string, k: number, hash = hashKey(key)): void {
  const { keys, hashes } = sample;
  if (k <= 0) return;
  if (keys.length >= k) {
    const last = hashes[keys.length - 1]!;
    if (hash > last || (hash === last && key >= keys[keys.length - 1]!)) return;
  }
  let i = keys.length;
  while (i > 0 && (hashes[i - 1]! > hash || (hashes[i - 1] === hash && keys[i - 1]! > key))) i--;
  if (keys[i - 1] === key || keys[i] === key || keys.includes(key)) return;
  keys.splice(i, 0, key);
  hashes.splice(i, 0, hash);
  if (keys.length > k) {
    keys.pop();
    hashes.pop();
  }
}

export function merge(into: Sample, from: Sample, k: number): void {
  for (let i = 0; i < from.keys.length; i++) offer(into, from.keys[i]!, k, from.hashes[i]!);
}
