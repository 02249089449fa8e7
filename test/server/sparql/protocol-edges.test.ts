/** Fault 10: the protocol's answer in the corners the probing found. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeApp, seedKasei, type TestApp } from './helpers.ts';

let c: TestApp;
beforeAll(async () => {
  c = await makeApp();
  await seedKasei(c.store);
});
afterAll(async () => c?.close());

describe('protocol corners', () => {
  test('a query in both the URL and a form body is a 400, as for a sparql-query body', async () => {
    const form = await c.app.inject({ method: 'POST', url: '/sparql?query=ASK%20%7B%7D', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'query=SELECT%20*%20%7B%7D' });
    expect([form.statusCode, JSON.parse(form.body).error]).toEqual([400, 'repeated-parameter']);
    const direct = await c.app.inject({ method: 'POST', url: '/sparql?query=ASK%20%7B%7D', headers: { 'content-type': 'application/sparql-query' }, payload: 'SELECT * {}' });
    expect([direct.statusCode, JSON.parse(direct.body).error]).toEqual([400, 'repeated-parameter']);
  });

  test('default-graph-uri and named-graph-uri of a file: or remote IRI are refused like FROM', async () => {
    for (const p of ['default-graph-uri', 'named-graph-uri']) {
      const r = await c.app.inject({ url: `/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}&${p}=${encodeURIComponent('file:///etc/passwd')}` });
      expect([r.statusCode, JSON.parse(r.body).error], p).toEqual([403, 'remote-not-allowed']);
    }
    const from = await c.app.inject({ url: `/sparql?query=${encodeURIComponent('ASK FROM <file:///etc/passwd> { ?s ?p ?o }')}` });
    expect(from.statusCode).toBe(403);
    const local = await c.app.inject({ url: `/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}&default-graph-uri=${encodeURIComponent('http://kasei.us/2009/09/sparql/data/data1.rdf')}` });
    expect(local.statusCode).toBe(200);
  });

  test('a malformed q-value is ignored, not read as "not acceptable"', async () => {
    const r = await c.app.inject({ url: `/sparql?query=${encodeURIComponent('ASK {}')}`, headers: { accept: '*/*;q=abc' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/sparql-results\+json/);
  });

  test('a __proto__ key in an /ask body is named as such', async () => {
    const r = await c.app.inject({ method: 'POST', url: '/ask', headers: { 'content-type': 'application/json' }, payload: '{"question":"x","__proto__":{"a":1}}' });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/__proto__/);
  });
});
