/**
 * Dereferencing minted IRIs: a GET on the path returns the resource's description (its statements
 * in every graph, blank-node details, labels of what it links to) in the negotiated format; a
 * named graph's IRI gets its VoID figures; unknown paths are 404; the wildcard never shadows
 * the gateway's own routes; nothing in the path reaches SPARQL syntax.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RdfStore } from '../../../src/rdf/store.ts';
import { VOID } from '../../../src/rdf/vocab.ts';
import { iriCandidates } from '../../../src/server/routes/deref.ts';
import { BASE, appWith, parseJsonLd, parseN3, rapperAvailable, rapperCount } from './helpers.ts';
import { CATALOG_GRAPH, CATALOG_TTL } from './fixture.ts';

const EVIDENCE = `${BASE}graph/evidence`;

const apps: FastifyInstance[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

async function start() {
  const r = await appWith([
    { kind: 'load', format: 'text/turtle', graph: CATALOG_GRAPH, data: CATALOG_TTL },
    {
      kind: 'load', format: 'text/turtle', graph: EVIDENCE,
      data: `<${BASE}source/sec-edgar> <http://www.w3.org/ns/prov#wasAttributedTo> <${BASE}agent/assay> .
             <${BASE}measure/sec-edgar/us-gaap/Caf\u00e9> <http://purl.org/dc/terms/title> "unicode path" .`,
    },
  ]);
  apps.push(r.app);
  return r;
}

function asStore(ttl: string): RdfStore {
  const s = new RdfStore();
  s.load(ttl, { format: 'text/turtle' });
  return s;
}

describe('dereferencing minted IRIs', () => {
  it('describes a source: its statements in every graph, its blank-node details, labels of what it links to', async () => {
    const { app } = await start();
    const res = await app.inject({ url: '/source/sec-edgar' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/turtle; charset=utf-8');
    expect(res.headers.vary).toContain('Accept');
    const d = asStore(res.body);
    const s = `<${BASE}source/sec-edgar>`;
    expect(d.ask(`ASK { ${s} a <https://w3id.org/assay/ns#Source> ; <http://purl.org/dc/terms/hasPart> <${BASE}source/sec-edgar/dataset/xbrl> }`)).toBe(true);
    // From the evidence graph too.
    expect(d.ask(`ASK { ${s} <http://www.w3.org/ns/prov#wasAttributedTo> <${BASE}agent/assay> }`)).toBe(true);
    // Blank-node details come along (concise bounded description).
    expect(d.ask(`ASK { ${s} <https://w3id.org/assay/ns#contact> [ <http://www.w3.org/2006/vcard/ns#fn> "blank-node detail" ] }`)).toBe(true);
    // Labels of linked resources, but not their other statements.
    expect(d.ask(`ASK { <${BASE}publisher/sec-edgar> <http://xmlns.com/foaf/0.1/name> "U.S. Securities and Exchange Commission" }`)).toBe(true);
    expect(d.ask(`ASK { <${BASE}source/sec-edgar/dataset/xbrl> <http://purl.org/dc/terms/title> "XBRL financial data"@en }`)).toBe(true);
    expect(d.ask(`ASK { <${BASE}source/sec-edgar/dataset/xbrl> <http://www.w3.org/ns/dcat#keyword> ?k }`)).toBe(false);
  });

  it('keeps graph names in N-Quads and drops them in JSON-LD', async () => {
    const { app } = await start();
    const nq = await app.inject({ url: '/source/sec-edgar', headers: { accept: 'application/n-quads' } });
    expect(nq.headers['content-type']).toBe('application/n-quads; charset=utf-8');
    const graphs = new Set(parseN3(nq.body, 'application/n-quads').map((q) => q.graph.value));
    expect(graphs).toEqual(new Set([CATALOG_GRAPH, EVIDENCE]));
    const jl = await app.inject({ url: '/source/sec-edgar', headers: { accept: 'application/ld+json' } });
    const quads = await parseJsonLd(jl.body);
    expect(quads.length).toBeGreaterThan(0);
    expect(quads.every((q) => q.graph.termType === 'DefaultGraph')).toBe(true);
  });

  it('describes measures, including percent-encoded and unicode paths', async () => {
    const { app } = await start();
    const m = await app.inject({ url: '/measure/sec-edgar/us-gaap/Revenues', headers: { accept: 'application/n-triples' } });
    expect(m.statusCode).toBe(200);
    expect(m.body).toContain('"USD"');
    const encoded = await app.inject({ url: '/measure/sec-edgar/us-gaap/Caf%C3%A9%20Sales' });
    expect(encoded.statusCode).toBe(200);
    expect(encoded.body).toContain('Encoded path');
    const unicode = await app.inject({ url: '/measure/sec-edgar/us-gaap/Caf%C3%A9' });
    expect(unicode.statusCode).toBe(200);
    expect(unicode.body).toContain('unicode path');
  });

  it('gives a named graph its VoID figures', async () => {
    const { app, store } = await start();
    const res = await app.inject({ url: '/graph/catalog' });
    expect(res.statusCode).toBe(200);
    const d = asStore(res.body);
    const rows = d.select(`SELECT ?n WHERE { <${CATALOG_GRAPH}> <${VOID.triples}> ?n }`);
    expect(rows.map((r) => Number(r.get('n')!.value))).toEqual([store.rdf.graphSize(CATALOG_GRAPH)]);
    expect(d.ask(`ASK { <${CATALOG_GRAPH}> <${VOID.classPartition}> [ <${VOID.class}> <http://www.w3.org/ns/dcat#Dataset> ; <${VOID.entities}> 1 ] }`)).toBe(true);
  });

  it('answers 404 with what to try for unknown IRIs, and for paths that cannot be IRIs', async () => {
    const { app } = await start();
    for (const url of ['/source/nope', '/measure/x%3E%20%7D%20%3Fs', '/a%20b', '/.well-known/nope']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message, url).toMatch(/nothing is known|not a well-known resource/);
    }
    // fastify itself rejects a URL that is not percent-encoded properly.
    for (const url of ['/%', '/a%ZZ']) expect((await app.inject({ url })).statusCode, url).toBe(400);
    // The base IRI is a resource like any other (the catalog's homepage).
    expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    const res = await app.inject({ url: '/source/nope' });
    expect(res.json().message).toContain(`<${BASE}source/nope>`);
    expect(res.json().message).toContain(`${BASE}catalog`);
  });

  it('refuses formats it cannot write, and answers HEAD', async () => {
    const { app } = await start();
    expect((await app.inject({ url: '/source/sec-edgar', headers: { accept: 'text/html' } })).statusCode).toBe(406);
    const browser = await app.inject({ url: '/source/sec-edgar', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.headers['content-type']).toBe('text/turtle; charset=utf-8');
    const head = await app.inject({ method: 'HEAD', url: '/source/sec-edgar' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('never shadows the gateway\'s own routes', async () => {
    const { app } = await start();
    const health = await app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().status).toBe('ok');
    const voidDoc = await app.inject({ url: '/.well-known/void' });
    expect(voidDoc.body).toContain('void:sparqlEndpoint');
    const ai = await app.inject({ url: '/.well-known/ai-catalog.json' });
    expect(ai.json().specVersion).toBe('1.0');
    const cat = await app.inject({ url: '/catalog' });
    expect(cat.body).toContain('dcat:Catalog');
    expect(cat.body).not.toContain('assay:AccessPath');
    const shapes = await app.inject({ url: '/shapes' });
    expect([200, 404]).toContain(shapes.statusCode);
    if (shapes.statusCode === 404) expect(shapes.json().message).toContain('SHACL shapes');
    const sparql = await app.inject({ url: '/sparql', headers: { accept: 'text/turtle' } });
    expect(sparql.statusCode).toBe(200);
    expect(sparql.body).toContain('sparql-service-description');
  });

  it('emits a description rapper parses', async () => {
    if (!rapperAvailable) return console.warn('rapper not installed; description parsed with N3.js only');
    const { app } = await start();
    const ttl = (await app.inject({ url: '/source/sec-edgar' })).body;
    expect(rapperCount(ttl, 'turtle')).toBe(parseN3(ttl, 'text/turtle').length);
  });
});

describe('iriCandidates', () => {
  it.each([
    ['/source/sec-edgar', [`${BASE}source/sec-edgar`]],
    ['/m/Caf%C3%A9', [`${BASE}m/Caf%C3%A9`, `${BASE}m/Caf\u00e9`]],
    ['/m/a%3Ab', [`${BASE}m/a%3Ab`, `${BASE}m/a:b`]],
    ['/m/a:b', [`${BASE}m/a:b`, `${BASE}m/a%3Ab`]],
    ['/a%20b', [`${BASE}a%20b`]],
    ['/%', []],
  ])('%s → %j', (path, expected) => {
    expect(iriCandidates(BASE, path)).toEqual(expected);
  });
});
