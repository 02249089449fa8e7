/**
 * `assay serve`: run the gateway until SIGINT/SIGTERM. Prints where it listens as soon as it
 * does (liveness: /health answers from then on), then "ready" once the query workers, the
 * catalog and the ask workers are (readiness: /ready answers 200 from the same moment).
 */
import { loadConfig } from '../../config.ts';
import { modelConfigFromEnv } from '../../llm/config.ts';
import { imageNotes, startGateway } from '../../server/listen.ts';
import { syncCatalogGraph, type SyncResult } from '../../ard/sync.ts';
import { graphIri } from '../../rdf/vocab.ts';
import { DurableStore, type RecoveryReport } from '../../rdf/durable.ts';

export interface ServeOptions {
  port?: number;
  host?: string;
  data?: string;
  base?: string;
  catalog?: string;
  /** A SPARQL 1.1 endpoint to keep the graphs in (--store; ASSAY_STORE_URL). */
  store?: string;
}

export function recoveryLines(recovery: RecoveryReport): string[] {
  const lines: string[] = [];
  if (recovery.tornTail) {
    lines.push(`  recovered: cut off a torn journal tail of ${recovery.tornTail.bytes} bytes at byte ${recovery.tornTail.offset} (${recovery.tornTail.reason}); it was never acknowledged`);
  }
  if (recovery.unreplayable) {
    lines.push(`  recovered: cut off a ${recovery.unreplayable.kind} journaled by an older Assay before it was applied, at byte ${recovery.unreplayable.offset}, which cannot be replayed (${recovery.unreplayable.reason}); it was never acknowledged`);
  }
  if (recovery.snapshot && recovery.snapshotChecked === false) {
    lines.push(`  note: snapshot ${recovery.snapshot} predates snapshot checksums (it was parsed strictly); the next compaction writes one with checksums`);
  }
  return lines;
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
    `Assay gateway listening on ${running.url} (liveness: ${running.url}/health; readiness: ${running.url}/ready)`,
    recovery
      ? `  data directory: ${config.dataDir} (${running.store.rdf.size} quads; snapshot ${recovery.snapshot ?? 'none'}, ${recovery.replayed} journal records replayed)`
      : `  store: ${running.store.describe()} (${running.store.rdf.size} quads)`,
    ...(recovery ? recoveryLines(recovery) : []),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const stopped = new Promise<void>((resolve) => {
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
  let isReady = false;
  try {
    await Promise.race([running.ready.then(() => { isReady = true; }), stopped]);
  } catch (e) {
    await running.close();
    throw e;
  }
  if (!isReady) return;
  const after: string[] = [];
  if (sync) {
    // The store's own count: the catalog may state a triple twice, the graph holds it once.
    const quads = running.store.rdf.graphSize(graphIri(config.baseIri, 'catalog'));
    after.push(sync.changed
      ? `  catalog: rebuilt from ${opts.catalog ?? 'ard-okf'}/ (${sync.cached ? 'the graph read from its cache' : `${sync.publishers} sources, ${sync.measures} measures`}, ${quads} quads) in ${(sync.elapsedMs / 1000).toFixed(1)} s`
      : `  catalog: unchanged since it was last loaded (${quads} quads)`);
  }
  after.push(...imageNotes(running.store));
  after.push(`  SPARQL endpoint: ${config.baseIri}sparql   VoID: ${config.baseIri}.well-known/void   catalog: ${config.baseIri}catalog`);
  const model = modelConfigFromEnv();
  after.push(model
    ? `  model: ${model.baseURL} (classify ${model.models.classify}, rerank ${model.models.rerank}, synthesise ${model.models.synthesise}); publishers replayed from the offline snapshot. Stop with Ctrl-C.`
    : '  offline default: no model and no live publisher traffic are configured. Stop with Ctrl-C.');
  after.push('ready');
  process.stdout.write(after.join('\n') + '\n');
  await stopped;
}
