/**
 * The CORS and rate-limit headers of answers that are not preflights, set without the CORS
 * library (which answers preflights only): the same headers it set — Access-Control-Allow-Origin
 * `*` or the allowed origin reflected, Vary: Origin, MCP's exposed session header — and the
 * X-RateLimit-* headers only on a 429.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/server/app.ts';
import { loadConfig, type ConfigInput } from '../../src/config.ts';
import { DurableStore } from '../../src/rdf/durable.ts';

const ASK = `/sparql?query=${encodeURIComponent('ASK {}')}`;
const varyOf = (h: unknown) => String(h).toLowerCase().split(/\s*,\s*/);

async function appWith(input: Partial<ConfigInput>): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const store = DurableStore.inMemory();
  const app = await build({ config: loadConfig({ dataDir: '/tmp/assay-cors-headers', baseIri: 'http://assay.test/', ...input }, {}), store });
  await app.queryPool.ready();
  return { app, close: async () => { await app.close(); await store.close(); } };
}

describe('default origins: read surfaces open to any, /ask to none', () => {
  let t: Awaited<ReturnType<typeof appWith>>;
  beforeAll(async () => { t = await appWith({}); });
  afterAll(async () => t?.close());

  test.each([
    ['/sparql with an Origin', ASK, { origin: 'https://page.example' }],
    ['/sparql without one', ASK, {}],
    ['/health', '/health', { origin: 'https://page.example' }],
    ['a path nothing answers (404)', '/no/such/path', { origin: 'https://page.example' }],
  ])('%s: Access-Control-Allow-Origin *, Vary: Origin, never credentials', async (_name, url, headers) => {
    const r = await t.app.inject({ url, headers });
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(varyOf(r.headers.vary)).toContain('origin');
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
    expect(r.headers['access-control-allow-methods']).toBeUndefined(); // preflight headers only on preflights
  });

  test('a /sparql answer keeps Vary: Accept beside Origin', async () => {
    const r = await t.app.inject({ url: ASK, headers: { origin: 'https://page.example', accept: 'application/sparql-results+json' } });
    expect(varyOf(r.headers.vary)).toEqual(expect.arrayContaining(['origin', 'accept']));
  });

  test('/ask from a page gets no Access-Control-Allow-Origin, and still varies by Origin', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/ask', headers: { origin: 'https://page.example', 'content-type': 'application/json' }, payload: '{}' });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    expect(varyOf(r.headers.vary)).toContain('origin');
  });

  test('preflights are still answered by the library, with methods, headers and max age', async () => {
    const r = await t.app.inject({ method: 'OPTIONS', url: '/sparql', headers: { origin: 'https://page.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, OPTIONS');
    expect(r.headers['access-control-allow-headers']).toBe('Content-Type, Accept');
    expect(r.headers['access-control-max-age']).toBe('600');
    const bad = await t.app.inject({ method: 'OPTIONS', url: '/sparql' });
    expect(bad.statusCode).toBe(400); // a preflight without Origin or the requested method
  });

  test('no X-RateLimit-* headers on an answer under the share', async () => {
    const ok = await t.app.inject({ url: ASK });
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(ok.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
  });
});

describe('named origins', () => {
  let t: Awaited<ReturnType<typeof appWith>>;
  beforeAll(async () => {
    t = await appWith({ limits: { cors: { readOrigins: ['https://app.example'], askOrigins: ['https://app.example'] }, rateLimit: { sparqlPerMinute: 2 } } });
  });
  afterAll(async () => t?.close());

  test('an allowed origin is reflected; another gets none; both vary by Origin', async () => {
    const allowed = await t.app.inject({ url: '/health', headers: { origin: 'https://app.example' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    const other = await t.app.inject({ url: '/health', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(varyOf(other.headers.vary)).toContain('origin');
  });

  test('/mcp exposes its session header to an allowed page', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/mcp', headers: { origin: 'https://app.example', 'content-type': 'application/json' }, payload: '{}' });
    expect(r.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(r.headers['access-control-expose-headers']).toBe('Mcp-Session-Id');
  });

  test('past the share, the 429 carries Retry-After and X-RateLimit-*; answers under it none', async () => {
    const under = [await t.app.inject({ url: ASK }), await t.app.inject({ url: ASK })];
    expect(under.map((r) => r.statusCode)).toEqual([200, 200]);
    for (const r of under) expect(Object.keys(r.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
    const over = await t.app.inject({ url: ASK, headers: { origin: 'https://app.example' } });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.headers['x-ratelimit-limit']).toBe('2');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
    expect(over.headers['access-control-allow-origin']).toBe('https://app.example');
  });
});
