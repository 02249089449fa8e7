/**
 * Assay's MCP server (official @modelcontextprotocol/sdk): the tools in tools.ts and two resource
 * templates — a question's run graph and one admitted evidence item, each as Turtle, addressed
 * by the same URLs the gateway serves them at. One server per connection (stdio) or per request
 * (stateless Streamable HTTP); everything that lasts belongs to the Gateway.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Gateway } from './gateway.ts';
import { TOOLS, ToolError } from './tools.ts';

export const SERVER_INFO = { name: 'assay', title: 'Assay knowledge-graph gateway', version: '0.1.0' };

const INSTRUCTIONS = 'Assay answers questions about US public data from the publishers\' own APIs. Use ask for questions in plain English: '
  + 'every figure comes back graded by code (verified, derived, corroborated, conflict, unverified) and cited to a publisher response; '
  + 'quote figures with their grade and cite them. A needs_clarification result lists options: call resume with its run_id and the option. '
  + 'A refusal says why and what would make the question answerable; do not answer it from elsewhere as if Assay had. '
  + 'Use sparql (read-only) and schema_card for questions about the graph itself; list_sources/describe_source for what can be read.';

async function turtle(g: Gateway, path: string, uri: string) {
  const res = await g.app.inject({ method: 'GET', url: path, headers: { accept: 'text/turtle' } });
  if (res.statusCode !== 200) {
    let message = res.body;
    try { message = (JSON.parse(res.body) as { message?: string }).message ?? res.body; } catch { /* plain text */ }
    throw new Error(`${uri}: ${message}`);
  }
  return { contents: [{ uri, mimeType: 'text/turtle', text: res.body }] };
}

/** What one connection (stdio) or one request (HTTP) adds to every tool call it carries. */
export interface ConnectionContext {
  /** Aborted when the connection or request ends (the client went away): running calls stop. */
  signal?: AbortSignal;
  /** A signal for one call by its JSON-RPC id, aborted when the client cancels it from elsewhere (HTTP). */
  signalFor?: (requestId: string | number) => AbortSignal | undefined;
  /** The client's address, for per-client limits. */
  remoteAddress?: string;
}

export function createMcpServer(g: Gateway, conn: ConnectionContext = {}): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } });
  for (const tool of TOOLS) {
    if (tool.available && !tool.available(g)) continue;
    server.registerTool(tool.name, {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: { readOnlyHint: tool.name !== 'ask' && tool.name !== 'resume', openWorldHint: tool.name === 'ask' || tool.name === 'resume' },
    }, async (args: Record<string, unknown>, extra) => {
      // Progress: one notification per progress event when the client sent a progressToken.
      const token = extra._meta?.progressToken;
      let n = 0;
      const progress = token === undefined ? undefined : (message: string) => {
        extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++n, message } })
          .catch(() => undefined); // a client gone mid-call: the call's signal stops the work
      };
      const more = [conn.signal, conn.signalFor?.(extra.requestId)].filter((x): x is AbortSignal => x !== undefined);
      const signal = more.length ? AbortSignal.any([extra.signal, ...more]) : extra.signal;
      try {
        const r = await tool.run(g, args, { signal, ...(progress ? { progress } : {}), ...(conn.remoteAddress ? { remoteAddress: conn.remoteAddress } : {}) });
        return { content: [{ type: 'text' as const, text: r.text }], structuredContent: r.structured };
      } catch (e) {
        if (e instanceof ToolError) return { content: [{ type: 'text' as const, text: e.message }], isError: true };
        throw e;
      }
    });
  }
  server.registerResource('run-graph', new ResourceTemplate(`${g.baseIri}runs/{id}`, { list: undefined }), {
    title: 'Run graph',
    description: "A question's run graph as Turtle: the intent, the plan, every attempt (rejected ones too), the answer and its figure grades, with the run's evidence and provenance. The id is an ask result's run_id.",
    mimeType: 'text/turtle',
  }, (uri, vars) => turtle(g, `/runs/${encodeURIComponent(String(vars.id))}`, uri.href));
  server.registerResource('evidence', new ResourceTemplate(`${g.baseIri}evidence/{run}/{n}`, { list: undefined }), {
    title: 'Evidence item',
    description: 'One admitted evidence item as Turtle (its value, unit, period, entity, assurance and the publisher response it was generated from). The IRIs appear in ask results (figures[].evidence, citations[].evidence).',
    mimeType: 'text/turtle',
  }, (uri, vars) => turtle(g, `/evidence/${encodeURIComponent(String(vars.run))}/${encodeURIComponent(String(vars.n))}`, uri.href));
  return server;
}
