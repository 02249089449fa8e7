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
import { grantIris, type GrantIris } from '../../src/grants/vocab.ts';
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
