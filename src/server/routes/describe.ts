/**
 * The gateway's description surfaces as one plugin: VoID, the DCAT catalog, the ARD AI catalog,
 * the SHACL shapes, and dereferencing of minted IRIs (registered last: it is a wildcard, and
 * fastify's static routes win over it). VoID and dereferencing share one VoID cache, so the
 * store is mined (in a query worker) at most once per write, not once per surface.
 */
import type { FastifyInstance } from 'fastify';
import { voidRoutes, ownCache } from './void.ts';
import { catalogRoutes } from './catalog.ts';
import { aiCatalogRoutes } from './ai-catalog.ts';
import { shapesRoutes } from './shapes.ts';
import { derefRoutes } from './deref.ts';

export async function describeRoutes(app: FastifyInstance): Promise<void> {
  const voidCache = ownCache(app);
  await app.register(voidRoutes, { voidCache });
  await app.register(catalogRoutes);
  await app.register(aiCatalogRoutes);
  await app.register(shapesRoutes);
  await app.register(derefRoutes, { voidCache });
}
