/**
 * What /catalog serves for the real catalog (ard-okf/): exactly the DCAT view src/ard writes, and
 * conformant to DCAT-AP 3.0.0 (the SEMIC shapes vendored in fixtures/dcat-ap/) as served, after a
 * round trip through the HTTP response and a parser.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { catalogFiles, validateAndBuild, catalogToQuads, catalogDcatQuads, type Catalog } from '../../../src/ard/index.ts';
import { compileShapes } from '../../../src/ard/shacl.ts';
import { serializeRdf } from '../../../src/rdf/serialize.ts';
import type { Quad } from '../../../src/rdf/store.ts';
import { BASE, appWith, canonical, parseJsonLd, parseN3 } from './helpers.ts';

const ROOT = new URL('../../../', import.meta.url);
let app: FastifyInstance;
let catalog: Catalog;

beforeAll(async () => {
  // The publisher descriptors only: the generated measure lists (thousands of measures) add
  // nothing to the DCAT view and take long to validate.
  const files = (await catalogFiles(new URL('ard-okf', ROOT).pathname)).filter((f) => !f.includes('/generated/'));
  const { catalog: built, report } = await validateAndBuild(files, { baseIri: BASE });
  if (!built) throw new Error(`ard-okf/ does not validate: ${JSON.stringify(report.problems.slice(0, 3))}`);
  catalog = built;
  const nquads = await serializeRdf(catalogToQuads(catalog, BASE), 'application/n-quads');
  ({ app } = await appWith([{ kind: 'load', format: 'application/n-quads', data: nquads }]));
}, 120_000);
afterAll(async () => app?.close());

describe('/catalog over the real catalog', () => {
  it('serves the DCAT view of the catalog, plus at most titles of linked documents (Turtle, N-Triples, JSON-LD)', async () => {
    const expected = (await canonical(catalogDcatQuads(catalog, BASE), true)).split('\n');
    const ttl = await app.inject({ url: '/catalog' });
    const served = (await canonical(parseN3(ttl.body, 'text/turtle'))).split('\n');
    // Every DCAT statement src/ard writes is served...
    expect(expected.filter((l) => !served.includes(l))).toEqual([]);
    // ...and anything else is a title that the catalog graph gives a linked document (OKF sources).
    const extra = served.filter((l) => !expected.includes(l));
    for (const l of extra) expect(l).toMatch(/^<[^>]+> <http:\/\/purl\.org\/dc\/terms\/title> "[^"]*"@en \.$/);
    const nt = await app.inject({ url: '/catalog', headers: { accept: 'application/n-triples' } });
    expect((await canonical(parseN3(nt.body, 'application/n-triples'))).split('\n')).toEqual(served);
    const jl = await app.inject({ url: '/catalog', headers: { accept: 'application/ld+json' } });
    expect((await canonical(await parseJsonLd(jl.body))).split('\n')).toEqual(served);
  });

  it('conforms to DCAT-AP 3.0.0 as served: no violations of the mandatory or recommended shapes', async () => {
    const shapes = compileShapes(['dcat-ap-3.0.0-constraints.ttl', 'shapes_recommended.ttl']
      .map((f) => readFileSync(new URL(`fixtures/dcat-ap/${f}`, ROOT), 'utf8')));
    const served = parseN3((await app.inject({ url: '/catalog' })).body, 'text/turtle') as unknown as Quad[];
    const results = await shapes.validate(served);
    expect(results.filter((r) => r.severity === 'Violation')).toEqual([]);
    expect(results.filter((r) => r.severity === 'Warning')).toEqual([]);
    // The same shapes do catch a catalog without its mandatory title.
    const untitled = served.filter((q) => !(q.subject.value === `${BASE}catalog` && q.predicate.value === 'http://purl.org/dc/terms/title'));
    expect((await shapes.validate(untitled)).some((r) => r.severity === 'Violation' && r.focusNode === `${BASE}catalog`)).toBe(true);
  });
});
