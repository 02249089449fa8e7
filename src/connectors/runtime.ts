/**
 * Wires the connector layer for a process: the catalog declarations, the connector registry and one
 * HttpClient (cassettes from fixtures/publishers; replay unless live or record is asked for; the
 * User-Agent and credentials from the environment). Per-question state is not here: callers pair
 * this with a CallContext (signal, deadline) for each question.
 */
import { fileURLToPath } from 'node:url';
import { HttpClient, type HttpMode } from '../http/client.ts';
import { openCassettes } from '../http/cassette.ts';
import { readDeclarations, type Declarations } from './declarations.ts';
import { connectorRegistry } from './registry.ts';
import type { Connector } from './types.ts';

export const DEFAULT_CASSETTE_DIR = fileURLToPath(new URL('../../fixtures/publishers', import.meta.url));
export const DEFAULT_CATALOG_DIR = fileURLToPath(new URL('../../ard-okf', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ConnectorRuntime {
  http: HttpClient;
  declarations: Declarations;
  registry: ReadonlyMap<string, Connector>;
}

export async function connectorRuntime(options: { mode?: HttpMode; env?: NodeJS.ProcessEnv; fetch?: typeof fetch; cassetteDir?: string; catalogDir?: string } = {}): Promise<ConnectorRuntime> {
  const env = options.env ?? process.env;
  const declarations = await readDeclarations(options.catalogDir ?? DEFAULT_CATALOG_DIR);
  const credentialNames = new Set(declarations.all().map((d) => d.credentials.env).filter((x): x is string => !!x));
  const credentials = Object.fromEntries([...credentialNames].map((n) => [n, env[n]]));
  const mode = options.mode ?? 'replay';
  const http = new HttpClient({
    mode,
    fetch: mode === 'replay' ? undefined : (options.fetch ?? globalThis.fetch),
    cassettes: await openCassettes(options.cassetteDir ?? DEFAULT_CASSETTE_DIR, { repoRoot: REPO_ROOT }),
    userAgent: env.ASSAY_USER_AGENT,
    credentials,
  });
  return { http, declarations, registry: connectorRegistry() };
}
