/**
 * Start the gateway: open the store (embedded, or remote with config.store.url), build the app and listen, then bring the catalog
 * graph up to date. Listening comes first so that liveness (/health) answers during a long
 * start-up while readiness (/ready) says what is still loading. Returns a handle that closes
 * everything in order, and `ready`, which resolves once /ready would answer 200.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { AssayStore } from '../rdf/backend.ts';
import { openStore } from '../rdf/open.ts';
import { build } from './app.ts';
import { startRetention, type SweepPlanner } from './retention.ts';
import { QueryPool } from './sparql/pool.ts';

/** How long retention's planning may wait for and hold a query worker. */
const SWEEP_PLAN_TIMEOUT_MS = 120_000;

export interface Running {
  app: FastifyInstance;
  store: AssayStore;
  url: string;
  /** Resolves when the workers and catalog are ready (rejects if preparing the catalog failed). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function startGateway(config: Config, options: { logger?: boolean; prepare?: (store: AssayStore) => Promise<void> } = {}): Promise<Running> {
  const store = await openStore(config);
  try {
    let prepared!: () => void;
    const catalogSynced = new Promise<void>((resolve) => { prepared = resolve; });
    const app = await build({ config, store, logger: options.logger, pending: ['catalog'], eagerAsk: true, askSeedAfter: catalogSynced });
    const address = await app.listen({ port: config.port, host: config.host });
    const stopped = new AbortController();
    // Plan sweeps in a query worker (a scan of the evidence graph) when the store is embedded.
    const pool = app.queryPool;
    const planner: SweepPlanner | undefined = pool instanceof QueryPool
      ? async (now) => (await pool.sweepPlan({ baseIri: config.baseIri, policy: config.limits.runs, now }, SWEEP_PLAN_TIMEOUT_MS)).plan
      : undefined;
    const stopRetention = startRetention(store, config.baseIri, config.limits.runs, (r) => {
      if (r instanceof Error) app.log.error({ err: r }, 'run retention failed');
      else app.log.info({ removed: r.removed.length, quads: r.quadsRemoved }, 'run retention removed runs');
    }, planner);
    const ready = (async () => {
      try {
        if (options.prepare) await options.prepare(store);
      } finally {
        prepared();
      }
      app.readiness.mark('catalog');
      await app.readiness.whenReady(stopped.signal);
    })();
    ready.catch(() => undefined);
    return {
      app,
      store,
      url: address,
      ready,
      async close() {
        stopped.abort(new Error('the gateway was stopped before it was ready'));
        stopRetention();
        await ready.catch(() => undefined);
        await app.close();
        await store.close();
      },
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
