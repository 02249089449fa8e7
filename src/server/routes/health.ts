/**
 * Liveness and readiness, kept apart (a load balancer needs both):
 * - `GET /health` (liveness): 200 while the process answers at all, with the figures an operator
 *   looks at first and whether it is ready. It does no work that grows with the store beyond a
 *   cached count (refreshed at most every few seconds), so it answers even under load.
 * - `GET /ready` (readiness): 200 once the query workers hold their replicas, the catalog graph
 *   is in step and the ask workers have loaded their services; until then 503 with `Retry-After`
 *   and the list of what is still starting. `assay serve` prints "ready" at the same moment.
 */
import type { FastifyInstance } from 'fastify';

const COUNT_EVERY_MS = 5_000;

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  // Counting quads walks the whole store (tens of ms at 600k quads): count at most every few seconds.
  let cached: { seq: number; quads: number; graphs: number; at: number } | undefined;
  app.get('/health', async () => {
    const { store } = app.assay;
    const now = Date.now();
    if (!cached || (cached.seq !== store.seq && now - cached.at > COUNT_EVERY_MS)) {
      cached = { seq: store.seq, quads: store.rdf.size, graphs: store.rdf.graphs().length, at: now };
    }
    return { status: 'ok', ready: app.readiness.waiting().length === 0, quads: cached.quads, graphs: cached.graphs, lastWrite: store.seq };
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
