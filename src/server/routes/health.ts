/**
 * Liveness and readiness, kept apart (a load balancer needs both):
 * - `GET /health` (liveness): 200 while the process answers at all, with the figures an operator
 *   looks at first and whether it is ready. It does no work that grows with the store: the quad
 *   and graph counts (a walk over every quad) are made by a query worker on its replica, at most
 *   every few seconds and only after a write, and /health serves the last one with the write it
 *   was counted at (`countedAt`; `quads` and `graphs` are null until the first count is in).
 *   With a remote store the counts are the store's own (queries to it, at most every few seconds).
 * - `GET /ready` (readiness): 200 once the query workers hold their replicas, the catalog graph
 *   is in step and an ask worker has loaded its services (others may still be starting); until then 503 with `Retry-After`
 *   and the list of what is still starting (/health lists it too, as `starting`). `assay serve` prints "ready" at the same moment.
 */
import type { FastifyInstance } from 'fastify';
import { QueryPool } from '../sparql/pool.ts';

const COUNT_EVERY_MS = 5_000;
/** How long a count may wait for and hold a query worker. */
const COUNT_TIMEOUT_MS = 30_000;

interface Counted { seq: number; quads: number; graphs: number; at: number }

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  let cached: Counted | undefined;
  let counting = false;
  let lastTry = 0;
  const pool = app.queryPool;
  /** Start a count in a query worker unless one runs, the last one is current, or it was tried just now. */
  const recount = () => {
    if (!(pool instanceof QueryPool) || counting) return;
    const { store } = app.assay;
    const now = Date.now();
    if (cached && (cached.seq === store.seq || now - cached.at < COUNT_EVERY_MS)) return;
    if (now - lastTry < COUNT_EVERY_MS && cached) return;
    counting = true;
    lastTry = now;
    pool.storeCounts(COUNT_TIMEOUT_MS).then(
      (c) => { if (!cached || c.seq >= cached.seq) cached = { ...c, at: Date.now() }; },
      (e: Error) => app.log.warn({ err: e }, '/health could not count the store'),
    ).finally(() => { counting = false; });
  };
  if (pool instanceof QueryPool) void pool.ready().then(recount);
  app.get('/health', async () => {
    const { store } = app.assay;
    const waiting = app.readiness.waiting();
    const ready = waiting.length === 0;
    // While starting: what is still being prepared (as /ready lists it); questions sent meanwhile wait for an ask worker.
    const starting = ready ? {} : { starting: waiting };
    if (pool instanceof QueryPool) {
      recount();
      return { status: 'ok', ready, ...starting, quads: cached?.quads ?? null, graphs: cached?.graphs ?? null, countedAt: cached?.seq ?? null, lastWrite: store.seq };
    }
    // A remote store counts itself (the facade's reads are queries to it, not walks here).
    const now = Date.now();
    if (!cached || (cached.seq !== store.seq && now - cached.at > COUNT_EVERY_MS)) {
      cached = { seq: store.seq, quads: store.rdf.size, graphs: store.rdf.graphs().length, at: now };
    }
    return { status: 'ok', ready, ...starting, quads: cached.quads, graphs: cached.graphs, countedAt: cached.seq, lastWrite: store.seq };
  });

  app.get('/ready', async (_req, reply) => {
    const waiting = app.readiness.waiting();
    if (waiting.length === 0) return { status: 'ready' };
    return reply.code(503).header('Retry-After', '2').send({
      status: 'starting', waiting,
      message: `not ready yet: waiting for ${waiting.join(', ')}; /health answers meanwhile`,
    });
  });
}
