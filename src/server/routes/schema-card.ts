/**
 * `/schema-card`: a plain-text schema card of the store (or one graph) for a model's prompt,
 * mined by introspect/.
 *
 *   GET /schema-card?budget=4000&graph=<iri>&seed=<iri>&seed=<iri>
 *   budget: characters, 1..100000 (default 4000); graph: a named graph IRI, or "default" for the
 *   default graph; omitted = every graph together. seed: scope the card to classes/predicates.
 *
 * Mining scans the graph once; the result is cached per graph until the store is next written
 * (DurableStore.onWrite), so repeated cards at different budgets cost only rendering. One cache
 * per app instance, dropped on close. Bad parameters are 400 with a message; an empty or unknown
 * graph is 404.
 */
import type { FastifyInstance } from 'fastify';
import { fromDumpable, IntrospectError, mine, toCard, type Introspection } from '../../../introspect/index.ts';

const MAX_BUDGET = 100_000;

export async function schemaCardRoutes(app: FastifyInstance): Promise<void> {
  const cache = new Map<string, Introspection>();
  const unsubscribe = app.assay.store.onWrite(() => cache.clear());
  app.addHook('onClose', async () => unsubscribe());

  const mined = (graph: string | undefined): Introspection => {
    const key = graph ?? '\u0000union';
    let ix = cache.get(key);
    if (!ix) {
      const rdf = app.assay.store.rdf;
      // oxigraph's dump is not grouped by subject, so let the library group it (see fromDumpable).
      ix = mine(fromDumpable(rdf, graph));
      cache.set(key, ix);
    }
    return ix;
  };

  app.get('/schema-card', async (request, reply) => {
    const q = request.query as Record<string, string | string[] | undefined>;
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    const budgetText = one(q.budget) ?? '4000';
    const budget = Number(budgetText);
    if (!Number.isInteger(budget) || budget < 1 || budget > MAX_BUDGET) {
      return reply.code(400).type('text/plain; charset=utf-8').send(`budget must be a whole number of characters from 1 to ${MAX_BUDGET}, not "${budgetText}"\n`);
    }
    const graphParam = one(q.graph);
    let graph: string | undefined;
    if (graphParam !== undefined) {
      if (graphParam === 'default') graph = '';
      else {
        try {
          new URL(graphParam);
        } catch {
          return reply.code(400).type('text/plain; charset=utf-8').send(`graph must be an absolute IRI or "default", not "${graphParam}"\n`);
        }
        graph = graphParam;
      }
    }
    const seeds = q.seed === undefined ? [] : Array.isArray(q.seed) ? q.seed : [q.seed];
    const ix = mined(graph);
    if (ix.triples === 0) {
      const what = graph === undefined ? 'the store is empty' : graph === '' ? 'the default graph is empty' : `graph <${graph}> is empty or does not exist`;
      return reply.code(404).type('text/plain; charset=utf-8').send(`${what}: nothing to describe\n`);
    }
    try {
      return reply.type('text/plain; charset=utf-8').send(`${toCard(ix, budget, { seeds })}\n`);
    } catch (e) {
      if (e instanceof IntrospectError) return reply.code(400).type('text/plain; charset=utf-8').send(`${e.message}\n`);
      throw e;
    }
  });
}
