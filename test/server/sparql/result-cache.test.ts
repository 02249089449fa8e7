/**
 * The per-write answer cache (sparql.resultCacheBytes): a repeated query is served without a
 * worker until the next write; nothing stale is ever served; answers that differ per evaluation
 * (NOW(), RAND(), …) are never kept; memory stays under the budget. Off by default.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ResultCache } from '../../../src/server/sparql/result-cache.ts';
import { KASEI, bindings, makeApp, seedKasei, select, type TestApp } from './helpers.ts';

const TITLES = `SELECT ?t WHERE { ?d <http://purl.org/dc/terms/title> ?t } ORDER BY ?t`;
const titles = (body: string) => bindings(body).map((b) => b.t!.value);

describe('result cache on', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await makeApp({ resultCacheBytes: 1 << 20 });
    await seedKasei(c.store);
  });
  afterAll(async () => {
    await c.close();
  });

  test('a repeated query is a hit with the same answer; a write makes it a miss that sees the write', async () => {
    const first = await select(c.app, TITLES);
    expect(first.statusCode).toBe(200);
    expect(first.headers['assay-cache']).toBeUndefined();
    const again = await select(c.app, TITLES);
    expect(again.headers['assay-cache']).toBe('hit');
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(String(again.headers.vary).split(/\s*,\s*/)).toContain('Accept');

    await c.store.apply({ kind: 'replaceGraph', graph: `${KASEI}data4.rdf`, data: `<${KASEI}data4.rdf> <http://purl.org/dc/terms/title> "Document 4" .`, format: 'text/turtle' });
    const after = await select(c.app, TITLES);
    expect(after.headers['assay-cache']).toBeUndefined();
    expect(titles(after.body)).toEqual(['Document 1', 'Document 2', 'Document 3', 'Document 4']);
    expect((await select(c.app, TITLES)).headers['assay-cache']).toBe('hit');
  });

  test('each Accept has its own entry', async () => {
    const xml = await select(c.app, TITLES, { accept: 'application/sparql-results+xml' });
    expect(xml.headers['content-type']).toContain('application/sparql-results+xml');
    expect(xml.headers['assay-cache']).toBeUndefined();
    const csv = await select(c.app, TITLES, { accept: 'text/csv' });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['assay-cache']).toBeUndefined();
    expect((await select(c.app, TITLES, { accept: 'text/csv' })).body).toBe(csv.body);
  });

  test.each([
    ['NOW()', 'SELECT (NOW() AS ?x) WHERE {}'],
    ['RAND()', 'SELECT (RAND() AS ?x) WHERE {}'],
    ['STRUUID()', 'SELECT (STRUUID() AS ?x) WHERE {}'],
    ['BNODE()', 'SELECT (BNODE() AS ?x) WHERE {}'],
    ['an extension function', 'SELECT ?t WHERE { ?d <http://purl.org/dc/terms/title> ?t FILTER(<http://example.org/fn>(?t)) }'],
  ])('a query using %s is evaluated every time', async (_name, query) => {
    const a = await select(c.app, query);
    const b = await select(c.app, query);
    expect(a.headers['assay-cache']).toBeUndefined();
    expect(b.headers['assay-cache']).toBeUndefined();
  });

  test('errors are not kept: a refused query is refused again by the worker', async () => {
    const q = 'SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }';
    const a = await select(c.app, q);
    const b = await select(c.app, q);
    expect([a.statusCode, b.statusCode]).toEqual([403, 403]);
    expect(b.headers['assay-cache']).toBeUndefined();
  });
});

test('off by default: no answer is remembered', async () => {
  const c = await makeApp();
  try {
    await seedKasei(c.store);
    await select(c.app, TITLES);
    expect((await select(c.app, TITLES)).headers['assay-cache']).toBeUndefined();
  } finally {
    await c.close();
  }
});

describe('ResultCache', () => {
  const answer = (seq: number, body: string) => ({ seq, contentType: 'text/csv', body, truncated: false });

  test('an entry is served only at the write it was computed at', () => {
    const cache = new ResultCache(1 << 16);
    cache.set('q', answer(3, 'a'));
    expect(cache.get('q', 3)?.body).toBe('a');
    expect(cache.get('q', 4)).toBeUndefined();
    expect(cache.get('q', 3)).toBeUndefined(); // the stale entry was dropped
  });

  test('memory stays under the budget, least recently used first out; large answers are not kept', () => {
    const cache = new ResultCache(10_000);
    for (let i = 0; i < 100; i++) {
      cache.set(`q${i}`, answer(1, 'x'.repeat(200)));
      if (i % 10 === 0) cache.get('q0', 1);
      expect(cache.stats.bytes).toBeLessThanOrEqual(10_000);
    }
    expect(cache.get('q0', 1)).toBeDefined();
    expect(cache.get('q1', 1)).toBeUndefined();
    expect(cache.get('q99', 1)).toBeDefined();
    cache.set('big', answer(1, 'y'.repeat(1000)));
    expect(cache.get('big', 1)).toBeUndefined();
    cache.clear();
    expect(cache.stats).toMatchObject({ entries: 0, bytes: 0 });
  });
});
