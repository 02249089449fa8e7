/**
 * /sparql beyond the W3C manifest: content negotiation, the service description, CORS,
 * size limits, update authorization, row-cap truncation, remote-access refusal, and write
 * forwarding to the query replicas.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Parser as N3Parser } from 'n3';
import { KASEI, TOKEN, bindings, canary, makeApp, seedKasei, select, type TestApp } from './helpers.ts';
import { maxNesting } from '../../../src/server/sparql/precheck.ts';
import { negotiate, SELECT_OFFERS } from '../../../src/server/sparql/negotiate.ts';
import { SPARQL_ERRORS } from '../../../src/server/sparql/errors.ts';

const ctype = (h: unknown) => String(h ?? '').split(';')[0]!.trim();
const ALL = 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }';

describe('/sparql', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await makeApp({ maxRows: 4, maxQueryBytes: 4096, maxNesting: 8, maxBodyBytes: 8192, maxUrlBytes: 2048, allowedRemoteHosts: ['allowed.example'] });
    await seedKasei(c.store);
  });
  afterAll(async () => {
    await c.close();
  });

  test.each([
    ['application/sparql-results+json', 'application/sparql-results+json'],
    ['application/sparql-results+xml', 'application/sparql-results+xml'],
    ['text/csv', 'text/csv'],
    ['text/tab-separated-values', 'text/tab-separated-values'],
    ['text/csv;q=0.5, application/sparql-results+xml;q=0.9', 'application/sparql-results+xml'],
    ['*/*', 'application/sparql-results+json'],
    ['text/*', 'text/csv'],
    ['application/json', 'application/sparql-results+json'],
  ])('SELECT with Accept %s answers %s', async (accept, expected) => {
    const r = await select(c.app, `SELECT ?t WHERE { <${KASEI}data1.rdf> <http://purl.org/dc/terms/title> ?t }`, { accept });
    expect(r.statusCode).toBe(200);
    expect(ctype(r.headers['content-type'])).toBe(expected);
    expect(r.body).toContain('Document 1');
  });

  test.each([
    ['text/turtle', 'text/turtle'],
    ['application/n-triples', 'application/n-triples'],
    ['application/n-quads', 'application/n-quads'],
    ['application/ld+json', 'application/ld+json'],
    ['application/rdf+xml', 'application/rdf+xml'],
  ])('CONSTRUCT with Accept %s answers %s', async (accept, expected) => {
    const r = await select(c.app, `CONSTRUCT WHERE { <${KASEI}data1.rdf> ?p ?o }`, { accept });
    expect(r.statusCode).toBe(200);
    expect(ctype(r.headers['content-type'])).toBe(expected);
    if (expected !== 'application/ld+json' && expected !== 'application/rdf+xml') {
      expect(new N3Parser({ format: expected }).parse(r.body)).toHaveLength(2);
    }
  });

  test('406 when nothing acceptable, naming what is offered', async () => {
    const r = await select(c.app, 'ASK {}', { accept: 'text/csv' });
    expect(r.statusCode).toBe(406);
    expect(JSON.parse(r.body).message).toContain('application/sparql-results+json');
    expect((await select(c.app, ALL, { accept: 'image/png, application/sparql-results+json;q=0' })).statusCode).toBe(406);
  });

  test('negotiation honours q-values and server order on ties', () => {
    expect(negotiate('text/csv;q=0.1, text/tab-separated-values;q=0.2', SELECT_OFFERS)?.mediaType).toBe('text/tab-separated-values');
    expect(negotiate('text/csv, application/sparql-results+xml', SELECT_OFFERS)?.mediaType).toBe('application/sparql-results+xml');
    expect(negotiate(undefined, SELECT_OFFERS)?.mediaType).toBe('application/sparql-results+json');
  });

  test('GET without a query is a service description with the union default graph', async () => {
    const r = await c.app.inject({ method: 'GET', url: '/sparql' });
    expect(r.statusCode).toBe(200);
    expect(ctype(r.headers['content-type'])).toBe('text/turtle');
    const quads = new N3Parser().parse(r.body);
    const SD = 'http://www.w3.org/ns/sparql-service-description#';
    const has = (p: string, o: string) => quads.some((q) => q.predicate.value === SD + p && q.object.value === o);
    expect(has('endpoint', 'http://assay.test/sparql')).toBe(true);
    expect(has('feature', `${SD}UnionDefaultGraph`)).toBe(true);
    expect(has('supportedLanguage', `${SD}SPARQL11Query`)).toBe(true);
    expect(has('supportedLanguage', `${SD}SPARQL11Update`)).toBe(true);
    expect(has('resultFormat', 'http://www.w3.org/ns/formats/SPARQL_Results_CSV')).toBe(true);
    const nt = await c.app.inject({ method: 'GET', url: '/sparql', headers: { accept: 'application/n-triples' } });
    expect(ctype(nt.headers['content-type'])).toBe('application/n-triples');
  });

  test('the default graph is the union of the named graphs', async () => {
    const r = await select(c.app, 'SELECT ?t WHERE { ?d <http://purl.org/dc/terms/title> ?t } ORDER BY ?t');
    expect(bindings(r.body).map((b) => b.t!.value)).toEqual(['Document 1', 'Document 2', 'Document 3']);
  });

  test('CORS preflight for /sparql allows any origin without credentials', async () => {
    const r = await c.app.inject({ method: 'OPTIONS', url: '/sparql', headers: { origin: 'https://client.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(r.statusCode).toBeLessThan(300);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
    const g = await select(c.app, 'ASK {}', { origin: 'https://client.example' });
    expect(g.headers['access-control-allow-origin']).toBe('*');
  });

  test('size and depth limits: 400 before parsing, 413 body, 414 URL', async () => {
    const big = await c.app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-query' }, payload: `ASK { FILTER("${'x'.repeat(5000)}") }` });
    expect([big.statusCode, JSON.parse(big.body).error]).toEqual([400, 'query-too-large']);
    const deep = await select(c.app, `ASK { ${'{ '.repeat(9)}${'} '.repeat(9)}}`);
    expect([deep.statusCode, JSON.parse(deep.body).error]).toEqual([400, 'too-deeply-nested']);
    const ok = await select(c.app, `ASK { ${'{ '.repeat(6)}${'} '.repeat(6)}}`);
    expect(ok.statusCode).toBe(200);
    const body = await c.app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-query' }, payload: 'x'.repeat(9000) });
    expect(body.statusCode).toBe(413);
    const url = await c.app.inject({ method: 'GET', url: `/sparql?query=${'a'.repeat(3000)}` });
    expect(url.statusCode).toBe(414);
  });

  test('the nesting scan ignores brackets in strings, IRIs and comments', () => {
    expect(maxNesting('ASK { FILTER("((((") } # {{{{\n')).toBe(2);
    expect(maxNesting("SELECT * { <http://x/(((> ?p '''[[[''' }")).toBe(1);
    expect(maxNesting('SELECT * { FILTER(?a < ?b && ((?c))) }')).toBe(4);
  });

  test('updates: 401 without or with a wrong token, applied and visible with it', async () => {
    const post = (headers: Record<string, string>) => c.app.inject({
      method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', ...headers },
      payload: 'INSERT DATA { GRAPH <http://assay.test/graph/t> { <http://assay.test/x> <http://assay.test/p> "fresh" } }',
    });
    const none = await post({});
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toContain('Bearer');
    expect((await post({ authorization: 'Bearer wrong-token-wrong-token-00' })).statusCode).toBe(401);
    expect((await post({ authorization: `Bearer ${TOKEN}` })).statusCode).toBe(204);
    // Both replicas received the acknowledged write (two concurrent reads land on both workers).
    const reads = await Promise.all([1, 2, 3, 4].map(() => select(c.app, 'SELECT ?o WHERE { <http://assay.test/x> ?p ?o }')));
    for (const r of reads) expect(bindings(r.body).map((b) => b.o!.value)).toEqual(['fresh']);
  });

  test('a result cut at maxRows is flagged truncated; one within it is not', async () => {
    for (let i = 0; i < 10; i++) {
      await c.store.apply({ kind: 'load', data: `<http://assay.test/r${i}> <http://assay.test/v> ${i} .`, format: 'text/turtle', graph: 'http://assay.test/graph/rows' });
    }
    const q = 'SELECT ?s WHERE { ?s <http://assay.test/v> ?v }';
    const cut = await select(c.app, q);
    expect(cut.headers['assay-truncated']).toBe('true');
    const json = JSON.parse(cut.body);
    expect(json.truncated).toBe(true);
    expect(json.results.bindings).toHaveLength(4);
    expect(json.head.link).toContain('https://w3id.org/assay/ns#truncated');
    const xml = await select(c.app, q, { accept: 'application/sparql-results+xml' });
    expect(xml.headers['assay-truncated']).toBe('true');
    expect(xml.body).toContain('<link href="https://w3id.org/assay/ns#truncated"/>');
    const within = await select(c.app, `${q} LIMIT 3`);
    expect(within.headers['assay-truncated']).toBeUndefined();
    expect(bindings(within.body)).toHaveLength(3);
    const exact = await select(c.app, `${q} LIMIT 4 OFFSET 6`);
    expect(exact.headers['assay-truncated']).toBeUndefined();
    const construct = await select(c.app, 'CONSTRUCT WHERE { ?s <http://assay.test/v> ?v }', { accept: 'application/n-triples' });
    expect(construct.headers['assay-truncated']).toBe('true');
    expect(new N3Parser({ format: 'N-Triples' }).parse(construct.body)).toHaveLength(4);
    // One triple per solution for 10 solutions: the triple count (1) cannot show the cut, the probe does.
    const collapsed = await select(c.app, 'CONSTRUCT { <http://assay.test/a> <http://assay.test/b> <http://assay.test/c> } WHERE { ?s <http://assay.test/v> ?v }');
    expect(collapsed.headers['assay-truncated']).toBe('true');
    const small = await select(c.app, `CONSTRUCT WHERE { <${KASEI}data1.rdf> ?p ?o }`);
    expect(small.headers['assay-truncated']).toBeUndefined();
  });

  test.each([
    ['SERVICE', 'SELECT * WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }', 403],
    ['SERVICE with a variable', 'SELECT * WHERE { SERVICE ?x { ?s ?p ?o } }', 403],
    ['SERVICE in a sub-query', 'SELECT * WHERE { { SELECT ?s WHERE { SERVICE <http://169.254.169.254/> { ?s ?p ?o } } } }', 403],
    ['SERVICE inside FILTER EXISTS', 'ASK { ?s ?p ?o FILTER EXISTS { SERVICE <http://evil.example/> { ?s ?p ?o } } }', 403],
    ['FROM a remote graph', 'SELECT * FROM <http://evil.example/data.ttl> WHERE { ?s ?p ?o }', 403],
    ['SERVICE to an allowed host', 'SELECT * WHERE { SERVICE <http://allowed.example/sparql> { ?s ?p ?o } }', 501],
  ])('refuses %s', async (_name, query, status) => {
    const r = await select(c.app, query);
    expect(r.statusCode, r.body).toBe(status);
  });

  test('a keyword in a string or IRI is not mistaken for SERVICE', async () => {
    const r = await select(c.app, 'SELECT ?x WHERE { BIND("SERVICE <http://evil.example/>" AS ?x) }');
    expect(r.statusCode).toBe(200);
    expect(bindings(r.body)[0]!.x!.value).toContain('SERVICE');
  });

  test('FROM a local graph is allowed', async () => {
    const r = await select(c.app, `SELECT ?t FROM <${KASEI}data2.rdf> WHERE { ?d <http://purl.org/dc/terms/title> ?t }`);
    expect(bindings(r.body).map((b) => b.t!.value)).toEqual(['Document 2']);
  });

  test('LOAD is refused even with the update token', async () => {
    const r = await c.app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: 'LOAD <http://169.254.169.254/latest/meta-data>' });
    expect([r.statusCode, JSON.parse(r.body).error]).toEqual([403, 'remote-not-allowed']);
  });

  test('an update sent as a query, and a query sent as an update, are 400', async () => {
    expect((await select(c.app, 'CLEAR ALL')).statusCode).toBe(400);
    const r = await c.app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: 'ASK {}' });
    expect(r.statusCode).toBe(400);
    expect(await canary(c.app)).toEqual(['Document 1']);
  });

  test('bad percent-encoding is a 400, not a mangled query', async () => {
    const r = await c.app.inject({ method: 'GET', url: '/sparql?query=ASK%20%7B%7D%E0%A4' });
    expect([r.statusCode, JSON.parse(r.body).error]).toEqual([400, 'bad-encoding']);
  });

  test('every error code in the catalogue has a status and a fix', () => {
    for (const [code, e] of Object.entries(SPARQL_ERRORS)) {
      expect(e.fix.length, code).toBeGreaterThan(20);
      expect([400, 401, 403, 405, 406, 413, 414, 415, 429, 501, 503, 507]).toContain(e.status);
    }
  });
});

describe('/sparql with updates disabled', () => {
  test('updates are refused with 403 and the service description omits SPARQL Update', async () => {
    const c = await makeApp({ updateToken: undefined });
    try {
      const r = await c.app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: 'CLEAR ALL' });
      expect([r.statusCode, JSON.parse(r.body).error]).toEqual([403, 'updates-disabled']);
      const sd = await c.app.inject({ method: 'GET', url: '/sparql' });
      expect(sd.body).not.toContain('SPARQL11Update');
    } finally {
      await c.close();
    }
  });
});
