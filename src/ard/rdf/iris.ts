/**
 * The IRIs Assay mints for catalog resources, all under the configured base IRI, so they
 * dereference on Assay's own server. One function per kind of node; nothing else builds these.
 */
import { ensureSlash } from '../../rdf/vocab.ts';

const seg = (s: string): string => encodeURIComponent(s);

export function catalogIris(baseIri: string) {
  const base = ensureSlash(baseIri);
  const source = (pub: string) => `${base}source/${seg(pub)}`;
  return {
    base,
    catalog: `${base}catalog`,
    catalogAgent: `${base}agent/assay`,
    publisher: (pub: string) => `${base}publisher/${seg(pub)}`,
    source,
    contact: (pub: string) => `${source(pub)}/contact`,
    accessRights: (pub: string) => `${source(pub)}/access-rights`,
    dataset: (pub: string, ds: string) => `${source(pub)}/dataset/${seg(ds)}`,
    distribution: (pub: string, ds: string) => `${source(pub)}/dataset/${seg(ds)}/distribution`,
    temporal: (pub: string, ds: string) => `${source(pub)}/dataset/${seg(ds)}/temporal`,
    service: (pub: string, svc: string) => `${source(pub)}/service/${seg(svc)}`,
    accessPath: (pub: string, op: string) => `${source(pub)}/op/${seg(op)}`,
    coverage: (pub: string, op: string) => `${source(pub)}/op/${seg(op)}/coverage`,
    pagination: (pub: string, op: string) => `${source(pub)}/op/${seg(op)}/pagination`,
    rateLimit: (pub: string, op: string) => `${source(pub)}/op/${seg(op)}/rate-limit`,
    credential: (pub: string, op: string) => `${source(pub)}/op/${seg(op)}/credential`,
    measure: (pub: string, measureId: string) => `${base}measure/${seg(pub)}/${measureId.split('/').map(seg).join('/')}`,
    identifierType: (t: string) => `${base}identifier-type/${seg(t)}`,
  };
}
export type CatalogIris = ReturnType<typeof catalogIris>;
