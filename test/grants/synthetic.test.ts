// The SYNTHETIC benchmark graph: marked synthetic, heavy-tailed as specified, in the same model as
// real ingests (the same queries answer over it, and say it is synthetic), and reproducible.
import { describe, expect, it } from 'vitest';
import { DurableStore } from '../../src/rdf/durable.ts';
import { embeddedGrantStore } from '../../src/grants/store.ts';
import { syntheticChunks, syntheticRecipient, syntheticShape } from '../../src/grants/synthetic.ts';
import { traverse } from '../../src/grants/traverse.ts';
import * as Q from '../../src/grants/queries.ts';
import { G } from '../../src/grants/vocab.ts';
import { PROV } from '../../src/rdf/vocab.ts';

const opts = { edges: 20_000, base: 'http://assay.test/', seed: 7 };

describe('synthetic grant graph', async () => {
  const durable = DurableStore.inMemory();
  const store = embeddedGrantStore(durable);
  const shape = syntheticShape(opts);
  for (const c of syntheticChunks(opts)) await store.insertTriples(c.graph, c.text);

  it('is marked synthetic in its IRIs, its graph names and a triple', async () => {
    expect(shape.iris.graph).toBe('http://assay.test/graph/synthetic-grants');
    expect(syntheticRecipient(shape.iris, 1)).toMatch(/\/synthetic-grants\/org\/r1$/);
    expect(durable.rdf.ask(`ASK { GRAPH <${shape.iris.graph}> { <${shape.iris.graph}> <${G.synthetic}> true } }`)).toBe(true);
  });

  it('has the edge count asked, a hottest recipient with the scaled degree, and a heavy tail', async () => {
    expect(Math.abs(shape.edges - opts.edges) / opts.edges).toBeLessThan(0.01);
    const [row] = await store.select(`SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { GRAPH <${shape.iris.graph}> { ?e <${G.recipient}> <${syntheticRecipient(shape.iris, 1)}> ; <${PROV.wasDerivedFrom}> ?l . ?l <${G.funder}> ?f } }`);
    expect(Number(row!.n!.value)).toBe(shape.hottest);
    expect(shape.hottest).toBe(Math.round(71_841 * opts.edges / 7_800_000));
    expect(shape.typical.degree).toBeLessThan(shape.hottest / 20);
  });

  it('answers with the same queries, rollups agreeing with the edges, and says the graph is synthetic', async () => {
    const r = await traverse({ store, iris: shape.iris }, { direction: 'reverse', recipient: 'SYNTHETIC RECIPIENT 1' });
    if (!r.ok || r.result.kind !== 'reverse') throw new Error(JSON.stringify(r));
    const naive = await store.select(Q.naive.reverse(shape.iris, syntheticRecipient(shape.iris, 1)));
    expect(r.result.funders.reduce((s, f) => s + f.amount, 0)).toBe(naive.reduce((s, x) => s + Number(x.total!.value), 0));
    expect(r.result.coverage.synthetic).toBe(true);
    expect(r.result.disclosures).toContainEqual({ code: 'synthetic_graph' });
    const top = await store.select(Q.ranking(shape.iris, 'funder', G.Paid, 5));
    const slow = await store.select(Q.naive.topFunders(shape.iris, 5));
    expect(top.map((x) => [x.o!.value, x.total!.value])).toEqual(slow.map((x) => [x.f!.value, x.total!.value]));
  });

  it('gives every edge its filed address, as an ingest writes it, and state rollups equal to the edges grouped by it', async () => {
    const [row] = await store.select(`SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${shape.iris.graph}> { ?e <${G.recipient}> ?r ; <${G.recipientAddress}> ?p . ?p <https://schema.org/addressRegion> ?st } }`);
    expect(Number(row!.n!.value)).toBe(shape.edges);
    for (const st of ['OH', 'NY', 'MI']) {
      const [naive] = await store.select(Q.naive.stateTotal(shape.iris, st));
      const r = await traverse({ store, iris: shape.iris }, { direction: 'geographic', state: st });
      if (!r.ok || r.result.kind !== 'geographic') throw new Error(JSON.stringify(r));
      expect([r.result.totals.paid.amount, r.result.totals.paid.grants]).toEqual([Number(naive!.total!.value), Number(naive!.n!.value)]);
    }
  });

  it('is reproducible: the same options give the same triples', () => {
    const a = [...syntheticChunks({ ...opts, edges: 500 })].map((c) => c.text).join('');
    const b = [...syntheticChunks({ ...opts, edges: 500 })].map((c) => c.text).join('');
    expect(a).toBe(b);
  });
});
