/**
 * The W3C SPARQL 1.1 Protocol tests, driven by the vendored manifest's case list
 * (fixtures/w3c-protocol/manifest.ttl). Every entry is implemented in CASES and runs; a test
 * fails if the manifest and CASES disagree (none is skipped).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { Parser as N3Parser, type Quad, type Term } from 'n3';
import type { LightMyRequestResponse } from 'fastify';
import { KASEI, TOKEN, askResult, bindings, makeApp, seedKasei, type TestApp } from './helpers.ts';

const MANIFEST = new URL('../../../fixtures/w3c-protocol/manifest.ttl', import.meta.url);
const NS = 'http://www.w3.org/2009/sparql/docs/tests/data-sparql11/protocol/manifest#';
const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

function manifestEntries(): string[] {
  const quads: Quad[] = new N3Parser({ baseIRI: MANIFEST.href }).parse(readFileSync(MANIFEST, 'utf8'));
  const objectOf = (s: Term, p: string) => quads.find((q) => q.subject.equals(s) && q.predicate.value === p)?.object;
  let node = quads.find((q) => q.predicate.value === `${MF}entries`)?.object;
  const out: string[] = [];
  while (node && node.value !== `${RDF}nil`) {
    out.push(objectOf(node, `${RDF}first`)!.value);
    node = objectOf(node, `${RDF}rest`);
  }
  return out;
}


const RESULTS = ['application/sparql-results+json', 'application/sparql-results+xml'];
const ctype = (r: LightMyRequestResponse) => String(r.headers['content-type'] ?? '').split(';')[0]!.trim();
const auth = { authorization: `Bearer ${TOKEN}` };
const enc = encodeURIComponent;
const d = (n: number) => enc(`${KASEI}data${n}.rdf`);

type Ctx = TestApp;

function expectAsk(r: LightMyRequestResponse, expected: boolean): void {
  expect(r.statusCode, r.body).toBeGreaterThanOrEqual(200);
  expect(r.statusCode).toBeLessThan(400);
  expect(RESULTS).toContain(ctype(r));
  expect(askResult(r.body, ctype(r))).toBe(expected);
}

function expect4xx(r: LightMyRequestResponse, status: number): void {
  expect(r.statusCode, r.body).toBe(status);
  expect((JSON.parse(r.body) as { fix: string }).fix.length).toBeGreaterThan(0);
}

async function update(c: Ctx, url: string, body: string) {
  const r = await c.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/sparql-update', ...auth }, payload: body });
  expect(r.statusCode, r.body).toBe(204);
}

async function askXml(c: Ctx, query: string) {
  const r = await c.app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+xml' }, payload: query });
  expect(ctype(r)).toBe('application/sparql-results+xml');
  return askResult(r.body, ctype(r));
}

const PRE = 'PREFIX dc: <http://purl.org/dc/terms/>\nPREFIX foaf: <http://xmlns.com/foaf/0.1/>\nCLEAR ALL ;\nINSERT DATA {\n';
const ALL3 = [1, 2, 3].map((n) => `GRAPH <${KASEI}data${n}.rdf> { <${KASEI}data${n}.rdf> a foaf:Document }`).join('\n') + '\n} ;\n';
const askGraphs = (g: string) => `ASK {
  GRAPH <${g}> { <${KASEI}data1.rdf> a <http://purl.org/dc/terms/BibliographicResource> . <${KASEI}data2.rdf> a <http://purl.org/dc/terms/BibliographicResource> . }
  FILTER NOT EXISTS { GRAPH <${g}> { <${KASEI}data3.rdf> a <http://purl.org/dc/terms/BibliographicResource> . } } }`;

const CASES: Record<string, (c: Ctx) => Promise<void>> = {
  query_post_form: async (c) => {
    expectAsk(await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'query=ASK%20%7B%7D' }), true);
  },
  query_dataset_default_graphs_get: async (c) => {
    const q = enc(`ASK { <${KASEI}data1.rdf> a ?type . <${KASEI}data2.rdf> a ?type . }`);
    expectAsk(await c.app.inject({ method: 'GET', url: `/sparql?query=${q}&default-graph-uri=${d(1)}&default-graph-uri=${d(2)}` }), true);
  },
  query_dataset_default_graphs_post: async (c) => {
    expectAsk(await c.app.inject({
      method: 'POST', url: `/sparql/?default-graph-uri=${d(1)}&default-graph-uri=${d(2)}`, headers: { 'content-type': 'application/sparql-query' },
      payload: `ASK { <${KASEI}data1.rdf> ?p ?o . <${KASEI}data2.rdf> ?p ?o }`,
    }), true);
  },
  query_dataset_named_graphs_post: async (c) => {
    expectAsk(await c.app.inject({
      method: 'POST', url: `/sparql/?named-graph-uri=${d(1)}&named-graph-uri=${d(2)}`, headers: { 'content-type': 'application/sparql-query' },
      payload: 'ASK { GRAPH ?g { ?s ?p ?o } }',
    }), true);
  },
  query_dataset_named_graphs_get: async (c) => {
    expectAsk(await c.app.inject({ method: 'GET', url: `/sparql/?named-graph-uri=${d(1)}&named-graph-uri=${d(2)}&query=${enc('ASK { GRAPH ?g { ?s ?p ?o } }')}` }), true);
  },
  query_dataset_full: async (c) => {
    const r = await c.app.inject({
      method: 'POST', url: `/sparql/?default-graph-uri=${d(3)}&named-graph-uri=${d(1)}&named-graph-uri=${d(2)}`,
      headers: { 'content-type': 'application/sparql-query' }, payload: 'SELECT ?g ?x ?s { ?x ?y ?o  GRAPH ?g { ?s ?p ?o } }',
    });
    expect(r.statusCode).toBe(200);
    const rows = bindings(r.body);
    // ?x comes only from the default graph (data3); ?g only from the named graphs (data1, data2).
    expect(new Set(rows.map((b) => b.x!.value))).toEqual(new Set([`${KASEI}data3.rdf`]));
    expect(new Set(rows.map((b) => b.g!.value))).toEqual(new Set([`${KASEI}data1.rdf`, `${KASEI}data2.rdf`]));
  },
  query_multiple_dataset: async (c) => {
    expectAsk(await c.app.inject({
      method: 'POST', url: `/sparql/?default-graph-uri=${d(2)}`, headers: { 'content-type': 'application/sparql-query' },
      payload: `ASK FROM <${KASEI}data1.rdf> { <${KASEI}data1.rdf> ?p ?o }`,
    }), false);
  },
  query_get: async (c) => {
    expectAsk(await c.app.inject({ method: 'GET', url: '/sparql?query=ASK%20%7B%7D' }), true);
  },
  query_content_type_select: async (c) => {
    const r = await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/sparql-query' }, payload: 'SELECT (1 AS ?value) {}' });
    expect(r.statusCode).toBe(200);
    expect([...RESULTS, 'text/tab-separated-values', 'text/csv']).toContain(ctype(r));
    expect(bindings(r.body)[0]!.value!.value).toBe('1');
  },
  query_content_type_ask: async (c) => {
    const r = await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/sparql-query' }, payload: 'ASK {}' });
    expectAsk(r, true);
  },
  query_content_type_describe: async (c) => {
    const r = await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/sparql-query' }, payload: 'DESCRIBE <http://example.org/>' });
    expect(r.statusCode).toBe(200);
    expect(['application/rdf+xml', 'text/turtle']).toContain(ctype(r));
    new N3Parser().parse(r.body);
  },
  query_content_type_construct: async (c) => {
    const r = await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/sparql-query' }, payload: 'CONSTRUCT { <s> <p> 1 } WHERE {}' });
    expect(r.statusCode).toBe(200);
    expect(['application/rdf+xml', 'text/turtle']).toContain(ctype(r));
    const quads = new N3Parser().parse(r.body);
    expect(quads).toHaveLength(1);
    // Relative IRIs resolve against the endpoint's own URL (the service-defined base).
    expect(quads[0]!.subject.value).toBe('http://assay.test/s');
  },
  update_dataset_default_graph: async (c) => {
    await update(c, `/sparql?using-graph-uri=${d(1)}`, `${PRE}GRAPH <${KASEI}data1.rdf> { <${KASEI}data1.rdf> a foaf:Document } } ;
INSERT { GRAPH <http://example.org/protocol-update-dataset-test/> { ?s a dc:BibliographicResource } } WHERE { ?s a foaf:Document }`);
    expect(await askXml(c, `ASK { GRAPH <http://example.org/protocol-update-dataset-test/> { <${KASEI}data1.rdf> a <http://purl.org/dc/terms/BibliographicResource> } }`)).toBe(true);
  },
  update_dataset_default_graphs: async (c) => {
    const g = 'http://example.org/protocol-update-dataset-graphs-test/';
    await update(c, `/sparql?using-graph-uri=${d(1)}&using-graph-uri=${d(2)}`, `${PRE}${ALL3}INSERT { GRAPH <${g}> { ?s a dc:BibliographicResource } } WHERE { ?s a foaf:Document }`);
    expect(await askXml(c, askGraphs(g))).toBe(true);
  },
  update_dataset_named_graphs: async (c) => {
    const g = 'http://example.org/protocol-update-dataset-named-graphs-test/';
    await update(c, `/sparql?using-named-graph-uri=${d(1)}&using-named-graph-uri=${d(2)}`, `${PRE}${ALL3}INSERT { GRAPH <${g}> { ?s a dc:BibliographicResource } } WHERE { GRAPH ?g { ?s a foaf:Document } }`);
    expect(await askXml(c, askGraphs(g))).toBe(true);
  },
  update_dataset_full: async (c) => {
    const g = 'http://example.org/protocol-update-dataset-full-test/';
    await update(c, `/sparql?using-graph-uri=${d(1)}&using-named-graph-uri=${d(2)}`, `${PRE}${ALL3}INSERT { GRAPH <${g}> { ?s <http://example.org/in> ?in } }
WHERE { { GRAPH ?g { ?s a foaf:Document } BIND(?g AS ?in) } UNION { ?s a foaf:Document . BIND("default" AS ?in) } }`);
    expect(await askXml(c, `ASK {
  GRAPH <${g}> { <${KASEI}data1.rdf> <http://example.org/in> "default" . <${KASEI}data2.rdf> <http://example.org/in> <${KASEI}data2.rdf> . }
  FILTER NOT EXISTS { GRAPH <${g}> { <${KASEI}data3.rdf> ?p ?o } } }`)).toBe(true);
  },
  update_post_form: async (c) => {
    const r = await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth }, payload: 'update=CLEAR%20ALL' });
    expect(r.statusCode).toBe(204);
    expect(c.store.rdf.size).toBe(0);
  },
  update_post_direct: async (c) => {
    await update(c, '/sparql/', 'CLEAR ALL');
    expect(c.store.rdf.size).toBe(0);
  },
  update_base_uri: async (c) => {
    await update(c, '/sparql/', 'CLEAR GRAPH <http://example.org/protocol-base-test/> ;\nINSERT DATA { GRAPH <http://example.org/protocol-base-test/> { <http://example.org/s> <http://example.org/p> <test> } }');
    const r = await c.app.inject({
      method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+xml' },
      payload: 'SELECT ?o WHERE { GRAPH <http://example.org/protocol-base-test/> { <http://example.org/s> <http://example.org/p> ?o } }',
    });
    expect(ctype(r)).toBe('application/sparql-results+xml');
    const uris = [...r.body.matchAll(/<uri>([^<]*)<\/uri>/g)].map((m) => m[1]);
    expect(uris).toEqual(['http://assay.test/test']);
  },
  query_post_direct: async (c) => {
    expectAsk(await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/sparql-query' }, payload: 'ASK {}' }), true);
  },
  bad_query_method: async (c) => {
    const r = await c.app.inject({ method: 'PUT', url: '/sparql?query=ASK%20%7B%7D' });
    expect4xx(r, 405);
    expect(r.headers.allow).toContain('POST');
  },
  bad_multiple_queries: async (c) => {
    expect4xx(await c.app.inject({ method: 'GET', url: '/sparql?query=ASK%20%7B%7D&query=SELECT%20%2A%20%7B%7D' }), 400);
  },
  bad_query_wrong_media_type: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'text/plain' }, payload: 'ASK {}' }), 415);
  },
  bad_query_missing_form_type: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', payload: 'query=ASK%20%7B%7D' }), 415);
  },
  bad_query_missing_direct_type: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', payload: 'ASK {}' }), 415);
  },
  bad_query_non_utf8: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/sparql-query; charset=UTF-16' }, payload: Buffer.from('ASK {}', 'utf16le') }), 415);
  },
  bad_query_syntax: async (c) => {
    const r = await c.app.inject({ method: 'GET', url: '/sparql?query=ASK%20%7B' });
    expect4xx(r, 400);
    expect(JSON.parse(r.body).message).toMatch(/syntax error.*line 1/is);
  },
  bad_update_get: async (c) => {
    expect4xx(await c.app.inject({ method: 'GET', url: '/sparql?update=CLEAR%20ALL', headers: auth }), 405);
  },
  bad_multiple_updates: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth }, payload: 'update=CLEAR%20NAMED&update=CLEAR%20DEFAULT' }), 400);
  },
  bad_update_wrong_media_type: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'text/plain', ...auth }, payload: 'CLEAR NAMED' }), 415);
  },
  bad_update_missing_form_type: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', headers: auth, payload: 'update=CLEAR%20NAMED' }), 415);
  },
  bad_update_non_utf8: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/sparql-update; charset=UTF-16', ...auth }, payload: Buffer.from('CLEAR NAMED', 'utf16le') }), 415);
  },
  bad_update_syntax: async (c) => {
    expect4xx(await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth }, payload: 'update=CLEAR%20XYZ' }), 400);
  },
  bad_update_dataset_conflict: async (c) => {
    const payload = 'using-named-graph-uri=http%3A%2F%2Fexample%2Fpeople&update=%09%09PREFIX%20foaf%3A%20%20%3Chttp%3A%2F%2Fxmlns.com%2Ffoaf%2F0.1%2F%3E%0A%09%09WITH%20%3Chttp%3A%2F%2Fexample%2Faddresses%3E%0A%09%09DELETE%20%7B%20%3Fperson%20foaf%3AgivenName%20%27Bill%27%20%7D%0A%09%09INSERT%20%7B%20%3Fperson%20foaf%3AgivenName%20%27William%27%20%7D%0A%09%09WHERE%20%7B%0A%09%09%09%3Fperson%20foaf%3AgivenName%20%27Bill%27%0A%09%09%7D%0A';
    const r = await c.app.inject({ method: 'POST', url: '/sparql/', headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth }, payload });
    expect4xx(r, 400);
    expect(JSON.parse(r.body).error).toBe('dataset-conflict');
  },
};

describe('W3C SPARQL 1.1 Protocol manifest', () => {
  const entries = manifestEntries();
  let c: Ctx;
  beforeAll(async () => {
    c = await makeApp();
  });
  afterAll(async () => {
    await c.close();
  });
  beforeEach(async () => {
    await seedKasei(c.store);
  });

  test('every manifest entry is implemented, and nothing else is', () => {
    expect(entries.length).toBe(34);
    expect(Object.keys(CASES).map((k) => NS + k).sort()).toEqual([...entries].sort());
  });

  for (const iri of entries) {
    const name = iri.slice(NS.length);
    const run = CASES[name];
    if (run) test(name, () => run(c));
  }
});
