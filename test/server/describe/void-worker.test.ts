/**
 * VoID off the event loop: the figures are mined in a query worker, so the gateway keeps
 * answering while a large store is described; every answer says which write it reflects and
 * never claims a state it does not have; a computation past its limit is a 503 and the gateway
 * carries on. Also the cache's sharing rules (fake computation) and RdfStore.graphs().
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { build } from '../../../src/server/app.ts';
import { loadConfig, type ConfigInput } from '../../../src/config.ts';
import { DurableStore, type WriteOp } from '../../../src/rdf/durable.ts';
import { RdfStore } from '../../../src/rdf/store.ts';
import { VOID } from '../../../src/rdf/vocab.ts';
import { createVoidCache } from '../../../src/void/cache.ts';
import { voidDatasetIri, type StoreFigures } from '../../../src/void/compute.ts';
import { BASE } from './helpers.ts';

const G = `${BASE}graph/generated`;
const EV = `${BASE}graph/evidence`;
const EX = 'http://example.org/gen/';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

async function appWith(ops: WriteOp[], sparql: ConfigInput['sparql'] = {}) {
  const store = DurableStore.inMemory();
  for (const op of ops) await store.apply(op);
  const config = loadConfig({ baseIri: BASE, dataDir: '/nonexistent-assay-test-dir', sparql }, {});
  const app = await build({ config, store });
  apps.push(app);
  return { app, store };
}

/** `n` triples of mixed classes, literals and links (about 8 per subject). */
function generated(n: number): WriteOp {
  const lines: string[] = [];
  for (let i = 0; lines.length < n; i++) {
    const s = `<${EX}item/${i}>`;
    lines.push(`${s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${EX}Class${i % 7}> .`);
    lines.push(`${s} <${EX}name> "item ${i}" .`);
    lines.push(`${s} <${EX}value> "${i % 1000}"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    lines.push(`${s} <${EX}group> <${EX}group/${i % 97}> .`);
    lines.push(`${s} <${EX}next> <${EX}item/${i + 1}> .`);
    lines.push(`${s} <${EX}label> "label ${i}"@en .`);
    lines.push(`${s} <${EX}code> "c${i % 5000}" .`);
    lines.push(`${s} <${EX}p${i % 13}> "x" .`);
  }
  return { kind: 'load', format: 'application/n-triples', graph: G, data: lines.slice(0, n).join('\n') + '\n' };
}

function voidStore(ttl: string): RdfStore {
  const s = new RdfStore();
  s.load(ttl, { format: 'text/turtle' });
  return s;
}

function figure(doc: RdfStore, node: string, prop: string): number {
  const rows = doc.select(`SELECT ?n WHERE { <${node}> <${prop}> ?n }`);
  expect(rows, `${node} has exactly one ${prop}`).toHaveLength(1);
  return Number(rows[0]!.get('n')!.value);
}

describe('VoID in a query worker', () => {
  // Loading the store and seeding the worker's replica take most of this test's time.
  it('keeps the event loop serving while a store of 200k triples is described', { timeout: 120_000 }, async () => {
    const { app, store } = await appWith([generated(200_000)], { workers: 1 });
    await app.queryPool.ready();
    const order: string[] = [];
    const voidReq = app.inject({ url: '/.well-known/void', headers: { accept: 'application/n-triples' } }).then((r) => {
      order.push('void');
      return r;
    });
    // Five /health requests, one after another, all sent after the VoID request: with the
    // figures mined on the main thread, none could finish before it.
    for (let i = 0; i < 5; i++) {
      const h = await app.inject({ url: '/health' });
      expect(h.statusCode).toBe(200);
      order.push(`health${i}`);
    }
    const res = await voidReq;
    expect(order).toEqual(['health0', 'health1', 'health2', 'health3', 'health4', 'void']);
    expect(res.statusCode).toBe(200);
    const doc = new RdfStore();
    doc.load(res.body, { format: 'application/n-triples' });
    expect(figure(doc, voidDatasetIri(BASE), VOID.triples)).toBe(200_000);
    expect(figure(doc, G, VOID.triples)).toBe(200_000);
    // Eight triples per generated item, so 25 000 subjects, every one an IRI.
    expect(figure(doc, G, VOID.entities)).toBe(25_000);
    expect(res.headers['assay-void-seq']).toBe(String(store.seq));
  });

  it('reflects a write acknowledged before the request, and says which write each answer reflects', async () => {
    const seed: WriteOp = { kind: 'load', format: 'application/n-triples', graph: EV, data: `<${BASE}ev/1> <http://www.w3.org/ns/prov#value> "1" .\n` };
    const { app, store } = await appWith([seed]);
    const first = await app.inject({ url: '/.well-known/void' });
    const seq0 = store.seq;
    expect(first.headers['assay-void-seq']).toBe(String(seq0));
    expect(figure(voidStore(first.body), EV, VOID.triples)).toBe(1);

    // A request in flight while a write lands, and one sent after the write was acknowledged.
    const during = app.inject({ url: '/.well-known/void' });
    await store.apply({ kind: 'load', format: 'application/n-triples', graph: EV, data: `<${BASE}ev/2> <http://www.w3.org/ns/prov#value> "2" .\n` });
    const after = await app.inject({ url: '/.well-known/void' });
    expect(after.headers['assay-void-seq']).toBe(String(seq0 + 1));
    expect(figure(voidStore(after.body), EV, VOID.triples)).toBe(2);
    // Whatever state the in-flight request got, its figures match the write its header names.
    const d = await during;
    const dSeq = Number(d.headers['assay-void-seq']);
    expect([seq0, seq0 + 1]).toContain(dSeq);
    expect(figure(voidStore(d.body), EV, VOID.triples)).toBe(1 + (dSeq - seq0));

    // Dereferencing a graph IRI gives the same current figures.
    const deref = await app.inject({ url: '/graph/evidence' });
    expect(figure(voidStore(deref.body), EV, VOID.triples)).toBe(2);
  });

  it('answers 503 with the setting to raise when the VoID computation passes its limit, and keeps serving', async () => {
    const { app } = await appWith([generated(60_000)], { voidTimeoutMs: 1, workers: 1 });
    await app.queryPool.ready();
    const res = await app.inject({ url: '/.well-known/void' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json().message).toContain('sparql.voidTimeoutMs');
    expect(res.json().fix).toContain('ASSAY_VOID_TIMEOUT_MS');
    // The worker was replaced; SPARQL still answers from a fresh replica.
    const q = await app.inject({ url: `/sparql?query=${encodeURIComponent(`ASK { GRAPH <${G}> { ?s ?p ?o } }`)}`, headers: { accept: 'application/sparql-results+json' } });
    expect(q.statusCode).toBe(200);
    expect(q.json().boolean).toBe(true);
  });
});

describe('VoID cache', () => {
  const figures: StoreFigures = {
    store: { triples: 0, entities: 0, distinctSubjects: 0, distinctObjects: 0, classes: 0, properties: 0, classPartitions: [], propertyPartitions: [], vocabularies: [] },
    graphs: [],
  };

  /** A computation the test finishes by hand, reporting the seq it was started on. */
  function harness() {
    let seq = 0;
    const calls: { from: number; finish: (replicaSeq?: number) => void; fail: (e: Error) => void }[] = [];
    const cache = createVoidCache({
      currentSeq: () => seq,
      baseIri: BASE,
      compute: () => new Promise((resolve, reject) => {
        const from = seq;
        calls.push({ from, finish: (s = from) => resolve({ figures, seq: s }), fail: reject });
      }),
    });
    return { cache, calls, write: () => { seq++; } };
  }

  it('shares one computation among readers of the same state and reuses it until a write', async () => {
    const { cache, calls, write } = harness();
    const a = cache.get();
    const b = cache.get();
    expect(calls).toHaveLength(1);
    calls[0]!.finish();
    expect((await a).seq).toBe(0);
    expect(await b).toBe(await a);
    expect(await cache.get()).toBe(await a);
    expect(calls).toHaveLength(1);
    write();
    const c = cache.get();
    expect(calls).toHaveLength(2);
    calls[1]!.finish();
    expect((await c).seq).toBe(1);
  });

  it('never hands a reader that arrived after a write the figures of the state before it', async () => {
    const { cache, calls, write } = harness();
    const old = cache.get();
    write();
    const fresh1 = cache.get();
    const fresh2 = cache.get();
    // One follow-up, started only when the running computation ends.
    expect(calls).toHaveLength(1);
    calls[0]!.finish();
    expect((await old).seq).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(2);
    expect(calls[1]!.from).toBe(1);
    calls[1]!.finish();
    expect((await fresh1).seq).toBe(1);
    expect(await fresh2).toBe(await fresh1);
  });

  it('refuses figures from a replica behind the store, and does not cache a failure', async () => {
    const { cache, calls, write } = harness();
    write();
    const behind = cache.get();
    calls[0]!.finish(0);
    await expect(behind).rejects.toThrow(/replica held write 0 but the store had acknowledged 1/);
    const failed = cache.get();
    calls[1]!.fail(new Error('busy'));
    await expect(failed).rejects.toThrow('busy');
    const ok = cache.get();
    expect(calls).toHaveLength(3);
    calls[2]!.finish();
    expect((await ok).seq).toBe(1);
  });
});

describe('RdfStore.graphs()', () => {
  it('lists the non-empty named graphs in IRI order, without the default graph or cleared graphs', () => {
    const s = new RdfStore();
    s.load('<http://e/s> <http://e/p> "d" .\n<http://e/s> <http://e/p> "b" <http://e/b> .\n<http://e/s> <http://e/p> "a" <http://e/a> .\n<http://e/s> <http://e/p> "c" <http://e/c> .\n', { format: 'application/n-quads' });
    s.clearGraph('http://e/b');
    expect(s.graphs()).toEqual(['http://e/a', 'http://e/c']);
    s.update('INSERT DATA { GRAPH <http://e/b> { <http://e/s> <http://e/p> "again" } }');
    expect(s.graphs()).toEqual(['http://e/a', 'http://e/b', 'http://e/c']);
  });
});
