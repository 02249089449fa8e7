/**
 * introspect/: Assay's standalone graph introspection library. Mine a graph once through a
 * small triple-source interface, then render a budgeted schema card, VoID, SHACL shapes, JSON,
 * a schema diff or facets. Depends on nothing else in Assay (only n3, oxigraph and
 * rdf-validate-shacl's RDF/JS types). See README.md.
 */
export { mine, validateOptions } from './mine.ts';
export * from './model.ts';
export { fromArrays, fromDumpable, fromMatch, fromNTriples, fromOxigraph, fromQuads, groupBySubject,
  type DumpableStore, type MatchableStore, type TripleSource, type Visit } from './source.ts';
export { parseQuads, sourceFromFile, sourceFromText, syntaxOf, SYNTAXES, type Syntax } from './read.ts';
export { seedCard, toCard, type CardOptions } from './card.ts';
export { toVoid, voidQuads, type VoidOptions } from './void.ts';
export { shaclQuads, toShacl, type ShaclOptions } from './shacl.ts';
export { fromJson, loadSidecar, saveSidecar, sidecarPathFor, SIDECAR_SUFFIX, toJson } from './sidecar.ts';
export { diff, diffText, type DiffEntry, type SchemaDiff } from './diff.ts';
export { facets, type FacetRequest, type FacetResponse, type NumericFacet, type PredicateValues } from './facets.ts';
export { ERROR_HELP, IntrospectError, type IntrospectErrorCode } from './errors.ts';
export type { RdfOutput } from './rdf-out.ts';
