/**
 * /.well-known/void: every figure equals the SPARQL COUNT over the same graph, the cache follows
 * writes, and the document parses (N3.js always, rapper when installed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RdfStore } from '../../../src/rdf/store.ts';
import { VOID } from '../../../src/rdf/vocab.ts';
import { computeVoid, voidDatasetIri, voidDefaultGraphIri } from '../../../src/void/compute.ts';
import type { WriteOp } from '../../../src/rdf/durable.ts';
import { BASE, appWith, parseJsonLd, parseN3, rapperAvailable, rapperCount, RAPPER_SKIP_REASON, canonical } from './helpers.ts';

const G1 = `${BASE}graph/catalog`;
const G2 = `${BASE}graph/evidence`;

// Two graphs that share a triple, blank nodes, literals equal in value but not in term
// ("1"^^xsd:integer vs "01"^^xsd:integer), language tags, multi-typed subjects, a literal and a
// blank node as rdf:type objects, and something in the default graph.
const DATA: WriteOp[] = [
  {
    kind: 'load', format: 'text/turtle', graph: G1, data: `
      @prefix dcat: <http://www.w3.org/ns/dcat#> . @prefix dct: <http://purl.org/dc/terms/> .
      @prefix xsd: <http://www.w3.org/2001/XMLSchema#> . @prefix ex: <http://example.org/ns/> .
      <${BASE}catalog> a dcat:Catalog ; dct:title "Publishers"@en, "Publishers" ; dcat:dataset <${BASE}ds/a>, <${BASE}ds/b> .
      <${BASE}ds/a> a dcat:Dataset, ex:Thing ; dct:title "A" ; ex:n "1"^^xsd:integer, "01"^^xsd:integer ;
        dcat:contactPoint [ a <http://www.w3.org/2006/vcard/ns#Kind> ; <http://www.w3.org/2006/vcard/ns#fn> "Desk" ] .
      <${BASE}ds/b> a dcat:Dataset ; dct:title "B" ; ex:n 1 .
      [] ex:n 2 ; a [] .
      <${BASE}odd> a "literal class" .`,
  },
  {
    kind: 'load', format: 'text/turtle', graph: G2, data: `
      @prefix dct: <http://purl.org/dc/terms/> . @prefix prov: <http://www.w3.org/ns/prov#> .
      <${BASE}ds/a> dct:title "A" .
      <${BASE}ev/1> a prov:Entity ; prov:value 42 ; prov:wasDerivedFrom <${BASE}ds/a> .`,
  },
  { kind: 'load', format: 'application/n-triples', data: `<${BASE}x> <http://example.org/ns/p> "default" .\n` },
];

const apps: FastifyInstance[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

async function start(ops: WriteOp[] = DATA) {
  const r = await appWith(ops);
  apps.push(r.app);
  return r;
}

/** Load a VoID document into a scratch store so the test can ask it questions in SPARQL. */
function voidStore(ttl: string): RdfStore {
  const s = new RdfStore();
  s.load(ttl, { format: 'text/turtle' });
  return s;
}

function n(store: RdfStore, query: string): number {
  const rows = store.select(query);
  return Number(rows[0]?.get('n')?.value ?? NaN);
}

function figure(voidDoc: RdfStore, node: string, prop: string): number {
  const rows = voidDoc.select(`SELECT ?n WHERE { <${node}> <${prop}> ?n }`);
  expect(rows, `${node} has exactly one ${prop}`).toHaveLength(1);
  return Number(rows[0]!.get('n')!.value);
}

// Each figure with the SPARQL that must agree with it; {G} is the graph pattern wrapper.
const GRAPH_FIGURES: Array<[string, (g: string) => string]> = [
  [VOID.triples, (g) => `SELECT (COUNT(*) AS ?n) WHERE { ${g}{ ?s ?p ?o } }`],
  [VOID.entities, (g) => `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ${g}{ ?s ?p ?o } FILTER isIRI(?s) }`],
  [VOID.distinctSubjects, (g) => `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ${g}{ ?s ?p ?o } }`],
  [VOID.distinctObjects, (g) => `SELECT (COUNT(DISTINCT ?o) AS ?n) WHERE { ${g}{ ?s ?p ?o } }`],
  [VOID.classes, (g) => `SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ${g}{ ?s a ?c } }`],
  [VOID.properties, (g) => `SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ${g}{ ?s ?p ?o } }`],
];

describe('/.well-known/void', () => {
  it('serves Turtle by default, with one subset per graph and the endpoint and URI space', async () => {
    const { app } = await start();
    const res = await app.inject({ method: 'GET', url: '/.well-known/void' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/turtle; charset=utf-8');
    expect(res.headers.vary).toContain('Accept');
    const doc = voidStore(res.body);
    const root = voidDatasetIri(BASE);
    expect(doc.ask(`ASK { <${root}> a <${VOID.Dataset}> ; <${VOID.sparqlEndpoint}> <${BASE}sparql> ; <${VOID.uriSpace}> "${BASE}" }`)).toBe(true);
    const subsets = doc.select(`SELECT ?g WHERE { <${root}> <${VOID.subset}> ?g } ORDER BY ?g`).map((r) => r.get('g')!.value);
    expect(subsets).toEqual([voidDefaultGraphIri(BASE), G1, G2].sort());
  });

  it('gives, for each named graph, figures equal to SPARQL COUNTs over that graph', async () => {
    const { app, store } = await start();
    const doc = voidStore((await app.inject({ url: '/.well-known/void' })).body);
    for (const g of [G1, G2]) {
      for (const [prop, query] of GRAPH_FIGURES) {
        expect(figure(doc, g, prop), `${prop} of ${g}`).toBe(n(store.rdf, query(`GRAPH <${g}> `)));
      }
    }
    // The default graph (not the union: the store's default graph proper).
    for (const [prop, query] of GRAPH_FIGURES) {
      expect(figure(doc, voidDefaultGraphIri(BASE), prop), `${prop} of the default graph`).toBe(n(store.rdf, query('')));
    }
    // Spot-check the hand-countable figures so a shared mistake in both sides cannot hide.
    expect(figure(doc, G2, VOID.triples)).toBe(4);
    expect(figure(doc, G1, VOID.distinctObjects)).toBe(
      n(store.rdf, `SELECT (COUNT(DISTINCT ?o) AS ?n) WHERE { GRAPH <${G1}> { ?s ?p ?o } }`));
  });

  it('gives the whole store the figures over every quad of every graph', async () => {
    const { app, store } = await start();
    const doc = voidStore((await app.inject({ url: '/.well-known/void' })).body);
    const all = (body: string) => `{ { ${body} } UNION { GRAPH ?g { ${body} } } }`;
    const root = voidDatasetIri(BASE);
    expect(figure(doc, root, VOID.triples)).toBe(store.rdf.size);
    expect(figure(doc, root, VOID.distinctSubjects)).toBe(n(store.rdf, `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE ${all('?s ?p ?o')}`));
    expect(figure(doc, root, VOID.entities)).toBe(n(store.rdf, `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ${all('?s ?p ?o')} FILTER isIRI(?s) }`));
    expect(figure(doc, root, VOID.distinctObjects)).toBe(n(store.rdf, `SELECT (COUNT(DISTINCT ?o) AS ?n) WHERE ${all('?s ?p ?o')}`));
    expect(figure(doc, root, VOID.classes)).toBe(n(store.rdf, `SELECT (COUNT(DISTINCT ?o) AS ?n) WHERE ${all('?s a ?o')}`));
    expect(figure(doc, root, VOID.properties)).toBe(n(store.rdf, `SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE ${all('?s ?p ?o')}`));
  });

  it('partitions each graph by class and by property with COUNT-equal figures', async () => {
    const { app, store } = await start();
    const doc = voidStore((await app.inject({ url: '/.well-known/void' })).body);
    for (const g of [G1, G2]) {
      const classes = store.rdf.select(`SELECT DISTINCT ?c WHERE { GRAPH <${g}> { ?s a ?c FILTER isIRI(?c) } }`).map((r) => r.get('c')!.value);
      const cps = doc.select(`SELECT ?c ?e ?t WHERE { <${g}> <${VOID.classPartition}> ?cp . ?cp <${VOID.class}> ?c ; <${VOID.entities}> ?e ; <${VOID.triples}> ?t }`);
      expect(cps.map((r) => r.get('c')!.value).sort()).toEqual(classes.sort());
      for (const r of cps) {
        const c = r.get('c')!.value;
        expect(Number(r.get('e')!.value), `entities of ${c} in ${g}`).toBe(n(store.rdf, `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { GRAPH <${g}> { ?s a <${c}> } }`));
        expect(Number(r.get('t')!.value), `triples of ${c} in ${g}`).toBe(n(store.rdf, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${g}> { ?s a <${c}> . ?s ?p ?o } }`));
      }
      const props = store.rdf.select(`SELECT DISTINCT ?p WHERE { GRAPH <${g}> { ?s ?p ?o } }`).map((r) => r.get('p')!.value);
      const pps = doc.select(`SELECT ?p ?t WHERE { <${g}> <${VOID.propertyPartition}> ?pp . ?pp <${VOID.property}> ?p ; <${VOID.triples}> ?t }`);
      expect(pps.map((r) => r.get('p')!.value).sort()).toEqual(props.sort());
      for (const r of pps) {
        const p = r.get('p')!.value;
        expect(Number(r.get('t')!.value), `triples of ${p}`).toBe(n(store.rdf, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${g}> { ?s <${p}> ?o } }`));
      }
    }
  });

  it('lists the namespaces of used predicates and classes as vocabularies', async () => {
    const { app } = await start();
    const doc = voidStore((await app.inject({ url: '/.well-known/void' })).body);
    const vocab = doc.select(`SELECT ?v WHERE { <${G2}> <${VOID.vocabulary}> ?v }`).map((r) => r.get('v')!.value).sort();
    expect(vocab).toEqual(['http://purl.org/dc/terms/', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#', 'http://www.w3.org/ns/prov#']);
  });

  it('recomputes after a write and not before', async () => {
    const { app, store } = await start();
    const before = voidStore((await app.inject({ url: '/.well-known/void' })).body);
    expect(figure(before, G2, VOID.triples)).toBe(4);
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: G2, data: `<${BASE}ev/2> <http://www.w3.org/ns/prov#value> "7" .\n` });
    const after = voidStore((await app.inject({ url: '/.well-known/void' })).body);
    expect(figure(after, G2, VOID.triples)).toBe(5);
    await store.apply({ kind: 'clearGraph', graph: G2 });
    const cleared = voidStore((await app.inject({ url: '/.well-known/void' })).body);
    expect(cleared.ask(`ASK { ?d <${VOID.subset}> <${G2}> }`)).toBe(false);
  });

  it('describes an empty store as a dataset with zero triples and no subsets', async () => {
    const { app } = await start([]);
    const doc = voidStore((await app.inject({ url: '/.well-known/void' })).body);
    expect(figure(doc, voidDatasetIri(BASE), VOID.triples)).toBe(0);
    expect(doc.ask(`ASK { ?d <${VOID.subset}> ?s }`)).toBe(false);
  });

  it('serves the same graph in every RDF format by Accept, and 406 for a non-RDF type', async () => {
    const { app, store } = await start();
    const expected = await canonical(computeVoid(store.rdf, { baseIri: BASE }));
    const cases = [
      ['text/turtle', (b: string) => parseN3(b, 'text/turtle')],
      ['application/n-triples', (b: string) => parseN3(b, 'application/n-triples')],
      ['application/n-quads', (b: string) => parseN3(b, 'application/n-quads')],
      ['application/trig', (b: string) => parseN3(b, 'application/trig')],
      ['application/ld+json', parseJsonLd],
    ] as const;
    for (const [type, parse] of cases) {
      const res = await app.inject({ url: '/.well-known/void', headers: { accept: type } });
      expect(res.statusCode, type).toBe(200);
      expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
      expect(await canonical(await parse(res.body)), type).toBe(expected);
    }
    const bad = await app.inject({ url: '/.well-known/void', headers: { accept: 'application/sparql-results+json' } });
    expect(bad.statusCode).toBe(406);
    expect(bad.json().message).toContain('text/turtle');
  });

  it.skipIf(!rapperAvailable && process.env.CI !== 'true')('emits Turtle and N-Triples that rapper parses to the same number of triples', async () => {
    const { app, store } = await start();
    const count = computeVoid(store.rdf, { baseIri: BASE }).length;
    const ttl = (await app.inject({ url: '/.well-known/void' })).body;
    const nt = (await app.inject({ url: '/.well-known/void', headers: { accept: 'application/n-triples' } })).body;
    expect(rapperCount(ttl, 'turtle')).toBe(count);
    expect(rapperCount(nt, 'ntriples')).toBe(count);
  });
  if (!rapperAvailable && process.env.CI !== 'true') console.warn(`skipping the rapper check: ${RAPPER_SKIP_REASON}`);
});
