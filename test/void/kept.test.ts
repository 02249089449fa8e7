/**
 * Kept introspection columns (introspect/kept.ts, src/void/kept.ts) against the dump path: after
 * every write of a random sequence — loads in N-Triples and N-Quads (blank nodes, language tags in
 * any case, escapes, typed literals oxigraph rewrites, odd spacing, comments), deletes, graph
 * replacement, clears, SPARQL Update, deltas — mining each graph from what the keeper folded must
 * give byte for byte the JSON that mining the same graph's dump gives, and the VoID figures must
 * equal those of a copy of the store read only through dumps.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromDumpable, mine, toJson } from '../../introspect/index.ts';
import { DurableStore, type WriteOp } from '../../src/rdf/durable.ts';
import { RdfStore, RDF_FORMATS } from '../../src/rdf/store.ts';
import { graphSource, keptOf } from '../../src/void/kept.ts';
import { voidFigures } from '../../src/void/compute.ts';
import { runJob } from '../../src/server/sparql/evaluate.ts';
import { applyToMemory } from '../../src/rdf/durable.ts';
import { mulberry32 as rng } from '../../src/prng.ts';

const E = 'http://ex.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const GRAPHS = ['', `${E}g1`, `${E}g2`];

/** Objects in many spellings, several of which oxigraph stores under another (see introspect/kept.ts). */
const OBJECTS = [
  '"plain"', '"Hello"@en', '"Hello"@EN-gb', '"hi"@en-GB', '"caf\\u00e9"', '"café"', '"tab\\there"', '"q\\"uote\\\\"', '"bell\\u0007"',
  '"line\\nbreak"', '"back\\bspace\\f"', `"01"^^<${XSD}integer>`, `"1"^^<${XSD}integer>`, `"-0"^^<${XSD}integer>`, `"5"^^<${XSD}int>`,
  `"1.50"^^<${XSD}decimal>`, `"1.5"^^<${XSD}decimal>`, `"45.000"^^<${XSD}double>`, `"45"^^<${XSD}double>`, `"0.1"^^<${XSD}double>`,
  `"1.0E-5"^^<${XSD}double>`, `"1.5"^^<${XSD}float>`, `"x"^^<${XSD}string>`, `"true"^^<${XSD}boolean>`, `"1"^^<${XSD}boolean>`,
  `"1999-01-01"^^<${XSD}date>`, `"1999-01-01+00:00"^^<${XSD}date>`, `"2020-01-01T00:00:00.120Z"^^<${XSD}dateTime>`, `"2000"^^<${XSD}gYear>`,
  `"abc"^^<${XSD}integer>`, '"x"^^<http://ex.org/dt>', `<${E}o1>`, `<${E}o2>`, `<${E}\\u0041>`, `<${E}C1>`, `<${E}café>`,
  '"smile \\U0001F600 😀"', '"x\u2028y"', `"12345678901234567"^^<${XSD}double>`, `"0.000001"^^<${XSD}double>`,
];
const CLASSES = [`<${E}C1>`, `<${E}C2>`, `<${E}C3>`];
const PREDS = [`<${E}p1>`, `<${E}p2>`, `<${E}p3>`, '<http://www.w3.org/2000/01/rdf-schema#label>'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** One random statement (with a graph term when `graph` is given), spelt in one of several ways. */
function statement(r: () => number, graph?: string): string {
  const s = r() < 0.2 ? `_:b${Math.floor(r() * 6)}` : `<${E}s${Math.floor(r() * 12)}>`;
  let p: string;
  let o: string;
  if (r() < 0.25) {
    p = TYPE;
    o = pick(r, CLASSES);
  } else {
    p = pick(r, PREDS);
    o = r() < 0.12 ? `_:b${Math.floor(r() * 6)}` : pick(r, OBJECTS);
  }
  const sep = r() < 0.1 ? ' \t ' : ' ';
  const g = graph === undefined ? '' : graph === '' ? '' : ` <${graph}>`;
  return `${s}${sep}${p}${sep}${o}${g} .`;
}

function document(r: () => number, lines: number, quads: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (r() < 0.05) out.push('# a comment');
    out.push(statement(r, quads ? pick(r, GRAPHS) : undefined));
  }
  return out.join(r() < 0.2 ? '\r\n' : '\n') + '\n';
}

/** A random write, computed against the store's current state where it needs one. */
function randomOp(r: () => number, rdf: RdfStore): WriteOp {
  const x = r();
  const graph = pick(r, GRAPHS);
  if (x < 0.35) return graph === '' ? { kind: 'load', format: RDF_FORMATS.ntriples, data: document(r, 1 + Math.floor(r() * 25), false) }
    : { kind: 'load', format: RDF_FORMATS.ntriples, graph, data: document(r, 1 + Math.floor(r() * 25), false) };
  if (x < 0.45) return { kind: 'load', format: RDF_FORMATS.nquads, data: document(r, 1 + Math.floor(r() * 25), true) };
  if (x < 0.52) return { kind: 'replaceGraph', graph: `${E}g${1 + Math.floor(r() * 2)}`, format: RDF_FORMATS.ntriples, data: document(r, Math.floor(r() * 15), false) };
  if (x < 0.55) return { kind: 'replaceGraph', graph: `${E}g1`, format: RDF_FORMATS.turtle, data: `@prefix ex: <${E}> . ex:t1 ex:p1 "turtle" ; a ex:C2 .` };
  if (x < 0.6) return { kind: 'clearGraph', graph };
  if (x < 0.66) return { kind: 'update', sparql: `DELETE { GRAPH ?g { ?s <${E}p1> ?o } } INSERT { GRAPH <${E}g2> { ?s <${E}p3> "updated" } } WHERE { GRAPH ?g { ?s <${E}p1> ?o } }` };
  // A delta as the endpoint journals one: existing quads deleted (as the store writes them, its own
  // blank-node labels included, as a retention sweep does), fresh blank nodes and IRIs inserted.
  const existing = rdf.dump({ format: RDF_FORMATS.nquads }).split('\n').filter((l) => l && r() < 0.3);
  const fresh = Array.from({ length: Math.floor(r() * 4) }, (_, i) => `_:fresh${Math.floor(r() * 1e9)}x${i} <${E}p2> "new ${i}"@en <${E}g2> .`);
  const steps: Extract<WriteOp, { kind: 'delta' }>['steps'] = [];
  if (r() < 0.1) steps.push({ step: 'clear', target: pick(r, ['DEFAULT', 'NAMED', 'ALL', `${E}g1`]) });
  if (existing.length > 0) steps.push({ step: 'delete', nquads: existing.join('\n') + '\n' });
  if (fresh.length > 0) steps.push({ step: 'insert', nquads: fresh.join('\n') + '\n' });
  if (r() < 0.5) steps.push({ step: 'insert', nquads: `<${E}s1> <${E}p3> <${E}o9> <${E}g1> .\n<${E}s2> ${TYPE} <${E}C3> .\n` });
  return { kind: 'delta', steps };
}

const MINE = { exactCharSets: true, samples: 3 } as const;

/** Every graph mined from what is kept equals the dump's mining, and VoID equals a dump-only copy's. */
function expectSameAsDump(rdf: RdfStore, context: string): void {
  for (const g of GRAPHS) {
    const kept = JSON.stringify(toJson(mine(graphSource(rdf, g), MINE)));
    const dumped = JSON.stringify(toJson(mine(fromDumpable(rdf, g), MINE)));
    expect(kept, `${context}, graph <${g}>`).toBe(dumped);
  }
  const copy = new RdfStore();
  const all = rdf.dump({ format: RDF_FORMATS.nquads });
  if (all.length > 0) copy.load(all, { format: RDF_FORMATS.nquads });
  expect(voidFigures(rdf), `${context}, VoID`).toEqual(voidFigures(copy));
}

for (const thread of [true, false]) describe(`kept introspection columns (${thread ? 'folded in a thread of their own' : 'folded when read'})`, () => {
  const keep = { thread };
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`give what the dump gives after every write (seed ${seed}, kept from empty)`, async () => {
      const r = rng(seed);
      const store = DurableStore.inMemory({ keep });
      let reads = 0;
      let folded = 0;
      for (let step = 0; step < 40; step++) {
        const op = randomOp(r, store.rdf);
        await store.apply(op);
        // Reading after some writes only: the keeper must fold several queued writes in order too.
        if (r() < 0.4 || step === 39) {
          const adopted = keptOf(store.rdf)!.stats().adopted;
          expectSameAsDump(store.rdf, `seed ${seed}, write ${step} (${op.kind})`);
          reads++;
          if (keptOf(store.rdf)!.stats().adopted === adopted) folded++;
        }
      }
      // Most reads were answered from folded writes, not by dumping (only a SPARQL Update, a Turtle
      // document or a deleted blank node of a loaded document makes the keeper read the store again).
      expect(folded / reads).toBeGreaterThan(0.3);
    });
  }

  it('never read the store when every write is one it can fold (loads, replacements, clears)', async () => {
    const r = rng(99);
    const store = DurableStore.inMemory({ keep });
    for (let step = 0; step < 60; step++) {
      let op = randomOp(r, store.rdf);
      while (!(op.kind === 'clearGraph' || ((op.kind === 'load' || op.kind === 'replaceGraph') && op.format !== RDF_FORMATS.turtle))) op = randomOp(r, store.rdf);
      await store.apply(op);
      if (step % 3 === 2) expectSameAsDump(store.rdf, `write ${step} (${op.kind})`);
    }
    expect(keptOf(store.rdf)!.mode).toBe('all');
    expect(keptOf(store.rdf)!.stats().adopted).toBe(0);
  });

  it('keep a store from its first introspection on when it held data before (a seeded replica)', async () => {
    const r = rng(42);
    const rdf = new RdfStore();
    rdf.load(document(r, 200, true), { format: RDF_FORMATS.nquads });
    const store = DurableStore.follower({ rdf, seq: 0, send: async () => 0 });
    expect(keptOf(rdf)).toBeUndefined();
    expectSameAsDump(rdf, 'first introspection');
    expect(keptOf(rdf)!.stats().graphs).toBeGreaterThan(0);
    for (let step = 1; step <= 30; step++) {
      store.follow(randomOp(r, rdf), step);
      expectSameAsDump(rdf, `replica write ${step}`);
    }
  });

  it('serve a query worker\'s mining jobs as the dump would, between the writes it applies', () => {
    const r = rng(21);
    const replica = new RdfStore();
    replica.load(document(r, 100, false), { format: RDF_FORMATS.ntriples, graph: `${E}g1` });
    const job = { kind: 'mine', graph: `${E}g1` } as const;
    for (let step = 0; step < 12; step++) {
      const reply = runJob(replica, job);
      expect(reply.ok && reply.kind === 'mine' ? JSON.stringify(reply.json) : reply).toBe(JSON.stringify(toJson(mine(fromDumpable(replica, `${E}g1`)))));
      // As the worker applies the writes the owner acknowledged (src/server/sparql/worker.ts).
      applyToMemory(replica, randomOp(r, replica), { replay: true });
    }
    expect(keptOf(replica)!.stats().graphs).toBeGreaterThan(0);
  });

  it('survive a restart: the snapshot and journal are folded instead of dumped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-kept-'));
    try {
      const r = rng(7);
      const first = await DurableStore.open(dir);
      for (let i = 0; i < 10; i++) await first.apply(randomOp(r, first.rdf));
      await first.compact();
      for (let i = 0; i < 10; i++) await first.apply(randomOp(r, first.rdf));
      await first.close();
      const again = await DurableStore.open(dir, { keep });
      // The snapshot and journal were told to the keeper: queued (folded when read), or folded
      // already by its thread (nothing waits there when asked).
      const told = keptOf(again.rdf)!.stats();
      if (thread) expect([told.pendingWrites, told.pendingChars]).toEqual([0, 0]);
      else expect(told.pendingWrites).toBeGreaterThan(0);
      expectSameAsDump(again.rdf, 'reopened');
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('hold no write text past its bound: past it the graphs are read from the store again', async () => {
    const store = DurableStore.inMemory({ keep: { ...keep, maxPendingChars: 1000 } });
    const r = rng(9);
    await store.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: `${E}g1`, data: document(r, 40, false) });
    expect(keptOf(store.rdf)!.stats().pendingChars).toBe(0);
    expect(keptOf(store.rdf)!.mode).toBe('asked');
    expectSameAsDump(store.rdf, 'after the bound');
    await store.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: `${E}g1`, data: document(r, 5, false) });
    expectSameAsDump(store.rdf, 'adopted, then written');
  });

  it('keep no graph past maxTriples', async () => {
    const store = DurableStore.inMemory({ keep: { ...keep, maxTriples: 50 } });
    const r = rng(11);
    await store.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: `${E}g1`, data: document(r, 120, false) });
    await store.apply({ kind: 'load', format: RDF_FORMATS.ntriples, graph: `${E}g2`, data: document(r, 10, false) });
    expectSameAsDump(store.rdf, 'past maxTriples');
    expect(keptOf(store.rdf)!.stats().triples).toBeLessThanOrEqual(50);
  });
});
