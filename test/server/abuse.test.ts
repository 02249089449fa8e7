/**
 * Fault 7: nobody can make the store grow without bound. Per-client rate limits on /sparql and
 * /ask (429 with Retry-After, per address), CORS that never allows credentials or Authorization
 * and keeps /ask to configured origins, retention of run graphs (age and count, compacted into
 * the snapshot), and a clear refusal near the store's ceiling while reads keep working.
 * The run graphs here are synthetic (written by the test, not by a question).
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../../src/server/app.ts';
import { loadConfig, type ConfigInput } from '../../src/config.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { graphIri } from '../../src/rdf/vocab.ts';
import { listRuns, sweepRuns } from '../../src/server/retention.ts';
import { TOKEN } from './sparql/helpers.ts';

const BASE = 'http://assay.test/';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => { for (const c of cleanup.splice(0)) await c(); });

async function appWith(input: ConfigInput, store = DurableStore.inMemory()) {
  const config = loadConfig({ dataDir: '/tmp/assay-abuse', baseIri: BASE, sparql: { updateToken: TOKEN, workers: 1 }, ...input }, {});
  const app = await build({ config, store });
  await app.queryPool.ready();
  cleanup.push(async () => { await app.close(); await store.close(); });
  return { app, store };
}

/** A synthetic run graph started at `startedAt`, with one evidence quad in the shared evidence graph. */
function syntheticRun(id: string, startedAt: string): string {
  const g = graphIri(BASE, `runs/${id}`);
  const ev = graphIri(BASE, 'evidence');
  return [
    `<${BASE}runs/${id}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/assay/ns#Run> <${g}> .`,
    `<${BASE}runs/${id}> <http://www.w3.org/ns/prov#startedAtTime> "${startedAt}"^^<http://www.w3.org/2001/XMLSchema#dateTime> <${g}> .`,
    `<${BASE}evidence/${id}/e1> <http://www.w3.org/ns/prov#value> "synthetic" <${ev}> .`,
  ].join('\n') + '\n';
}

describe('per-client rate limits', () => {
  it('/sparql answers 429 with Retry-After past the per-minute share, per client address', async () => {
    const { app } = await appWith({ limits: { rateLimit: { sparqlPerMinute: 3 } } });
    const ask = (ip: string) => app.inject({ url: '/sparql?query=ASK%20%7B%7D', remoteAddress: ip });
    for (let i = 0; i < 3; i++) expect((await ask('192.0.2.1')).statusCode).toBe(200);
    const over = await ask('192.0.2.1');
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect(JSON.parse(over.body)).toMatchObject({ error: 'rate-limited' });
    expect((await ask('192.0.2.2')).statusCode).toBe(200); // another client has its own share
  });

  it('/ask answers 429 past its per-minute share', async () => {
    const { app } = await appWith({ limits: { rateLimit: { askPerMinute: 1 } } });
    const bad = { question: 'x', resume: { run: 'abcdef', option: 1 } }; // a 400 that still counts
    expect((await app.inject({ method: 'POST', url: '/ask', payload: bad, remoteAddress: '192.0.2.9' })).statusCode).toBe(400);
    const over = await app.inject({ method: 'POST', url: '/ask', payload: bad, remoteAddress: '192.0.2.9' });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });
});

describe('CORS', () => {
  it('read-only endpoints are open to any origin; /ask is not; never credentials, never Authorization', async () => {
    const { app } = await appWith({});
    const pre = (url: string, headers = 'content-type') => app.inject({ method: 'OPTIONS', url, headers: { origin: 'https://page.example', 'access-control-request-method': 'POST', 'access-control-request-headers': headers } });
    const sparql = await pre('/sparql', 'content-type, authorization');
    expect(sparql.headers['access-control-allow-origin']).toBe('*');
    expect(String(sparql.headers['access-control-allow-headers']).toLowerCase()).not.toContain('authorization');
    expect(sparql.headers['access-control-allow-credentials']).toBeUndefined();
    const ask = await pre('/ask');
    expect(ask.headers['access-control-allow-origin']).toBeUndefined();
    expect((await app.inject({ url: '/health', headers: { origin: 'https://page.example' } })).headers['access-control-allow-origin']).toBe('*');
  });

  it('an operator can allow /ask to named origins only', async () => {
    const { app } = await appWith({ limits: { cors: { askOrigins: ['https://app.example'], readOrigins: ['https://app.example'] } } });
    const pre = (origin: string, url: string) => app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect((await pre('https://app.example', '/ask')).headers['access-control-allow-origin']).toBe('https://app.example');
    expect((await pre('https://evil.example', '/ask')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await pre('https://evil.example', '/sparql')).headers['access-control-allow-origin']).toBeUndefined();
    // a reply negotiated by Accept still varies by Origin (a shared cache must not hand one origin's allow-header to another)
    const vary = async (url: string) => String((await app.inject({ url, headers: { origin: 'https://app.example', accept: 'application/sparql-results+json' } })).headers.vary).toLowerCase().split(/\s*,\s*/);
    for (const url of ['/sparql?query=' + encodeURIComponent('SELECT * WHERE { ?s ?p ?o } LIMIT 1'), '/.well-known/void']) expect(await vary(url), url).toEqual(expect.arrayContaining(['origin', 'accept']));
  });
});

describe('retention of run graphs', () => {
  it('keeps the newest maxCount runs and none older than maxAgeHours, with their evidence, compacted into the snapshot', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-retention-'));
    const store = await DurableStore.open(dir);
    cleanup.push(() => store.close());
    const now = Date.parse('2026-12-01T12:00:00Z');
    const runs = [['aaaa0001', '2026-11-01T00:00:00Z'], ['aaaa0002', '2026-11-30T10:00:00Z'], ['aaaa0003', '2026-11-30T11:00:00Z'], ['aaaa0004', '2026-12-01T09:00:00Z'], ['aaaa0005', '2026-12-01T11:00:00Z']] as const;
    for (const [id, t] of runs) await store.apply({ kind: 'load', format: 'application/n-quads', data: syntheticRun(id, t) });
    expect(listRuns(store.rdf, BASE).map((r) => r.id)).toEqual(runs.map(([id]) => id));
    const r = await sweepRuns(store, BASE, { maxAgeHours: 24 * 7, maxCount: 3, sweepEveryMs: 60_000 }, now);
    // aaaa0001 is past the age; of the rest, the newest three stay.
    expect(r.removed.sort()).toEqual(['aaaa0001', 'aaaa0002']);
    expect(listRuns(store.rdf, BASE).map((x) => x.id)).toEqual(['aaaa0003', 'aaaa0004', 'aaaa0005']);
    expect(store.rdf.match().filter((q) => q.subject.value.includes('/evidence/aaaa0001/'))).toEqual([]);
    expect(store.journalBytes).toBe(0); // compacted
    const snapshot = (await readdir(dir)).find((f) => f.startsWith('snapshot-'))!;
    expect(await readFile(join(dir, snapshot), 'utf8')).not.toContain('aaaa0002');
    const again = await sweepRuns(store, BASE, { maxAgeHours: 24 * 7, maxCount: 3, sweepEveryMs: 60_000 }, now);
    expect(again.removed).toEqual([]);
  });
});

describe('near the store\'s ceiling', () => {
  it('refuses /ask and SPARQL Update with 507 store-full, while queries keep working', async () => {
    const store = DurableStore.inMemory({ maxQuads: 100 });
    const { app } = await appWith({ limits: { store: { maxQuads: 100, refuseWritesAt: 0.5 } } }, store);
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: Array.from({ length: 60 }, (_, i) => `<http://x/s${i}> <http://x/p> "${i}" .\n`).join('') });
    const ask = await app.inject({ method: 'POST', url: '/ask', payload: { question: "What was Apple's total revenue in 2023?" } });
    expect(ask.statusCode).toBe(507);
    expect(ask.json()).toMatchObject({ error: 'store-full' });
    expect(ask.json().message).toMatch(/limits\.store\.refuseWritesAt.*reads keep working/);
    const up = await app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${TOKEN}` }, payload: 'INSERT DATA { <http://x/a> <http://x/b> 1 }' });
    expect([up.statusCode, JSON.parse(up.body).error]).toEqual([507, 'store-full']);
    const q = await app.inject({ url: '/sparql?query=' + encodeURIComponent('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }') });
    expect(q.statusCode).toBe(200);
  });
});
