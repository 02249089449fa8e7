/**
 * Citations resolved from the PROV-O graph, never generated: for each evidence IRI, follow
 * prov:wasGeneratedBy → prov:used → the publisher response (URL, retrieval time, hash) in the
 * evidence graph (for a store read: prov:used → the population graph → prov:wasDerivedFrom → the
 * response). A value whose chain is missing says "no source recorded".
 */
import type { RdfReader as RdfStore } from '../rdf/backend.ts';
import { ASSAY, PROV } from '../rdf/vocab.ts';
import { iri, sparql } from '../resolve/sparql-text.ts';

export interface Citation {
  evidence: string;
  publisher: string | null;
  url: string | null;
  retrieved_at: string | null;
  content_hash: string | null;
  response: string | null;
  /** The population graph the value was read from, when it was read from the store (the response is the one that graph was derived from). */
  via_graph?: string;
  /** Set when the graph holds no response for this evidence. */
  note?: 'no source recorded';
}

export function resolveCitations(store: RdfStore, evidenceGraph: string, evidenceIris: readonly string[]): Citation[] {
  const out: Citation[] = [];
  for (const e of evidenceIris) {
    const q = sparql`SELECT ?response ?url ?time ?hash ?publisher ?via WHERE { GRAPH ${iri(evidenceGraph)} {
  ${iri(e)} ${iri(PROV.wasGeneratedBy)} ?attempt .
  { ?attempt ${iri(PROV.used)} ?response } UNION { ?attempt a ${iri(ASSAY.StoreRead)} ; ${iri(PROV.used)} ?via . ?via ${iri(PROV.wasDerivedFrom)} ?response }
  ?response ${iri(ASSAY.requestUrl)} ?url ; ${iri(ASSAY.contentHash)} ?hash ; ${iri(PROV.wasAttributedTo)} ?publisher .
  OPTIONAL { ?response ${iri(PROV.generatedAtTime)} ?time }
} }`;
    const rows = store.select(q);
    if (rows.length === 0) { out.push({ evidence: e, publisher: null, url: null, retrieved_at: null, content_hash: null, response: null, note: 'no source recorded' }); continue; }
    for (const r of rows) {
      const via = r.get('via')?.value;
      out.push({ evidence: e, publisher: r.get('publisher')!.value, url: r.get('url')!.value, retrieved_at: r.get('time')?.value ?? null, content_hash: r.get('hash')!.value, response: r.get('response')!.value, ...(via ? { via_graph: via } : {}) });
    }
  }
  return out;
}
