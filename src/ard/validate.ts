/**
 * Catalog validation in three layers, all problems collected, nothing loaded on failure.
 *
 *   1. ard-schema — each file is an ARD v0.9 ai-catalog manifest (the vendored JSON Schema, ajv);
 *   2. extension  — each entry's `data` is an OKF concept with Assay's fields (zod), identifiers
 *                   follow the URN scheme, and references (service, dataset, servedBy) resolve;
 *   3. shacl      — the catalog's RDF form conforms to shapes/catalog-shapes.ttl.
 *
 * Input: descriptor files (hand-written `ard-okf/<publisher>.json` and generated
 * `ard-okf/generated/<publisher>.<name>.measures.json`). Output: a ValidationReport and, when it is
 * clean, the assembled Catalog. A file that fails layer 1 or 2 contributes nothing to the catalog;
 * layer 3 runs on what remains so its problems are reported too.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import type { ZodError } from 'zod';
import {
  accessPathDataSchema, ENTRY_TYPES, measureDataSchema, sourceDataSchema, urlTemplateProblems,
} from './extension-schema.ts';
import {
  buildCatalog, parseUrn, type AccessPath, type ArdEntry, type ArdManifest, type Catalog, type Measure, type Publisher,
} from './catalog.ts';
import { validateArdManifest } from './ard-schema.ts';
import type { Problem, ValidationReport } from './problems.ts';
import { catalogToQuads } from './rdf/to-rdf.ts';
import { CATALOG_SHAPE_FILES, loadShapeFiles, type CompiledShapes } from './shacl.ts';
import { catalogIris } from './rdf/iris.ts';

/** Base IRI used for validation-only RDF (problems name focus nodes under it). */
export const VALIDATION_BASE = 'https://assay.invalid/';

export interface ValidationOutcome {
  report: ValidationReport;
  /** Present only when the report is ok. */
  catalog?: Catalog;
}

interface LoadedFile { file: string; manifest: ArdManifest }

export interface ValidateOptions {
  /** Precompiled shapes (tests, servers that validate repeatedly); default: shapes/catalog-shapes.ttl. */
  shapes?: CompiledShapes;
  baseIri?: string;
  /** Also run SHACL over generated measures (slow: about 9 ms per measure). */
  shaclGenerated?: boolean;
}

export async function validateDescriptorFiles(paths: readonly string[], options: ValidateOptions = {}): Promise<ValidationReport> {
  return (await validateAndBuild(paths, options)).report;
}

/** Reads, validates and assembles; `loadCatalog` and `validateDescriptorFiles` both go through here. */
export async function validateAndBuild(paths: readonly string[], options: ValidateOptions = {}): Promise<ValidationOutcome> {
  const files = withPublisherDescriptors(paths);
  const problems: Problem[] = [];
  const loaded: LoadedFile[] = [];

  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      problems.push({ file, layer: 'json', rule: 'readable', message: `cannot read the file: ${(e as Error).message}`, fix: 'check the path; pass descriptor files such as ard-okf/sec-edgar.json' });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      problems.push({ file, layer: 'json', rule: 'json-syntax', message: `not valid JSON: ${(e as Error).message}`, fix: 'fix the JSON syntax (a linter or `node -e "JSON.parse(...)"` shows the position)' });
      continue;
    }
    const schemaProblems = validateArdManifest(json, file);
    if (schemaProblems.length > 0) { problems.push(...schemaProblems); continue; }
    loaded.push({ file, manifest: json as ArdManifest });
  }

  const { publishers, accessPaths, measures, extensionProblems } = checkEntries(loaded);
  problems.push(...extensionProblems);

  const catalog = buildCatalog(files, publishers, accessPaths, measures);
  let triples = 0;
  if (publishers.length > 0) {
    const baseIri = options.baseIri ?? VALIDATION_BASE;
    // rdf-validate-shacl costs ~9 ms per focus node, so the ~17,500 generated measures (built by
    // code, checked entry by entry in layers 1-2) are left out of layer 3 unless asked for:
    // everything hand-written is always validated as a graph.
    const shaclMeasures = options.shaclGenerated ? measures : measures.filter((m) => m.data.generatedFrom === undefined);
    const quads = catalogToQuads(buildCatalog(files, publishers, accessPaths, shaclMeasures), baseIri);
    triples = quads.length;
    const shapes = options.shapes ?? await loadShapeFiles(CATALOG_SHAPE_FILES);
    const results = await shapes.validate(quads);
    const fileOf = nodeFileResolver(catalog, baseIri);
    for (const r of results) {
      if (r.severity !== 'Violation') continue;
      const path = r.path ? ` on ${shortIri(r.path)}` : '';
      const value = r.value ? ` (value ${shortIri(r.value)})` : '';
      problems.push({
        file: fileOf(r.focusNode), layer: 'shacl', focusNode: r.focusNode, rule: r.component,
        message: `${r.message}${path}${value}`,
        fix: fixForShacl(r.component, r.path),
      });
    }
  }

  const report: ValidationReport = {
    ok: problems.length === 0,
    files: [...files],
    problems,
    counts: { publishers: publishers.length, accessPaths: accessPaths.length, measures: measures.length, triples },
  };
  return problems.length === 0 ? { report, catalog } : { report };
}

/**
 * A generated measures file needs its publisher's hand-written descriptor to resolve its
 * references; add `<dir>/../<publisher>.json` when it exists and was not given.
 */
function withPublisherDescriptors(paths: readonly string[]): string[] {
  const out = [...paths];
  const given = new Set(paths.map((p) => basename(p)));
  for (const p of paths) {
    const m = /^([a-z0-9-]+)\.[^/]*measures\.json$/.exec(basename(p));
    if (!m) continue;
    const descriptor = join(dirname(p), '..', `${m[1]}.json`);
    if (!given.has(`${m[1]}.json`) && existsSync(descriptor)) { out.unshift(descriptor); given.add(`${m[1]}.json`); }
  }
  return out;
}

function checkEntries(loaded: LoadedFile[]) {
  const problems: Problem[] = [];
  const seen = new Map<string, string>();
  const sources: { file: string; index: number; entry: ArdEntry; publisher: Publisher }[] = [];
  const ops: { file: string; index: number; path: AccessPath }[] = [];
  const meas: { file: string; index: number; measure: Measure }[] = [];
  const badFiles = new Set<string>();

  for (const { file, manifest } of loaded) {
    manifest.entries.forEach((entry, index) => {
      const at = `/entries/${index}`;
      const fail = (p: Omit<Problem, 'file' | 'layer'> & { layer?: Problem['layer'] }) => { badFiles.add(file); problems.push({ layer: 'extension', file, ...p }); };
      const prev = seen.get(entry.identifier);
      if (prev) { fail({ path: `${at}/identifier`, rule: 'unique-identifier', message: `identifier ${entry.identifier} is already used in ${prev}`, fix: 'give each entry its own identifier' }); return; }
      seen.set(entry.identifier, `${file}${at}`);
      const urn = parseUrn(entry.identifier);
      if (!urn) { fail({ path: `${at}/identifier`, rule: 'urn-scheme', message: `identifier ${entry.identifier} does not follow Assay's scheme`, fix: 'use urn:air:assay:<publisher>:source, urn:air:assay:<publisher>:op:<operationId> or urn:air:assay:<publisher>:measure:<group>:<name>' }); return; }
      if (entry.data === undefined) { fail({ path: `${at}`, rule: 'inline-data', message: 'the entry has no inline data (a url-only entry cannot be validated offline)', fix: 'embed the OKF concept in `data`' }); return; }

      const wantType = urn.kind === 'source' ? ENTRY_TYPES.source : urn.kind === 'op' ? ENTRY_TYPES.accessPath : ENTRY_TYPES.measure;
      if (entry.type !== wantType) { fail({ path: `${at}/type`, rule: 'entry-type', message: `entry type is ${JSON.stringify(entry.type)} but its identifier names a ${urn.kind}`, fix: `set type to ${wantType}` }); return; }

      if (urn.kind === 'source') {
        const r = sourceDataSchema.safeParse(entry.data);
        if (!r.success) { zodProblems(r.error, file, `${at}/data`).forEach((p) => fail(p)); return; }
        if (r.data.publisher.id !== urn.publisherId) { fail({ path: `${at}/data/publisher/id`, rule: 'identifier-match', message: `publisher id ${r.data.publisher.id} differs from the identifier's ${urn.publisherId}`, fix: 'make them equal' }); return; }
        sources.push({ file, index, entry, publisher: { id: urn.publisherId, identifier: entry.identifier, file, entry, data: r.data } });
      } else if (urn.kind === 'op') {
        const r = accessPathDataSchema.safeParse(entry.data);
        if (!r.success) { zodProblems(r.error, file, `${at}/data`).forEach((p) => fail(p)); return; }
        if (r.data.operationId !== urn.operationId) { fail({ path: `${at}/data/operationId`, rule: 'identifier-match', message: `operationId ${r.data.operationId} differs from the identifier's ${urn.operationId}`, fix: 'make them equal' }); return; }
        for (const msg of urlTemplateProblems(r.data.urlTemplate, r.data.parameters?.map((p) => p.name))) {
          fail({ path: `${at}/data/urlTemplate`, rule: 'url-template', message: `URL template ${JSON.stringify(r.data.urlTemplate)} ${msg}`, fix: 'write an absolute http(s) URL with {name} placeholders, each declared in parameters' });
        }
        ops.push({ file, index, path: { id: urn.operationId, publisherId: urn.publisherId, identifier: entry.identifier, file, entry, data: r.data, rateLimit: undefined, credentials: { mode: 'none' }, userAgentRequired: false } });
      } else {
        const r = measureDataSchema.safeParse(entry.data);
        if (!r.success) { zodProblems(r.error, file, `${at}/data`).forEach((p) => fail(p)); return; }
        if (r.data.measureId !== urn.measureId) { fail({ path: `${at}/data/measureId`, rule: 'identifier-match', message: `measureId ${r.data.measureId} differs from the identifier's ${urn.measureId}`, fix: 'make them equal (identifier ...:measure:<group>:<name> ↔ measureId "<group>/<name>")' }); return; }
        meas.push({ file, index, measure: { key: `${urn.publisherId}/${r.data.measureId}`, publisherId: urn.publisherId, identifier: entry.identifier, file, entry, data: r.data } });
      }
    });
  }

  // References: service, dataset and servedBy must name things the publisher declares.
  const pubById = new Map(sources.map((s) => [s.publisher.id, s.publisher]));
  const opKeys = new Set(ops.map((o) => `${o.path.publisherId}/${o.path.id}`));
  const ref = (file: string, path: string, message: string, fix: string) => { badFiles.add(file); problems.push({ file, layer: 'reference', path, rule: 'reference', message, fix }); };
  for (const s of sources) {
    const dsIds = new Set(s.publisher.data.datasets.map((d) => d.id));
    s.publisher.data.services.forEach((svc, i) => svc.servesDatasets.forEach((ds, j) => {
      if (!dsIds.has(ds)) ref(s.file, `/entries/${s.index}/data/services/${i}/servesDatasets/${j}`, `service ${svc.id} serves dataset ${ds}, which this source does not declare`, `declare ${ds} in datasets or use one of: ${[...dsIds].join(', ')}`);
    }));
  }
  for (const o of ops) {
    const pub = pubById.get(o.path.publisherId);
    if (!pub) { ref(o.file, `/entries/${o.index}/identifier`, `access path ${o.path.identifier} belongs to publisher ${o.path.publisherId}, whose source descriptor is not among the files`, `add ard-okf/${o.path.publisherId}.json (or fix the identifier)`); continue; }
    const svc = pub.data.services.find((s) => s.id === o.path.data.service);
    if (!svc) ref(o.file, `/entries/${o.index}/data/service`, `service ${o.path.data.service} is not declared by ${pub.id}`, `use one of: ${pub.data.services.map((s) => s.id).join(', ')}`);
    if (!pub.data.datasets.some((d) => d.id === o.path.data.dataset)) ref(o.file, `/entries/${o.index}/data/dataset`, `dataset ${o.path.data.dataset} is not declared by ${pub.id}`, `use one of: ${pub.data.datasets.map((d) => d.id).join(', ')}`);
    o.path.rateLimit = o.path.data.rateLimit ?? svc?.rateLimit;
    o.path.credentials = o.path.data.credentials ?? svc?.credentials ?? { mode: 'none' };
    o.path.userAgentRequired = svc?.userAgentRequired ?? false;
  }
  for (const m of meas) {
    const pub = pubById.get(m.measure.publisherId);
    if (!pub) { ref(m.file, `/entries/${m.index}/identifier`, `measure ${m.measure.identifier} belongs to publisher ${m.measure.publisherId}, whose source descriptor is not among the files`, `add ard-okf/${m.measure.publisherId}.json (or fix the identifier)`); continue; }
    m.measure.data.servedBy.forEach((op, j) => {
      if (!opKeys.has(`${m.measure.publisherId}/${op}`)) ref(m.file, `/entries/${m.index}/data/servedBy/${j}`, `measure ${m.measure.data.measureId} is served by operation ${op}, which ${pub.id} does not declare`, `use an operationId of one of ${pub.id}'s access paths: ${ops.filter((o) => o.path.publisherId === pub.id).map((o) => o.path.id).join(', ')}`);
    });
    if (!pub.data.datasets.some((d) => d.id === m.measure.data.dataset)) ref(m.file, `/entries/${m.index}/data/dataset`, `dataset ${m.measure.data.dataset} is not declared by ${pub.id}`, `use one of: ${pub.data.datasets.map((d) => d.id).join(', ')}`);
  }

  // A file with any problem contributes nothing (rejected whole); other files still go to SHACL.
  const keep = (file: string) => !badFiles.has(file);
  const publishers = sources.filter((s) => keep(s.file)).map((s) => s.publisher);
  const kept = new Set(publishers.map((p) => p.id));
  return {
    publishers,
    accessPaths: ops.filter((o) => keep(o.file) && kept.has(o.path.publisherId)).map((o) => o.path),
    measures: meas.filter((m) => keep(m.file) && kept.has(m.measure.publisherId)).map((m) => m.measure),
    extensionProblems: problems,
  };
}

function zodProblems(error: ZodError, file: string, prefix: string): Omit<Problem, 'file' | 'layer'>[] {
  return error.issues.map((i) => {
    const path = `${prefix}${i.path.map((p) => `/${String(p)}`).join('')}`;
    let fix = 'see ard-okf/README.md for the field';
    if (i.code === 'invalid_value' && 'values' in i) fix = `use one of: ${(i.values as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    else if (i.code === 'invalid_type') fix = `give ${path.split('/').pop()} a value of type ${(i as { expected?: string }).expected ?? 'the documented type'}`;
    else if (i.code === 'unrecognized_keys') fix = 'remove the unknown key(s) or check their spelling';
    return { path, rule: i.code, message: i.message, fix };
  });
}

function nodeFileResolver(catalog: Catalog, baseIri: string): (iri: string) => string {
  const iris = catalogIris(baseIri);
  return (iri) => {
    for (const m of iri.includes('/measure/') ? catalog.measures : []) if (iri === iris.measure(m.publisherId, m.data.measureId)) return m.file;
    for (const p of catalog.publishers) {
      if (iri === iris.publisher(p.id) || iri.startsWith(`${iris.source(p.id)}/`) || iri === iris.source(p.id)) {
        const op = /\/op\/([^/]+)/.exec(iri);
        if (op) return catalog.accessPath(p.id, decodeURIComponent(op[1]!))?.file ?? p.file;
        return p.file;
      }
    }
    return catalog.files[0] ?? '(catalog)';
  };
}

function shortIri(iri: string): string {
  return iri.replace(VALIDATION_BASE, '').replace('https://w3id.org/assay/ns#', 'assay:').replace('http://www.w3.org/ns/dcat#', 'dcat:').replace('http://purl.org/dc/terms/', 'dct:');
}

function fixForShacl(component: string, path?: string): string {
  const p = path ? shortIri(path) : 'the property';
  switch (component) {
    case 'MinCountConstraintComponent': return `add ${p} (required by shapes/catalog-shapes.ttl)`;
    case 'MaxCountConstraintComponent': return `keep only one value for ${p}`;
    case 'ClassConstraintComponent': return `point ${p} at a node of the expected class: declare it in the descriptor (service, dataset or operation ids must exist)`;
    case 'InConstraintComponent': return `use one of the allowed values for ${p}`;
    default: return `see the shape for ${p} in shapes/catalog-shapes.ttl`;
  }
}
