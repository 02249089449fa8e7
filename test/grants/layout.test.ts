// The grant graph's layout version: a graph written in an earlier layout is refused by readers with
// the reason and the files to ingest again, and ingesting them upgrades it in place to exactly the
// graph a fresh ingest writes. Layout 2 (addresses on the recipient only) and layout 1 (every edge
// typed and carrying its funder, tax year and status; a rollup for every pair) are made here from
// a fresh ingest by the inverse of the upgrade, written out in full (helpers.ts) so the test states
// what each layout was.
import { beforeAll, describe, expect, it } from 'vitest';
import { ingest, readIngestFile } from '../../src/grants/ingest.ts';
import { LayoutError } from '../../src/grants/layout.ts';
import type { GrantStore } from '../../src/grants/store.ts';
import { traverse, type GrantQuestion } from '../../src/grants/traverse.ts';
import { renderFailure } from '../../src/grants/render.ts';
import { G, GRANT_LAYOUT, type GrantIris } from '../../src/grants/vocab.ts';
import { RDF } from '../../src/rdf/vocab.ts';
import { downgrade, downgradeTo2, downgradeTo3, EXTRACT, extractRows, ingestedStore, PF } from './helpers.ts';

const QUESTIONS: GrantQuestion[] = [
  { direction: 'forward', funder: 'Erb Family Foundation' },
  { direction: 'reverse', recipient: 'Freshwater Future', limit: 3 },
  { direction: 'reverse', recipient: 'Freshwater Future', taxYear: 2023 },
  { direction: 'intersection', funders: ['Toledo Community Foundation', 'Rochester Area Community Foundation'] },
  { direction: 'top_recipients_of', funder: 'National Fish and Wildlife Foundation', limit: 5 },
  { direction: 'ranking', subject: 'funder', limit: 5 },
  { direction: 'ranking', subject: 'state', limit: 10 },
  { direction: 'geographic', state: 'OH' },
  { direction: 'geographic', state: 'NY', funder: 'Toledo Community Foundation' },
  { direction: 'geographic', state: 'MI', funder: 'Brookby Foundation' },
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
  const snapshot = async (s: GrantStore, i: GrantIris) => ({ graph: await triples(s, i.graph), rollups: await triples(s, i.rollups), answers: await Promise.all(QUESTIONS.map((q) => traverse({ store: s, iris: i }, q))) });
  beforeAll(async () => {
    ({ store, iris } = await ingestedStore([EXTRACT]));
    fresh = await snapshot(store, iris);
  }, 300_000);

  it('writes the layout on the graph, every grant\'s filed address, and no edge type, pair rollup of one grant or grants:Rollup type', async () => {
    expect(fresh.graph).toContain(`${iris.graph} ${G.layout} literal:${GRANT_LAYOUT}^http://www.w3.org/2001/XMLSchema#integer`);
    expect(fresh.graph.some((t) => t.endsWith(`${RDF.type} uri:${G.Grant}^`))).toBe(false);
    expect(fresh.rollups.some((t) => t.endsWith(`${RDF.type} uri:${G.Rollup}^`))).toBe(false);
    const [one] = await store.select(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${iris.rollups}> { ?x a <${G.PairRollup}> ; <${G.grantCount}> 1 } }`);
    expect(Number(one!.n!.value)).toBe(0);
    // every row of the extract names a state: every edge has an address, and one place per distinct city, state and country
    const rows = extractRows() as Array<ReturnType<typeof extractRows>[number] & { grantee_country: string }>;
    expect(fresh.graph.filter((t) => t.includes(` ${G.recipientAddress} `))).toHaveLength(rows.length);
    const places = new Set(rows.map((r) => `${r.grantee_country}|${r.grantee_state.toUpperCase()}|${r.grantee_city.trim().replace(/\s+/g, ' ').toUpperCase()}`));
    expect(fresh.graph.filter((t) => t.endsWith(`${RDF.type} uri:https://schema.org/PostalAddress^`))).toHaveLength(places.size);
  });

  it('refuses to read a layout-3 graph (no unit links), saying no file is needed; an ingest of no file upgrades it in place to what a fresh ingest writes', async () => {
    await downgradeTo3(store, iris);
    const before = await traverse({ store, iris }, QUESTIONS[1]!);
    expect(before).toEqual({ ok: false, failure: { code: 'layout_outdated', found: 3, expected: GRANT_LAYOUT, storeOnly: true } });
    if (!before.ok) expect(renderFailure(before.failure)).toMatch(/layout 3; this build reads layout 4, which counts the units .* no file needed: `assay grants ingest`/);
    const report = await ingest(store, [], { iris });
    expect(report.upgradedFrom).toBe(3);
    expect(report.docs).toEqual([]);
    expect(await snapshot(store, iris)).toEqual(fresh);
    // a fresh ingest wrote one unit link per unit the extract's names give (units.test.ts lists them)
    expect(fresh.rollups.filter((t) => t.includes(` ${G.parentNameKey} `)).length).toBeGreaterThan(40);
  }, 300_000);

  it('refuses to read a layout-2 graph, naming the files; ingesting them again upgrades it in place to what a fresh ingest writes', async () => {
    await downgradeTo2(store, iris);
    const before = await traverse({ store, iris }, QUESTIONS[7]!);
    expect(before).toEqual({ ok: false, failure: { code: 'layout_outdated', found: 2, expected: GRANT_LAYOUT, files: [EXTRACT], total: 1 } });
    if (!before.ok) expect(renderFailure(before.failure)).toMatch(/layout 2; this build reads layout 4.*assay grants ingest .*c4c-orggraph_glfn_grants_detail\.csv/);
    const report = await ingest(store, [await readIngestFile(EXTRACT)], { iris });
    expect(report.upgradedFrom).toBe(2);
    expect(report.upgradePending).toBeUndefined();
    expect(report.docs.map((d) => d.outcome)).toEqual(['upgraded']);
    expect(await snapshot(store, iris)).toEqual(fresh);
    // and the upgraded graph is current: the next ingest of the file changes nothing
    expect((await ingest(store, [await readIngestFile(EXTRACT)], { iris })).docs.map((d) => d.outcome)).toEqual(['unchanged']);
  }, 300_000);

  it('upgrades a layout-1 graph the same way (1 → 2 in the store, 2 → 3 from the files, 3 → 4 from the names)', async () => {
    await downgrade(store, iris);
    const before = await traverse({ store, iris }, QUESTIONS[0]!);
    expect(before).toEqual({ ok: false, failure: { code: 'layout_outdated', found: null, expected: GRANT_LAYOUT, files: [EXTRACT], total: 1 } });
    if (!before.ok) expect(renderFailure(before.failure)).toMatch(/layout 1; this build reads layout 4.*assay grants ingest/);
    const report = await ingest(store, [await readIngestFile(EXTRACT)], { iris });
    expect(report.upgradedFrom).toBe(1);
    expect(report.docs.map((d) => d.outcome)).toEqual(['upgraded']);
    expect(await snapshot(store, iris)).toEqual(fresh);
  }, 300_000);

  it('an ingest that is given only some of the files leaves the graph refused, naming the rest; the last one finishes the upgrade', async () => {
    const two = await ingestedStore([PF, EXTRACT]);
    const want = await snapshot(two.store, two.iris);
    await downgradeTo2(two.store, two.iris);
    const part = await ingest(two.store, [await readIngestFile(PF)], { iris: two.iris });
    expect(part.docs.map((d) => d.outcome)).toEqual(['upgraded']);
    expect(part.upgradedFrom).toBeUndefined();
    expect(part.upgradePending).toEqual({ from: 2, files: [EXTRACT] });
    const still = await traverse({ store: two.store, iris: two.iris }, QUESTIONS[7]!);
    expect(still).toEqual({ ok: false, failure: { code: 'layout_outdated', found: 2, expected: GRANT_LAYOUT, files: [EXTRACT], total: 1 } });
    // the upgrade goes on from where it was: the document already written is not asked for again
    const done = await ingest(two.store, [await readIngestFile(EXTRACT)], { iris: two.iris });
    expect(done.upgradedFrom).toBe(2);
    expect(await snapshot(two.store, two.iris)).toEqual(want);
  }, 300_000);

  it('a document whose filings another document now holds is not waited for, and keeps its node', async () => {
    const two = await ingestedStore([PF, EXTRACT]);
    await downgradeTo2(two.store, two.iris);
    // another copy of the extract (other bytes, so another document) takes over every one of its filings
    const copy = { ...(await readIngestFile(EXTRACT)), fileName: 'copy.csv' };
    copy.text += '\n';
    const took = await ingest(two.store, [copy], { iris: two.iris, replace: true });
    expect(took.docs.map((d) => d.outcome)).toEqual(['replaced']);
    expect(took.upgradePending).toEqual({ from: 2, files: [PF] });
    const done = await ingest(two.store, [await readIngestFile(PF)], { iris: two.iris });
    expect(done.upgradedFrom).toBe(2);
    const marks = await two.store.select(`SELECT ?d WHERE { GRAPH <${two.iris.graph}> { ?d <${G.layout}> ?v } }`);
    expect(marks.map((m) => m.d!.value)).toEqual([two.iris.graph]);
    const docs = await two.store.select(`SELECT ?d WHERE { GRAPH <${two.iris.graph}> { ?d a <${G.SourceDocument}> } }`);
    expect(docs).toHaveLength(3);
  }, 300_000);

  it('refuses a graph a newer layout wrote, on reading and on ingest', async () => {
    const g = `<${iris.graph}>`;
    await store.update(`DELETE WHERE { GRAPH ${g} { ${g} <${G.layout}> ?v } } ; INSERT DATA { GRAPH ${g} { ${g} <${G.layout}> ${GRANT_LAYOUT + 1} } }`);
    expect(await traverse({ store, iris }, QUESTIONS[0]!)).toEqual({ ok: false, failure: { code: 'layout_outdated', found: GRANT_LAYOUT + 1, expected: GRANT_LAYOUT } });
    await expect(ingest(store, [await readIngestFile(EXTRACT)], { iris })).rejects.toThrow(LayoutError);
  });
});
