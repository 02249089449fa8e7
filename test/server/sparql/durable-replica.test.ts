import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { DurableStore } from '../../../src/rdf/durable.ts';
import { bindings, select } from './helpers.ts';

// With a data directory, query workers read the snapshot and journal themselves (the main
// thread never dumps the store) and apply only the forwarded writes their seed lacks.
describe('query replicas seeded from the data directory', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  async function open(workers: number, timeoutMs = 2000) {
    const dir = await mkdtemp(join(tmpdir(), 'assay-replica-'));
    const store = await DurableStore.open(dir, { compactAfterBytes: 2_000 });
    const config = loadConfig({ dataDir: dir, baseIri: 'http://assay.test/', sparql: { workers, timeoutMs } }, {});
    return { store, config };
  }

  const triple = (i: number) => `<http://x/s${i}> <http://x/p> "${i}" .\n`;
  const increment = 'DELETE { GRAPH <http://x/c> { <http://x/c> <http://x/n> ?n } } INSERT { GRAPH <http://x/c> { <http://x/c> <http://x/n> ?m } } '
    + 'WHERE { GRAPH <http://x/c> { <http://x/c> <http://x/n> ?n } BIND(?n + 1 AS ?m) }';
  const count = async (app: Awaited<ReturnType<typeof build>>) => {
    const r = await select(app, 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s <http://x/p> ?o } }');
    expect(r.statusCode, r.body).toBe(200);
    return Number(bindings(r.body)[0]!.n!.value);
  };

  it('sees writes made before start, during seeding, and after; and again after a worker is replaced', async () => {
    const { store, config } = await open(1, 1500);
    // Enough writes before start that compaction has folded some into a snapshot.
    for (let i = 0; i < 30; i++) await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: triple(i) });
    await store.apply({ kind: 'update', sparql: 'INSERT DATA { GRAPH <http://x/c> { <http://x/c> <http://x/n> 0 } }' });
    expect(store.seq).toBe(31);
    const app = await build({ config, store });
    cleanup.push(async () => { await app.close(); await store.close(); });
    // These race with the worker reading the directory: each must land exactly once.
    for (let i = 30; i < 40; i++) {
      await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: triple(i) });
      // Not idempotent: applied twice (once from the seed, once forwarded) it would count wrong.
      await store.apply({ kind: 'update', sparql: increment });
    }
    await app.queryPool.ready();
    expect(await count(app)).toBe(40);
    const n = await select(app, 'SELECT ?n WHERE { GRAPH <http://x/c> { <http://x/c> <http://x/n> ?n } }');
    expect(bindings(n.body).map((b) => b.n!.value)).toEqual(['10']);
    await store.apply({ kind: 'update', sparql: 'INSERT DATA { GRAPH <http://x/g> { <http://x/s40> <http://x/p> 40 } }' });
    expect(await count(app)).toBe(41);

    // A runaway query gets its worker killed; the replacement reads the directory again.
    const many = Array.from({ length: 1500 }, (_, i) => `<http://x/r${i}> <http://x/q> "${i}" .`).join('\n');
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/big', data: many });
    const slow = await select(app, 'SELECT (COUNT(*) AS ?n) WHERE { ?a <http://x/q> ?x . ?b <http://x/q> ?y . ?c <http://x/q> ?z }');
    expect(slow.statusCode).toBe(503);
    await app.queryPool.ready();
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: triple(41) });
    expect(await count(app)).toBe(42);
  }, 60_000);

  it('keeps sequence numbers across compaction and reopening', async () => {
    const { store } = await open(1);
    for (let i = 0; i < 25; i++) await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: triple(i) });
    await store.compact();
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: triple(25) });
    const dir = store.dir!;
    await store.close();
    const again = await DurableStore.open(dir);
    expect(again.seq).toBe(26);
    const replica = await DurableStore.readReplica(dir);
    expect(replica.seq).toBe(26);
    expect(replica.rdf.size).toBe(26);
    await again.close();
  });
});
