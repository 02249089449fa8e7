import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { DurableStore } from '../../../src/rdf/durable.ts';
import { RdfStore } from '../../../src/rdf/store.ts';
import { LARGE_WRITE_BYTES, PARSE_VS_COPY, QueryPool } from '../../../src/server/sparql/pool.ts';
import { heapBytes } from '../../../src/rdf/wasm-image.ts';
import { bindings, select } from './helpers.ts';

// Query workers adopt a memory image of the owner's store (src/rdf/wasm-image.ts) instead of
// parsing it: start-up and every replacement copy memory. These check that what they adopt is
// the store, blank nodes, interned strings and later writes included.
describe('query replicas adopted from a memory image', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  const nt = (from: number, to: number, pad = '') => Array.from({ length: to - from }, (_, k) => `<http://x/s${from + k}> <http://x/p> "${from + k}${pad}" .`).join('\n');
  const count = async (app: Awaited<ReturnType<typeof build>>, p = 'http://x/p') => {
    const r = await select(app, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s <${p}> ?o } }`);
    expect(r.statusCode, r.body).toBe(200);
    return Number(bindings(r.body)[0]!.n!.value);
  };

  it('seeds every worker and every replacement from the image, and they hold exactly the acknowledged writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-image-'));
    const store = await DurableStore.open(dir);
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: nt(0, 500) });
    // Blank nodes and a value computed by the engine, so the image carries more than IRIs.
    await store.apply({ kind: 'update', sparql: 'INSERT { GRAPH <http://x/b> { ?s <http://x/bn> _:n . } } WHERE { GRAPH <http://x/g> { ?s <http://x/p> ?o } FILTER(?o < "2") }' });
    const config = loadConfig({ dataDir: dir, baseIri: 'http://assay.test/', sparql: { workers: 2, timeoutMs: 3000 } }, {});
    const app = await build({ config, store });
    cleanup.push(async () => { await app.close(); await store.close(); });
    const pool = app.queryPool as QueryPool;
    // Writes made while the workers start land exactly once.
    for (let i = 500; i < 510; i++) await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: nt(i, i + 1) });
    await pool.ready();
    expect(pool.seeds.length).toBeGreaterThanOrEqual(2);
    expect(pool.seeds.map((s) => s.via)).toEqual(pool.seeds.map(() => 'image'));
    expect(await count(app)).toBe(510);
    expect(await count(app, 'http://x/bn')).toBe(store.rdf.select('SELECT ?s WHERE { GRAPH ?g { ?s <http://x/bn> ?o } }').length);
    // The adopted engine works as a fresh one: new blank nodes, UUIDs, an update computed on it.
    const fresh = await select(app, 'SELECT (STRUUID() AS ?u) (BNODE() AS ?b) WHERE {}');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(bindings(fresh.body)[0]!.u!.value).toMatch(/^[0-9a-f-]{36}$/);
    await store.apply({ kind: 'update', sparql: 'INSERT DATA { GRAPH <http://x/g> { <http://x/late> <http://x/p> "late" } }' });
    expect(await count(app)).toBe(511);

    // A write large enough that parsing it in every replica costs more than copying the heap:
    // idle workers are retired and new ones adopt an image that already holds it.
    // (sized from the owner's heap: in a worker shared with other test files, that heap is larger)
    const target = Math.max(LARGE_WRITE_BYTES, Math.ceil((heapBytes() / PARSE_VS_COPY) * 1.2));
    const big = nt(10_000, 18_000, ` ${'-'.repeat(Math.max(120, Math.ceil(target / 8_000)))}`);
    expect(big.length).toBeGreaterThan(LARGE_WRITE_BYTES);
    expect(big.length * PARSE_VS_COPY).toBeGreaterThanOrEqual(heapBytes());
    const seedsBefore = pool.seeds.length;
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/big', data: big });
    expect(pool.reseeds).toBeGreaterThan(0);
    await pool.ready();
    expect(pool.seeds.slice(seedsBefore).map((s) => s.via)).toEqual(pool.seeds.slice(seedsBefore).map(() => 'image'));
    for (let i = 0; i < 4; i++) expect(await count(app)).toBe(8_511);

    // A runaway gets its worker killed; its replacement adopts an image of the store as it is now.
    const before = pool.seeds.length;
    const slow = await select(app, 'SELECT (COUNT(*) AS ?n) WHERE { ?a <http://x/p> ?x . ?b <http://x/p> ?y . ?c <http://x/p> ?z . ?d <http://x/p> ?w }');
    expect(slow.statusCode).toBe(503);
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: nt(600, 601) });
    await pool.ready();
    expect(pool.seeds.length).toBeGreaterThan(before);
    expect(pool.seeds.slice(before).map((s) => s.via)).toContain('image');
    // Every worker (ask twice per worker) holds every write.
    for (let i = 0; i < 6; i++) expect(await count(app)).toBe(8_512);
  }, 90_000);

  it('an image is adopted only by a thread that has not used oxigraph', () => {
    const source = new RdfStore();
    source.load('<http://x/a> <http://x/b> "c" .', { format: 'application/n-triples' });
    const image = source.memoryImage();
    expect(image).not.toBeNull();
    expect(image!.quads).toBe(1);
    // This thread has (it just built `source`): adopting would overwrite live objects.
    expect(RdfStore.canAdoptImage()).toBe(false);
    expect(() => RdfStore.fromMemoryImage(image!)).toThrow(/used oxigraph already/);
    expect(source.size).toBe(1);
  });
});
