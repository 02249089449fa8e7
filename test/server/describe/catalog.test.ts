/**
 * /catalog serves the DCAT view of the live catalog graph: it parses in every offered format, has
 * the DCAT structure, and leaves out the statements made with Assay's own terms.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RdfStore } from '../../../src/rdf/store.ts';
import { ASSAY_NS, DCAT, DCT, RDF } from '../../../src/rdf/vocab.ts';
import { dcatView } from '../../../src/server/routes/catalog.ts';
import { BASE, appWith, canonical, parseJsonLd, parseN3, rapperAvailable, rapperCount, RAPPER_SKIP_REASON } from './helpers.ts';
import { CATALOG_GRAPH, CATALOG_TTL } from './fixture.ts';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

async function start(withCatalog = true) {
  const r = await appWith(withCatalog ? [{ kind: 'load', format: 'text/turtle', graph: CATALOG_GRAPH, data: CATALOG_TTL }] : []);
  apps.push(r.app);
  return r;
}

function asStore(text: string): RdfStore {
  const s = new RdfStore();
  s.load(text, { format: 'text/turtle' });
  return s;
}

describe('/catalog', () => {
  it('serves a DCAT catalog in Turtle by default', async () => {
    const { app } = await start();
    const res = await app.inject({ url: '/catalog' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/turtle; charset=utf-8');
    const doc = asStore(res.body);
    const cat = `${BASE}catalog`;
    expect(doc.ask(`ASK { <${cat}> a <${DCAT.Catalog}> ; <${DCT.title}> ?t ; <${DCT.publisher}> ?p ; <${DCAT.dataset}> ?d ; <${DCAT.service}> ?s . ?p a ?pt }`)).toBe(true);
    // Every dataset and service the catalog lists is typed and described where it is linked.
    expect(doc.ask(`ASK { <${cat}> <${DCAT.dataset}> ?d FILTER NOT EXISTS { ?d a <${DCAT.Dataset}> ; <${DCT.title}> ?t ; <${DCAT.distribution}> ?x . ?x a <${DCAT.Distribution}> ; <${DCAT.accessURL}> ?u } }`)).toBe(false);
    expect(doc.ask(`ASK { <${cat}> <${DCAT.service}> ?s FILTER NOT EXISTS { ?s a <${DCAT.DataService}> ; <${DCAT.endpointURL}> ?e ; <${DCAT.endpointDescription}> ?ed ; <${DCAT.servesDataset}> ?sd } }`)).toBe(false);
    // DCAT-AP's range checks need an explicit type on every linked node: nothing dangles.
    expect(doc.select(`SELECT ?o WHERE { ?s ?p ?o FILTER(isIRI(?o) && ?p != <${RDF.type}>) FILTER NOT EXISTS { ?o a ?t } }`)).toEqual([]);
  });

  it('leaves out Assay\'s own statements: access paths, measures, sources', async () => {
    const { app } = await start();
    const doc = asStore((await app.inject({ url: '/catalog' })).body);
    expect(doc.ask(`ASK { { ?s ?p ?o FILTER STRSTARTS(STR(?p), "${ASSAY_NS}") } UNION { ?s a ?c FILTER STRSTARTS(STR(?c), "${ASSAY_NS}") } }`)).toBe(false);
    expect(doc.ask(`ASK { <${BASE}measure/sec-edgar/us-gaap/Revenues> ?p ?o }`)).toBe(false);
    expect(doc.ask(`ASK { <${BASE}source/sec-edgar> ?p ?o }`)).toBe(false);
    // ...but keeps the DCAT statements about a node that also has an Assay type.
    expect(doc.ask(`ASK { <${BASE}publisher/sec-edgar> a <http://xmlns.com/foaf/0.1/Agent> }`)).toBe(true);
  });

  it('serves the same graph as N-Triples and JSON-LD, and refuses quad formats', async () => {
    const { app, store } = await start();
    const expected = await canonical(dcatView(store.rdf, CATALOG_GRAPH), true);
    const ttl = await app.inject({ url: '/catalog' });
    expect(await canonical(parseN3(ttl.body, 'text/turtle'))).toBe(expected);
    const nt = await app.inject({ url: '/catalog', headers: { accept: 'application/n-triples' } });
    expect(nt.headers['content-type']).toBe('application/n-triples; charset=utf-8');
    expect(await canonical(parseN3(nt.body, 'application/n-triples'))).toBe(expected);
    const jl = await app.inject({ url: '/catalog', headers: { accept: 'application/ld+json' } });
    expect(jl.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    const doc = JSON.parse(jl.body) as Record<string, unknown>;
    expect(doc['@id']).toBeUndefined(); // one default graph, not a named-graph object
    expect(await canonical(await parseJsonLd(jl.body))).toBe(expected);
    expect((await app.inject({ url: '/catalog', headers: { accept: 'application/n-quads' } })).statusCode).toBe(406);
  });

  it('answers 404 with what to do when the catalog graph is empty', async () => {
    const { app } = await start(false);
    const res = await app.inject({ url: '/catalog' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('assay serve');
  });

  it('follows writes to the catalog graph', async () => {
    const { app, store } = await start();
    await store.apply({ kind: 'load', format: 'text/turtle', graph: CATALOG_GRAPH, data: `<${BASE}catalog> <${DCAT.dataset}> <${BASE}ds/new> . <${BASE}ds/new> a <${DCAT.Dataset}> .` });
    const doc = asStore((await app.inject({ url: '/catalog' })).body);
    expect(doc.ask(`ASK { <${BASE}ds/new> a <${DCAT.Dataset}> }`)).toBe(true);
  });

  it.skipIf(!rapperAvailable && process.env.CI !== 'true')('emits Turtle and N-Triples that rapper parses', async () => {
    const { app, store } = await start();
    const count = (await canonical(dcatView(store.rdf, CATALOG_GRAPH), true)).split('\n').length;
    expect(rapperCount((await app.inject({ url: '/catalog' })).body, 'turtle')).toBe(count);
    expect(rapperCount((await app.inject({ url: '/catalog', headers: { accept: 'application/n-triples' } })).body, 'ntriples')).toBe(count);
  });
  if (!rapperAvailable && process.env.CI !== 'true') console.warn(`skipping the rapper check: ${RAPPER_SKIP_REASON}`);
});
