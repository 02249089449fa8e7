/**
 * `/sparql`, VoID, the schema card and /health of a gateway whose store is remote: the same
 * protections as over the embedded store (row cap, read-only unless authorized, SERVICE and
 * remote FROM refused, a time limit), standard results whatever the engine's dialect. The time
 * limit is shown against a loopback "store" that never answers, so no engine is left computing.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/server/app.ts';
import { loadConfig } from '../../src/config.ts';
import { RemoteStore } from '../../src/rdf/remote.ts';
import { storeConfig } from '../../src/config.ts';
import { startVirtuoso, uniqueBase, virtuosoUnavailable, type Virtuoso } from './helpers/virtuoso.ts';

const TOKEN = 'remote-endpoint-token-0123456789';
const why = await virtuosoUnavailable();

const rows = (body: string) => (JSON.parse(body) as { results: { bindings: Record<string, { type: string; value: string; datatype?: string }>[] } }).results.bindings;

describe.skipIf(why !== undefined)('the endpoint over a remote store (Virtuoso)', () => {
  let vt: Virtuoso;
  let base: string;
  let store: RemoteStore;
  let app: FastifyInstance;
  const g = (name: string) => `${base}graph/${name}`;
  const get = (query: string, accept = 'application/sparql-results+json') =>
    app.inject({ method: 'GET', url: `/sparql?query=${encodeURIComponent(query)}`, headers: { accept } });

  beforeAll(async () => {
    vt = await startVirtuoso();
    base = uniqueBase('endpoint');
    const config = loadConfig({ baseIri: base, dataDir: '/tmp/assay-unused', sparql: { updateToken: TOKEN, maxRows: 5 }, store: vt.store() }, {});
    store = await RemoteStore.open(config.store, { baseIri: base });
    const data = Array.from({ length: 8 }, (_, i) => `<${base}item/${i}> a <${base}Item> ; <${base}rank> ${i} ; <${base}label> "item ${i}"@en .`).join('\n');
    await store.apply({ kind: 'load', format: 'text/turtle', graph: g('items'), data });
    app = await build({ config, store });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await store?.close();
    await vt?.stop();
  });

  it('answers SELECT in standard JSON (datatypes as literals) and cuts at the row cap with the marker', async () => {
    const one = await get(`SELECT ?r WHERE { GRAPH <${g('items')}> { <${base}item/3> <${base}rank> ?r } }`);
    expect(one.statusCode).toBe(200);
    expect(rows(one.body)).toEqual([{ r: { type: 'literal', value: '3', datatype: 'http://www.w3.org/2001/XMLSchema#integer' } }]);
    const all = await get(`SELECT ?s WHERE { GRAPH <${g('items')}> { ?s a <${base}Item> } }`);
    expect(all.headers['assay-truncated']).toBe('true');
    expect(rows(all.body)).toHaveLength(5);
    expect(JSON.parse(all.body).truncated).toBe(true);
    const csv = await get(`SELECT ?s WHERE { GRAPH <${g('items')}> { ?s a <${base}Item> } } ORDER BY ?s LIMIT 2`, 'text/csv');
    expect(csv.body.trim().split(/\r?\n/)).toEqual(['s', `${base}item/0`, `${base}item/1`]);
  });

  it('answers ASK and CONSTRUCT, capping triples too', async () => {
    const ask = await get(`ASK { GRAPH <${g('items')}> { <${base}item/7> ?p ?o } }`, 'application/sparql-results+xml');
    expect(ask.body).toMatch(/<boolean>true<\/boolean>/);
    const c = await get(`CONSTRUCT { ?s <${base}rank> ?r } WHERE { GRAPH <${g('items')}> { ?s <${base}rank> ?r } }`, 'application/n-triples');
    expect(c.statusCode).toBe(200);
    expect(c.body.trim().split('\n')).toHaveLength(5);
    expect(c.headers['assay-truncated']).toBe('true');
  });

  it('refuses SERVICE and a FROM outside the store, allows a FROM of a graph it holds', async () => {
    const service = await get('SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }');
    expect(service.statusCode).toBe(403);
    expect(JSON.parse(service.body).error).toBe('remote-not-allowed');
    const from = await get('SELECT * FROM <http://elsewhere.example/data> WHERE { ?s ?p ?o }');
    expect(from.statusCode).toBe(403);
    const local = await get(`SELECT (COUNT(*) AS ?n) FROM <${g('items')}> WHERE { ?s a <${base}Item> }`);
    expect(rows(local.body)[0]!.n!.value).toBe('8');
  });

  it('is read-only unless the update carries the operator token; an authorized update lands in the store', async () => {
    const update = `INSERT DATA { GRAPH <${g('items')}> { <${base}item/99> a <${base}Item> } }`;
    const anon = await app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update' }, payload: update });
    expect(anon.statusCode).toBe(401);
    const before = store.seq;
    const ok = await app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: update });
    expect(ok.statusCode).toBe(204);
    expect(store.seq).toBe(before + 1);
    expect(store.rdf.ask(`ASK { GRAPH <${g('items')}> { <${base}item/99> a <${base}Item> } }`)).toBe(true);
    const load = await app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: 'LOAD <http://example.org/data.ttl>' });
    expect(load.statusCode).toBe(403);
  });

  it('serves VoID computed by the engine, saying which write it reflects, and a schema card of a graph', async () => {
    const v = await app.inject({ url: '/.well-known/void', headers: { accept: 'application/n-triples' } });
    expect(v.statusCode).toBe(200);
    expect(Number(v.headers['assay-void-seq'])).toBe(store.seq);
    expect(v.body).toContain(`<${g('items')}> <http://rdfs.org/ns/void#triples> "25"^^<http://www.w3.org/2001/XMLSchema#integer>`);
    const card = await app.inject({ url: `/schema-card?graph=${encodeURIComponent(g('items'))}` });
    expect(card.statusCode).toBe(200);
    expect(card.body).toMatch(/:Item \(9\): /);
    const health = await app.inject({ url: '/health' });
    expect(health.json()).toMatchObject({ status: 'ok', lastWrite: store.seq });
  });
});

describe('the endpoint over a remote store that stops answering', () => {
  let hung: Server;
  let app: FastifyInstance;
  let store: RemoteStore;
  beforeAll(async () => {
    // Answers the opening ASK, then holds every other request open until the client gives up.
    hung = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        if (new URLSearchParams(body).get('query') === 'ASK {}') {
          res.writeHead(200, { 'content-type': 'application/sparql-results+json' }).end('{"head":{},"boolean":true}');
        }
      });
    });
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(hung.address() as { port: number }).port}/sparql`;
    const config = loadConfig({ baseIri: 'http://hung.assay.test/', dataDir: '/tmp/assay-unused', sparql: { timeoutMs: 300 }, store: { url } }, {});
    store = await RemoteStore.open(storeConfig({ url, timeoutMs: 5_000 }, {}), { baseIri: 'http://hung.assay.test/' });
    app = await build({ config, store });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    hung.closeAllConnections();
    await new Promise((r) => hung.close(r));
  });

  it('stops waiting at sparql.timeoutMs and answers 503 timeout, naming the limit', async () => {
    const r = await app.inject({ url: `/sparql?query=${encodeURIComponent('SELECT * WHERE { ?s ?p ?o }')}` });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({ error: 'timeout' });
    expect(r.json().message).toMatch(/sparql\.timeoutMs = 300/);
  });
});
