/** `assay serve`: run the gateway until SIGINT/SIGTERM. */
import { loadConfig } from '../../config.ts';
import { startGateway } from '../../server/listen.ts';
import { syncCatalogGraph, type SyncResult } from '../../ard/sync.ts';
import { DurableStore } from '../../rdf/durable.ts';

export interface ServeOptions {
  port?: number;
  host?: string;
  data?: string;
  base?: string;
  catalog?: string;
  /** A SPARQL 1.1 endpoint to keep the graphs in (--store; ASSAY_STORE_URL). */
  store?: string;
}

export async function serveCommand(opts: ServeOptions): Promise<void> {
  const config = loadConfig({ port: opts.port, host: opts.host, dataDir: opts.data, baseIri: opts.base, ...(opts.store ? { store: { url: opts.store } } : {}) });
  let sync: SyncResult | undefined;
  const running = await startGateway(config, {
    prepare: async (store) => {
      sync = await syncCatalogGraph(store, { baseIri: config.baseIri, dir: opts.catalog });
    },
  });
  const recovery = running.store instanceof DurableStore ? running.store.recovery : undefined;
  const lines = [
    `Assay gateway listening on ${running.url}`,
    recovery
      ? `  data directory: ${config.dataDir} (${running.store.rdf.size} quads; snapshot ${recovery.snapshot ?? 'none'}, ${recovery.replayed} journal records replayed)`
      : `  store: ${running.store.describe()} (${running.store.rdf.size} quads)`,
  ];
  if (sync) {
    lines.push(sync.changed
      ? `  catalog: rebuilt from ${opts.catalog ?? 'ard-okf'}/ (${sync.publishers} sources, ${sync.measures} measures, ${sync.quads} quads) in ${(sync.elapsedMs / 1000).toFixed(1)} s`
      : `  catalog: unchanged since it was last loaded (${sync.quads} quads)`);
  }
  if (recovery?.tornTail) {
    lines.push(`  recovered: cut off a torn journal tail of ${recovery.tornTail.bytes} bytes at byte ${recovery.tornTail.offset} (${recovery.tornTail.reason}); it was never acknowledged`);
  }
  lines.push(`  SPARQL endpoint: ${config.baseIri}sparql   VoID: ${config.baseIri}.well-known/void   catalog: ${config.baseIri}catalog`);
  lines.push('  offline default: no model and no live publisher traffic are configured. Stop with Ctrl-C.');
  process.stdout.write(lines.join('\n') + '\n');
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      running.close().then(resolve, (e: Error) => {
        process.stderr.write(`assay: error while stopping: ${e.message}\n`);
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
