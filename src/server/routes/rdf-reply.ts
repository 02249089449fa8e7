/**
 * Answer a request with RDF in the format its Accept header prefers (the description surfaces'
 * shared reply). 406 names the formats on offer; every answer varies by Accept so caches keep
 * the formats apart.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type * as RDFJS from '@rdfjs/types';
import { contentTypeOf, negotiateRdf, serializeRdf, type RdfOutputType, type SerializeOptions } from '../../rdf/serialize.ts';

export async function sendRdf(
  request: FastifyRequest,
  reply: FastifyReply,
  quads: Iterable<RDFJS.Quad>,
  allowed: readonly RdfOutputType[],
  options: SerializeOptions = {},
): Promise<FastifyReply> {
  reply.header('Vary', 'Accept');
  const type = negotiateRdf(request.headers.accept, allowed);
  if (!type) return notAcceptable(request, reply, allowed);
  const body = await serializeRdf(quads, type, options);
  return reply.type(contentTypeOf(type)).send(body);
}

export function notAcceptable(request: FastifyRequest, reply: FastifyReply, allowed: readonly string[]): FastifyReply {
  return reply.code(406).send({
    statusCode: 406,
    error: 'Not Acceptable',
    message: `${request.url} is available as ${allowed.join(', ')}; the Accept header (${request.headers.accept ?? ''}) allows none of them. Send Accept: ${allowed[0]} (or */*).`,
  });
}

export function notFound(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(404).send({ statusCode: 404, error: 'Not Found', message });
}
