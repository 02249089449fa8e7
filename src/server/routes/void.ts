/**
 * `/.well-known/void`: the VoID description of every graph in the store (RFC 5785 well-known
 * location from the VoID spec, §7.2). Turtle by default, any RDF format by Accept. Figures are
 * computed by scanning the store and cached until the next write (src/void/).
 */
import type { FastifyInstance } from 'fastify';
import { ALL_RDF_OUTPUT } from '../../rdf/serialize.ts';
import { createVoidCache, type VoidCache } from '../../void/cache.ts';
import { sendRdf } from './rdf-reply.ts';

export interface VoidRouteOptions {
  /** A cache shared with other surfaces (dereferencing a graph IRI); one is made if absent. */
  voidCache?: VoidCache;
}

export async function voidRoutes(app: FastifyInstance, options: VoidRouteOptions = {}): Promise<void> {
  const cache = options.voidCache ?? ownCache(app);
  app.get('/.well-known/void', async (request, reply) => sendRdf(request, reply, cache.get(), ALL_RDF_OUTPUT));
}

/** A cache owned by this plugin instance, released when the app closes. */
export function ownCache(app: FastifyInstance): VoidCache {
  const cache = createVoidCache(app.assay.store, app.assay.config.baseIri);
  app.addHook('onClose', async () => cache.dispose());
  return cache;
}
