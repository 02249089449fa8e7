/**
 * SPARQL Update through the endpoint: computed in a query worker under its own time limit and
 * journaled as its effect (graphs cleared, quads deleted and inserted), so that the main thread
 * never runs it, replay is a plain reapplication, and a failed or stopped update leaves nothing.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { DurableStore } from '../../../src/rdf/durable.ts';
import { TOKEN, bindings, select } from './helpers.ts';

type App = Awaited<ReturnType<typeof build>>;

async function open(dir: string, updateTimeoutMs = 10_000) {
  const store = await DurableStore.open(dir);
  const config = loadConfig({ dataDir: dir, baseIri: 'http://assay.test/', sparql: { updateToken: TOKEN, workers: 1 }, limits: { sparql: { updateTimeoutMs } } }, {});
  const app = await build({ config, store });
  await app.queryPool.ready();
  return { app, store, close: async () => { await app.close(); await store.close(); } };
}

function update(app: App, text: string) {
  return app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: text });
}

async function rows(app: App, query: string): Promise<string[]> {
  const r = await select(app, query);
  expect(r.statusCode, r.body).toBe(200);
  return bindings(r.body).map((b) => Object.values(b).map((t) => t.value).join(' ')).sort();
}

const ALL = 'SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }';

describe('SPARQL Update computed in a worker', () => {
  let dir: string;
  let t: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-update-'));
    t = await open(dir);
  }, 60_000);
  afterAll(async () => t?.close());

  test.each([
    ['INSERT DATA into a graph', 'INSERT DATA { GRAPH <http://x/g> { <http://x/a> <http://x/p> 1 , 2 } }', ['http://x/g http://x/a http://x/p 1', 'http://x/g http://x/a http://x/p 2']],
    ['DELETE/INSERT WHERE with WITH', 'WITH <http://x/g> DELETE { ?s <http://x/p> ?o } INSERT { ?s <http://x/q> ?m } WHERE { ?s <http://x/p> ?o BIND(?o * 10 AS ?m) }', ['http://x/g http://x/a http://x/q 10', 'http://x/g http://x/a http://x/q 20']],
    ['COPY to another graph', 'COPY <http://x/g> TO <http://x/h>', ['http://x/g http://x/a http://x/q 10', 'http://x/g http://x/a http://x/q 20', 'http://x/h http://x/a http://x/q 10', 'http://x/h http://x/a http://x/q 20']],
    ['DELETE WHERE', 'DELETE WHERE { GRAPH <http://x/h> { ?s ?p 10 } }', ['http://x/g http://x/a http://x/q 10', 'http://x/g http://x/a http://x/q 20', 'http://x/h http://x/a http://x/q 20']],
    ['MOVE then DROP SILENT of a missing graph', 'MOVE <http://x/h> TO <http://x/k> ; DROP SILENT GRAPH <http://x/none>', ['http://x/g http://x/a http://x/q 10', 'http://x/g http://x/a http://x/q 20', 'http://x/k http://x/a http://x/q 20']],
    ['CLEAR GRAPH', 'CLEAR GRAPH <http://x/k>', ['http://x/g http://x/a http://x/q 10', 'http://x/g http://x/a http://x/q 20']],
  ])('%s', async (_name, text, expected) => {
    const r = await update(t.app, text);
    expect(r.statusCode, r.body).toBe(204);
    expect(await rows(t.app, ALL)).toEqual(expected);
  });

  test('a request that fails in its last operation applies none of the earlier ones (fault 1 input)', async () => {
    await update(t.app, 'INSERT DATA { GRAPH <urn:x:atom> { <urn:a> <urn:b> "1" } }');
    const before = await rows(t.app, ALL);
    const seq = t.store.seq;
    const r = await update(t.app, 'INSERT { GRAPH <urn:x:none> { ?a <urn:x:q> ?f } } WHERE { GRAPH ?g { ?a ?x ?y } GRAPH ?h { ?d ?e ?f } } ; CREATE GRAPH <urn:x:atom>');
    expect([r.statusCode, JSON.parse(r.body).error]).toEqual([400, 'update-failed']);
    expect(JSON.parse(r.body).message).toMatch(/CREATE GRAPH <urn:x:atom>: the graph already exists/);
    expect(await rows(t.app, ALL)).toEqual(before);
    expect(t.store.seq).toBe(seq);
  });

  test('NOW() and fresh blank nodes are journaled as values: the store reopens to the same quads', async () => {
    const r = await update(t.app, 'INSERT { GRAPH <http://x/t> { [] <http://x/at> ?now } } WHERE { BIND(NOW() AS ?now) }');
    expect(r.statusCode, r.body).toBe(204);
    const [at] = await rows(t.app, 'SELECT ?o WHERE { GRAPH <http://x/t> { ?s <http://x/at> ?o } }');
    const journal = await readFile(join(dir, (await readdir(dir)).find((f) => f.startsWith('journal-'))!), 'utf8');
    expect(journal).toContain('"kind":"delta"');
    expect(journal).not.toContain('NOW()');
    await t.close();
    await new Promise((res) => setTimeout(res, 50));
    t = await open(dir);
    expect(await rows(t.app, 'SELECT ?o WHERE { GRAPH <http://x/t> { ?s <http://x/at> ?o } }')).toEqual([at]);
  }, 60_000);
});

describe('an update past its time limit', () => {
  test('is stopped in its worker with 503 naming the limit; nothing is applied and the endpoint keeps answering', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-update-slow-'));
    const t = await open(dir, 1000);
    try {
      const lines = Array.from({ length: 2000 }, (_, i) => `<http://x/n${i}> <http://x/p> "${i}" .`).join('\n');
      await t.store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/bulk', data: lines });
      const seq = t.store.seq;
      let healthAnswers = 0;
      const slow = update(t.app, 'INSERT { GRAPH <http://x/out> { ?a <http://x/r> ?c } } WHERE { GRAPH ?x { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } }');
      // The main thread is free while the update runs: /health answers meanwhile.
      const probe = (async () => {
        for (let i = 0; i < 5; i++) {
          const h = await t.app.inject({ url: '/health' });
          if (h.statusCode === 200) healthAnswers++;
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const r = await slow;
      await probe;
      expect(r.statusCode).toBe(503);
      expect(JSON.parse(r.body)).toMatchObject({ error: 'timeout' });
      expect(JSON.parse(r.body).message).toContain('limits.sparql.updateTimeoutMs');
      expect(healthAnswers).toBe(5);
      expect(t.store.seq).toBe(seq);
      expect(t.store.rdf.graphSize('http://x/out')).toBe(0);
    } finally {
      await t.close();
    }
  }, 60_000);
});
