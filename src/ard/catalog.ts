/**
 * The in-memory catalog: publishers, their access paths and measures, as validated from the ARD/OKF
 * descriptors in ard-okf/. Built only from entries that passed layers 1 and 2 (see validate.ts);
 * a `Catalog` value is always whole and valid — there is no partially loaded catalog.
 *
 * Identifiers (ARD `identifier`, a `urn:air:` URN):
 *   urn:air:assay:<publisher>:source
 *   urn:air:assay:<publisher>:op:<operationId>
 *   urn:air:assay:<publisher>:measure:<group>:<name>      (measureId = "<group>/<name>")
 */
import type {
  AccessPathData, Credentials, MeasureData, RateLimit, SourceData,
} from './extension-schema.ts';

/** One ARD ai-catalog entry as it appears in a descriptor file. */
export interface ArdEntry {
  identifier: string;
  displayName: string;
  type: string;
  data?: Record<string, unknown>;
  url?: string;
  description?: string;
  tags?: string[];
  capabilities?: string[];
  representativeQueries?: string[];
  [key: string]: unknown;
}

export interface ArdManifest {
  specVersion: '1.0';
  host?: { displayName: string; [key: string]: unknown };
  entries: ArdEntry[];
}

export interface Publisher {
  id: string;
  identifier: string;
  file: string;
  entry: ArdEntry;
  data: SourceData;
}

export interface AccessPath {
  id: string;
  publisherId: string;
  identifier: string;
  file: string;
  entry: ArdEntry;
  data: AccessPathData;
  /** The operation's own rate limit, else its service's. */
  rateLimit: RateLimit | undefined;
  /** The operation's own credential rule, else its service's. */
  credentials: Credentials;
  userAgentRequired: boolean;
}

export interface Measure {
  /** `<publisher>/<group>/<name>`: unique across the catalog. */
  key: string;
  publisherId: string;
  identifier: string;
  file: string;
  entry: ArdEntry;
  data: MeasureData;
}

export interface Catalog {
  readonly files: readonly string[];
  readonly publishers: readonly Publisher[];
  readonly accessPaths: readonly AccessPath[];
  readonly measures: readonly Measure[];
  publisher(id: string): Publisher | undefined;
  accessPath(publisherId: string, operationId: string): AccessPath | undefined;
  /** By measure key `<publisher>/<group>/<name>` or by ARD identifier. */
  measure(keyOrIdentifier: string): Measure | undefined;
  /** The access paths that serve a measure, in declaration order. */
  servingPaths(measure: Measure): AccessPath[];
}

export const URN_PREFIX = 'urn:air:assay:';

export function sourceUrn(publisherId: string): string {
  return `${URN_PREFIX}${publisherId}:source`;
}
export function accessPathUrn(publisherId: string, operationId: string): string {
  return `${URN_PREFIX}${publisherId}:op:${operationId}`;
}
export function measureUrn(publisherId: string, measureId: string): string {
  return `${URN_PREFIX}${publisherId}:measure:${measureId.replace('/', ':')}`;
}

export type ParsedUrn =
  | { kind: 'source'; publisherId: string }
  | { kind: 'op'; publisherId: string; operationId: string }
  | { kind: 'measure'; publisherId: string; measureId: string };

/** Parses an Assay catalog URN; undefined when it does not follow the scheme above. */
export function parseUrn(urn: string): ParsedUrn | undefined {
  if (!urn.startsWith(URN_PREFIX)) return undefined;
  const parts = urn.slice(URN_PREFIX.length).split(':');
  const [pub, kind, a, b] = parts;
  if (!pub || !/^[a-z0-9][a-z0-9-]*$/.test(pub)) return undefined;
  if (kind === 'source' && parts.length === 2) return { kind: 'source', publisherId: pub };
  if (kind === 'op' && parts.length === 3 && a) return { kind: 'op', publisherId: pub, operationId: a };
  if (kind === 'measure' && parts.length === 4 && a && b) return { kind: 'measure', publisherId: pub, measureId: `${a}/${b}` };
  return undefined;
}

export function buildCatalog(files: readonly string[], publishers: Publisher[], accessPaths: AccessPath[], measures: Measure[]): Catalog {
  const pubs = new Map(publishers.map((p) => [p.id, p]));
  const paths = new Map(accessPaths.map((a) => [`${a.publisherId}/${a.id}`, a]));
  const byKey = new Map(measures.map((m) => [m.key, m]));
  const byUrn = new Map(measures.map((m) => [m.identifier, m]));
  return Object.freeze({
    files: Object.freeze([...files]),
    publishers: Object.freeze(publishers),
    accessPaths: Object.freeze(accessPaths),
    measures: Object.freeze(measures),
    publisher: (id: string) => pubs.get(id),
    accessPath: (publisherId: string, operationId: string) => paths.get(`${publisherId}/${operationId}`),
    measure: (k: string) => byKey.get(k) ?? byUrn.get(k),
    servingPaths: (m: Measure) => m.data.servedBy.map((op) => paths.get(`${m.publisherId}/${op}`)).filter((a): a is AccessPath => a !== undefined),
  });
}
