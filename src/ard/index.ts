/**
 * Public surface of the ARD/OKF catalog module (what the CLI and the server import).
 */
export { loadCatalog, catalogFiles } from './load.ts';
export { validateDescriptorFiles, validateAndBuild, type ValidateOptions } from './validate.ts';
export { formatReport, formatProblems, CatalogValidationError, type Problem, type ValidationReport } from './problems.ts';
export { catalogToQuads } from './rdf/to-rdf.ts';
export { catalogDcatQuads } from './rdf/dcat.ts';
export { catalogIris } from './rdf/iris.ts';
export type { Catalog, Publisher, AccessPath, Measure, ArdEntry, ArdManifest } from './catalog.ts';
export { ACCESS_PATH_KINDS, ENTRY_TYPES, type AccessPathKind } from './extension-schema.ts';
