/**
 * POST /ask when the data directory stops taking writes (a full disk; a read-only directory
 * fails the same way): every question writes its run, so the write that hits the fault is refused
 * (not acknowledged), the question answers 507 `store-unwritable` saying what happened and what
 * to do — not 500 "a bug in Assay" — and so does every question after it, before any work; reads
 * keep working and the store reopens with everything acknowledged before.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { askRoutes } from '../../src/server/routes/ask.ts';
import { BASE, testServices } from '../ask/services.ts';
import { enospc, faultyWrites } from '../rdf/faulty-writes.ts';

const Q = "What was Apple's total revenue in 2023?";

afterEach(() => { vi.restoreAllMocks(); });

describe('POST /ask on a data directory that refuses writes', () => {
  it('507 store-unwritable naming the fault and the fix, for the question that hit it and every one after; nothing acknowledged is lost', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-unwritable-'));
    const store = await DurableStore.open(dir);
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://example.org/kept', data: '<http://example.org/a> <http://example.org/p> "kept" .\n' });
    const services = await testServices();
    const app = Fastify();
    app.decorate('assay', { config: loadConfig({ dataDir: dir, baseIri: BASE }, {}), store } as never);
    await app.register(askRoutes, { services: Promise.resolve({ ...services, store }) });

    await faultyWrites(() => Promise.reject(enospc()));
    const first = await app.inject({ method: 'POST', url: '/ask', payload: { question: Q } });
    expect(first.statusCode).toBe(507);
    expect(first.json()).toMatchObject({ error: 'store-unwritable' });
    expect(first.json().message).toMatch(/ENOSPC.*not acknowledged.*is full: free space there.*restart Assay/);
    vi.restoreAllMocks();

    const next = await app.inject({ method: 'POST', url: '/ask/stream', payload: { question: Q } });
    expect(next.statusCode).toBe(507);
    expect(next.json().message).toMatch(/could not be journaled \(ENOSPC.*Reads \(\/sparql, \/runs\) keep working/);
    await app.close();
    await store.close();

    const reopened = await DurableStore.open(dir);
    expect(reopened.recovery.tornTail).toBeUndefined();
    expect(reopened.rdf.graphSize('http://example.org/kept')).toBe(1);
    await reopened.close();
  }, 60_000);
});

describe('POST /ask refusing a body it cannot read', () => {
  it('413 and 415 say what to send instead of fastify\'s bare "Request body is too large" / "Unsupported Media Type"', async () => {
    const services = await testServices();
    const app = Fastify({ bodyLimit: 1_000 });
    app.decorate('assay', { config: loadConfig({ baseIri: BASE }, {}), store: services.store } as never);
    await app.register(askRoutes, { services: Promise.resolve(services) });
    const big = await app.inject({ method: 'POST', url: '/ask', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ question: 'a'.repeat(5_000) }) });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('the body is larger than the 1000 bytes /ask takes; send JSON like {"question": "…"} (a question is at most 2,000 characters)');
    const form = await app.inject({ method: 'POST', url: '/ask/stream', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'question=hi' });
    expect(form.statusCode).toBe(415);
    expect(form.json().message).toBe('/ask/stream takes a JSON body: send Content-Type: application/json with JSON like {"question": "…"}');
    await app.close();
  });
});
