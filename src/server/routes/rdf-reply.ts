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
  varyOn(reply, 'Accept');
  const type = negotiateRdf(request.headers.accept, allowed);
  if (!type) return notAcceptable(request, reply, allowed);
  const body = await serializeRdf(quads, type, options);
  return reply.type(contentTypeOf(type)).send(body);
}

/**
 * Adds a request header to the reply's Vary, keeping what is there: CORS has already set
 * `Vary: Origin` where the allowed origins are a list, and replacing it would let a shared cache
 * hand one origin's Access-Control-Allow-Origin to another.
 */
export function varyOn(reply: FastifyReply, header: string): FastifyReply {
  const have = reply.getHeader('Vary');
  const names = (Array.isArray(have) ? have.join(',') : have === undefined ? '' : String(have)).split(',').map((x) => x.trim()).filter(Boolean);
  if (names.includes('*') || names.some((x) => x.toLowerCase() === header.toLowerCase())) return reply;
  return reply.header('Vary', [...names, header].join(', '));
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
