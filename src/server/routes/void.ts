/**
 * `/.well-known/void`: the VoID description of every graph in the store (RFC 5785 well-known
 * location from the VoID spec, §7.2). Turtle by default, any RDF format by Accept.
 *
 * Figures are mined by the introspection library in a query worker (a `void` job in the shared
 * pool, limit sparql.voidTimeoutMs), never on the event loop, and cached until the next write
 * (src/void/). Every answer reflects every write acknowledged before the request; the header
 * `Assay-Void-Seq: N` says which (N acknowledged writes, DurableStore.seq). If the figures cannot
 * be computed (workers busy, time limit) the answer is 503 with Retry-After, never old figures.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ALL_RDF_OUTPUT } from '../../rdf/serialize.ts';
import { createVoidCache, type VoidCache, type VoidSnapshot } from '../../void/cache.ts';
import { SparqlError, fromReply } from '../sparql/errors.ts';
import { sendRdf } from './rdf-reply.ts';

export const VOID_SEQ_HEADER = 'Assay-Void-Seq';

export interface VoidRouteOptions {
  /** A cache shared with other surfaces (dereferencing a graph IRI); one is made if absent. */
  voidCache?: VoidCache;
}

export async function voidRoutes(app: FastifyInstance, options: VoidRouteOptions = {}): Promise<void> {
  const cache = options.voidCache ?? ownCache(app);
  app.get('/.well-known/void', async (request, reply) => {
    const snap = await currentVoid(cache, reply);
    if (!snap) return reply;
    reply.header(VOID_SEQ_HEADER, String(snap.seq));
    return sendRdf(request, reply, snap.quads, ALL_RDF_OUTPUT);
  });
}

/** A cache whose figures are computed in the app's query pool. */
export function ownCache(app: FastifyInstance): VoidCache {
  const { store, config } = app.assay;
  return createVoidCache({
    currentSeq: () => store.seq,
    baseIri: config.baseIri,
    compute: async () => {
      const { reply, seq } = await app.queryPool.run({ kind: 'void' }, config.sparql.voidTimeoutMs, 'sparql.voidTimeoutMs');
      if (!reply.ok) throw fromReply(reply);
      if (reply.kind !== 'void') throw new Error(`the query worker answered a VoID job with a ${reply.kind} result; this is a bug in Assay`);
      return { figures: reply.figures, seq };
    },
  });
}

/** The current VoID, or undefined after answering 503 with what went wrong and what to do. */
export async function currentVoid(cache: VoidCache, reply: FastifyReply): Promise<VoidSnapshot | undefined> {
  try {
    return await cache.get();
  } catch (err) {
    const e = err instanceof SparqlError ? err : undefined;
    reply.log.warn({ err }, 'VoID could not be computed');
    for (const [k, v] of Object.entries(e?.headers ?? {})) reply.header(k, v);
    if (!e?.headers['Retry-After']) reply.header('Retry-After', '5');
    const fix = e?.code === 'timeout'
      ? 'the store is too large to describe within sparql.voidTimeoutMs; an operator can raise it (ASSAY_VOID_TIMEOUT_MS)'
      : 'retry after the number of seconds in Retry-After';
    reply.code(503).send({ statusCode: 503, error: 'Service Unavailable', message: `the VoID figures could not be computed: ${(err as Error).message}`, fix });
    return undefined;
  }
}
