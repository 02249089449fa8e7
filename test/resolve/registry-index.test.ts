import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRegistryIndex, openOfflineRegistryFromStore, registryFromIndex, registryLabels, resolveContext, resolveName, type IdentityRegistry, type RegistryTables } from '../../src/resolve/registry.ts';
import type { EntityType, IdentityBundle } from '../../src/resolve/bundle.ts';

// The cached registry index must answer exactly as SPARQL over the snapshot in oxigraph does.
const dir = mkdtempSync(join(tmpdir(), 'assay-registry-cache-'));
let index: RegistryTables;
let fromStore: IdentityRegistry;
beforeAll(async () => {
  index = (await loadRegistryIndex(undefined, { cacheDir: dir })).index;
  fromStore = await openOfflineRegistryFromStore();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('offline registry index (cached by content)', () => {
  it('is written once for the snapshot and read back unchanged', async () => {
    expect(readdirSync(dir).filter((f) => f.startsWith('registry-'))).toHaveLength(1);
    const again = await loadRegistryIndex(undefined, { cacheDir: dir });
    expect(again.fromCache).toBe(true);
    expect(again.index).toEqual(index);
    expect(readdirSync(dir).filter((f) => f.startsWith('registry-'))[0]).toMatch(/\.bin$/);
  });

  it('gives the same bundles, in the same order, as identifiersQuery and placesQuery over the store', async () => {
    // values within a bundle come in document order from the index and in the store's order from SPARQL
    const norm = (bs: IdentityBundle[]) => bs.map((b) => ({ ...b, types: [...b.types].sort(), identifiers: Object.fromEntries(Object.entries(b.identifiers).map(([k, v]) => [k, [...v!].sort()]).sort()) }));
    const cached = registryFromIndex(index);
    // a spread of real labels (every kind of entity in the snapshot) plus partial and odd names
    const names = new Set<string>(['Apple', 'Cook County', 'Illinois', 'Alphabet', 'Red Cross', 'Hazen Scholarship Fund', 'District of Columbia', 'university', 'Bank', 'Zzyzx Quasar', 'a', 'The Company']);
    const labelled = Array.from({ length: index.subjectCount }, (_, i) => registryLabels(index, i)).filter((l) => l.length > 0);
    for (let i = 0; i < labelled.length; i += 211) names.add(labelled[i]![0]!);
    const types: Array<EntityType | undefined> = [undefined, 'company', 'organization', 'state', 'county'];
    let compared = 0;
    for (const name of names) {
      for (const type of types) {
        const opts = type ? { type } : {};
        const a = await resolveName(cached, name, opts, resolveContext());
        const b = await resolveName(fromStore, name, opts, resolveContext());
        expect(norm(a), `${name} (${type ?? 'any type'})`).toEqual(norm(b));
        compared += a.length;
      }
    }
    expect(names.size).toBeGreaterThan(150);
    expect(compared).toBeGreaterThan(400);
  });
});
