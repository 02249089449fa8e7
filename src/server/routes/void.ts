/**
 * `/.well-known/void`: the VoID description of every graph in the store (RFC 5785 well-known
 * location from the VoID spec, §7.2). Turtle by default, any RDF format by Accept. Figures are
 * computed by scanning the store and cached until the next write (src/void/).
 */
import type { FastifyInstance } from 'fastify';
import { ALL_RDF_OUTPUT } from '../../rdf/serialize.ts';
import { createVoidCache } from '../../void/cache.ts';
import { sendRdf } from './rdf-reply.ts';

export async function voidRoutes(app: FastifyInstance): Promise<void> {
  const cache = createVoidCache(app.assay.store, app.assay.config.baseIri);
  app.addHook('onClose', async () => cache.dispose());
  app.get('/.well-known/void', async (request, reply) => sendRdf(request, reply, cache.get(), ALL_RDF_OUTPUT));
}
