/**
 * The catalog graph cache: a fresh data directory whose catalog was built before (for any base IRI)
 * gets the same graph from the cache as from a full build, and a catalog that fails validation is
 * never cached nor written.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncCatalogGraph } from '../../src/ard/sync.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { graphIri } from '../../src/rdf/vocab.ts';

// The hand-written descriptors only (no generated taxonomies): small enough to build quickly.
const KEEP = ['treasury-fiscal-data.json', 'cdc-places.json', 'college-scorecard.json', 'grants-gov.json'];

let root: string;
let catalogDir: string;
let cacheDir: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'assay-catcache-'));
  catalogDir = join(root, 'catalog');
  cacheDir = join(root, 'cache');
  for (const f of KEEP) cpSync(join('ard-okf', f), join(catalogDir, f));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function catalogLines(base: string, cache: string | null): Promise<{ lines: string[]; cached: boolean; quads: number }> {
  const store = DurableStore.inMemory();
  const r = await syncCatalogGraph(store, { baseIri: base, dir: catalogDir, cacheDir: cache });
  const lines = store.rdf.dump({ format: 'application/n-triples', graph: graphIri(base, 'catalog') }).split('\n').filter(Boolean).sort();
  await store.close();
  return { lines, cached: r.cached === true, quads: r.quads };
}

describe('the catalog graph cache', () => {
  it('gives a fresh store under another base IRI the same graph a full build gives', async () => {
    const first = await catalogLines('http://127.0.0.1:8080/', cacheDir);
    expect(first.cached).toBe(false);
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('catalog-'))).toHaveLength(1);
    const fromCache = await catalogLines('https://assay.example.org/', cacheDir);
    const built = await catalogLines('https://assay.example.org/', null);
    expect(fromCache.cached).toBe(true);
    expect(built.cached).toBe(false);
    expect(fromCache.lines.length).toBeGreaterThan(1000);
    expect(fromCache.quads).toBe(built.quads);
    expect(fromCache.lines).toEqual(built.lines);
    expect(fromCache.lines.some((l) => l.includes('assay-catalog-cache.invalid'))).toBe(false);
  }, 300_000);

  it('never caches or writes a catalog that fails validation', async () => {
    const bad = join(catalogDir, 'broken.json');
    writeFileSync(bad, JSON.stringify({ specVersion: '1.0', entries: [{ identifier: 'not-a-urn' }] }));
    const before = readdirSync(cacheDir).length;
    const store = DurableStore.inMemory();
    try {
      await expect(syncCatalogGraph(store, { baseIri: 'http://127.0.0.1:9/', dir: catalogDir, cacheDir })).rejects.toThrow();
      expect(store.rdf.size).toBe(0);
      expect(readdirSync(cacheDir).length).toBe(before);
    } finally {
      rmSync(bad);
      await store.close();
    }
  }, 300_000);
});
