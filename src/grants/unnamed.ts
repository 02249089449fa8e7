/**
 * What a filer wrote in a return's recipient column in place of a recipient ("SEE ATTACHED
 * SCHEDULE", "VARIOUS"): such a line names no organization and may total several grants listed in
 * an attachment to the return, so it is not one organization, and not one grant.
 *
 * Input: the graph's recipient names. Output: `a grants:UnnamedRecipient` on each such recipient,
 * in the rollups graph — derived at ingest from the names, like the unit links (units.ts), and
 * rebuilt with the rollups (layout 4). Rankings of recipients and of single grants leave them out
 * and say how many (traverse.ts); a total over a funder's grants keeps them (the money was paid).
 * Never: drops a grant from a total, or decides by anything but the filed name.
 */
import { RDF } from '../rdf/vocab.ts';
import { TripleWriter, iriNt } from './model.ts';
import * as Q from './queries.ts';
import type { GrantStore } from './store.ts';
import { G, type GrantIris } from './vocab.ts';

export const UNNAMED_RECIPIENT = /^\s*(?:see\b.*\b(?:attached|schedule|statement|list(?:ing)?)\b|(?:per|as per)\s+attached\b|attached\s+(?:schedule|statement|list)\b|various(?:\s+(?:recipients|organizations|charities|grantees))?\s*$)/i;

export const isUnnamedRecipient = (name: string): boolean => UNNAMED_RECIPIENT.test(name);

/** Marks every recipient whose filed name is such a placeholder (the rollups graph, cleared by the rebuild that calls this). */
export async function writeUnnamedMarks(store: GrantStore, iris: GrantIris, signal?: AbortSignal): Promise<number> {
  const orgs = new Set<string>();
  for (const r of await store.select(Q.unnamedCandidates(iris), signal)) if (isUnnamedRecipient(r.name!.value)) orgs.add(r.o!.value);
  const w = new TripleWriter();
  for (const o of [...orgs].sort()) w.t(o, RDF.type, iriNt(G.UnnamedRecipient));
  if (orgs.size > 0) await store.insertTriples(iris.rollups, w.text());
  return orgs.size;
}
