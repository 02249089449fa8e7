/**
 * Every IRI Assay uses, in one place. A typo in a term is a compile error here,
 * not a silent empty result somewhere else.
 *
 * Standard vocabularies come first; Assay's own terms (documented in
 * shapes/assay-vocab.ttl) are under ASSAY. Add a term here before using it.
 */

function ns<const T extends readonly string[]>(base: string, terms: T): { readonly [K in T[number]]: string } & { readonly ns: string } {
  const out: Record<string, string> = { ns: base };
  for (const t of terms) out[t] = base + t;
  return Object.freeze(out) as { readonly [K in T[number]]: string } & { readonly ns: string };
}

export const RDF = ns('http://www.w3.org/1999/02/22-rdf-syntax-ns#', [
  'type', 'Property', 'first', 'rest', 'nil', 'langString', 'value',
] as const);

export const RDFS = ns('http://www.w3.org/2000/01/rdf-schema#', [
  'label', 'comment', 'domain', 'range', 'subClassOf', 'subPropertyOf', 'Class', 'Resource',
  'Literal', 'seeAlso', 'isDefinedBy', 'Datatype',
] as const);

export const OWL = ns('http://www.w3.org/2002/07/owl#', [
  'Ontology', 'Class', 'ObjectProperty', 'DatatypeProperty', 'sameAs', 'versionInfo',
] as const);

export const XSD = ns('http://www.w3.org/2001/XMLSchema#', [
  'string', 'boolean', 'integer', 'decimal', 'double', 'float', 'date', 'dateTime', 'gYear',
  'anyURI', 'nonNegativeInteger', 'long', 'int', 'duration',
] as const);

export const DCAT = ns('http://www.w3.org/ns/dcat#', [
  'Catalog', 'Dataset', 'DataService', 'Distribution', 'Resource', 'CatalogRecord',
  'dataset', 'service', 'distribution', 'endpointURL', 'endpointDescription', 'servesDataset',
  'keyword', 'theme', 'themeTaxonomy', 'landingPage', 'contactPoint', 'accessURL', 'downloadURL',
  'mediaType', 'accessService', 'record', 'catalog', 'version', 'temporalResolution',
  'spatialResolutionInMeters', 'startDate', 'endDate', 'bbox', 'centroid',
] as const);

export const DCT = ns('http://purl.org/dc/terms/', [
  'title', 'description', 'publisher', 'creator', 'license', 'accessRights', 'conformsTo',
  'identifier', 'issued', 'modified', 'created', 'language', 'spatial', 'temporal', 'source',
  'format', 'type', 'rights', 'subject', 'hasPart', 'isPartOf', 'requires', 'references',
  'LicenseDocument', 'RightsStatement', 'Standard', 'MediaType', 'Location', 'PeriodOfTime',
  'Frequency', 'accrualPeriodicity', 'provenance', 'ProvenanceStatement', 'LinguisticSystem',
  'MediaTypeOrExtent',
] as const);

export const FOAF = ns('http://xmlns.com/foaf/0.1/', [
  'Agent', 'Organization', 'Person', 'name', 'homepage', 'mbox', 'page', 'Document',
] as const);

export const VCARD = ns('http://www.w3.org/2006/vcard/ns#', [
  'Kind', 'Organization', 'Individual', 'fn', 'hasEmail', 'hasURL', 'organization-name',
] as const);

export const SKOS = ns('http://www.w3.org/2004/02/skos/core#', [
  'Concept', 'ConceptScheme', 'prefLabel', 'altLabel', 'definition', 'inScheme', 'notation',
  'hasTopConcept', 'topConceptOf', 'exactMatch',
] as const);

export const VOID = ns('http://rdfs.org/ns/void#', [
  'Dataset', 'DatasetDescription', 'Linkset', 'sparqlEndpoint', 'triples', 'entities', 'classes',
  'properties', 'distinctSubjects', 'distinctObjects', 'documents', 'classPartition',
  'propertyPartition', 'class', 'property', 'vocabulary', 'uriSpace', 'subset', 'rootResource',
  'dataDump', 'feature', 'exampleResource', 'uriRegexPattern', 'inDataset',
] as const);

export const PROV = ns('http://www.w3.org/ns/prov#', [
  'Entity', 'Activity', 'Agent', 'SoftwareAgent', 'Organization', 'wasGeneratedBy', 'used',
  'wasAssociatedWith', 'wasAttributedTo', 'wasDerivedFrom', 'startedAtTime', 'endedAtTime',
  'generatedAtTime', 'atLocation', 'value', 'wasInformedBy', 'hadPrimarySource', 'Plan',
  'qualifiedAssociation', 'hadPlan', 'invalidatedAtTime',
] as const);

export const SH = ns('http://www.w3.org/ns/shacl#', [
  'NodeShape', 'PropertyShape', 'targetClass', 'targetNode', 'targetSubjectsOf', 'property',
  'path', 'minCount', 'maxCount', 'datatype', 'class', 'nodeKind', 'IRI', 'Literal', 'BlankNode',
  'BlankNodeOrIRI', 'IRIOrLiteral', 'in', 'pattern', 'minInclusive', 'maxInclusive', 'message',
  'severity', 'Violation', 'Warning', 'Info', 'or', 'and', 'node', 'name', 'description',
  'ValidationReport', 'conforms', 'result', 'focusNode', 'resultPath', 'resultMessage',
  'sourceConstraintComponent', 'sourceShape', 'value', 'resultSeverity', 'hasValue',
  'minLength', 'maxLength', 'closed', 'ignoredProperties',
] as const);

export const SCHEMA = ns('https://schema.org/', [
  'Organization', 'Corporation', 'GovernmentOrganization', 'CollegeOrUniversity', 'Place',
  'AdministrativeArea', 'State', 'Person', 'name', 'identifier', 'url', 'sameAs', 'unitText',
  'unitCode', 'PropertyValue', 'propertyID', 'value', 'Dataset', 'WebAPI', 'Question',
  'alternateName', 'description',
  // Feedback on answers (src/server/routes/feedback.ts): a Review of the run with a Rating.
  'Review', 'Rating', 'itemReviewed', 'reviewRating', 'ratingValue', 'bestRating', 'worstRating', 'reviewBody', 'dateCreated',
  // Conversations (src/conversation): the turns a follow-up is read against.
  'Conversation',
] as const);

/** SPARQL 1.1 Service Description. */
export const SD = ns('http://www.w3.org/ns/sparql-service-description#', [
  'Service', 'endpoint', 'supportedLanguage', 'SPARQL11Query', 'SPARQL11Update', 'resultFormat',
  'feature', 'UnionDefaultGraph', 'BasicFederatedQuery', 'RequiresDataset', 'defaultDataset',
  'Dataset', 'defaultGraph', 'namedGraph', 'NamedGraph', 'Graph', 'name', 'graph',
  'extensionFunction', 'inputFormat', 'defaultEntailmentRegime', 'EmptyGraphs',
] as const);

/** W3C formats registry (used for result and input formats). */
export const FORMATS = ns('http://www.w3.org/ns/formats/', [
  'SPARQL_Results_JSON', 'SPARQL_Results_XML', 'SPARQL_Results_CSV', 'SPARQL_Results_TSV',
  'Turtle', 'N-Triples', 'N-Quads', 'JSON-LD', 'TriG', 'RDF_XML',
] as const);

export const ADMS = ns('http://www.w3.org/ns/adms#', ['Identifier', 'identifier', 'status'] as const);

/** DCAT-AP's own terms (used for the recommended distribution availability). */
export const DCATAP = ns('http://data.europa.eu/r5r/', ['availability'] as const);

export const GEOSPARQL = ns('http://www.opengis.net/ont/geosparql#', ['wktLiteral'] as const);

/** Wikidata (the identity registry's live source and the shape of its offline snapshot). */
/** CSV on the Web: result tables (columns, rows) of population answers (src/population/table-rdf.ts). */
export const CSVW = ns('http://www.w3.org/ns/csvw#', ['Table', 'Column', 'Row', 'Schema', 'tableSchema', 'column', 'row', 'rownum', 'name', 'titles', 'describes'] as const);

/** RDF Data Cube: materialized population graphs, one data set per response and measure (src/population/materialize.ts). */
export const QB = ns('http://purl.org/linked-data/cube#', ['DataSet', 'Observation', 'dataSet'] as const);

export const WD = ns('http://www.wikidata.org/entity/', [] as const);
/** Wikidata direct ("truthy") properties: P31 instance of, P131 located in, P249 ticker, P414 exchange,
 *  P1278 LEI, P1297 IRS EIN, P1771 IPEDS id, P5531 SEC CIK, P882 FIPS 6-4 county, P5087 FIPS 5-2 state,
 *  P774 FIPS 55-3 place. */
export const WDT = ns('http://www.wikidata.org/prop/direct/', ['P31', 'P131', 'P249', 'P414', 'P1278', 'P1297', 'P1771', 'P5531', 'P882', 'P5087', 'P774'] as const);
export const WIKIBASE_P = ns('http://www.wikidata.org/prop/', ['P414'] as const);
export const WIKIBASE_PQ = ns('http://www.wikidata.org/prop/qualifier/', ['P249'] as const);
/** Base for registry entities that have no Wikidata QID in the offline snapshot (cik/…, ein/…, fips/…). */
export const ASSAY_REGISTRY = 'https://w3id.org/assay/registry/';
/** The licence Assay's own catalog metadata is published under (the project's licence). */
export const APACHE_2_LICENCE = 'https://www.apache.org/licenses/LICENSE-2.0';

export const EUVOC_LANGUAGE = 'http://publications.europa.eu/resource/authority/language/';
export const EUVOC_COUNTRY = 'http://publications.europa.eu/resource/authority/country/';
export const EUVOC_PLANNED_AVAILABILITY = 'http://publications.europa.eu/resource/authority/planned-availability/';
export const ADMS_PUBLISHER_TYPE = 'http://purl.org/adms/publishertype/';
export const ADMS_LICENCE_TYPE = 'http://purl.org/adms/licencetype/';
export const EUVOC_FILETYPE = 'http://publications.europa.eu/resource/authority/file-type/';
export const EUVOC_ACCESS_RIGHT = 'http://publications.europa.eu/resource/authority/access-right/';
export const EUVOC_DATA_THEME = 'http://publications.europa.eu/resource/authority/data-theme/';
export const EUVOC_LICENCE = 'http://publications.europa.eu/resource/authority/licence/';
export const IANA_MEDIA = 'http://www.iana.org/assignments/media-types/';

/**
 * Assay's own vocabulary: only what the standard vocabularies do not say.
 * Each term is labelled and explained in shapes/assay-vocab.ttl.
 */
export const ASSAY_NS = 'https://w3id.org/assay/ns#';
export const ASSAY = ns(ASSAY_NS, [
  // classes
  'Publisher', 'AccessPath', 'Measure', 'Source', 'IdentifierType', 'Coverage', 'RateLimit',
  'Credential', 'Pagination', 'AccessPathKind', 'OkfConcept',
  // access paths
  'accessPath', 'accessPathKind', 'urlTemplate', 'acceptsIdentifier', 'grain', 'coverage',
  'coverageScope', 'coverageNote', 'paginated', 'pageSizeParam', 'maxPageSize', 'maxRows',
  'rateLimit', 'requestsPerSecond', 'requestsPerDay', 'requiresCredential', 'credentialEnv',
  'credentialNote', 'operationId', 'httpMethod', 'responseFormat', 'servedBy', 'servesMeasure',
  'pagination', 'userAgentRequired', 'credential', 'dataset', 'paginationStyle', 'pageParam',
  // access path kinds (individuals)
  'KeyedRead', 'Search', 'RecordsByEntity', 'OrderedTopN', 'PopulationScan', 'ServerAggregate',
  'PeriodRead', 'JoinKey', 'EdgesForward', 'EdgesReverse',
  // coverage values
  'CompleteCoverage', 'PartialCoverage', 'complete',
  // measures
  'measure', 'measureId', 'unit', 'representativeQuestion', 'valueType', 'generatedFrom',
  'taxonomy',
  // OKF lifecycle
  'okfType', 'status', 'staleAfter', 'generatedBy', 'generatedAt', 'verifiedBy', 'verifiedAt',
  'sourceRecord', 'ardIdentifier', 'capability', 'representativeQuery',
  // store / server
  'truncated', 'rowLimit', 'descriptorDigest', 'writeSeq',
  // plans (src/plan): the planner's verdict per question and per candidate
  'Plan', 'CandidateAssessment', 'question', 'shape', 'verdict', 'reason', 'missingOperation',
  'exactKind', 'composedKind', 'assessment', 'assessmentCount', 'selected', 'candidate', 'viaAccessPath', 'discoveryRank',
  // runs, attempts, evidence and answers (src/execute, src/evidence, src/answer, src/ask)
  'Run', 'Attempt', 'Evidence', 'PublisherResponse', 'Answer', 'Figure', 'Clarification', 'Refusal',
  'intentJson', 'planNode', 'attempt', 'answer', 'runStatus', 'disposition', 'operation', 'bindings',
  'requestUrl', 'contentHash', 'cassette', 'elapsedMs', 'validationNote', 'rejectionReason',
  'value', 'currency', 'periodLabel', 'periodStart', 'periodEnd', 'periodBasis', 'fiscalYear',
  'aboutEntity', 'entityKey', 'assurance', 'matchMethod', 'planVerdict', 'warning', 'evidence',
  'text', 'figure', 'grade', 'asWritten', 'supportedBy', 'arithmetic', 'qualification',
  'boundary', 'resumeState', 'interpreter',
  // status and record evidence (status and entity-list questions)
  'statusField', 'statusCode', 'recordKey',
  // cross-checks: the same measure read a second way after admission (src/execute/corroborate.ts)
  'CrossCheck', 'corroboratedBy', 'disputedBy', 'crossCheckOf', 'crossCheckOutcome', 'crossCheckValue',
  // populations (src/population): completeness of a population read, result tables, population graphs
  'PopulationRead', 'Exclusion', 'populationGrain', 'populationScope', 'memberClass', 'rowsDeclared', 'rowsRead',
  'rowsMembers', 'rowsUsable', 'completeness', 'exclusion', 'exclusionCode', 'exclusionDetail', 'rowsExcluded',
  'populationNote', 'populationGraph', 'recordMeasure', 'rowKey', 'valueStatus', 'asPublished', 'resultTable',
  'columnRole', 'columnUnit', 'cell', 'cellColumn', 'cellGrade', 'tableShape', 'derivedValue', 'derivedOp', 'derivedN',
  // stored population graphs read back by later questions (src/population/materialize.ts)
  'PopulationGraph', 'StoreRead', 'storedData', 'rowData', 'rowIndex',
  // conversations (src/conversation): a follow-up's fields taken from the previous turn
  'carriedOver',
] as const);

/** Named-graph roles. The IRIs are minted under the configured base (see src/config.ts). */
export function graphIri(base: string, role: 'catalog' | 'evidence' | 'runs' | string): string {
  return new URL(`graph/${role}`, ensureSlash(base)).toString();
}

export function ensureSlash(base: string): string {
  return base.endsWith('/') ? base : base + '/';
}

/** Prefixes used when Assay writes Turtle. */
export const PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  rdf: RDF.ns, rdfs: RDFS.ns, owl: OWL.ns, xsd: XSD.ns, dcat: DCAT.ns, dct: DCT.ns, foaf: FOAF.ns,
  vcard: VCARD.ns, skos: SKOS.ns, void: VOID.ns, prov: PROV.ns, sh: SH.ns, schema: SCHEMA.ns,
  sd: SD.ns, adms: ADMS.ns, assay: ASSAY_NS,
});
