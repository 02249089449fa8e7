/**
 * `/schema-card`: a plain-text schema card of the store (or one graph) for a model's prompt,
 * mined by introspect/.
 *
 *   GET /schema-card?budget=4000&graph=<iri>&seed=<iri>&seed=<iri>
 *   budget: characters, 1..100000 (default 4000); graph: a named graph IRI, or "default" for the
 *   default graph; omitted = every graph together. seed: scope the card to classes/predicates.
 *
 * Mining scans the graph once, in a query worker (like VoID: a large graph takes seconds, and
 * the event loop must stay free); the result is cached per graph until the store is next written
 * (DurableStore.onWrite), so repeated cards at different budgets cost only rendering. One cache
 * per app instance, dropped on close. Bad parameters are 400 with a message; an empty or unknown
 * graph is 404; a mining job past sparql.voidTimeoutMs or a busy pool is 503 with Retry-After.
 */
import type { FastifyInstance } from 'fastify';
import { fromJson, IntrospectError, toCard, type Introspection } from '../../../introspect/index.ts';
import { fromReply, SparqlError } from '../sparql/errors.ts';

const MAX_BUDGET = 100_000;

export async function schemaCardRoutes(app: FastifyInstance): Promise<void> {
  const cache = new Map<string, Promise<Introspection>>();
  const unsubscribe = app.assay.store.onWrite(() => cache.clear());
  app.addHook('onClose', async () => unsubscribe());
  const limit = app.assay.config.sparql.voidTimeoutMs;

  // Also keyed on the store's write counter: on a shared remote store another gateway's write
  // changes it without this process being told (onWrite reports only its own writes).
  let cachedSeq: number | undefined;
  const mined = (graph: string | undefined): Promise<Introspection> => {
    const seq = app.assay.store.seq;
    if (seq !== cachedSeq) {
      cache.clear();
      cachedSeq = seq;
    }
    const key = graph ?? '\u0000union';
    let ix = cache.get(key);
    if (!ix) {
      ix = app.queryPool.run(graph === undefined ? { kind: 'mine' } : { kind: 'mine', graph }, limit, 'sparql.voidTimeoutMs').then(({ reply }) => {
        if (!reply.ok) throw fromReply(reply);
        if (reply.kind !== 'mine') throw new Error(`the query worker answered a mining job with a ${reply.kind} result; this is a bug in Assay`);
        return fromJson(reply.json, 'the mined schema');
      });
      cache.set(key, ix);
      // A failure is not cached: the next request tries again.
      ix.catch(() => { if (cache.get(key) === ix) cache.delete(key); });
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
    let ix: Introspection;
    try {
      ix = await mined(graph);
    } catch (err) {
      if (!(err instanceof SparqlError)) throw err;
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      if (!err.headers['Retry-After']) reply.header('Retry-After', '5');
      const fix = err.code === 'timeout' ? 'the graph is too large to mine within sparql.voidTimeoutMs; an operator can raise it (ASSAY_VOID_TIMEOUT_MS)' : 'retry after the number of seconds in Retry-After';
      return reply.code(503).type('text/plain; charset=utf-8').send(`the schema card could not be mined: ${err.message}; ${fix}\n`);
    }
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
