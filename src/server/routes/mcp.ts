/**
 * `/mcp`: Assay's MCP server over Streamable HTTP, stateless — each POST carries a JSON-RPC
 * message (or batch) and gets its answer on that request (as an SSE stream, so progress
 * notifications of a running question reach the client before the result); nothing is kept
 * between requests, so any gateway replica can answer any request (the state that lasts is in the
 * store). GET and DELETE are answered by the SDK's transport as the protocol says for a server
 * without sessions. Tools reach the gateway in process (src/mcp/gateway.ts).
 *
 * Three things are this route's own:
 * - **Who may call.** A browser page may call /mcp only from an origin in limits.cors.askOrigins
 *   (or the gateway's own origin, from its base IRI): any other Origin header is 403, whether or not
 *   the browser asked CORS first — that is what stops a DNS-rebinding page, whose requests are
 *   same-origin to the browser. A gateway listening on loopback also answers only Host names that
 *   are loopback or its base IRI's host. (The SDK's own allowedOrigins/allowedHosts transport
 *   options are deprecated in favour of checks in the server in front of it: this is that check.)
 * - **Cancelling.** The answer to `initialize` carries an Mcp-Session-Id that the client sends
 *   back; it is used only to find a running call when the client sends notifications/cancelled
 *   (which arrives on another POST). While a call runs, `session + request id` maps to its abort
 *   controller; a cancellation, or the call's own connection closing, aborts it. The map holds
 *   running calls of this process only: a cancellation that a load balancer sends to another
 *   replica finds nothing, and the call's deadline bounds it.
 * - **The client's address** is passed to the tools, so /ask's and /sparql's per-client rate limits
 *   count the agent.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../../mcp/server.ts';
import { gatewayOf } from '../../mcp/gateway.ts';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (LOOPBACK_NAMES.has(host) || LOOPBACK_NAMES.has(h)) return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** The hostname of a Host header value (port and IPv6 brackets handled by URL). */
function hostnameOf(host: string): string | undefined {
  try { return new URL(`http://${host}`).hostname; } catch { return undefined; }
}

interface JsonRpcLike { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { requestId?: unknown } }

const messagesOf = (body: unknown): JsonRpcLike[] => (Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : []) as JsonRpcLike[];

function forbid(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(403).header('content-type', 'application/json').send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  const gateway = gatewayOf(app);
  const { config } = app.assay;
  const base = new URL(config.baseIri);
  const askOrigins = config.limits.cors.askOrigins;
  const anyOrigin = askOrigins.includes('*');
  const allowedOrigins = new Set([base.origin, ...askOrigins]);
  const checkHost = isLoopback(config.host);
  /** `session \0 request id` → the running call's controller. */
  const running = new Map<string, AbortController>();
  const key = (session: string, id: unknown) => `${session}\u0000${JSON.stringify(id)}`;

  const refused = (request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const origin = request.headers.origin;
    if (origin !== undefined && !anyOrigin && !allowedOrigins.has(origin)) {
      return forbid(reply, `a page at ${origin} may not call this MCP endpoint (Origin checked against DNS rebinding and cross-site calls). An operator allows a browser client's origin with limits.cors.askOrigins (ASSAY_CORS_ASK_ORIGINS); agents outside a browser send no Origin header.`);
    }
    if (checkHost) {
      const host = request.headers.host ?? '';
      const name = hostnameOf(host);
      if (!name || !(isLoopback(name) || name === base.hostname)) {
        return forbid(reply, `this gateway listens on loopback (${config.host}) and answers /mcp only for Host localhost, 127.0.0.1, [::1] or ${base.hostname}; Host "${host}" looks like DNS rebinding. Connect to http://127.0.0.1:${base.port || 80}/mcp, or set the base IRI (ASSAY_BASE_IRI) to the name clients use.`);
      }
    }
    return undefined;
  };

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    handler: async (request, reply) => {
      const no = refused(request, reply);
      if (no) return no;
      const messages = messagesOf(request.body);
      const session = typeof request.headers['mcp-session-id'] === 'string' ? request.headers['mcp-session-id'] : undefined;
      // A cancellation names a call that another POST is running: abort it here.
      if (session) {
        for (const m of messages) {
          if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) running.get(key(session, m.params.requestId))?.abort(new Error('the client cancelled the call'));
        }
      }
      // Each call this POST carries gets its own controller, aborted by a cancellation naming it or
      // when this request's connection closes.
      const connection = new AbortController();
      const mine = new Map<string, AbortController>();
      if (session) {
        for (const m of messages) {
          if (typeof m.method !== 'string' || m.id === undefined || m.id === null) continue;
          const c = new AbortController();
          connection.signal.addEventListener('abort', () => c.abort(connection.signal.reason), { once: true });
          mine.set(key(session, m.id), c);
          running.set(key(session, m.id), c);
        }
      }
      const server = createMcpServer(gateway, {
        signal: connection.signal,
        signalFor: (id) => (session ? mine.get(key(session, id))?.signal : undefined),
        remoteAddress: request.ip,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      // The transport writes the response itself: headers set by hooks so far (CORS) go onto it first.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
      reply.hijack();
      if (messages.some((m) => m.method === 'initialize')) reply.raw.setHeader('mcp-session-id', randomBytes(16).toString('hex'));
      reply.raw.on('close', () => {
        for (const [k, c] of mine) if (running.get(k) === c) running.delete(k);
        connection.abort(new Error('the client closed the connection'));
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (e) {
        request.log.error({ err: e }, 'mcp: request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `Assay's MCP endpoint failed: ${(e as Error).message}` }, id: null }));
        }
      }
    },
  });
}
