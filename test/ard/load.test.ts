import { describe, expect, it } from 'vitest';
import { mkdtemp, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog, CatalogValidationError, catalogToQuads } from '../../src/ard/index.ts';
import { ARD_DIR } from './helpers.ts';
import { graphIri } from '../../src/rdf/vocab.ts';
import { sharedCatalog } from '../shared.ts';

describe('loadCatalog', () => {
  it('loads the whole ard-okf catalog with thousands of generated measures', async () => {
    const c = await sharedCatalog(ARD_DIR);
    const ids = c.publishers.map((p) => p.id);
    for (const p of ['sec-edgar', 'census-acs', 'irs-eo-bmf', 'irs-990-efile', 'propublica-nonprofits', 'treasury-fiscal-data', 'nsf-awards', 'nih-reporter', 'usaspending', 'cdc-places', 'college-scorecard', 'grants-gov', 'wikidata']) expect(ids).toContain(p);
    expect(c.measures.length).toBeGreaterThan(10_000);
    const revenues = c.measure('sec-edgar/us-gaap/Revenues');
    expect(revenues?.data.unit).toBe('USD');
    expect(revenues?.data.generatedFrom?.file).toMatch(/xbrl_concept_index_from_companyfacts/);
    expect(c.servingPaths(revenues!).map((a) => a.data.kind)).toEqual(['keyed_read', 'period_read', 'population_scan']);
    expect(c.accessPath('sec-edgar', 'companyfacts')?.rateLimit?.requestsPerSecond).toBe(10);
    expect(c.accessPath('sec-edgar', 'companyfacts')?.userAgentRequired).toBe(true);
    expect(c.accessPath('census-acs', 'acs-county')?.credentials).toMatchObject({ mode: 'optional', env: 'CENSUS_API_KEY' });
    expect(c.measure('census-acs/acs5-2009/B17001_002E')?.data.title).toMatch(/poverty/i);
  }, 120_000);

  // Start-up skips SHACL on the ~17.5k generated measures (they pass the JSON layers there);
  // this test is where they are proven to conform to the catalog shapes too.
  it('conforms to the catalog SHACL shapes in full, generated measures included', async () => {
    const c = await loadCatalog(ARD_DIR, { shaclGenerated: true });
    expect(c.measures.length).toBeGreaterThan(17_000);
  }, 300_000);

  it('throws CatalogValidationError with every problem and loads nothing when one descriptor is broken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-cat-'));
    await copyFile(join(ARD_DIR, 'nsf-awards.json'), join(dir, 'nsf-awards.json'));
    await writeFile(join(dir, 'broken.json'), JSON.stringify({ specVersion: '2.0', entries: [{ identifier: 'x' }] }));
    const err = await loadCatalog(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogValidationError);
    const problems = (err as CatalogValidationError).problems;
    expect(problems.length).toBeGreaterThanOrEqual(3);
    expect(problems.every((p) => p.file.endsWith('broken.json'))).toBe(true);
    expect((err as Error).message).toMatch(/specVersion/);
  });

  it('puts the RDF form in the catalog graph with every linked node typed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-cat-'));
    await copyFile(join(ARD_DIR, 'sec-edgar.json'), join(dir, 'sec-edgar.json'));
    const c = await loadCatalog(dir);
    const base = 'http://localhost:8080/';
    const quads = catalogToQuads(c, base);
    expect(new Set(quads.map((q) => q.graph.value))).toEqual(new Set([graphIri(base, 'catalog')]));
    const typed = new Set(quads.filter((q) => q.predicate.value.endsWith('#type')).map((q) => q.subject.value));
    const untyped = quads.filter((q) => q.object.termType === 'NamedNode' && !q.predicate.value.endsWith('#type') && !typed.has(q.object.value)).map((q) => `${q.predicate.value} ${q.object.value}`);
    expect(untyped).toEqual([]);
    const s = (iri: string) => quads.some((q) => q.subject.value === iri);
    expect(s(`${base}catalog`)).toBe(true);
    expect(s(`${base}source/sec-edgar/op/companyfacts`)).toBe(true);
  });
});
