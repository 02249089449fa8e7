/**
 * /health never walks the store on the main thread: its quad and graph counts come from a query
 * worker's replica, with the write they were counted at, and catch up after a write.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startGateway, type Running } from '../../src/server/listen.ts';
import { RDF_FORMATS, RdfStore } from '../../src/rdf/store.ts';

interface Health { status: string; quads: number | null; graphs: number | null; countedAt: number | null; lastWrite: number }

describe('/health counts', () => {
  let gw: Running;
  let dir: string;
  let mainCounts = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'assay-health-'));
    gw = await startGateway(loadConfig({ dataDir: dir, port: 0, baseIri: 'http://127.0.0.1:9/' }, {}), { images: null });
    await gw.ready;
    // Count every walk of the owner's store from here on (size, graphs).
    const rdf = gw.store.rdf as RdfStore;
    const size = Object.getOwnPropertyDescriptor(RdfStore.prototype, 'size')!.get!;
    const graphs = RdfStore.prototype.graphs;
    Object.defineProperty(rdf, 'size', { configurable: true, get() { mainCounts++; return size.call(this); } });
    Object.defineProperty(rdf, 'graphs', { configurable: true, value() { mainCounts++; return graphs.call(this); } });
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const health = async () => (await fetch(`${gw.url}/health`)).json() as Promise<Health>;
  /** /health until its count is of write `seq` (bounded: each try waits for the worker's count). */
  async function countedAt(seq: number): Promise<Health> {
    for (let i = 0; i < 200; i++) {
      const h = await health();
      if (h.countedAt === seq) return h;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`/health never counted write ${seq}`);
  }

  it('serves a worker\'s count of the current write, never counting on the main thread', { timeout: 120_000 }, async () => {
    const before = await countedAt(gw.store.seq);
    const triples = Array.from({ length: 40 }, (_, i) => `<http://assay.test/s/${i}> <http://assay.test/p> "synthetic ${i}" .`).join('\n');
    await gw.store.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: 'http://assay.test/graph/health', data: triples });
    const after = await countedAt(gw.store.seq);
    expect(after.lastWrite).toBe(before.lastWrite + 1);
    expect(after.quads).toBe(before.quads! + 40);
    expect(after.graphs).toBe(before.graphs! + 1);
    expect(mainCounts).toBe(0);
  });
});
