/**
 * The per-write answer cache (sparql.resultCacheBytes, on by default): a query asked again is
 * kept on its second ask and served without a worker until the next write; a query asked once
 * stores nothing; nothing stale is ever served (every write path: result-cache-writes.test.ts);
 * answers that differ per evaluation (NOW(), RAND(), …) are never kept; memory stays under the
 * budget.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ResultCache } from '../../../src/server/sparql/result-cache.ts';
import { KASEI, bindings, makeApp, seedKasei, select, type TestApp } from './helpers.ts';

const TITLES = `SELECT ?t WHERE { ?d <http://purl.org/dc/terms/title> ?t } ORDER BY ?t`;
const titles = (body: string) => bindings(body).map((b) => b.t!.value);

/** Ask until the answer is kept: the first ask records the key, the second keeps its answer. */
async function twice(app: TestApp['app'], query: string, headers: Record<string, string> = {}) {
  const first = await select(app, query, headers);
  const second = await select(app, query, headers);
  expect([first.headers['assay-cache'], second.headers['assay-cache']]).toEqual([undefined, undefined]);
  expect(second.body).toBe(first.body);
  return second;
}

describe('result cache, default configuration', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await makeApp();
    await seedKasei(c.store);
  });
  afterAll(async () => {
    await c.close();
  });

  test('a query asked again is a hit from its third ask, with the same answer; a write makes it a miss that sees the write', async () => {
    const first = await twice(c.app, TITLES);
    expect(first.statusCode).toBe(200);
    const again = await select(c.app, TITLES);
    expect(again.headers['assay-cache']).toBe('hit');
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(String(again.headers.vary).split(/\s*,\s*/)).toContain('Accept');

    await c.store.apply({ kind: 'replaceGraph', graph: `${KASEI}data4.rdf`, data: `<${KASEI}data4.rdf> <http://purl.org/dc/terms/title> "Document 4" .`, format: 'text/turtle' });
    const after = await select(c.app, TITLES);
    expect(after.headers['assay-cache']).toBeUndefined();
    expect(titles(after.body)).toEqual(['Document 1', 'Document 2', 'Document 3', 'Document 4']);
    // Asked before the write: kept again on its first ask after it.
    expect((await select(c.app, TITLES)).headers['assay-cache']).toBe('hit');
  });

  test('a query asked once stores nothing: its second ask is evaluated again', async () => {
    const q = 'SELECT ?d WHERE { ?d <http://purl.org/dc/terms/title> "Document 2" }';
    await twice(c.app, q);
    expect((await select(c.app, q)).headers['assay-cache']).toBe('hit');
  });

  test('each Accept has its own entry, with its own Content-Type', async () => {
    const xml = await twice(c.app, TITLES, { accept: 'application/sparql-results+xml' });
    expect(xml.headers['content-type']).toContain('application/sparql-results+xml');
    const csv = await twice(c.app, TITLES, { accept: 'text/csv' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const hit = await select(c.app, TITLES, { accept: 'text/csv' });
    expect([hit.headers['assay-cache'], hit.headers['content-type'], hit.body]).toEqual(['hit', 'text/csv; charset=utf-8', csv.body]);
    expect((await select(c.app, TITLES, { accept: 'application/sparql-results+xml' })).body).toBe(xml.body);
  });

  test('a truncated answer keeps its Assay-Truncated header on a hit', async () => {
    const t = await makeApp({ maxRows: 2 });
    try {
      await seedKasei(t.store);
      const cut = await twice(t.app, TITLES);
      expect(cut.headers['assay-truncated']).toBe('true');
      const hit = await select(t.app, TITLES);
      expect([hit.headers['assay-cache'], hit.headers['assay-truncated'], hit.body]).toEqual(['hit', 'true', cut.body]);
    } finally {
      await t.close();
    }
  });

  test('a hit is still rate-limited', async () => {
    const t = await makeApp({}, { limits: { rateLimit: { sparqlPerMinute: 3 } } });
    try {
      await seedKasei(t.store);
      await twice(t.app, TITLES);
      expect((await select(t.app, TITLES)).headers['assay-cache']).toBe('hit');
      const over = await select(t.app, TITLES);
      expect([over.statusCode, over.json().error]).toEqual([429, 'rate-limited']);
      expect(over.headers['retry-after']).toBeDefined();
    } finally {
      await t.close();
    }
  });

  test.each([
    ['NOW()', 'SELECT (NOW() AS ?x) WHERE {}'],
    ['RAND()', 'SELECT (RAND() AS ?x) WHERE {}'],
    ['STRUUID()', 'SELECT (STRUUID() AS ?x) WHERE {}'],
    ['BNODE()', 'SELECT (BNODE() AS ?x) WHERE {}'],
    ['an extension function', 'SELECT ?t WHERE { ?d <http://purl.org/dc/terms/title> ?t FILTER(<http://example.org/fn>(?t)) }'],
  ])('a query using %s is evaluated every time', async (_name, query) => {
    for (let i = 0; i < 3; i++) expect((await select(c.app, query)).headers['assay-cache']).toBeUndefined();
  });

  test('errors are not kept: a refused query is refused again by the worker', async () => {
    const q = 'SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }';
    const answers = [await select(c.app, q), await select(c.app, q), await select(c.app, q)];
    expect(answers.map((r) => r.statusCode)).toEqual([403, 403, 403]);
    expect(answers.map((r) => r.headers['assay-cache'])).toEqual([undefined, undefined, undefined]);
  });
});

test('off with sparql.resultCacheBytes = 0: no answer is remembered', async () => {
  const c = await makeApp({ resultCacheBytes: 0 });
  try {
    await seedKasei(c.store);
    for (let i = 0; i < 3; i++) expect((await select(c.app, TITLES)).headers['assay-cache']).toBeUndefined();
  } finally {
    await c.close();
  }
});

describe('ResultCache', () => {
  const answer = (seq: number, body: string) => ({ seq, contentType: 'text/csv', body: Buffer.from(body), truncated: false });

  test('an entry is served only at the write it was computed at', () => {
    const cache = new ResultCache(1 << 16);
    cache.set('q', answer(3, 'a'));
    expect(cache.get('q', 3)?.body.toString()).toBe('a');
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
    cache.set('big', answer(1, 'y'.repeat(1300)));
    expect(cache.get('big', 1)).toBeUndefined();
    cache.clear();
    expect(cache.stats).toMatchObject({ entries: 0, bytes: 0 });
  });

  test('admission: a key is admitted on its second ask; keys asked once stay within a sixteenth of the budget, oldest forgotten first', () => {
    const cache = new ResultCache(1 << 20);
    expect(cache.admit('a')).toBe(false);
    expect(cache.admit('a')).toBe(true);
    expect(cache.admit('a')).toBe(true);
    for (let i = 0; i < 20_000; i++) {
      cache.admit(`distinct query number ${i}`);
      expect(cache.stats.seenBytes).toBeLessThanOrEqual((1 << 20) / 16);
    }
    expect(cache.stats.entries).toBe(0);
    expect(cache.admit('distinct query number 0')).toBe(false); // forgotten
    expect(cache.admit('distinct query number 19999')).toBe(true);
    cache.clear(); // a write forgets answers, not which keys were asked
    expect(cache.admit('distinct query number 19999')).toBe(true);
    expect(cache.admit('x'.repeat(1 << 20))).toBe(false); // a key larger than the set's budget is never recorded
    expect(cache.admit('x'.repeat(1 << 20))).toBe(false);
  });
});
