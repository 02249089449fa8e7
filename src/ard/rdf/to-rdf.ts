/**
 * catalogToQuads: the whole catalog as RDF for the `catalog` named graph.
 *
 * The DCAT view (dcat.ts) plus Assay's own terms for what DCAT does not say: each publisher's OKF
 * source concept (assay:Source), each API operation as an assay:AccessPath (kind, URL template,
 * accepted identifier types, grain, coverage, pagination, rate limit, credential), and each
 * published figure as an assay:Measure linked to the access paths that serve it. OKF provenance and
 * lifecycle fields become assay:okfType/status/staleAfter/generatedBy/... on every concept node.
 * Every node that is linked to carries an explicit rdf:type.
 */
import type { AccessPath, ArdEntry, Catalog, Measure, Publisher } from '../catalog.ts';
import type * as RDFJS from '@rdfjs/types';
import { ASSAY, DCAT, DCT, FOAF, graphIri, PROV, RDF, RDFS, SKOS } from '../../rdf/vocab.ts';
import { catalogIris, type CatalogIris } from './iris.ts';
import { writeDcat, type DcatOptions } from './dcat.ts';
import { QuadWriter } from './writer.ts';

const KIND_INDIVIDUAL: Record<string, string> = {
  keyed_read: ASSAY.KeyedRead, search: ASSAY.Search, records_by_entity: ASSAY.RecordsByEntity,
  ordered_top_n: ASSAY.OrderedTopN, population_scan: ASSAY.PopulationScan, server_aggregate: ASSAY.ServerAggregate,
  period_read: ASSAY.PeriodRead, join_key: ASSAY.JoinKey, edges_forward: ASSAY.EdgesForward, edges_reverse: ASSAY.EdgesReverse,
};

/**
 * The version of this mapping. The stored catalog graph (and its cache file) is rebuilt when the
 * descriptors change *or* this does (src/ard/sync.ts): bump it whenever the quads written for the
 * same descriptors change, or stores built before keep serving the old graph.
 */
export const CATALOG_RDF_VERSION = 2;

export interface CatalogRdfOptions extends Omit<DcatOptions, 'graph'> {
  /** Target graph; defaults to graphIri(baseIri, 'catalog'). */
  graph?: string;
}

export function catalogToQuads(catalog: Catalog, baseIri: string, options: CatalogRdfOptions = {}): RDFJS.Quad[] {
  const w = new QuadWriter(options.graph ?? graphIri(baseIri, 'catalog'));
  const iris = catalogIris(baseIri);
  writeDcat(w, catalog, iris, options);
  const identifierTypes = new Set<string>();
  for (const p of catalog.publishers) writeSource(w, p, iris, identifierTypes);
  for (const a of catalog.accessPaths) writeAccessPath(w, a, catalog, iris, identifierTypes);
  for (const m of catalog.measures) writeMeasure(w, m, iris);
  for (const t of identifierTypes) {
    w.link(iris.identifierType(t), RDF.type, ASSAY.IdentifierType);
    w.add(iris.identifierType(t), RDFS.label, w.str(t));
  }
  return w.quads;
}

function writeSource(w: QuadWriter, p: Publisher, iris: CatalogIris, idTypes: Set<string>): void {
  const s = iris.source(p.id);
  w.link(s, RDF.type, ASSAY.Source, ASSAY.OkfConcept);
  w.link(s, DCT.publisher, iris.publisher(p.id));
  w.link(iris.publisher(p.id), RDF.type, ASSAY.Publisher);
  writeConcept(w, s, p.entry, p.data);
  for (const ds of p.data.datasets) w.link(s, DCT.hasPart, iris.dataset(p.id, ds.id));
  for (const svc of p.data.services) w.link(s, DCT.hasPart, iris.service(p.id, svc.id));
  for (const t of p.data.identifierTypes) { idTypes.add(t); w.link(s, ASSAY.acceptsIdentifier, iris.identifierType(t)); }
}

function writeAccessPath(w: QuadWriter, a: AccessPath, catalog: Catalog, iris: CatalogIris, idTypes: Set<string>): void {
  const op = iris.accessPath(a.publisherId, a.id);
  const d = a.data;
  w.link(op, RDF.type, ASSAY.AccessPath, ASSAY.OkfConcept);
  writeConcept(w, op, a.entry, d);
  w.link(iris.service(a.publisherId, d.service), ASSAY.accessPath, op);
  w.link(op, ASSAY.dataset, iris.dataset(a.publisherId, d.dataset));
  w.link(op, DCT.publisher, iris.publisher(a.publisherId));
  w.add(op, ASSAY.operationId, w.str(d.operationId));
  const kind = KIND_INDIVIDUAL[d.kind]!;
  w.link(op, ASSAY.accessPathKind, kind);
  w.link(kind, RDF.type, ASSAY.AccessPathKind);
  w.add(op, ASSAY.urlTemplate, w.str(d.urlTemplate));
  w.add(op, ASSAY.httpMethod, w.str(d.method));
  w.add(op, ASSAY.responseFormat, w.str(d.responseFormat));
  w.add(op, ASSAY.grain, w.str(d.grain, 'en'));
  w.add(op, ASSAY.userAgentRequired, w.bool(a.userAgentRequired));
  for (const t of d.accepts) { idTypes.add(t); w.link(op, ASSAY.acceptsIdentifier, iris.identifierType(t)); }

  const cov = iris.coverage(a.publisherId, a.id);
  w.link(op, ASSAY.coverage, cov);
  w.link(cov, RDF.type, ASSAY.Coverage, d.coverage.complete ? ASSAY.CompleteCoverage : ASSAY.PartialCoverage);
  w.add(cov, ASSAY.complete, w.bool(d.coverage.complete));
  w.add(cov, ASSAY.coverageScope, w.str(d.coverage.of, 'en'));
  if (d.coverage.note) w.add(cov, ASSAY.coverageNote, w.str(d.coverage.note, 'en'));

  const pg = iris.pagination(a.publisherId, a.id);
  w.link(op, ASSAY.pagination, pg);
  w.link(pg, RDF.type, ASSAY.Pagination);
  w.add(pg, ASSAY.paginated, w.bool(d.pagination.style !== 'none'));
  w.add(pg, ASSAY.paginationStyle, w.str(d.pagination.style));
  if (d.pagination.pageParam) w.add(pg, ASSAY.pageParam, w.str(d.pagination.pageParam));
  if (d.pagination.pageSizeParam) w.add(pg, ASSAY.pageSizeParam, w.str(d.pagination.pageSizeParam));
  if (d.pagination.maxPageSize !== undefined) w.add(pg, ASSAY.maxPageSize, w.int(d.pagination.maxPageSize));
  if (d.pagination.maxRows !== undefined) w.add(pg, ASSAY.maxRows, w.int(d.pagination.maxRows));
  if (d.pagination.note) w.add(pg, RDFS.comment, w.str(d.pagination.note, 'en'));

  if (a.rateLimit) {
    const rl = iris.rateLimit(a.publisherId, a.id);
    w.link(op, ASSAY.rateLimit, rl);
    w.link(rl, RDF.type, ASSAY.RateLimit);
    if (a.rateLimit.requestsPerSecond !== undefined) w.add(rl, ASSAY.requestsPerSecond, w.dec(a.rateLimit.requestsPerSecond));
    if (a.rateLimit.requestsPerDay !== undefined) w.add(rl, ASSAY.requestsPerDay, w.int(a.rateLimit.requestsPerDay));
    if (a.rateLimit.note) w.add(rl, RDFS.comment, w.str(a.rateLimit.note, 'en'));
  }
  w.add(op, ASSAY.requiresCredential, w.bool(a.credentials.mode === 'required'));
  if (a.credentials.mode !== 'none') {
    const cr = iris.credential(a.publisherId, a.id);
    w.link(op, ASSAY.credential, cr);
    w.link(cr, RDF.type, ASSAY.Credential);
    w.add(cr, ASSAY.requiresCredential, w.bool(a.credentials.mode === 'required'));
    if (a.credentials.env) w.add(cr, ASSAY.credentialEnv, w.str(a.credentials.env));
    if (a.credentials.note) w.add(cr, ASSAY.credentialNote, w.str(a.credentials.note, 'en'));
  }
  // servesMeasure is the inverse of servedBy; written here so "what does this operation return"
  // is one hop from the operation as well.
  for (const m of catalog.measures) {
    if (m.publisherId === a.publisherId && m.data.servedBy.includes(a.id)) {
      w.link(op, ASSAY.servesMeasure, iris.measure(m.publisherId, m.data.measureId));
    }
  }
}

function writeMeasure(w: QuadWriter, m: Measure, iris: CatalogIris): void {
  const me = iris.measure(m.publisherId, m.data.measureId);
  const d = m.data;
  w.link(me, RDF.type, ASSAY.Measure, ASSAY.OkfConcept);
  writeConcept(w, me, m.entry, d);
  w.add(me, ASSAY.measureId, w.str(d.measureId));
  w.add(me, ASSAY.unit, w.str(d.unit));
  w.add(me, ASSAY.valueType, w.str(d.valueType));
  // the other names discovery and the label check accept ("national debt"): in the graph as SKOS says them
  for (const l of d.altLabels ?? []) w.add(me, SKOS.altLabel, w.str(l, 'en'));
  if (d.taxonomy) w.add(me, ASSAY.taxonomy, w.str(d.taxonomy));
  w.link(me, ASSAY.dataset, iris.dataset(m.publisherId, d.dataset));
  w.link(me, DCT.publisher, iris.publisher(m.publisherId));
  for (const op of d.servedBy) w.link(me, ASSAY.servedBy, iris.accessPath(m.publisherId, op));
  for (const q of m.entry.representativeQueries ?? []) w.add(me, ASSAY.representativeQuestion, w.str(q, 'en'));
  if (d.generatedFrom) {
    w.add(me, ASSAY.generatedFrom, w.str(d.generatedFrom.file));
    if (isHttpUrl(d.generatedFrom.origin)) {
      w.link(me, PROV.wasDerivedFrom, d.generatedFrom.origin);
      w.link(d.generatedFrom.origin, RDF.type, FOAF.Document);
    } else {
      w.add(me, ASSAY.sourceRecord, w.str(d.generatedFrom.origin));
    }
  }
}

interface OkfFields {
  type: string; title: string; description: string; resource?: string | undefined; tags?: string[] | undefined;
  sources?: { resource: string; title?: string | undefined }[] | undefined;
  generated?: { by: string; at?: string | undefined } | undefined;
  verified?: { by: string; at: string } | { by: string; at: string }[] | undefined;
  status?: string | undefined; stale_after?: string | undefined;
}

/** The OKF frontmatter and ARD entry fields common to every concept node. */
function writeConcept(w: QuadWriter, node: string, entry: ArdEntry, d: OkfFields): void {
  w.add(node, ASSAY.ardIdentifier, w.str(entry.identifier));
  w.add(node, DCT.identifier, w.str(entry.identifier));
  w.add(node, ASSAY.okfType, w.str(d.type));
  w.add(node, DCT.title, w.str(d.title, 'en'));
  w.add(node, RDFS.label, w.str(entry.displayName, 'en'));
  w.add(node, DCT.description, w.str(d.description, 'en'));
  if (d.resource && isHttpUrl(d.resource)) {
    w.link(node, FOAF.page, d.resource);
    w.link(d.resource, RDF.type, FOAF.Document);
  }
  for (const t of d.tags ?? entry.tags ?? []) w.add(node, DCAT.keyword, w.str(t, 'en'));
  for (const c of entry.capabilities ?? []) w.add(node, ASSAY.capability, w.str(c));
  if (!node.includes('/measure/')) for (const q of entry.representativeQueries ?? []) w.add(node, ASSAY.representativeQuery, w.str(q, 'en'));
  for (const s of d.sources ?? []) {
    if (isHttpUrl(s.resource)) {
      w.link(node, DCT.source, s.resource);
      w.link(s.resource, RDF.type, FOAF.Document);
      if (s.title) w.add(s.resource, DCT.title, w.str(s.title, 'en'));
    } else {
      w.add(node, ASSAY.sourceRecord, w.str(s.resource));
    }
  }
  if (d.generated) {
    w.add(node, ASSAY.generatedBy, w.str(d.generated.by));
    if (d.generated.at) w.add(node, ASSAY.generatedAt, w.dateTime(d.generated.at));
  }
  const verified = d.verified === undefined ? [] : Array.isArray(d.verified) ? d.verified : [d.verified];
  for (const v of verified) w.add(node, ASSAY.verifiedBy, w.str(v.by));
  const latest = verified.map((v) => v.at).sort().at(-1);
  if (latest) w.add(node, ASSAY.verifiedAt, w.dateTime(latest));
  w.add(node, ASSAY.status, w.str(d.status ?? 'stable'));
  if (d.stale_after) w.add(node, ASSAY.staleAfter, w.date(d.stale_after));
}

function isHttpUrl(s: string): boolean {
  return /^https?:\/\/[^\s]+$/.test(s);
}
