/**
 * Every IRI the introspection library writes or recognises, in one place.
 *
 * introspect/ depends on nothing else in Assay, so it keeps its own small vocabulary module
 * instead of importing src/rdf/vocab.ts. A typo in a term is a compile error here, not a silent
 * empty profile.
 */
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS_NS = 'http://www.w3.org/2000/01/rdf-schema#';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema#';
export const VOID_NS = 'http://rdfs.org/ns/void#';
export const SH_NS = 'http://www.w3.org/ns/shacl#';

export const RDF = {
  type: `${RDF_NS}type`,
  langString: `${RDF_NS}langString`,
} as const;

export const RDFS = {
  subClassOf: `${RDFS_NS}subClassOf`,
  domain: `${RDFS_NS}domain`,
  range: `${RDFS_NS}range`,
  label: `${RDFS_NS}label`,
  comment: `${RDFS_NS}comment`,
} as const;

export const XSD = {
  string: `${XSD_NS}string`,
  integer: `${XSD_NS}integer`,
  decimal: `${XSD_NS}decimal`,
  double: `${XSD_NS}double`,
  float: `${XSD_NS}float`,
} as const;

export const VOID = {
  Dataset: `${VOID_NS}Dataset`,
  triples: `${VOID_NS}triples`,
  entities: `${VOID_NS}entities`,
  distinctSubjects: `${VOID_NS}distinctSubjects`,
  distinctObjects: `${VOID_NS}distinctObjects`,
  classes: `${VOID_NS}classes`,
  properties: `${VOID_NS}properties`,
  classPartition: `${VOID_NS}classPartition`,
  propertyPartition: `${VOID_NS}propertyPartition`,
  class: `${VOID_NS}class`,
  property: `${VOID_NS}property`,
  vocabulary: `${VOID_NS}vocabulary`,
} as const;

export const SH = {
  NodeShape: `${SH_NS}NodeShape`,
  targetClass: `${SH_NS}targetClass`,
  property: `${SH_NS}property`,
  path: `${SH_NS}path`,
  minCount: `${SH_NS}minCount`,
  maxCount: `${SH_NS}maxCount`,
  nodeKind: `${SH_NS}nodeKind`,
  IRI: `${SH_NS}IRI`,
  BlankNode: `${SH_NS}BlankNode`,
  Literal: `${SH_NS}Literal`,
  BlankNodeOrIRI: `${SH_NS}BlankNodeOrIRI`,
  IRIOrLiteral: `${SH_NS}IRIOrLiteral`,
  BlankNodeOrLiteral: `${SH_NS}BlankNodeOrLiteral`,
} as const;

/** Numeric XSD datatypes whose lexical forms the facets read as numbers. */
export const NUMERIC_DATATYPES: ReadonlySet<string> = new Set(
  ['integer', 'decimal', 'double', 'float', 'long', 'int', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger',
    'negativeInteger', 'nonPositiveInteger', 'unsignedLong', 'unsignedInt', 'unsignedShort', 'unsignedByte']
    .map((l) => `${XSD_NS}${l}`),
);

/**
 * Well-known vocabularies by namespace IRI → conventional prefix and name. Recognition is by
 * exact namespace, so a card can say "foaf: (FOAF)" instead of an opaque IRI.
 */
export const WELL_KNOWN: ReadonlyMap<string, { prefix: string; name: string }> = new Map([
  [RDF_NS, { prefix: 'rdf', name: 'RDF' }],
  [RDFS_NS, { prefix: 'rdfs', name: 'RDF Schema' }],
  [XSD_NS, { prefix: 'xsd', name: 'XML Schema datatypes' }],
  ['http://www.w3.org/2002/07/owl#', { prefix: 'owl', name: 'OWL' }],
  ['http://xmlns.com/foaf/0.1/', { prefix: 'foaf', name: 'FOAF' }],
  ['http://purl.org/dc/terms/', { prefix: 'dct', name: 'Dublin Core terms' }],
  ['http://purl.org/dc/elements/1.1/', { prefix: 'dc', name: 'Dublin Core elements' }],
  ['http://www.w3.org/2004/02/skos/core#', { prefix: 'skos', name: 'SKOS' }],
  ['http://www.w3.org/ns/dcat#', { prefix: 'dcat', name: 'DCAT' }],
  ['http://www.w3.org/ns/prov#', { prefix: 'prov', name: 'PROV-O' }],
  [VOID_NS, { prefix: 'void', name: 'VoID' }],
  [SH_NS, { prefix: 'sh', name: 'SHACL' }],
  ['http://schema.org/', { prefix: 'schema', name: 'schema.org' }],
  ['https://schema.org/', { prefix: 'schema', name: 'schema.org' }],
  ['http://www.w3.org/2006/vcard/ns#', { prefix: 'vcard', name: 'vCard' }],
  ['http://www.w3.org/2003/01/geo/wgs84_pos#', { prefix: 'geo', name: 'WGS84 geo' }],
  ['http://www.opengis.net/ont/geosparql#', { prefix: 'geosparql', name: 'GeoSPARQL' }],
  ['http://purl.org/linked-data/cube#', { prefix: 'qb', name: 'RDF Data Cube' }],
  ['http://purl.org/linked-data/sdmx/2009/attribute#', { prefix: 'sdmx-attribute', name: 'SDMX attributes' }],
  ['http://purl.org/linked-data/sdmx/2009/dimension#', { prefix: 'sdmx-dimension', name: 'SDMX dimensions' }],
  ['http://purl.org/linked-data/sdmx/2009/measure#', { prefix: 'sdmx-measure', name: 'SDMX measures' }],
  ['http://www.w3.org/ns/org#', { prefix: 'org', name: 'W3C Organization' }],
  ['http://www.w3.org/ns/sosa/', { prefix: 'sosa', name: 'SOSA' }],
  ['http://www.w3.org/2006/time#', { prefix: 'time', name: 'OWL-Time' }],
  ['http://www.wikidata.org/entity/', { prefix: 'wd', name: 'Wikidata entities' }],
  ['http://www.wikidata.org/prop/direct/', { prefix: 'wdt', name: 'Wikidata direct properties' }],
  ['http://dbpedia.org/ontology/', { prefix: 'dbo', name: 'DBpedia ontology' }],
  ['http://dbpedia.org/resource/', { prefix: 'dbr', name: 'DBpedia resources' }],
  ['http://purl.org/goodrelations/v1#', { prefix: 'gr', name: 'GoodRelations' }],
  ['http://rdf.data-vocabulary.org/#', { prefix: 'dv', name: 'Data-Vocabulary' }],
  ['http://www.w3.org/ns/odrl/2/', { prefix: 'odrl', name: 'ODRL' }],
  ['http://www.w3.org/ns/locn#', { prefix: 'locn', name: 'ISA Location' }],
  ['http://www.w3.org/ns/adms#', { prefix: 'adms', name: 'ADMS' }],
  ['http://spdx.org/rdf/terms#', { prefix: 'spdx', name: 'SPDX' }],
]);
