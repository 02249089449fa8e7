// The grant graph's layout version: a graph written in layout 1 (every edge typed and carrying its
// funder, tax year and status; a rollup for every pair) is refused by readers with the reason and
// what to run, and the next ingest upgrades it in place to exactly the graph a fresh ingest writes.
// Layout 1 is made here from a fresh ingest by the inverse of the upgrade, written out in full so
// the test states what layout 1 was.
import { beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../src/grants/ingest.ts';
import { LayoutError } from '../../src/grants/layout.ts';
import type { GrantStore } from '../../src/grants/store.ts';
import { traverse, type GrantQuestion } from '../../src/grants/traverse.ts';
import { renderFailure } from '../../src/grants/render.ts';
import { G, GRANT_LAYOUT, type GrantIris } from '../../src/grants/vocab.ts';
import { RDF } from '../../src/rdf/vocab.ts';
import { downgrade, EXTRACT, ingestedStore } from './helpers.ts';
import { readIngestFile } from '../../src/grants/ingest.ts';

const QUESTIONS: GrantQuestion[] = [
  { direction: 'forward', funder: 'Erb Family Foundation' },
  { direction: 'reverse', recipient: 'Freshwater Future', limit: 3 },
  { direction: 'reverse', recipient: 'Freshwater Future', taxYear: 2023 },
  { direction: 'intersection', funders: ['Toledo Community Foundation', 'Rochester Area Community Foundation'] },
  { direction: 'top_recipients_of', funder: 'National Fish and Wildlife Foundation', limit: 5 },
  { direction: 'ranking', subject: 'funder', limit: 5 },
];

/** Every triple of one graph, as sorted text (the graphs have no blank nodes). */
async function triples(store: GrantStore, graph: string): Promise<string[]> {
  const rows = await store.select(`SELECT ?s ?p ?o WHERE { GRAPH <${graph}> { ?s ?p ?o } }`);
  return rows.map((r) => `${r.s!.value} ${r.p!.value} ${r.o!.type}:${r.o!.value}^${r.o!.datatype ?? ''}`).sort();
}

describe('grant graph layout', () => {
  let store: GrantStore;
  let iris: GrantIris;
  let fresh: { graph: string[]; rollups: string[]; answers: unknown[] };
  beforeAll(async () => {
    ({ store, iris } = await ingestedStore([EXTRACT]));
    fresh = { graph: await triples(store, iris.graph), rollups: await triples(store, iris.rollups), answers: await Promise.all(QUESTIONS.map((q) => traverse({ store, iris }, q))) };
  }, 300_000);

  it('writes the layout on the graph, and no edge type, pair rollup of one grant or grants:Rollup type', async () => {
    expect(fresh.graph).toContain(`${iris.graph} ${G.layout} literal:${GRANT_LAYOUT}^http://www.w3.org/2001/XMLSchema#integer`);
    expect(fresh.graph.some((t) => t.endsWith(`${RDF.type} uri:${G.Grant}^`))).toBe(false);
    expect(fresh.rollups.some((t) => t.endsWith(`${RDF.type} uri:${G.Rollup}^`))).toBe(false);
    const [one] = await store.select(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${iris.rollups}> { ?x a <${G.PairRollup}> ; <${G.grantCount}> 1 } }`);
    expect(Number(one!.n!.value)).toBe(0);
  });

  it('refuses to read a layout-1 graph, saying what upgrades it; the next ingest upgrades it in place to what a fresh ingest writes', async () => {
    await downgrade(store, iris);
    const before = await traverse({ store, iris }, QUESTIONS[0]!);
    expect(before).toEqual({ ok: false, failure: { code: 'layout_outdated', found: null, expected: GRANT_LAYOUT } });
    if (!before.ok) expect(renderFailure(before.failure)).toMatch(/layout 1; this build reads layout 2\).*assay grants ingest/);
    const report = await ingest(store, [await readIngestFile(EXTRACT)], { iris });
    expect(report.upgradedFrom).toBe(1);
    expect(report.docs.map((d) => d.outcome)).toEqual(['unchanged']);
    expect(await triples(store, iris.graph)).toEqual(fresh.graph);
    expect(await triples(store, iris.rollups)).toEqual(fresh.rollups);
    expect(await Promise.all(QUESTIONS.map((q) => traverse({ store, iris }, q)))).toEqual(fresh.answers);
  }, 300_000);

  it('refuses a graph a newer layout wrote, on reading and on ingest', async () => {
    const g = `<${iris.graph}>`;
    await store.update(`DELETE WHERE { GRAPH ${g} { ${g} <${G.layout}> ?v } } ; INSERT DATA { GRAPH ${g} { ${g} <${G.layout}> ${GRANT_LAYOUT + 1} } }`);
    expect(await traverse({ store, iris }, QUESTIONS[0]!)).toEqual({ ok: false, failure: { code: 'layout_outdated', found: GRANT_LAYOUT + 1, expected: GRANT_LAYOUT } });
    await expect(ingest(store, [await readIngestFile(EXTRACT)], { iris })).rejects.toThrow(LayoutError);
  });
});
