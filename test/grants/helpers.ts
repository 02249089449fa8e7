/**
 * Test helpers: the extract read straight from the file with csv-parse (never with Assay's own
 * parser), so expected values are computed independently of the code under test; and one
 * in-memory store with the extract ingested.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { DurableStore } from '../../src/rdf/durable.ts';
import { embeddedGrantStore, type GrantStore } from '../../src/grants/store.ts';
import { ingest, readIngestFile, type IngestReport } from '../../src/grants/ingest.ts';
import { G, SDO, grantIris, type GrantIris } from '../../src/grants/vocab.ts';
import { DCT, PROV } from '../../src/rdf/vocab.ts';
import type { IdentityRegistry } from '../../src/resolve/registry.ts';

export const EXTRACT = new URL('../../fixtures/grants/c4c-orggraph_glfn_grants_detail.csv', import.meta.url).pathname;
const efile = (f: string) => new URL(`../../fixtures/publishers/irs-990-efile/bodies/efile-xml/${f}`, import.meta.url).pathname;
/** Form 990 with Schedule I (UCHealth Northern Colorado Foundation, TY2023; TRIMMED, Schedule I complete). */
export const SCHED_I = efile('202403589349300950_public.TRIMMED.xml');
/** Form 990-PF (Margaret McNeil Tr, TY2015; TRIMMED, Part XV complete). */
export const PF = efile('201601249349100900_public.990PF.TRIMMED.xml');
/** Form 990 without Schedule I (Voice of San Diego, TY2014; unmodified). */
export const NO_GRANTS = efile('201541349349307794_public.xml');
/** IRS BMF extract, DC. */
export const BMF_DC = new URL('../../fixtures/publishers/irs-eo-bmf/bodies/bmf/eo_dc.csv', import.meta.url).pathname;
export const BASE = 'http://assay.test/';

export interface Row {
  grantee_name: string; grantee_city: string; grantee_state: string; grant_amount: string; grant_purpose_raw: string;
  grant_bucket: string; foundation_name: string; foundation_ein: string; tax_year: string; grantee_ein: string;
}

export function extractRows(): Row[] {
  return parse(readFileSync(EXTRACT, 'utf8'), { columns: true, skip_empty_lines: true }) as Row[];
}

export const paid = (r: Row) => r.grant_bucket === 'schedule_i' || r.grant_bucket === '3a';
export const sum = (rs: readonly Row[]) => rs.reduce((s, r) => s + Number(r.grant_amount), 0);
export const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

export async function ingestedStore(files: string[] = [EXTRACT], registry?: IdentityRegistry): Promise<{ store: GrantStore; durable: DurableStore; iris: GrantIris; report: IngestReport }> {
  const durable = DurableStore.inMemory();
  const store = embeddedGrantStore(durable);
  const iris = grantIris(BASE);
  const report = await ingest(store, await Promise.all(files.map(readIngestFile)), { iris, ...(registry ? { registry } : {}) });
  return { store, durable, iris, report };
}

/** Layout 3, from a layout-4 graph: no unit links in the rollups graph, marked 3. */
export async function downgradeTo3(store: GrantStore, iris: GrantIris): Promise<void> {
  const g = `<${iris.graph}>`;
  await store.update(`DELETE WHERE { GRAPH <${iris.rollups}> { ?o <${G.parentNameKey}> ?k } }`);
  await store.update(`DELETE WHERE { GRAPH ${g} { ${g} <${G.layout}> ?v } } ; INSERT DATA { GRAPH ${g} { ${g} <${G.layout}> 3 } }`);
}

/**
 * Layout 2, from a layout-4 graph: no recipient address on the edges (and no place nodes), marked
 * 2. The rollups are left as they are: no reader reads a graph in layout 2, and the upgrade rebuilds them.
 */
export async function downgradeTo2(store: GrantStore, iris: GrantIris): Promise<void> {
  await downgradeTo3(store, iris);
  const g = `<${iris.graph}>`;
  await store.update(`DELETE WHERE { GRAPH ${g} { ?e <${G.recipientAddress}> ?p } }`);
  await store.update(`DELETE WHERE { GRAPH ${g} { ?p a <${SDO.PostalAddress}> ; ?x ?y } }`);
  await store.update(`DELETE WHERE { GRAPH ${g} { ${g} <${G.layout}> ?v } } ; INSERT DATA { GRAPH ${g} { ${g} <${G.layout}> 2 } }`);
}

/** Layout 1, from a layout-4 graph: what the edges and rollups looked like before the slim model. */
export async function downgrade(store: GrantStore, iris: GrantIris): Promise<void> {
  await downgradeTo2(store, iris);
  const g = `<${iris.graph}>`, ro = `<${iris.rollups}>`;
  await store.update(`DELETE { GRAPH ${g} { ?e <${PROV.wasDerivedFrom}> ?l } }
INSERT { GRAPH ${g} { ?e a <${G.Grant}> ; <${PROV.wasDerivedFrom}> ?filing ; <${G.funder}> ?f ; <${G.taxYear}> ?y ; <${G.paymentStatus}> ?s } }
WHERE { GRAPH ${g} { ?e <${G.recipient}> ?r ; <${PROV.wasDerivedFrom}> ?l . ?l <${DCT.isPartOf}> ?filing ; <${G.funder}> ?f ; <${G.taxYear}> ?y ; <${G.paymentStatus}> ?s } }`);
  await store.update(`DELETE WHERE { GRAPH ${g} { ?l a <${G.GrantList}> ; ?p ?o } }`);
  await store.update(`DELETE WHERE { GRAPH ${g} { ${g} <${G.layout}> ?v } }`);
  // layout 1's rollups: every rollup also typed grants:Rollup, and a pair rollup for every pair
  await store.update(`INSERT { GRAPH ${ro} { ?x a <${G.Rollup}> } } WHERE { GRAPH ${ro} { ?x <${G.totalAmount}> ?t } }`);
  await store.update(`INSERT { GRAPH ${ro} { ?x a <${G.PairRollup}>, <${G.Rollup}> ; <${G.rollupFunder}> ?f ; <${G.rollupRecipient}> ?r ; <${G.paymentStatus}> ?s ; <${G.totalAmount}> ?a ; <${G.grantCount}> 1 } }
WHERE { GRAPH ${g} { ?e a <${G.Grant}> ; <${G.funder}> ?f ; <${G.recipient}> ?r ; <${G.paymentStatus}> ?s ; <${G.amount}> ?a }
  BIND(IRI(CONCAT(STR(?f), "/to/", STRAFTER(STR(?r), "/org/"), "/", STRAFTER(STR(?s), "#"))) AS ?x)
  FILTER NOT EXISTS { GRAPH ${ro} { ?x <${G.totalAmount}> ?t } } }`);
}

/** State names a filer's "Parent - Unit" parent may be instead of an organization (enough for the extract's filed states). */
const STATE_NAMES = new Set(['illinois', 'indiana', 'michigan', 'minnesota', 'new york', 'ohio', 'wisconsin', 'pennsylvania', 'california']);

/**
 * The rows filed to an organization as a reader of the file groups them: under its name, and
 * under its units' — rows filed with no EIN as "<name> - <unit>" in a state the organization's
 * own rows are filed in (any state when it has none), unless the parent part is a city some row
 * was filed to or a state, or initials. Written here from the file, not with Assay's rule.
 */
export function toOrg(rows: readonly Row[], name: string): Row[] {
  const own = rows.filter((r) => norm(r.grantee_name) === norm(name));
  const states = new Set(own.map((r) => r.grantee_state.toUpperCase()));
  const cities = new Set(rows.map((r) => norm(r.grantee_city)));
  const parent = name.replace(/^the\s+/i, '');
  const place = cities.has(norm(parent)) || STATE_NAMES.has(norm(parent)) || /^[A-Z]{1,5}$/.test(parent.trim());
  const units = place ? [] : rows.filter((r) => {
    const at = r.grantee_name.indexOf(' - ');
    return at > 0 && !r.grantee_ein && norm(r.grantee_name.slice(0, at).replace(/^the\s+/i, '')) === norm(parent)
      && (states.size === 0 || states.has(r.grantee_state.toUpperCase()));
  });
  return [...own, ...units];
}
