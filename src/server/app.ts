/**
 * The gateway as a fastify app. `build()` wires shared services and registers one plugin
 * per surface; it never listens (src/server/listen.ts does). Tests call `app.inject()`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import type { Config } from '../config.ts';
import type { AssayStore } from '../rdf/backend.ts';
import { RemoteStore } from '../rdf/remote.ts';
import { healthRoutes } from './routes/health.ts';
import { sparqlRoutes } from './routes/sparql.ts';
import { schemaCardRoutes } from './routes/schema-card.ts';
import { describeRoutes } from './routes/describe.ts';
import { askRoutes } from './routes/ask.ts';
import { runsRoutes } from './routes/runs.ts';
import { nlqRoutes } from './routes/nlq.ts';
import { startQueryPool, type QueryPool } from './sparql/pool.ts';
import { RemoteEvaluator } from './sparql/remote.ts';
import { webRoutes } from './web/routes.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { feedbackRoutes } from './routes/feedback.ts';

export interface AppDeps {
  config: Config;
  /** The store holding every graph: embedded (DurableStore) or a remote SPARQL store (RemoteStore). */
  store: AssayStore;
  /** Log requests (off in tests). */
  logger?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    assay: AppDeps;
    /**
     * Where untrusted SPARQL and VoID run: worker threads holding replicas of the embedded store
     * (sparql/pool.ts), or, with a remote store, the proxied evaluator (sparql/remote.ts).
     */
    queryPool: QueryPool | RemoteEvaluator;
  }
}

export async function build(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: deps.config.sparql.maxBodyBytes,
    routerOptions: { maxParamLength: 2048 },
    // Clients of a public endpoint send all sorts of things; keep the server's own limits explicit.
    return503OnClosing: true,
    // Node answers 431 before any route runs once headers pass its limit (16 KiB); leave room
    // above the configured URL limit so an over-long query URL gets the protocol's 414 instead.
    http: { maxHeaderSize: deps.config.sparql.maxUrlBytes + 16 * 1024 },
  });
  app.decorate('assay', deps);
  const queryPool = deps.store instanceof RemoteStore
    ? new RemoteEvaluator(deps.store, { maxConcurrent: deps.config.store.maxConcurrent, maxQueue: deps.config.sparql.maxQueue })
    : startQueryPool(deps.store as Parameters<typeof startQueryPool>[0], deps.config.sparql, (reason) => app.log.warn({ reason }, 'query worker replaced'));
  app.decorate<QueryPool | RemoteEvaluator>('queryPool', queryPool);
  app.addHook('onClose', async () => queryPool.close());
  // Browser clients may query from any origin, never with credentials.
  await app.register(cors, { origin: '*', credentials: false, methods: ['GET', 'POST', 'OPTIONS'] });
  await app.register(healthRoutes);
  await app.register(sparqlRoutes);
  // VoID, /catalog, ai-catalog.json, /shapes and dereferencing of minted IRIs (a wildcard).
  await app.register(describeRoutes);
  await app.register(schemaCardRoutes);
  await app.register(askRoutes);
  await app.register(runsRoutes);
  await app.register(nlqRoutes);
  // People and agents (issue 14): the web page at / for browsers and its assets; MCP at /mcp;
  // feedback on answers (rate-limited on its route).
  await app.register(webRoutes);
  await app.register(mcpRoutes);
  await app.register(feedbackRoutes);
  return app;
}
