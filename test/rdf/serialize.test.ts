/**
 * serializeRdf writes what parses back to the same graph (checked by RDFC-1.0 canonical form, so
 * blank nodes are compared up to renaming), and negotiateRdf picks what an Accept header prefers.
 */
import { describe, expect, it } from 'vitest';
import { Parser } from 'n3';
import type * as RDFJS from '@rdfjs/types';
import { negotiateRdf, serializeRdf, RDF_OUTPUT, ALL_RDF_OUTPUT, TRIPLE_RDF_OUTPUT, type RdfOutputType } from '../../src/rdf/serialize.ts';
import { parseRdf } from '../../src/rdf/store.ts';
import { canonical, parseJsonLd } from '../server/describe/helpers.ts';

// Awkward on purpose: escapes, unicode, language tags, typed and plain literals, blank nodes
// shared between graphs, a triple in two graphs, IRIs outside every prefix, and prefix-shaped
// IRIs whose local part Turtle cannot abbreviate.
const TRIG = `
@prefix dct: <http://purl.org/dc/terms/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix dcat: <http://www.w3.org/ns/dcat#> .
<http://ex.org/g1> {
  <http://ex.org/a> a dcat:Dataset ; dct:title "quote \\" backslash \\\\ newline \\n tab \\t"@en-US, "ünïcødé ✓" ;
    dct:issued "2024-01-02"^^xsd:date ; <http://ex.org/p> 1, 1.5, true, "x"^^<http://ex.org/dt> ;
    dcat:contactPoint _:c .
  _:c <http://ex.org/q> [ <http://ex.org/r> "nested" ] .
  <http://purl.org/dc/terms/has/slash> <http://ex.org/p> <http://ex.org/a#frag> .
}
<http://ex.org/g2> { <http://ex.org/a> a dcat:Dataset . _:c <http://ex.org/q> "in g2" . }
<http://ex.org/b> <http://ex.org/p> "default graph" .
`;

function quads(): RDFJS.Quad[] {
  return parseRdf(TRIG, { format: 'application/trig' }) as unknown as RDFJS.Quad[];
}

function parseWithN3(text: string, format: string): RDFJS.Quad[] {
  return new Parser({ format }).parse(text) as RDFJS.Quad[];
}

describe('serializeRdf', () => {
  it.each(['application/n-quads', 'application/trig'] as const)('writes %s that parses back to the same dataset', async (type) => {
    const input = quads();
    const out = await serializeRdf(input, type);
    expect(await canonical(parseWithN3(out, type))).toBe(await canonical(input));
  });

  it.each(['text/turtle', 'application/n-triples'] as const)('writes %s that parses back to the merged graph (no graph names)', async (type) => {
    const input = quads();
    const out = await serializeRdf(input, type);
    const back = parseWithN3(out, type);
    const merged = await canonical(input, true);
    expect(await canonical(back)).toBe(merged);
    // The triple held in two graphs is written once: as many triples as distinct ones.
    expect(back.length).toBe(merged.split('\n').length);
    expect(back.length).toBeLessThan(input.length);
  });

  it('writes JSON-LD that keeps named graphs and typed literals exactly', async () => {
    const input = quads();
    const out = await serializeRdf(input, RDF_OUTPUT.jsonld);
    const doc = JSON.parse(out) as Record<string, unknown>;
    expect(doc['@context']).toMatchObject({ dct: 'http://purl.org/dc/terms/', dcat: 'http://www.w3.org/ns/dcat#' });
    expect(await canonical(await parseJsonLd(out))).toBe(await canonical(input));
  });

  it('writes JSON-LD without graph names when asked to drop them', async () => {
    const input = quads();
    const out = await serializeRdf(input, RDF_OUTPUT.jsonld, { dropGraphs: true });
    expect(await canonical(await parseJsonLd(out))).toBe(await canonical(input, true));
  });

  it('declares in Turtle only the prefixes the data uses', async () => {
    const out = await serializeRdf(quads(), RDF_OUTPUT.turtle);
    expect(out).toContain('@prefix dcat:');
    expect(out).not.toContain('@prefix prov:');
    expect(out).not.toContain('@prefix sh:');
  });

  it('writes an empty graph as an empty, parseable document', async () => {
    for (const type of ALL_RDF_OUTPUT) {
      const out = await serializeRdf([], type);
      if (type === RDF_OUTPUT.jsonld) expect(await parseJsonLd(out)).toEqual([]);
      else expect(parseWithN3(out, type)).toEqual([]);
    }
  });
});

describe('negotiateRdf', () => {
  type Offer = readonly RdfOutputType[];
  const table: Array<[string | undefined, RdfOutputType | null, Offer?]> = [
    [undefined, 'text/turtle'],
    ['', 'text/turtle'],
    ['*/*', 'text/turtle'],
    ['text/turtle', 'text/turtle'],
    ['application/n-triples', 'application/n-triples'],
    ['application/ld+json', 'application/ld+json'],
    ['application/n-quads', 'application/n-quads'],
    ['application/trig', 'application/trig'],
    ['application/json', 'application/ld+json'],
    ['text/plain', 'application/n-triples'],
    ['application/x-turtle', 'text/turtle'],
    ['TEXT/TURTLE', 'text/turtle'],
    ['text/turtle;charset=utf-8', 'text/turtle'],
    // q-values decide; ties go to the range listed first.
    ['application/ld+json;q=0.5, text/turtle;q=0.4', 'application/ld+json'],
    ['text/turtle;q=0.4, application/ld+json;q=0.5', 'application/ld+json'],
    ['application/n-triples, text/turtle', 'application/n-triples'],
    ['text/turtle, application/n-triples', 'text/turtle'],
    // The most specific range sets the q of a type: turtle is refused, the wildcard takes the rest.
    ['text/turtle;q=0, */*', 'application/n-triples'],
    ['text/*', 'text/turtle'],
    ['application/*', 'application/n-triples'],
    ['application/*;q=0.2, application/ld+json', 'application/ld+json'],
    // A browser: nothing RDF named, so the wildcard gives the default.
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/turtle'],
    // Nothing acceptable.
    ['application/sparql-results+json', null],
    ['text/html', null],
    ['*/*;q=0', null],
    // Junk that names no media range is treated as no preference.
    ['garbage', 'text/turtle'],
    ['text/turtle;q=abc, application/n-triples', 'application/n-triples'],
    // Restricted offers.
    ['application/n-quads', null, TRIPLE_RDF_OUTPUT],
    ['*/*', 'text/turtle', TRIPLE_RDF_OUTPUT],
    [undefined, 'application/ld+json', [RDF_OUTPUT.jsonld, RDF_OUTPUT.ntriples]],
  ];
  it.each(table)('Accept %j → %s', (accept, expected, allowed) => {
    expect(negotiateRdf(accept, allowed)).toBe(expected);
  });
});
