import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { build } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { DurableStore } from '../../../src/rdf/durable.ts';
import { graphIri } from '../../../src/rdf/vocab.ts';
import { planSweep } from '../../../src/server/retention.ts';
import { QueryPool } from '../../../src/server/sparql/pool.ts';
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
  it('compacts with the snapshot dumped by a query worker, never on the owner\'s thread', async () => {
    const { store, config } = await open(1);
    const app = await build({ config, store });
    cleanup.push(async () => { await app.close(); await store.close(); });
    await app.queryPool.ready();
    const dump = vi.spyOn(store.rdf, 'dump');
    // compactAfterBytes is 2,000: these writes compact several times along the way.
    for (let i = 0; i < 40; i++) await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: triple(i) });
    await store.compact();
    expect(dump).not.toHaveBeenCalled();
    expect(store.compactionError).toBeNull();
    expect(store.journalBytes).toBe(0);
    const replica = await DurableStore.readReplica(store.dir!);
    expect(replica.seq).toBe(40);
    expect(replica.rdf.size).toBe(40);
    expect(await count(app)).toBe(40);
  }, 60_000);

  it('plans a retention sweep in a query worker, the same plan as on the owner\'s thread', async () => {
    const { store, config } = await open(1);
    const app = await build({ config, store });
    cleanup.push(async () => { await app.close(); await store.close(); });
    const base = 'http://assay.test/';
    const PROV = 'http://www.w3.org/ns/prov#';
    // Synthetic runs (not publisher data): a run graph each, and one evidence quad each.
    for (let i = 1; i <= 4; i++) {
      const id = `bbbb000${i}`;
      const g = graphIri(base, `runs/${id}`);
      await store.apply({ kind: 'load', format: 'application/n-quads', data: [
        `<${base}runs/${id}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/assay/ns#Run> <${g}> .`,
        `<${base}runs/${id}> <${PROV}startedAtTime> "2026-11-0${i}T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> <${g}> .`,
        `<${base}evidence/${id}/e1> <${PROV}value> "synthetic" <${graphIri(base, 'evidence')}> .`,
      ].join('\n') + '\n' });
    }
    const policy = { maxAgeHours: 0, maxCount: 2, sweepEveryMs: 60_000 };
    const now = Date.parse('2026-12-01T00:00:00Z');
    const pool = app.queryPool as QueryPool;
    await pool.ready();
    const { plan, seq } = await pool.sweepPlan({ baseIri: base, policy, now }, 10_000);
    expect(seq).toBe(store.seq);
    expect([...plan.removed].sort()).toEqual(['bbbb0001', 'bbbb0002']);
    expect(plan).toEqual(planSweep(store.rdf, base, policy, now));
  }, 60_000);
});
