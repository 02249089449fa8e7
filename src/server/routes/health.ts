/** `/health`: liveness plus the figures an operator looks at first. */
import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  // Counting quads walks the whole store (tens of ms at 600k quads): count once per write.
  let cached: { seq: number; quads: number; graphs: number } | undefined;
  app.get('/health', async () => {
    const { store } = app.assay;
    if (!cached || cached.seq !== store.seq) {
      cached = { seq: store.seq, quads: store.rdf.size, graphs: store.rdf.graphs().length };
    }
    return { status: 'ok', quads: cached.quads, graphs: cached.graphs, lastWrite: cached.seq };
  });
}
