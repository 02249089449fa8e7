/**
 * What the MCP tools stand on: the gateway app itself. Tools call its HTTP surfaces in process
 * (`app.inject`), so an agent's question, query or resume goes through exactly the validation,
 * budgets, query pool and error statuses a client of /ask or /sparql gets — nothing is
 * re-implemented here. Catalog summaries and entity resolution, which have no HTTP surface of
 * their own, read the descriptors and the offline registry, each loaded once per gateway.
 */
import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../ard/catalog.ts';
import { loadCatalog } from '../ard/load.ts';
import { openOfflineRegistry, type IdentityRegistry } from '../resolve/registry.ts';
import { ensureSlash } from '../rdf/vocab.ts';

export interface Gateway {
  app: FastifyInstance;
  baseIri: string;
  catalog(): Promise<Catalog>;
  registry(): Promise<IdentityRegistry>;
  /** Whether the gateway serves this route (tools for optional surfaces, e.g. POST /nlq). */
  serves(method: 'GET' | 'POST', url: string): boolean;
}

export function gatewayOf(app: FastifyInstance, options: { catalogDir?: string } = {}): Gateway {
  let catalog: Promise<Catalog> | undefined;
  let registry: Promise<IdentityRegistry> | undefined;
  const retryOnFailure = <T>(p: Promise<T>, clear: () => void) => { p.catch(clear); return p; };
  return {
    app,
    baseIri: ensureSlash(app.assay.config.baseIri),
    catalog: () => (catalog ??= retryOnFailure(loadCatalog(options.catalogDir ?? 'ard-okf', { baseIri: app.assay.config.baseIri }), () => { catalog = undefined; })),
    registry: () => (registry ??= retryOnFailure(openOfflineRegistry(), () => { registry = undefined; })),
    serves: (method, url) => app.hasRoute({ method, url }),
  };
}
