/**
 * Start the gateway: open the store (embedded, or remote with config.store.url), bring the catalog graph up to date, build the
 * app and listen. Returns a handle that closes everything in order.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { AssayStore } from '../rdf/backend.ts';
import { openStore } from '../rdf/open.ts';
import { build } from './app.ts';

export interface Running {
  app: FastifyInstance;
  store: AssayStore;
  url: string;
  close(): Promise<void>;
}

export async function startGateway(config: Config, options: { logger?: boolean; prepare?: (store: AssayStore) => Promise<void> } = {}): Promise<Running> {
  const store = await openStore(config);
  try {
    if (options.prepare) await options.prepare(store);
    const app = await build({ config, store, logger: options.logger });
    const address = await app.listen({ port: config.port, host: config.host });
    return {
      app,
      store,
      url: address,
      async close() {
        await app.close();
        await store.close();
      },
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
