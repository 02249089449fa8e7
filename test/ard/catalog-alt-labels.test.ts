/**
 * A measure's `altLabels` (the other names a question may use: "national debt" for total public
 * debt outstanding) are in the catalog graph as skos:altLabel, so a SPARQL client finds the measure
 * by them as Assay's own discovery does; the catalog shapes allow them, and a measure without any
 * carries none.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_SHAPE_FILES, loadShapeFiles } from '../../src/ard/shacl.ts';
import { loadCatalog, catalogToQuads } from '../../src/ard/index.ts';
import { syncCatalogGraph } from '../../src/ard/sync.ts';
import { jsFactory as f } from '../../src/rdf/store.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { graphIri, SKOS } from '../../src/rdf/vocab.ts';

const BASE = 'http://127.0.0.1:8080/';
const DEBT = `${BASE}measure/treasury-fiscal-data/debt_to_penny/tot_pub_debt_out_amt`;

let root: string;
let store: DurableStore;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'assay-altlabels-'));
  for (const f of ['treasury-fiscal-data.json', 'college-scorecard.json']) cpSync(join('ard-okf', f), join(root, 'catalog', f));
  store = DurableStore.inMemory();
  // the served path: validated (SHACL included) and written to the catalog graph by the sync
  await syncCatalogGraph(store, { baseIri: BASE, dir: join(root, 'catalog'), cacheDir: null });
}, 120_000);
afterAll(async () => { await store.close(); rmSync(root, { recursive: true, force: true }); });

const byAltLabel = (label: string) => store.rdf.select(`
  PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
  PREFIX assay: <https://w3id.org/assay/ns#>
  SELECT ?m ?pref WHERE { GRAPH <${graphIri(BASE, 'catalog')}> { ?m a assay:Measure ; skos:altLabel ${JSON.stringify(label)}@en ; <http://www.w3.org/2000/01/rdf-schema#label> ?pref } }`)
  .map((b) => [b.get('m')!.value, b.get('pref')!.value]);

describe('measure altLabels in the catalog graph', () => {
  it.each(['national debt', 'federal debt', 'government debt'])('finds total public debt outstanding by "%s"', (label) => {
    expect(byAltLabel(label)).toEqual([[DEBT, 'Total public debt outstanding']]);
  });

  it('writes every altLabel a measure declares, language-tagged, and none on a measure that declares none', () => {
    const labels = (m: string) => store.rdf.select(`SELECT ?l WHERE { GRAPH ?g { <${m}> <http://www.w3.org/2004/02/skos/core#altLabel> ?l } }`).map((b) => b.get('l')!);
    expect(labels(DEBT).map((l) => l.value).sort()).toEqual(['debt', 'federal debt', 'government debt', 'national debt', 'total debt']);
    expect(labels(DEBT).every((l) => l.termType === 'Literal' && l.language === 'en')).toBe(true);
    expect(labels(`${BASE}measure/college-scorecard/latest/student.size`)).toEqual([]);
  });

  it('the catalog shapes hold an altLabel to a language-tagged name', async () => {
    const quads = catalogToQuads(await loadCatalog(join(root, 'catalog')), BASE);
    const shapes = await loadShapeFiles(CATALOG_SHAPE_FILES);
    const onAlt = async (extra: ReturnType<typeof f.quad>[]) => (await shapes.validate([...quads, ...extra])).filter((r) => r.path === SKOS.altLabel).map((r) => [r.focusNode, r.component]);
    expect(await onAlt([])).toEqual([]);
    expect(await onAlt([f.quad(f.namedNode(DEBT), f.namedNode(SKOS.altLabel), f.literal('public debt'))])).toEqual([[DEBT, 'DatatypeConstraintComponent']]);
  }, 120_000);
});
