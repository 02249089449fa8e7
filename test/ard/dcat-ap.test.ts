// The DCAT view of the catalog conforms to DCAT-AP 3.0.0: SEMIC's mandatory/range constraints and
// its recommended-property shapes (fixtures/dcat-ap/, origin in its README) report nothing.
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { catalogDcatQuads } from '../../src/ard/index.ts';
import { sharedCatalog } from '../shared.ts';
import { compileShapes } from '../../src/ard/shacl.ts';
import { ARD_DIR } from './helpers.ts';

const fixture = (f: string) => readFile(new URL(`../../fixtures/dcat-ap/${f}`, import.meta.url), 'utf8');

describe('DCAT-AP 3.0.0 conformance of the /catalog view', () => {
  it('has no violation and no recommended-property warning', async () => {
    const catalog = await sharedCatalog(ARD_DIR);
    const quads = catalogDcatQuads(catalog, 'http://localhost:8080/');
    const shapes = compileShapes([await fixture('dcat-ap-3.0.0-constraints.ttl'), await fixture('shapes_recommended.ttl')]);
    const results = await shapes.validate(quads);
    expect(results.map((r) => `${r.severity} ${r.focusNode} ${r.path ?? ''} ${r.message}`)).toEqual([]);
    expect(quads.length).toBeGreaterThan(500);
  }, 120_000);

  it('the shapes do catch a DCAT view that drops a mandatory property', async () => {
    const catalog = await sharedCatalog(ARD_DIR);
    const quads = catalogDcatQuads(catalog, 'http://localhost:8080/').filter((q) => !(q.subject.value.endsWith('/service/data-sec-gov') && q.predicate.value === 'http://www.w3.org/ns/dcat#endpointURL'));
    const shapes = compileShapes([await fixture('dcat-ap-3.0.0-constraints.ttl')]);
    const results = await shapes.validate(quads);
    expect(results).toContainEqual(expect.objectContaining({ severity: 'Violation', component: 'MinCountConstraintComponent', focusNode: 'http://localhost:8080/source/sec-edgar/service/data-sec-gov' }));
  }, 120_000);
});
