/**
 * The keeper's thread (introspect/kept-thread.ts): writes are folded as they arrive, before any
 * read; a thread that exits or hangs is let go and the keeper goes on in the reading thread, with
 * the same results as the dump; closing the store ends the thread. (The equivalence with the dump
 * over random writes is test/void/kept.test.ts, run for both ways of keeping.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromDumpable, mine, toJson } from '../../introspect/index.ts';
import { ThreadedKeeper } from '../../introspect/kept-thread.ts';
import { applyToMemory, DurableStore } from '../../src/rdf/durable.ts';
import { RDF_FORMATS, RdfStore } from '../../src/rdf/store.ts';
import { graphSource, keepFromEmpty, keptOf, releaseKeeper } from '../../src/void/kept.ts';

const E = 'http://ex.org/';
const G = `${E}g`;

function lines(from: number, count: number): string {
  const out: string[] = [];
  for (let i = from; i < from + count; i++) {
    out.push(`<${E}s${i}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${E}C${i % 3}> .`);
    out.push(`<${E}s${i}> <${E}value> "${i}"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    out.push(`<${E}s${i}> <${E}label> "thing ${i}"@EN .`); // a tag oxigraph lowers: canonicalized in the thread
  }
  return `${out.join('\n')}\n`;
}

const sameAsDump = (store: DurableStore, graph: string) =>
  expect(JSON.stringify(toJson(mine(graphSource(store.rdf, graph))))).toBe(JSON.stringify(toJson(mine(fromDumpable(store.rdf, graph)))));

describe("the keeper's thread", () => {
  it('folds each write as it comes: nothing waits when the graph is first read', async () => {
    const store = DurableStore.inMemory({ keep: true });
    const keeper = keptOf(store.rdf);
    expect(keeper).toBeInstanceOf(ThreadedKeeper);
    for (let b = 0; b < 5; b++) await store.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: G, data: lines(b * 200, 200) });
    const told = keeper!.stats();
    expect(told).toMatchObject({ triples: 3000, pendingWrites: 0, pendingChars: 0, adopted: 0 });
    sameAsDump(store, G);
    expect(keeper!.stats().adopted).toBe(0);
    await store.close();
    expect((keeper as ThreadedKeeper).threaded).toBe(false);
  });

  it('keeps folding a reopened store\'s snapshot and journal in the thread, and never reads the store for them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-kept-thread-'));
    try {
      const first = await DurableStore.open(dir);
      await first.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: G, data: lines(0, 300) });
      await first.compact();
      await first.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: G, data: lines(300, 100) });
      await first.apply({ kind: 'clearGraph', graph: `${E}other` });
      await first.close();
      const again = await DurableStore.open(dir, { keep: true });
      expect(keptOf(again.rdf)!.stats()).toMatchObject({ triples: 1200, pendingWrites: 0, adopted: 0 });
      sameAsDump(again, G);
      expect(keptOf(again.rdf)!.stats().adopted).toBe(0);
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('forgets a load it was told before oxigraph refused it (told early, so the thread folds beside the parse)', () => {
    const rdf = new RdfStore();
    keepFromEmpty(rdf);
    applyToMemory(rdf, { kind: 'load', format: RDF_FORMATS.ntriples, graph: G, data: lines(0, 20) });
    // Lines the keeper's own reader takes, then one oxigraph refuses (a tag that is no language):
    // the load changes nothing.
    const bad = `${lines(20, 5)}<${E}broken> <${E}p> "x"@123 .\n`;
    expect(() => applyToMemory(rdf, { kind: 'load', format: RDF_FORMATS.ntriples, graph: G, data: bad })).toThrow();
    expect(rdf.graphSize(G)).toBe(60);
    expect(JSON.stringify(toJson(mine(graphSource(rdf, G))))).toBe(JSON.stringify(toJson(mine(fromDumpable(rdf, G)))));
    releaseKeeper(rdf);
  });

  for (const [fault, source] of [
    ['exits at once', 'process.exit(0)'],
    ['never answers', 'setInterval(() => {}, 1000)'],
    ['throws on start', 'throw new Error("broken keeper thread")'],
  ] as const) {
    it(`goes on in the reading thread when its thread ${fault}: the same triples as the dump, no write failed`, async () => {
      const store = DurableStore.inMemory({ keep: { thread: { replyTimeoutMs: 300, workerUrl: new URL(`data:text/javascript,${encodeURIComponent(source)}`) } } });
      const keeper = keptOf(store.rdf) as ThreadedKeeper;
      await store.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: G, data: lines(0, 50) });
      sameAsDump(store, G);
      expect(keeper.threaded).toBe(false);
      // From here it keeps in this thread, from the graph's read on.
      await store.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: G, data: lines(50, 10) });
      sameAsDump(store, G);
      expect(keeper.stats().triples).toBe(180);
      await store.close();
    });
  }
});
