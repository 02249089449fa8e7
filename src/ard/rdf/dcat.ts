/**
 * The DCAT 3 view of the catalog — what `/catalog` serves — shaped to conform to DCAT-AP 3.0.0
 * (mandatory and recommended properties; see fixtures/dcat-ap/ and test/ard/dcat-ap.test.ts).
 *
 * Input: a validated Catalog and the base IRI. Output: quads (in `graph`, default graph if omitted):
 * one dcat:Catalog; per publisher a foaf:Agent, a vcard:Kind contact, a dct:RightsStatement; per
 * declared dataset a dcat:Dataset with a dcat:Distribution; per declared API a dcat:DataService.
 * DCAT-AP's range checks have no inference, so every node linked here carries an explicit rdf:type
 * (including external IRIs such as licences, endpoint URLs and EU vocabulary concepts).
 */
import type { Catalog, Publisher } from '../catalog.ts';
import type * as RDFJS from '@rdfjs/types';
import {
  ADMS_LICENCE_TYPE, ADMS_PUBLISHER_TYPE, APACHE_2_LICENCE, GEOSPARQL, DCAT, DCATAP, DCT, EUVOC_COUNTRY, EUVOC_DATA_THEME,
  EUVOC_FILETYPE, EUVOC_LANGUAGE, EUVOC_PLANNED_AVAILABILITY, FOAF, RDF, RDFS, SKOS, VCARD,
} from '../../rdf/vocab.ts';
import { catalogIris, type CatalogIris } from './iris.ts';
import { QuadWriter } from './writer.ts';

export interface DcatOptions {
  /** Named graph for the quads; the default graph when omitted. */
  graph?: string;
  /** Who publishes the catalog itself (DCAT-AP requires a publisher on dcat:Catalog). */
  catalogPublisher?: { name: string; homepage?: string };
}

const THEME_LABELS: Record<string, string> = {
  AGRI: 'Agriculture, fisheries, forestry and food', ECON: 'Economy and finance', EDUC: 'Education, culture and sport',
  ENER: 'Energy', ENVI: 'Environment', GOVE: 'Government and public sector', HEAL: 'Health',
  INTR: 'International issues', JUST: 'Justice, legal system and public safety', REGI: 'Regions and cities',
  SOCI: 'Population and society', TECH: 'Science and technology', TRAN: 'Transport',
};
const THEME_SCHEME = EUVOC_DATA_THEME.replace(/\/$/, '');
const USA = `${EUVOC_COUNTRY}USA`;
const ENGLISH = `${EUVOC_LANGUAGE}ENG`;
const STABLE = `${EUVOC_PLANNED_AVAILABILITY}STABLE`;
const CATALOG_LICENCE = APACHE_2_LICENCE;

export function catalogDcatQuads(catalog: Catalog, baseIri: string, options: DcatOptions = {}): RDFJS.Quad[] {
  const w = new QuadWriter(options.graph);
  writeDcat(w, catalog, catalogIris(baseIri), options);
  return w.quads;
}

/** Writes the DCAT view into an existing writer (catalogToQuads reuses it). */
export function writeDcat(w: QuadWriter, catalog: Catalog, iris: CatalogIris, options: DcatOptions = {}): void {
  const cat = iris.catalog;
  const dates = catalog.publishers.map((p) => (p.data.generated?.at ?? '').slice(0, 10)).filter((d) => d !== '').sort();
  const issued = dates[0] ?? '2026-01-01';
  const modified = dates[dates.length - 1] ?? issued;

  w.link(cat, RDF.type, DCAT.Catalog);
  w.add(cat, DCT.title, w.str('Assay catalog of US public-data publishers', 'en'));
  w.add(cat, DCT.description, w.str('The publishers, datasets and APIs Assay can query, with the access paths and measures each declares.', 'en'));
  w.link(cat, DCT.language, ENGLISH);
  w.add(cat, DCT.issued, w.date(issued));
  w.add(cat, DCT.modified, w.date(modified));
  w.link(cat, DCT.spatial, USA);
  w.link(cat, DCAT.themeTaxonomy, THEME_SCHEME);
  w.link(cat, FOAF.homepage, iris.base);
  w.link(iris.base, RDF.type, FOAF.Document);
  w.link(cat, DCT.license, CATALOG_LICENCE);
  licence(w, CATALOG_LICENCE, 'Apache License 2.0', 'Attribution');

  const cp = options.catalogPublisher ?? { name: 'Assay' };
  w.link(cat, DCT.publisher, iris.catalogAgent);
  w.link(iris.catalogAgent, RDF.type, FOAF.Agent);
  w.add(iris.catalogAgent, FOAF.name, w.str(cp.name));
  if (cp.homepage) w.link(iris.catalogAgent, FOAF.homepage, cp.homepage);
  agentType(w, iris.catalogAgent, 'NonProfitOrganisation');

  w.link(ENGLISH, RDF.type, DCT.LinguisticSystem);
  w.link(USA, RDF.type, DCT.Location);
  w.add(USA, RDFS.label, w.str('United States', 'en'));
  // Bounding box and centroid of the 50 states + DC, as WKT (DCAT-AP recommends both on dct:Location).
  w.add(USA, DCAT.bbox, w.typed('POLYGON((-179.2 18.9,-66.9 18.9,-66.9 71.4,-179.2 71.4,-179.2 18.9))', GEOSPARQL.wktLiteral));
  w.add(USA, DCAT.centroid, w.typed('POINT(-98.6 39.8)', GEOSPARQL.wktLiteral));
  w.link(THEME_SCHEME, RDF.type, SKOS.ConceptScheme);
  w.add(THEME_SCHEME, DCT.title, w.str('Data theme', 'en'));

  for (const p of catalog.publishers) writePublisher(w, p, iris, cat);
}

function writePublisher(w: QuadWriter, p: Publisher, iris: CatalogIris, cat: string): void {
  const d = p.data;
  const pub = iris.publisher(p.id);
  w.link(pub, RDF.type, FOAF.Agent, FOAF.Organization);
  w.add(pub, FOAF.name, w.str(d.publisher.name));
  w.link(pub, FOAF.homepage, d.publisher.homepage);
  w.link(d.publisher.homepage, RDF.type, FOAF.Document);
  agentType(w, pub, d.publisher.kind);

  const contact = iris.contact(p.id);
  w.link(contact, RDF.type, VCARD.Kind, VCARD.Organization);
  w.add(contact, VCARD.fn, w.str(d.contactPoint.name));
  if (d.contactPoint.url) {
    w.link(contact, VCARD.hasURL, d.contactPoint.url);
    w.link(d.contactPoint.url, RDF.type, FOAF.Document);
  }
  if (d.contactPoint.email) {
    w.link(contact, VCARD.hasEmail, `mailto:${d.contactPoint.email}`);
    w.link(`mailto:${d.contactPoint.email}`, RDF.type, RDFS.Resource);
  }

  const rights = iris.accessRights(p.id);
  w.link(rights, RDF.type, DCT.RightsStatement);
  w.add(rights, RDFS.label, w.str(d.accessRights, 'en'));
  licence(w, d.license.url, d.license.title, d.license.kind);
  w.link(d.landingPage.url, RDF.type, FOAF.Document);
  w.add(d.landingPage.url, DCT.title, w.str(d.landingPage.title, 'en'));

  for (const ds of d.datasets) {
    const dsIri = iris.dataset(p.id, ds.id);
    w.link(cat, DCAT.dataset, dsIri);
    w.link(dsIri, RDF.type, DCAT.Dataset);
    w.add(dsIri, DCT.title, w.str(ds.title, 'en'));
    w.add(dsIri, DCT.description, w.str(ds.description, 'en'));
    w.add(dsIri, DCT.identifier, w.str(dsIri));
    w.link(dsIri, DCT.publisher, pub);
    w.link(dsIri, DCAT.contactPoint, contact);
    w.link(dsIri, DCT.accessRights, rights);
    w.add(dsIri, DCAT.keyword, ...ds.keywords.map((k) => w.str(k, 'en')));
    for (const t of ds.themes) {
      const theme = EUVOC_DATA_THEME + t;
      w.link(dsIri, DCAT.theme, theme);
      w.link(theme, RDF.type, SKOS.Concept);
      w.add(theme, SKOS.prefLabel, w.str(THEME_LABELS[t] ?? t, 'en'));
      w.link(theme, SKOS.inScheme, THEME_SCHEME);
    }
    w.link(dsIri, DCAT.landingPage, ds.landingPage);
    w.link(ds.landingPage, RDF.type, FOAF.Document);
    w.link(dsIri, DCT.spatial, USA);
    const tmp = iris.temporal(p.id, ds.id);
    w.link(dsIri, DCT.temporal, tmp);
    w.link(tmp, RDF.type, DCT.PeriodOfTime);
    w.add(tmp, DCAT.startDate, w.date(ds.temporal.start));
    w.add(tmp, DCAT.endDate, w.date(ds.temporal.end));

    const svc = d.services.find((s) => s.servesDatasets.includes(ds.id));
    const dist = iris.distribution(p.id, ds.id);
    w.link(dsIri, DCAT.distribution, dist);
    w.link(dist, RDF.type, DCAT.Distribution);
    w.add(dist, DCT.title, w.str(`${ds.title} via ${svc?.title ?? 'the publisher API'}`, 'en'));
    w.add(dist, DCT.description, w.str(`Access to ${ds.title} through ${svc ? svc.title : "the publisher's API"}; see the access paths in the Assay catalog for the operations.`, 'en'));
    const accessUrl = svc?.endpointURL ?? ds.landingPage;
    w.link(dist, DCAT.accessURL, accessUrl);
    w.link(accessUrl, RDF.type, RDFS.Resource);
    if (svc) w.link(dist, DCAT.accessService, iris.service(p.id, svc.id));
    w.link(dist, DCATAP.availability, STABLE);
    w.link(STABLE, RDF.type, SKOS.Concept);
    w.add(STABLE, SKOS.prefLabel, w.str('stable', 'en'));
    const fmt = EUVOC_FILETYPE + ds.format;
    w.link(dist, DCT.format, fmt);
    w.link(fmt, RDF.type, DCT.MediaTypeOrExtent);
    w.link(dist, DCT.license, d.license.url);
  }

  for (const s of d.services) {
    const svc = iris.service(p.id, s.id);
    w.link(cat, DCAT.service, svc);
    w.link(svc, RDF.type, DCAT.DataService);
    w.add(svc, DCT.title, w.str(s.title, 'en'));
    w.add(svc, DCT.description, w.str(s.description, 'en'));
    w.link(svc, DCT.publisher, pub);
    w.link(svc, DCAT.contactPoint, contact);
    w.link(svc, DCAT.endpointURL, s.endpointURL);
    w.link(s.endpointURL, RDF.type, RDFS.Resource);
    w.link(svc, DCAT.endpointDescription, s.endpointDescription);
    w.link(s.endpointDescription, RDF.type, RDFS.Resource, FOAF.Document);
    for (const ds of s.servesDatasets) w.link(svc, DCAT.servesDataset, iris.dataset(p.id, ds));
    w.link(svc, DCT.license, d.license.url);
    w.link(svc, DCT.accessRights, rights);
    w.link(svc, DCAT.landingPage, d.landingPage.url);
  }
}

function licence(w: QuadWriter, url: string, title: string, kind: string): void {
  w.link(url, RDF.type, DCT.LicenseDocument);
  w.add(url, DCT.title, w.str(title, 'en'));
  const type = ADMS_LICENCE_TYPE + kind;
  w.link(url, DCT.type, type);
  w.link(type, RDF.type, SKOS.Concept);
  w.add(type, SKOS.prefLabel, w.str(kind, 'en'));
}

function agentType(w: QuadWriter, agent: string, kind: string): void {
  const type = ADMS_PUBLISHER_TYPE + kind;
  w.link(agent, DCT.type, type);
  w.link(type, RDF.type, SKOS.Concept);
  w.add(type, SKOS.prefLabel, w.str(kind, 'en'));
}
