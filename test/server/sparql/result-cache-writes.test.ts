/**
 * The answer cache (on by default) never serves an answer from before a write, whichever way the
 * write came: every kind of write the embedded store takes, SPARQL Update over HTTP, a question's
 * run graph and evidence (POST /ask), retention's sweep, a catalog replacement, a write sent by a
 * replica through the owner (as the ask workers send theirs), a restart after a load, and a
 * remote store that others write (where the cache is off). Each test first makes the query a hit,
 * then writes, then asks again: the answer must be evaluated afresh and show the write.
 */
import { createServer } from 'node:http';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { syncCatalogGraph } from '../../../src/ard/sync.ts';
import { build } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { DurableStore, type WriteOp } from '../../../src/rdf/durable.ts';
import { RemoteStore } from '../../../src/rdf/remote.ts';
import { RdfStore } from '../../../src/rdf/store.ts';
import { graphIri } from '../../../src/rdf/vocab.ts';
import { askRoutes } from '../../../src/server/routes/ask.ts';
import { sparqlRoutes } from '../../../src/server/routes/sparql.ts';
import { startQueryPool } from '../../../src/server/sparql/pool.ts';
import { sweepRuns } from '../../../src/server/retention.ts';
import { BASE, testServices } from '../../ask/services.ts';
import { TOKEN, bindings, makeApp, select, type TestApp } from './helpers.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const VALUES = 'SELECT ?o WHERE { GRAPH ?g { <http://x/a> <http://x/p> ?o } } ORDER BY ?o';
const values = (body: string) => bindings(body).map((b) => b.o!.value);

/** Ask until the answer is served from the cache (kept on the second ask, a hit on the third). */
async function hit(app: FastifyInstance, query: string): Promise<string> {
  const first = await select(app, query);
  expect(first.statusCode, first.body).toBe(200);
  await select(app, query);
  const third = await select(app, query);
  expect(third.headers['assay-cache']).toBe('hit');
  expect(third.body).toBe(first.body);
  return third.body;
}

/** The first ask after a write: evaluated afresh (no cache header). */
async function fresh(app: FastifyInstance, query: string): Promise<string> {
  const r = await select(app, query);
  expect(r.statusCode, r.body).toBe(200);
  expect(r.headers['assay-cache']).toBeUndefined();
  return r.body;
}

describe('every kind of write the embedded store takes', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await makeApp();
    await c.store.apply({ kind: 'load', format: 'application/n-quads', data: '<http://x/a> <http://x/p> "0" <http://x/g> .\n' });
  });
  afterAll(async () => c?.close());

  test.each<[string, WriteOp, string[]]>([
    ['load (run graphs and evidence of /ask, feedback, conversation turns, `assay load`)', { kind: 'load', format: 'application/n-quads', data: '<http://x/a> <http://x/p> "1" <http://x/g1> .\n' }, ['0', '1']],
    ['replaceGraph (the catalog sync, population graphs)', { kind: 'replaceGraph', graph: 'http://x/g1', format: 'application/n-triples', data: '<http://x/a> <http://x/p> "2" .\n' }, ['0', '2']],
    ['delta (a SPARQL Update\'s effect, retention\'s sweep)', { kind: 'delta', steps: [{ step: 'clear', target: 'http://x/g1' }, { step: 'insert', nquads: '<http://x/a> <http://x/p> "3" <http://x/g2> .\n' }] }, ['0', '3']],
    ['update (the grants store)', { kind: 'update', sparql: 'DELETE DATA { GRAPH <http://x/g> { <http://x/a> <http://x/p> "0" } }' }, ['3']],
  ])('%s', async (_name, op, expected) => {
    await hit(c.app, VALUES);
    await c.store.apply(op);
    expect(values(await fresh(c.app, VALUES))).toEqual(expected);
  });

  test('SPARQL Update over HTTP', async () => {
    await hit(c.app, VALUES);
    const r = await c.app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: 'INSERT DATA { GRAPH <http://x/g3> { <http://x/a> <http://x/p> "4" } }' });
    expect(r.statusCode, r.body).toBe(204);
    expect(values(await fresh(c.app, VALUES))).toEqual(['3', '4']);
  });

  test('a write sent by a replica through the owner (as an ask worker sends its run)', async () => {
    await hit(c.app, VALUES);
    const rdf = new RdfStore();
    rdf.load(c.store.rdf.dump({ format: 'application/n-quads' }), { format: 'application/n-quads' });
    const replica = DurableStore.follower({ rdf, seq: c.store.seq, send: async (op) => { await c.store.apply(op); return c.store.seq; } });
    const unfollow = c.store.onWrite((op, seq) => replica.follow(op, seq));
    try {
      await replica.apply({ kind: 'load', format: 'application/n-quads', data: '<http://x/a> <http://x/p> "5" <http://x/g4> .\n' });
      expect(values(await fresh(c.app, VALUES))).toEqual(['3', '4', '5']);
    } finally {
      unfollow();
    }
  });
});

describe('a question\'s run graph (POST /ask), then retention\'s sweep', () => {
  const RUNS = 'SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }';
  const count = (body: string) => Number(bindings(body)[0]!.n!.value);
  let app: FastifyInstance;
  let store: DurableStore;
  beforeAll(async () => {
    store = DurableStore.inMemory();
    const config = loadConfig({ dataDir: '/tmp/assay-cache-writes', baseIri: BASE }, {});
    const services = await testServices();
    app = Fastify();
    app.decorate('assay', { config, store } as never);
    const pool = startQueryPool(store, { workers: 1, maxQueue: 8 });
    app.decorate('queryPool', pool);
    app.addHook('onClose', async () => pool.close());
    await app.register(sparqlRoutes);
    await app.register(askRoutes, { services: Promise.resolve({ ...services, store }) });
    await pool.ready();
  }, 60_000);
  afterAll(async () => { await app?.close(); await store?.close(); });

  test('an answered question adds its run; the sweep removes it; neither is hidden by the cache', async () => {
    const before = count(await hit(app, RUNS));
    const r = await app.inject({ method: 'POST', url: '/ask', payload: { question: "What was Apple's total revenue in 2023?" } });
    expect(r.statusCode, r.body).toBe(200);
    const during = count(await fresh(app, RUNS));
    expect(during).toBeGreaterThan(before);

    await app.inject({ method: 'POST', url: '/ask', payload: { question: "What was Microsoft's total revenue in 2023?" } });
    const two = count(await fresh(app, RUNS));
    await hit(app, RUNS);
    const one = await sweepRuns(store, BASE, { maxAgeHours: 0, maxCount: 1, sweepEveryMs: 60_000 });
    expect(one.runs).toBeGreaterThan(0);
    expect(count(await fresh(app, RUNS))).toBeLessThan(two);
  }, 120_000);
});

describe('a catalog replacement', () => {
  test('a descriptor added to the catalog directory is seen at the next sync', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-cache-catalog-'));
    await copyFile(join(ROOT, 'ard-okf/nih-reporter.json'), join(dir, 'nih-reporter.json'));
    const c = await makeApp();
    try {
      await syncCatalogGraph(c.store, { dir, baseIri: 'http://assay.test/', cacheDir: null });
      const q = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graphIri('http://assay.test/', 'catalog')}> { ?s ?p ?o } }`;
      const n = (body: string) => Number(bindings(body)[0]!.n!.value);
      const before = n(await hit(c.app, q));
      await copyFile(join(ROOT, 'ard-okf/irs-990-efile.json'), join(dir, 'irs-990-efile.json'));
      expect((await syncCatalogGraph(c.store, { dir, baseIri: 'http://assay.test/', cacheDir: null })).changed).toBe(true);
      expect(n(await fresh(c.app, q))).toBeGreaterThan(before);
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe('a restart', () => {
  test('a load into the data directory while the gateway was down is seen by the next gateway', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-cache-restart-'));
    const start = async () => {
      const store = await DurableStore.open(dir);
      const app = await build({ config: loadConfig({ dataDir: dir, baseIri: 'http://assay.test/', sparql: { workers: 1 } }, {}), store });
      await app.queryPool.ready();
      return { app, store, close: async () => { await app.close(); await store.close(); } };
    };
    const a = await start();
    await a.store.apply({ kind: 'load', format: 'application/n-quads', data: '<http://x/a> <http://x/p> "before" <http://x/g> .\n' });
    expect(values(await hit(a.app, VALUES))).toEqual(['before']);
    await a.close();
    const offline = await DurableStore.open(dir); // `assay load` opens the directory the same way
    await offline.apply({ kind: 'load', format: 'application/n-quads', data: '<http://x/a> <http://x/p> "loaded" <http://x/g> .\n' });
    await offline.close();
    const b = await start();
    try {
      expect(values(await fresh(b.app, VALUES))).toEqual(['before', 'loaded']);
    } finally {
      await b.close();
    }
  }, 60_000);
});

describe('a remote store, which other gateways write', () => {
  test('is never answered from the cache: each ask goes to the store', async () => {
    // A loopback stand-in for the shared store whose answer changes on every query, as it would
    // while another gateway writes to it.
    let queries = 0;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => { body += d.toString(); });
      req.on('end', () => {
        const text = decodeURIComponent((/(?:^|[?&])query=([^&]*)/.exec(`${req.url}&${body}`)?.[1] ?? '').replace(/\+/g, ' '));
        res.setHeader('Content-Type', 'application/sparql-results+json');
        if (/^\s*ASK/i.test(text)) return res.end(JSON.stringify({ head: {}, boolean: true }));
        queries++;
        res.end(JSON.stringify({ head: { vars: ['o'] }, results: { bindings: [{ o: { type: 'literal', value: String(queries) } }] } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/sparql`;
    const config = loadConfig({ dataDir: '/tmp/assay-cache-remote', baseIri: 'http://assay.test/', store: { url } }, {});
    const store = await RemoteStore.open(config.store, { baseIri: config.baseIri });
    const app = await build({ config, store });
    try {
      const answers: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await select(app, VALUES);
        expect(r.statusCode, r.body).toBe(200);
        expect(r.headers['assay-cache']).toBeUndefined();
        answers.push(...values(r.body));
      }
      expect(new Set(answers).size).toBe(3);
    } finally {
      await app.close();
      await store.close();
      server.close();
    }
  }, 60_000);
});
