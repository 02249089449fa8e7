/** GET / by content negotiation: the page for browsers, RDF (dereferencing) for everyone else. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeApp, type TestApp } from '../server/sparql/helpers.ts';
import { prefersHtml } from '../../src/server/web/negotiate.ts';
import { WEB_DIST } from '../../src/server/web/routes.ts';
import { ensureBundle } from './bundle.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('which requests get the page', () => {
  it.each([
    [BROWSER, true],
    ['text/html', true],
    ['application/xhtml+xml', true],
    ['text/html;q=0.5, text/turtle', false],
    ['text/turtle, text/html', false],
    ['text/html, text/turtle', true],
    ['text/turtle', false],
    ['application/ld+json', false],
    ['*/*', false],
    ['', false],
    [undefined, false],
    ['text/html;q=0', false],
  ] as const)('Accept %j → page %s', (accept, page) => {
    expect(prefersHtml(accept)).toBe(page);
  });
});

let t: TestApp;
beforeAll(async () => { await ensureBundle(); t = await makeApp(); }, 120_000);
afterAll(async () => t?.close());

describe('GET /', () => {
  it('serves the page to a browser, with its assets from this gateway and a same-origin CSP', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: BROWSER } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.body).toContain('id="ask-question"');
    const config = JSON.parse(/<script type="application\/json" id="assay-config">(.*?)<\/script>/.exec(res.body)![1]!);
    expect(config).toMatchObject({ nlq: t.app.hasRoute({ method: 'POST', url: '/nlq' }), feedback: t.app.hasRoute({ method: 'POST', url: '/feedback' }) });
    const assets = [...res.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    expect(res.body).not.toMatch(/(?:src|href)="https?:\/\//); // nothing from a CDN
    for (const a of assets) {
      const r = await t.app.inject({ url: a });
      expect(r.statusCode, a).toBe(200);
      expect(r.headers['cache-control']).toMatch(/immutable/);
    }
  });

  it('keeps RDF for RDF clients: the request falls through to dereferencing', async () => {
    for (const accept of ['text/turtle', '*/*', 'application/ld+json']) {
      const res = await t.app.inject({ url: '/', headers: { accept } });
      expect(res.headers['content-type'] ?? '', accept).not.toMatch(/text\/html/);
      // An empty test store describes nothing at the base IRI: the dereferencing 404.
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/nothing is known about/);
    }
  });

  it('the bundle is where the gateway looks for it', () => {
    expect(existsSync(join(WEB_DIST, 'index.html'))).toBe(true);
  });
});

describe('a gateway without the built bundle', () => {
  it('answers the page with 503 and the command that builds it, and RDF clients are unaffected', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const Fastify = (await import('fastify')).default;
    const { webRoutes } = await import('../../src/server/web/routes.ts');
    const empty = mkdtempSync(join(tmpdir(), 'assay-no-bundle-'));
    const app = Fastify();
    await app.register(webRoutes, { dist: empty });
    app.get('/*', async () => 'rdf');
    try {
      const page = await app.inject({ url: '/', headers: { accept: BROWSER } });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('npm run build:web');
      expect((await app.inject({ url: '/', headers: { accept: 'text/turtle' } })).body).toBe('rdf');
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
