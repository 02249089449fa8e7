/**
 * The gateway as a fastify app. `build()` wires shared services and registers one plugin
 * per surface; it never listens (src/server/listen.ts does). Tests call `app.inject()`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
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
import { startQueryPool, QueryPool } from './sparql/pool.ts';
import { Readiness } from './readiness.ts';
import { AskHost } from './ask/host.ts';
import { SPARQL_ERRORS } from './sparql/errors.ts';
import { RemoteEvaluator } from './sparql/remote.ts';
import { webRoutes } from './web/routes.ts';
import { varyOn } from './routes/rdf-reply.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { feedbackRoutes } from './routes/feedback.ts';

export interface AppDeps {
  config: Config;
  /** The store holding every graph: embedded (DurableStore) or a remote SPARQL store (RemoteStore). */
  store: AssayStore;
  /** Log requests (off in tests). */
  logger?: boolean;
  /** Conditions started outside build() that readiness must wait for (e.g. 'catalog'; see listen.ts). */
  pending?: string[];
  /** Start the ask workers at once and make readiness wait for them (the gateway does; tests start them on first use). */
  eagerAsk?: boolean;
  /**
   * Seed the query and ask workers' replicas once this settles (listen.ts: the catalog sync), so
   * each copies a memory image that holds it, rather than parsing it or being seeded twice.
   */
  askSeedAfter?: Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    assay: AppDeps;
    /**
     * Where untrusted SPARQL and VoID run: worker threads holding replicas of the embedded store
     * (sparql/pool.ts), or, with a remote store, the proxied evaluator (sparql/remote.ts).
     */
    queryPool: QueryPool | RemoteEvaluator;
    /** What /ready waits for (readiness.ts). */
    readiness: Readiness;
    /** The ask workers (ask/host.ts), started on first use unless AppDeps.eagerAsk. */
    askHost: () => AskHost;
  }
}

function answerClientError(err: Error & { code?: string; rawPacket?: Buffer }, socket: import('node:net').Socket, maxUrlBytes: number): void {
  if (!socket.writable) return;
  let status = 400;
  let reason = 'Bad Request';
  let body: Record<string, string> = { error: 'bad-request', message: `the request could not be read (${err.code ?? err.message})`, fix: 'send a well-formed HTTP/1.1 request' };
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const raw = err.rawPacket;
    const eol = raw ? raw.indexOf('\r\n') : -1;
    if (!raw || eol === -1 || eol > maxUrlBytes) {
      status = 414;
      reason = 'URI Too Long';
      body = { error: 'url-too-long', message: `the request URL is longer than ${maxUrlBytes} bytes`, fix: SPARQL_ERRORS['url-too-long'].fix };
    } else {
      status = 431;
      reason = 'Request Header Fields Too Large';
      body = { error: 'headers-too-large', message: 'the request headers are too large', fix: 'send fewer or shorter headers' };
    }
  }
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

export async function build(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: deps.config.sparql.maxBodyBytes,
    routerOptions: { maxParamLength: 2048 },
    // Clients of a public endpoint send all sorts of things; keep the server's own limits explicit.
    return503OnClosing: true,
    // Behind a load balancer the client is the first X-Forwarded-For hop (rate limits, worker shares).
    trustProxy: deps.config.limits.rateLimit.trustProxy,
    // Node answers 431 before any route runs once headers pass its limit (16 KiB); leave room
    // above the configured URL limit so an over-long query URL gets the protocol's 414 instead.
    http: { maxHeaderSize: deps.config.sparql.maxUrlBytes + 16 * 1024 },
    // Past that, Node answers before any route: when it is the request line that overflowed, say
    // 414 in the endpoint's own terms instead of Node's 431.
    clientErrorHandler: (err, socket) => answerClientError(err as unknown as Error & { code?: string; rawPacket?: Buffer }, socket, deps.config.sparql.maxUrlBytes),
  });
  app.decorate('assay', deps);
  const queryPool = deps.store instanceof RemoteStore
    ? new RemoteEvaluator(deps.store, { maxConcurrent: deps.config.store.maxConcurrent, maxQueue: deps.config.sparql.maxQueue })
    : startQueryPool(deps.store as Parameters<typeof startQueryPool>[0], { ...deps.config.sparql, spares: deps.config.limits.sparql.spareWorkers, surge: deps.config.limits.sparql.surgeWorkers }, (reason) => app.log.warn({ reason }, 'query worker replaced'), deps.askSeedAfter);
  app.decorate<QueryPool | RemoteEvaluator>('queryPool', queryPool);
  const readiness = new Readiness();
  if (queryPool instanceof QueryPool) readiness.add('sparql-workers', () => queryPool.isReady);
  for (const name of deps.pending ?? []) readiness.expect(name);
  app.decorate('readiness', readiness);
  let askHost: AskHost | undefined;
  const lim = deps.config.limits.ask;
  app.decorate('askHost', () => askHost ??= new AskHost(deps.store, {
    workers: lim.workers, concurrency: lim.concurrency, maxQueue: lim.maxQueue, baseIri: deps.config.baseIri,
    storeConfig: deps.config.store,
    ...(deps.askSeedAfter ? { seedAfter: deps.askSeedAfter } : {}),
    onReplace: (reason) => app.log.warn({ reason }, 'ask worker replaced'),
    eager: deps.eagerAsk === true,
  }));
  app.addHook('onClose', async () => askHost?.close());
  if (deps.eagerAsk && lim.workers > 0) {
    app.askHost();
    readiness.add('ask-workers', () => askHost!.canAnswer);
  }
  app.addHook('onClose', async () => queryPool.close());
  // Per-client request limits: only routes that opt in (/ask, /sparql) are limited; 429 with
  // Retry-After and the X-RateLimit-* headers. Answers under the limit carry none of them (three
  // headers on every /sparql answer for no client that needs them).
  await app.register(rateLimit, {
    global: false,
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });
  // CORS, never with credentials and never allowing Authorization (so a page cannot send a
  // token it was given): read-only surfaces are open to limits.cors.readOrigins (default any);
  // /ask (and /mcp, /feedback), whose calls write to the store, only to limits.cors.askOrigins (default none).
  const corsLimits = deps.config.limits.cors;
  const originOption = (list: readonly string[]): '*' | false | string[] => (list.includes('*') ? '*' : list.length === 0 ? false : [...list]);
  // Built once: the delegator runs on every request, and returns one of these three.
  const corsFor = (writes: boolean, mcp: boolean): { origin: '*' | false | string[]; exposedHeaders?: string[] } & Record<string, unknown> => ({
    origin: originOption(writes ? corsLimits.askOrigins : corsLimits.readOrigins),
    credentials: false,
    methods: writes ? ['POST', 'OPTIONS'] : ['GET', 'HEAD', 'POST', 'OPTIONS'],
    // An MCP client in a page sends the protocol's own headers and reads the session id (routes/mcp.ts).
    allowedHeaders: mcp ? ['Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'] : ['Content-Type', 'Accept'],
    ...(mcp ? { exposedHeaders: ['Mcp-Session-Id'] } : {}),
    maxAge: 600,
  });
  const corsRead = corsFor(false, false);
  const corsWrite = corsFor(true, false);
  const corsMcp = corsFor(true, true);
  const corsOf = (url: string) => {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path === '/mcp') return corsMcp;
    // Surfaces whose calls write to the store (a run, a feedback record) or run questions.
    const writes = ['/ask', '/mcp', '/feedback'].some((p) => path === p || path.startsWith(`${p}/`));
    return writes ? corsWrite : corsRead;
  };
  // Preflights (OPTIONS) are answered by @fastify/cors, registered in a context of its own so that
  // its hook runs for them only. Every other request needs only the simple headers, set here as the
  // library would set them (it normalised its options on every request: ~15 µs of a /sparql answer).
  app.addHook('onRequest', (req, reply, done) => {
    if (req.raw.method === 'OPTIONS') return done();
    const o = corsOf(req.url);
    // The reply depends on Origin whatever the option (the library's rule for a delegated option).
    if (reply.getHeader('Vary') === undefined) reply.header('Vary', 'Origin');
    else varyOn(reply, 'Origin');
    const origin = req.headers.origin;
    const allow = o.origin === '*' ? '*' : o.origin !== false && origin !== undefined && o.origin.includes(origin) ? origin : undefined;
    if (allow !== undefined) reply.header('Access-Control-Allow-Origin', allow);
    if (o.exposedHeaders) reply.header('Access-Control-Expose-Headers', o.exposedHeaders.join(', '));
    done();
  });
  await app.register(async (preflights) => {
    await preflights.register(cors, { delegator: (req, cb) => cb(null, corsOf(req.url ?? '')) });
  });
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
