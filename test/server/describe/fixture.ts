/**
 * A small catalog graph in the shape src/ard/rdf/to-rdf.ts writes: a DCAT part (catalog, agent,
 * contact, rights, dataset, distribution, data service) plus Assay's terms (source, access path,
 * measure) that /catalog must leave out and dereferencing must show.
 */
import { BASE } from './helpers.ts';

export const CATALOG_GRAPH = `${BASE}graph/catalog`;

export const CATALOG_TTL = `
@prefix dcat: <http://www.w3.org/ns/dcat#> . @prefix dct: <http://purl.org/dc/terms/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> . @prefix vcard: <http://www.w3.org/2006/vcard/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> . @prefix assay: <https://w3id.org/assay/ns#> .
@base <${BASE}> .

<catalog> a dcat:Catalog ; dct:title "Assay catalog"@en ; dct:description "Publishers."@en ;
  dct:publisher <agent/assay> ; dcat:dataset <source/sec-edgar/dataset/xbrl> ;
  dcat:service <source/sec-edgar/service/api> ; foaf:homepage <> .
<> a foaf:Document .
<agent/assay> a foaf:Agent ; foaf:name "Assay" .
<publisher/sec-edgar> a foaf:Agent, foaf:Organization, assay:Publisher ; foaf:name "U.S. Securities and Exchange Commission" .
<source/sec-edgar/contact> a vcard:Kind ; vcard:fn "EDGAR help desk" .
<source/sec-edgar/access-rights> a dct:RightsStatement ; rdfs:label "Public, no key"@en .
<source/sec-edgar/dataset/xbrl> a dcat:Dataset ; dct:title "XBRL financial data"@en ;
  dct:description "Company facts."@en ; dct:publisher <publisher/sec-edgar> ;
  dcat:contactPoint <source/sec-edgar/contact> ; dct:accessRights <source/sec-edgar/access-rights> ;
  dcat:keyword "financials"@en ; dcat:theme <http://publications.europa.eu/resource/authority/data-theme/ECON> ;
  dcat:distribution <source/sec-edgar/dataset/xbrl/distribution> .
<http://publications.europa.eu/resource/authority/data-theme/ECON> a skos:Concept ; skos:prefLabel "Economy and finance"@en .
<source/sec-edgar/dataset/xbrl/distribution> a dcat:Distribution ; dcat:accessURL <https://data.sec.gov/> ;
  dcat:accessService <source/sec-edgar/service/api> .
<https://data.sec.gov/> a rdfs:Resource .
<source/sec-edgar/service/api> a dcat:DataService ; dct:title "EDGAR APIs"@en ;
  dcat:endpointURL <https://data.sec.gov/> ; dcat:endpointDescription <https://www.sec.gov/edgar/sec-api-documentation> ;
  dcat:servesDataset <source/sec-edgar/dataset/xbrl> ; dct:publisher <publisher/sec-edgar> ;
  assay:accessPath <source/sec-edgar/op/companyfacts> .
<https://www.sec.gov/edgar/sec-api-documentation> a foaf:Document .

<source/sec-edgar> a assay:Source, assay:OkfConcept ; dct:title "SEC EDGAR"@en ; rdfs:label "SEC EDGAR"@en ;
  dct:publisher <publisher/sec-edgar> ; dct:hasPart <source/sec-edgar/dataset/xbrl> ;
  assay:contact [ vcard:fn "blank-node detail" ] .
<source/sec-edgar/op/companyfacts> a assay:AccessPath, assay:OkfConcept ; rdfs:label "companyfacts"@en ;
  assay:accessPathKind assay:RecordsByEntity ; assay:urlTemplate "https://data.sec.gov/api/xbrl/companyfacts/CIK{cik}.json" ;
  assay:dataset <source/sec-edgar/dataset/xbrl> ;
  assay:servesMeasure <measure/sec-edgar/us-gaap/Revenues> .
<measure/sec-edgar/us-gaap/Revenues> a assay:Measure, assay:OkfConcept ; dct:title "Revenues"@en ;
  assay:unit "USD" ; assay:servedBy <source/sec-edgar/op/companyfacts> ; assay:dataset <source/sec-edgar/dataset/xbrl> .
<measure/sec-edgar/us-gaap/Caf%C3%A9%20Sales> a assay:Measure ; dct:title "Encoded path"@en .
`;
