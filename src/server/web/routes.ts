/**
 * The web page at `/` for browsers, and its bundled assets at `/assets/*`.
 *
 * Contract
 * - `GET /` answers HTML only to a request that prefers it (negotiate.ts); every other request for
 *   `/` falls through to IRI dereferencing as before, so RDF clients see no change. This is a
 *   route constraint, not a branch in a handler: the router skips the page route when the
 *   constraint does not match and continues to the wildcard.
 * - The page is built from web/ by vite (`npm run build:web`, run by `npm ci` through `prepare`)
 *   into web/dist. Everything it loads comes from this gateway; the Content-Security-Policy says
 *   so to the browser (no CDN, no third-party origin).
 * - What the page may offer depends on what this gateway serves (e.g. POST /nlq); that is told to
 *   the page in a JSON data block, computed once the app is ready.
 * - A missing bundle is a 503 page saying how to build it, not a blank page.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { prefersHtml } from './negotiate.ts';
import { varyOn } from '../routes/rdf-reply.ts';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

export interface WebOptions { dist?: string }

const CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

/** JSON placed in a <script type="application/json"> block: `<` is escaped so it cannot end the block. */
function dataBlock(value: unknown): string {
  return `<script type="application/json" id="assay-config">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;
}

export async function webRoutes(app: FastifyInstance, options: WebOptions = {}): Promise<void> {
  const dist = options.dist ?? WEB_DIST;
  const indexPath = join(dist, 'index.html');
  const template = existsSync(indexPath) ? await readFile(indexPath, 'utf8') : null;

  if (!app.hasConstraintStrategy('page')) {
    app.addConstraintStrategy({
      name: 'page',
      storage() {
        const handlers = new Map<string, unknown>();
        return { get: (k: string) => handlers.get(k) ?? null, set: (k: string, v: unknown) => { handlers.set(k, v); } } as never;
      },
      deriveConstraint: (req: { headers: Record<string, string | string[] | undefined> }) => {
        const accept = req.headers.accept;
        return prefersHtml(Array.isArray(accept) ? accept.join(',') : accept) ? 'html' : 'other';
      },
      mustMatchWhenDerived: false,
    });
  }

  let page: string | undefined;
  const render = () => {
    page ??= template!.replace('<!--assay-config-->', dataBlock({
      nlq: app.hasRoute({ method: 'POST', url: '/nlq' }),
      feedback: app.hasRoute({ method: 'POST', url: '/feedback' }),
      conversations: true,
    }));
    return page;
  };

  app.get('/', { constraints: { page: 'html' } }, async (_request, reply) => {
    varyOn(reply, 'Accept').header('Cache-Control', 'no-cache');
    if (template === null) {
      return reply.code(503).type('text/html; charset=utf-8').send(
        '<!doctype html><title>Assay: web page not built</title><h1>The web page is not built</h1>' +
        '<p>Run <code>npm run build:web</code> (or <code>npm ci</code>, which runs it) and restart the gateway. ' +
        'The SPARQL endpoint is at <a href="/sparql">/sparql</a> and answers at POST /ask.</p>');
    }
    return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', CSP).send(render());
  });

  if (existsSync(join(dist, 'assets'))) {
    // Asset names carry a content hash: a changed file has a new name, so caching forever is safe.
    await app.register(fastifyStatic, {
      root: join(dist, 'assets'), prefix: '/assets/', decorateReply: false, index: false,
      maxAge: '365d', immutable: true,
    });
  }
}
