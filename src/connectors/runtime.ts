/**
 * Wires the connector layer for a process: the validated descriptors (the one loader, catalog.ts,
 * over the configured catalog directory, with the configured publisher base URLs applied), the
 * connector registry and one HttpClient (cassettes from the configured directory; replay unless live
 * or record is asked for; the User-Agent and credentials from the configuration). Per-question state
 * is not here: callers pair this with a CallContext (signal, deadline) for each question.
 *
 * The environment is read only through src/config.ts: pass a `config`, or an `env` it is built from
 * (the process environment by default).
 */
import { fileURLToPath } from 'node:url';
import { HttpClient, type HttpMode } from '../http/client.ts';
import { openCassettes } from '../http/cassette.ts';
import { loadConfig, type Config } from '../config.ts';
import { loadDescriptors, type Descriptors } from './catalog.ts';
import type { Declarations } from './declarations.ts';
import { connectorRegistry } from './registry.ts';
import type { Connector } from './types.ts';

export const DEFAULT_CASSETTE_DIR = fileURLToPath(new URL('../../fixtures/publishers', import.meta.url));
export const DEFAULT_CATALOG_DIR = fileURLToPath(new URL('../../ard-okf', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ConnectorRuntime {
  http: HttpClient;
  declarations: Declarations;
  /** The validated descriptors the declarations came from: display names, datasets, declared periods. */
  descriptors?: Descriptors;
  registry: ReadonlyMap<string, Connector>;
}

export interface RuntimeOptions {
  mode?: HttpMode;
  config?: Config;
  /** Used only to build the configuration when none is given. */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  cassetteDir?: string;
  catalogDir?: string;
  /** Publisher base URLs on top of the configured ones (a test's loopback fake). */
  publisherUrls?: Record<string, string>;
}

export async function connectorRuntime(options: RuntimeOptions = {}): Promise<ConnectorRuntime> {
  const config = options.config ?? loadConfig({
    ...(options.catalogDir ? { catalogDir: options.catalogDir } : {}),
    ...(options.cassetteDir ? { cassetteDir: options.cassetteDir } : {}),
  }, options.env ?? process.env);
  const catalogDir = options.catalogDir ?? config.catalogDir;
  const baseUrls = { ...config.publishers.baseUrls, ...options.publisherUrls };
  const descriptors = await loadDescriptors(catalogDir, { baseUrls });
  const mode = options.mode ?? 'replay';
  const http = new HttpClient({
    mode,
    fetch: mode === 'replay' ? undefined : (options.fetch ?? globalThis.fetch),
    cassettes: await openCassettes(options.cassetteDir ?? config.cassetteDir, { repoRoot: REPO_ROOT }),
    userAgent: config.publishers.userAgent,
    credentials: config.publishers.credentials,
  });
  return { http, declarations: descriptors.declarations, descriptors, registry: connectorRegistry() };
}
