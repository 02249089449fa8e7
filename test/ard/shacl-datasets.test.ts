// SHACL runs over N3 stores (src/ard/shacl.ts) instead of rdf-validate-shacl's default datasets,
// because those build a new indexed dataset for every match. The reports must not change: the same
// results, in the same order, as the library's own datasets give, for data that breaks many
// different constraints (catalog shapes, DCAT-AP mandatory and recommended shapes).
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as RDFJS from '@rdfjs/types';
import { DataFactory } from 'n3';
import { describe, expect, it } from 'vitest';
import { catalogDcatQuads, catalogToQuads, loadCatalog } from '../../src/ard/index.ts';
import { CATALOG_SHAPE_FILES, compileShapes, type ShaclResult } from '../../src/ard/shacl.ts';
import { EVIDENCE_SHAPES_FILE } from '../../src/evidence/shacl.ts';
import { sharedCatalog } from '../shared.ts';
import { ARD_DIR } from './helpers.ts';

const fixture = (f: string) => readFile(new URL(`../../fixtures/dcat-ap/${f}`, import.meta.url), 'utf8');
const { literal, namedNode, quad } = DataFactory;

/** Every 7th quad dropped, every 11th object made a plain literal, every 13th an IRI: breaks minCount, datatype, nodeKind, class, in and pattern constraints. */
function damaged(quads: readonly RDFJS.Quad[]): RDFJS.Quad[] {
  const out: RDFJS.Quad[] = [];
  quads.forEach((q, i) => {
    if (i % 7 === 3) return;
    if (i % 11 === 5) out.push(quad(q.subject, q.predicate, literal(`damaged ${q.object.value}`), q.graph));
    else if (i % 13 === 6) out.push(quad(q.subject, q.predicate, namedNode(`http://example.org/damaged/${i}`), q.graph));
    else out.push(q);
  });
  return out;
}

/** Blank-node labels are the parser's (each compile numbers them anew): named by first appearance in the report. */
function canonical(results: ShaclResult[]): ShaclResult[] {
  const names = new Map<string, string>();
  const name = (v: string | undefined) => {
    if (v === undefined || !/^(n3-\d+|_:.*|b\d+)$/.test(v)) return v;
    if (!names.has(v)) names.set(v, `blank-${names.size}`);
    return names.get(v)!;
  };
  return results.map((r) => ({ ...r, focusNode: name(r.focusNode)!, ...(r.path === undefined ? {} : { path: name(r.path) }), ...(r.value === undefined ? {} : { value: name(r.value) }), ...(r.sourceShape === undefined ? {} : { sourceShape: name(r.sourceShape) }) }));
}

async function bothReports(docs: string[], data: readonly RDFJS.Quad[]) {
  const fast = canonical(await compileShapes(docs).validate(data));
  const reference = canonical(await compileShapes(docs, { datasets: 'library' }).validate(data));
  return { fast, reference };
}

describe('SHACL over N3 stores', () => {
  it('reports what the library\'s own datasets report, in the same order: catalog shapes', async () => {
    // the hand-written descriptors (the generated taxonomies only repeat their shapes)
    const dir = await mkdtemp(join(tmpdir(), 'assay-shacl-'));
    for (const f of ['sec-edgar.json', 'treasury-fiscal-data.json', 'cdc-places.json', 'college-scorecard.json', 'propublica-nonprofits.json', 'irs-eo-bmf.json', 'grants-gov.json']) await copyFile(join(ARD_DIR, f), join(dir, f));
    const catalog = await loadCatalog(dir);
    await rm(dir, { recursive: true, force: true });
    const docs = await Promise.all(CATALOG_SHAPE_FILES.map((f) => readFile(f, 'utf8')));
    const quads = catalogToQuads(catalog, 'http://localhost:8080/');
    const clean = await bothReports(docs, quads);
    expect(clean.fast).toEqual(clean.reference);
    const broken = await bothReports(docs, damaged(quads));
    expect(broken.fast.length).toBeGreaterThan(50);
    expect(new Set(broken.fast.map((r) => r.component)).size).toBeGreaterThan(3);
    expect(broken.fast).toEqual(broken.reference);
  }, 300_000);

  it('reports what the library\'s own datasets report, in the same order: DCAT-AP and evidence shapes', async () => {
    const catalog = await sharedCatalog(ARD_DIR);
    const docs = [await fixture('dcat-ap-3.0.0-constraints.ttl'), await fixture('shapes_recommended.ttl'), await readFile(EVIDENCE_SHAPES_FILE, 'utf8')];
    const quads = damaged(catalogDcatQuads(catalog, 'http://localhost:8080/'));
    const { fast, reference } = await bothReports(docs, quads);
    expect(fast.length).toBeGreaterThan(20);
    expect(fast).toEqual(reference);
  }, 300_000);
});
