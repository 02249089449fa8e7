/**
 * `/mcp`: Assay's MCP server over Streamable HTTP, stateless — each POST carries a JSON-RPC
 * message (or batch) and gets its answer as JSON; no session is kept between requests, so any
 * gateway replica can answer any request (the state that lasts is in the store). GET and DELETE
 * (server-initiated streams, session ends) are answered by the SDK's transport as the protocol
 * says for a server without sessions. Tools reach the gateway in process (src/mcp/gateway.ts).
 */
import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../../mcp/server.ts';
import { gatewayOf } from '../../mcp/gateway.ts';

export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  const gateway = gatewayOf(app);
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    handler: async (request, reply) => {
      const server = createMcpServer(gateway);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
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
