/** `/health`: liveness plus the figures an operator looks at first. */
import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', async () => {
    const { store } = app.assay;
    return { status: 'ok', quads: store.rdf.size, graphs: store.rdf.graphs().length };
  });
}
