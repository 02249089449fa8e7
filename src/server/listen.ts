/**
 * Start the gateway: open the store (embedded, or remote with config.store.url), build the app and listen, then bring the catalog
 * graph up to date. Listening comes first so that liveness (/health) answers during a long
 * start-up while readiness (/ready) says what is still loading. Returns a handle that closes
 * everything in order, and `ready`, which resolves once /ready would answer 200.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { AssayStore } from '../rdf/backend.ts';
import { DurableStore } from '../rdf/durable.ts';
import { ImageCache } from '../rdf/image-file.ts';
import { openStore } from '../rdf/open.ts';
import { build } from './app.ts';
import { startRetention, type SweepPlanner } from './retention.ts';
import { QueryPool } from './sparql/pool.ts';

/**
 * How long after ready the gateway saves a memory image of its store (see `ready` below): long
 * enough not to stall the first minutes of questions (the copy takes ~0.5–1 s on the event loop and
 * the file is ~300 MB), soon enough that a gateway that later crashes still leaves one.
 */
const IMAGE_AFTER_READY_MS = 5 * 60_000;
/** How long retention's planning may wait for and hold a query worker. */
const SWEEP_PLAN_TIMEOUT_MS = 120_000;

/** Where the gateway keeps memory images of its store (src/rdf/image-file.ts) unless ASSAY_STORE_IMAGES says otherwise. */
export const DEFAULT_IMAGE_DIR = fileURLToPath(new URL('../../node_modules/.cache/assay/images/', import.meta.url));

/**
 * The image cache an embedded gateway store uses: ASSAY_STORE_IMAGES=off for none, a directory
 * path for that directory, else DEFAULT_IMAGE_DIR. Images are a cache: deleting them costs the next
 * start a parse, nothing else.
 */
export function imageCacheFromEnv(env: NodeJS.ProcessEnv = process.env): ImageCache | null {
  const v = env.ASSAY_STORE_IMAGES?.trim();
  if (v === 'off' || v === '0' || v === 'false') return null;
  return new ImageCache(v && v !== 'on' && v !== '1' ? v : DEFAULT_IMAGE_DIR);
}

/**
 * What became of memory images at this start (adopted, or not used and why), as lines for the
 * operator; empty without images.
 */
export function imageNotes(store: AssayStore): string[] {
  if (!(store instanceof DurableStore)) return [];
  return store.imageLog.flatMap((e) => {
    switch (e.code) {
      case 'adopted': return [`  memory image: the store was adopted from ${e.key.slice(0, 12)}… in ${(e.ms / 1000).toFixed(1)} s instead of parsed`];
      case 'refused': return [`  note: memory image ${e.key.slice(0, 12)}… was not used (${e.reason}); the store was parsed instead, and a new image is saved once ready`];
      case 'unusable': return [`  note: no memory image could be used (${e.reason})`];
      case 'save-failed': return [`  note: a memory image could not be saved (${e.reason})`];
      default: return [];
    }
  });
}

export interface Running {
  app: FastifyInstance;
  store: AssayStore;
  url: string;
  /** Resolves when the workers and catalog are ready (rejects if preparing the catalog failed). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function startGateway(config: Config, options: {
  logger?: boolean; prepare?: (store: AssayStore) => Promise<void>;
  /** Memory images of the embedded store (default: imageCacheFromEnv()); null for none. */
  images?: ImageCache | null;
} = {}): Promise<Running> {
  const store = await openStore(config, { images: options.images === undefined ? imageCacheFromEnv() : options.images });
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
      // A while after ready (not before, and not under the first questions: it copies the heap on
      // this thread), keep an image of the state start-up reached, so that the next start adopts it
      // even after a crash; close() saves the state it leaves as well.
      if (store instanceof DurableStore) setTimeout(() => { if (!stopped.signal.aborted) void store.saveImage(); }, IMAGE_AFTER_READY_MS).unref();
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
