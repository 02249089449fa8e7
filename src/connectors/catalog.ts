/**
 * The one loader of the publishers' descriptors for the connector layer: `<catalogDir>/*.json`
 * (the hand-written OKF descriptors, not the generated measure lists), validated, with the
 * configured publisher base URLs applied.
 *
 * Input: the configured catalog directory (`config.catalogDir`, `--catalog`) and base URLs
 * (`config.publishers.baseUrls`). Output: `Descriptors` — the operation declarations the
 * connectors run, each publisher's display name, datasets and declared periods — or a
 * CatalogValidationError listing every problem (ARD manifest schema, then the source and access-path
 * schemas of src/ard), never a half-read catalog. The generated measure lists (37 MB) are not read:
 * their validation is src/ard's (`loadCatalog`), and a connector run must not pay for it.
 *
 * A base URL replaces the origin of every URL template of that publisher (scheme, host, port and
 * any path prefix given), keeping each template's own path and query: SEC's two hosts
 * (www.sec.gov, data.sec.gov) both go to the one stand-in.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { validateArdManifest } from '../ard/ard-schema.ts';
import { accessPathDataSchema, measureDataSchema, sourceDataSchema, type AccessPathData, type DatasetDecl, type ServiceDecl } from '../ard/extension-schema.ts';
import { CatalogValidationError, type Problem } from '../ard/problems.ts';
import { declarationsFrom, type Declarations, type OperationDecl } from './declarations.ts';

const SOURCE_TYPE = 'application/vnd.assay.source+json';
const ACCESS_PATH_TYPE = 'application/vnd.assay.access-path+json';
const MEASURE_TYPE = 'application/vnd.assay.measure+json';

export interface PublisherDescriptor {
  id: string;
  /** The publisher's organisation name ("U.S. Securities and Exchange Commission"). */
  name: string;
  /** The source's display name as the descriptor gives it ("SEC EDGAR"): what answers cite. */
  displayName: string;
  datasets: DatasetDecl[];
  services: ServiceDecl[];
  identifierTypes: string[];
  file: string;
}

export interface Descriptors {
  readonly dir: string;
  readonly declarations: Declarations;
  readonly publishers: ReadonlyMap<string, PublisherDescriptor>;
  /** The display name of a source ("SEC EDGAR"), or the id itself when the catalog has no such source. */
  displayName(source: string): string;
  /** The dataset an operation reads (its `temporal` says which periods the publisher declares). */
  datasetOf(source: string, operationId: string): DatasetDecl | undefined;
  /** The newest year any dataset of a source declares (`temporal.end`), or undefined. */
  newestDeclaredYear(source: string): number | undefined;
  /**
   * The newest period an operation declares (its dataset's `temporal.end`, with the dataset title),
   * in the shape src/validate/latest.ts ranks ("latest means latest"); undefined when it declares none.
   */
  declaredPeriod(source: string, operationId: string, candidate?: string): { candidate: string; source: string; end: string; label?: string } | undefined;
  /** The other names a hand-written measure declares (`altLabels`, "national debt"), by `<group>/<name>`; empty when none. */
  altLabels(source: string, measureId: string): readonly string[];
}

export interface LoadOptions {
  /** source id → base URL standing in for the publisher (config.publishers.baseUrls). */
  baseUrls?: Readonly<Record<string, string>>;
}

interface Manifest { entries: Array<{ type: string; displayName?: string; data?: Record<string, unknown> }> }

export async function loadDescriptors(dir: string, options: LoadOptions = {}): Promise<Descriptors> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  } catch (e) {
    throw new CatalogValidationError([{ file: dir, layer: 'json', rule: 'readable', message: `cannot list the catalog directory: ${(e as Error).message}`, fix: 'pass the directory holding the descriptors (--catalog or ASSAY_CATALOG_DIR), e.g. ard-okf' }]);
  }
  const problems: Problem[] = [];
  const ops: OperationDecl[] = [];
  const publishers = new Map<string, PublisherDescriptor>();
  const datasetOfOp = new Map<string, DatasetDecl>();
  const altLabelsOf = new Map<string, string[]>();
  for (const f of files) {
    const file = join(dir, f);
    let json: unknown;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
      json = JSON.parse(text);
    } catch (e) {
      problems.push({ file, layer: 'json', rule: 'json-syntax', message: `not valid JSON: ${(e as Error).message}`, fix: 'fix the JSON syntax' });
      continue;
    }
    const schema = validateArdManifest(json, file, text);
    if (schema.length > 0) { problems.push(...schema); continue; }
    const m = json as Manifest;
    const sourceIndex = m.entries.findIndex((e) => e.type === SOURCE_TYPE);
    if (sourceIndex < 0) continue; // a manifest of something other than a publisher (not a connector's concern)
    const src = sourceDataSchema.safeParse(m.entries[sourceIndex]!.data);
    if (!src.success) {
      for (const i of src.error.issues) problems.push({ file, layer: 'extension', path: `/entries/${sourceIndex}/data/${i.path.join('/')}`, rule: i.code, message: i.message, fix: 'make the source entry match the OKF source schema (src/ard/extension-schema.ts)' });
      continue;
    }
    const source = src.data;
    const id = source.publisher.id;
    if (publishers.has(id)) { problems.push({ file, layer: 'reference', rule: 'unique-publisher', message: `publisher ${id} is also described in ${publishers.get(id)!.file}`, fix: 'keep one descriptor per publisher' }); continue; }
    publishers.set(id, { id, name: source.publisher.name, displayName: m.entries[sourceIndex]!.displayName ?? id, datasets: source.datasets, services: source.services, identifierTypes: source.identifierTypes, file });
    const services = new Map(source.services.map((s) => [s.id, s]));
    const datasets = new Map(source.datasets.map((d) => [d.id, d]));
    const base = options.baseUrls?.[id];
    m.entries.forEach((e, index) => {
      if (e.type === MEASURE_TYPE) {
        const ms = measureDataSchema.safeParse(e.data);
        if (!ms.success) { for (const i of ms.error.issues) problems.push({ file, layer: 'extension', path: `/entries/${index}/data/${i.path.join('/')}`, rule: i.code, message: i.message, fix: 'make the measure match the OKF measure schema (src/ard/extension-schema.ts)' }); return; }
        if (ms.data.altLabels?.length) altLabelsOf.set(`${id}/${ms.data.measureId}`, ms.data.altLabels);
        return;
      }
      if (e.type !== ACCESS_PATH_TYPE) return;
      const r = accessPathDataSchema.safeParse(e.data);
      if (!r.success) {
        for (const i of r.error.issues) problems.push({ file, layer: 'extension', path: `/entries/${index}/data/${i.path.join('/')}`, rule: i.code, message: i.message, fix: 'make the access path match the OKF access-path schema (src/ard/extension-schema.ts)' });
        return;
      }
      const data: AccessPathData = base ? { ...r.data, urlTemplate: rebase(r.data.urlTemplate, base) } : r.data;
      const svc = services.get(data.service);
      if (!svc) { problems.push({ file, layer: 'reference', path: `/entries/${index}/data/service`, rule: 'service-exists', message: `service "${data.service}" is not declared by ${id}`, fix: `declare it in the source's services or use one of: ${[...services.keys()].join(', ')}` }); return; }
      const ds = datasets.get(data.dataset);
      if (ds) datasetOfOp.set(`${id}/${data.operationId}`, ds);
      ops.push({
        publisherId: id, id: data.operationId, data,
        rateLimit: data.rateLimit ?? svc.rateLimit,
        credentials: data.credentials ?? svc.credentials ?? { mode: 'none' },
        userAgentRequired: svc.userAgentRequired ?? false,
      });
    });
  }
  for (const source of Object.keys(options.baseUrls ?? {})) {
    if (!publishers.has(source)) problems.push({ file: dir, layer: 'reference', rule: 'publisher-url-source', message: `a base URL is configured for "${source}", which no descriptor describes`, fix: `use a source id of the catalog: ${[...publishers.keys()].join(', ')}` });
  }
  if (problems.length > 0) throw new CatalogValidationError(problems);
  const declarations = declarationsFrom(ops);
  return {
    dir, declarations, publishers,
    displayName: (s) => publishers.get(s)?.displayName ?? s,
    datasetOf: (s, op) => datasetOfOp.get(`${s}/${op}`),
    declaredPeriod(s, op, candidate) {
      const ds = datasetOfOp.get(`${s}/${op}`);
      return ds ? { candidate: candidate ?? `${s}/${op}`, source: s, end: ds.temporal.end, label: `${ds.title} (through ${ds.temporal.end})` } : undefined;
    },
    altLabels: (s, measureId) => altLabelsOf.get(`${s}/${measureId}`) ?? [],
    newestDeclaredYear(s) {
      const years = (publishers.get(s)?.datasets ?? []).map((d) => Number(d.temporal.end.slice(0, 4))).filter(Number.isFinite);
      return years.length ? Math.max(...years) : undefined;
    },
  };
}

/** Replaces a URL template's origin (and prefixes the base's path), keeping its own path and query. */
export function rebase(template: string, base: string): string {
  const m = /^(https?:\/\/[^/?#]+)(.*)$/.exec(template);
  if (!m) return template;
  const b = base.replace(/\/+$/, '');
  return `${b}${m[2]}`;
}
