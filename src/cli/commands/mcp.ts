/**
 * `assay mcp [--data dir] [--sync-catalog]`: Assay's MCP server over stdio, for agents that start
 * it as a subprocess. It builds the gateway app over the data directory without listening and
 * serves the same tools as /mcp on a running gateway (src/mcp/). stdout carries only MCP
 * messages; the banner and any warnings go to stderr. The data directory is held exclusively,
 * like `assay serve`: when a gateway already runs on it, connect the agent to its /mcp instead.
 *
 * --sync-catalog loads ard-okf/ into the store's catalog graph first, as `assay serve` does (slow
 * the first time: ~650 k quads), so SPARQL over the catalog works; list_sources and
 * describe_source read the descriptors and need no sync.
 */
import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../../config.ts';
import { DurableStore } from '../../rdf/durable.ts';
import { build } from '../../server/app.ts';
import { syncCatalogGraph } from '../../ard/sync.ts';
import { createMcpServer } from '../../mcp/server.ts';
import { gatewayOf } from '../../mcp/gateway.ts';

interface McpOpts { data?: string; base?: string; catalog: string; syncCatalog?: boolean }

export function registerMcp(cli: Command): void {
  cli.command('mcp')
    .description('serve Assay\'s MCP tools (ask, resume, sparql, schema_card, list_sources, describe_source, resolve_entity) over stdio')
    .option('--data <dir>', 'data directory holding the store (env ASSAY_DATA_DIR; default ./.assay-data)')
    .option('--base <iri>', 'base IRI for the IRIs Assay mints (env ASSAY_BASE_IRI)')
    .option('--catalog <dir>', 'directory of publisher descriptors', 'ard-okf')
    .option('--sync-catalog', 'load the descriptors into the store\'s catalog graph before serving (as assay serve does)')
    .action(async (opts: McpOpts) => mcpCommand(opts));
}

export async function mcpCommand(opts: McpOpts): Promise<void> {
  const config = loadConfig({ dataDir: opts.data, baseIri: opts.base });
  const store = await DurableStore.open(config.dataDir);
  const app = await build({ config, store }).catch(async (e) => { await store.close(); throw e; });
  const stop = async () => {
    await app.close();
    await store.close();
  };
  try {
    if (opts.syncCatalog) {
      const s = await syncCatalogGraph(store, { baseIri: config.baseIri, dir: opts.catalog });
      process.stderr.write(`assay mcp: catalog ${s.changed ? `rebuilt (${s.quads} quads) in ${(s.elapsedMs / 1000).toFixed(1)} s` : 'unchanged'}\n`);
    }
    await app.ready();
    const server = createMcpServer(gatewayOf(app, { catalogDir: opts.catalog }));
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => { transport.onclose = resolve; });
    await server.connect(transport);
    process.stderr.write(`assay mcp: serving over stdio (data ${config.dataDir}, ${store.rdf.size} quads, base ${config.baseIri})\n`);
    // The client ends the session by closing stdin; SIGINT/SIGTERM stop it too.
    await new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
      void closed.then(resolve);
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
  } finally {
    await stop();
  }
}
