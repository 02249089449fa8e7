// Ingest: the graph holds every edge once, a second ingest of the same files changes nothing, a
// filing is held from one document only, a bad file writes nothing, rollups match the edges, and
// EINs link to the identity registry.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingest, readIngestFile } from '../../src/grants/ingest.ts';
import { G } from '../../src/grants/vocab.ts';
import { ingestStartedUpdate } from '../../src/grants/rollups.ts';
import { traverse } from '../../src/grants/traverse.ts';
import { renderResult } from '../../src/grants/render.ts';
import { openOfflineRegistry } from '../../src/resolve/registry.ts';
import { OWL } from '../../src/rdf/vocab.ts';
import { EXTRACT, NO_GRANTS, PF, SCHED_I, extractRows, ingestedStore, paid, sum } from './helpers.ts';

describe('grants ingest', async () => {
  const registry = await openOfflineRegistry();
  let g: Awaited<ReturnType<typeof ingestedStore>>;
  beforeAll(async () => { g = await ingestedStore([EXTRACT, SCHED_I, PF, NO_GRANTS], registry); });
  const rows = extractRows();

  it('holds every edge of every document, with one filing per funder, tax year and form', () => {
    expect(g.report.failed).toEqual([]);
    expect(g.report.docs.map((d) => [d.kind, d.outcome, d.edges])).toEqual([['grants_extract', 'added', rows.length], ['efile_xml', 'added', 4], ['efile_xml', 'added', 4], ['efile_xml', 'added', 0]]);
    expect(g.report.graph.edges).toBe(rows.length + 8);
    expect(g.report.graph.funders).toBe(new Set(rows.map((r) => r.foundation_ein)).size + 3);
  });

  it('a second ingest of the same files changes nothing (idempotent)', async () => {
    const before = g.durable.rdf.size;
    const again = await ingest(g.store, await Promise.all([EXTRACT, SCHED_I, PF, NO_GRANTS].map(readIngestFile)), { iris: g.iris, registry });
    expect(again.docs.map((d) => d.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(g.durable.rdf.size).toBe(before);
    expect(again.graph).toEqual(g.report.graph);
  });

  it('materializes funder rollups equal to the sums of the edges, paid and approved-for-future apart', () => {
    const mott = rows.filter((r) => r.foundation_ein === '38-1211227');
    const rollups = g.durable.rdf.select(`SELECT ?s ?t ?n WHERE { GRAPH <${g.iris.rollups}> { ?x a <${G.FunderRollup}> ; <${G.rollupFunder}> <${g.iris.org('ein-381211227')}> ; <${G.paymentStatus}> ?s ; <${G.totalAmount}> ?t ; <${G.grantCount}> ?n } }`);
    const by = new Map(rollups.map((b) => [b.get('s')!.value, [Number(b.get('t')!.value), Number(b.get('n')!.value)]]));
    expect(by.get(G.Paid)).toEqual([sum(mott.filter(paid)), mott.filter(paid).length]);
    const future = mott.filter((r) => r.grant_bucket === '3b');
    if (future.length) expect(by.get(G.ApprovedForFuturePayment)).toEqual([sum(future), future.length]);
    else expect(by.has(G.ApprovedForFuturePayment)).toBe(false);
  });

  it('links an organization to the identity registry when the registry holds its EIN', () => {
    const links = g.durable.rdf.select(`SELECT ?o ?same WHERE { GRAPH <${g.iris.graph}> { ?o <${OWL.sameAs}> ?same } }`);
    expect(links.map((b) => b.get('o')!.value)).toContain(g.iris.org('ein-521384139')); // National Fish and Wildlife Foundation
    expect(g.report.reconciled.linked).toBe(links.length);
  });

  it('holds a filing from one document only: a second copy is skipped with the reason, or replaces with --replace', async () => {
    // The extract's smaller filings (under 100 rows each, seven of them, whole): the rule is per
    // filing, not per file size, and three ingests of the whole extract cost ~30 s under load.
    const records = parse(readFileSync(EXTRACT, 'utf8'), { columns: true, skip_empty_lines: true, raw: true }) as Array<{ record: Record<string, string>; raw: string }>;
    const filing = (r: Record<string, string>) => `${r.foundation_ein}|${r.tax_year}`;
    const size = new Map<string, number>();
    for (const { record } of records) size.set(filing(record), (size.get(filing(record)) ?? 0) + 1);
    const kept = records.filter(({ record }) => size.get(filing(record))! < 100);
    const header = readFileSync(EXTRACT, 'utf8').split('\n', 1)[0]!;
    const text = `${header}\n${kept.map((k) => k.raw.replace(/\r?\n$/, '')).join('\n')}\n`;
    const h = await ingestedStore([]);
    const first = await ingest(h.store, [{ fileName: 'extract.csv', text }], { iris: h.iris });
    expect(first.docs[0]).toMatchObject({ outcome: 'added', edges: kept.length });
    expect(first.docs[0]!.filings).toBeGreaterThan(1);
    const copy = { fileName: 'copy.csv', text: `${text}\n` }; // other bytes, same filings
    const skipped = await ingest(h.store, [copy], { iris: h.iris });
    expect(skipped.docs[0]).toMatchObject({ outcome: 'skipped', edges: 0 });
    expect(skipped.docs[0]!.heldElsewhere).toHaveLength(first.docs[0]!.filings);
    expect(skipped.graph.edges).toBe(kept.length);
    const replaced = await ingest(h.store, [copy], { iris: h.iris, replace: true });
    expect(replaced.docs[0]).toMatchObject({ outcome: 'replaced', edges: kept.length });
    expect(replaced.graph.edges).toBe(kept.length);
  });

  it('a file that is not a filing writes nothing, and the others still go in', async () => {
    const h = await ingestedStore([]);
    const r = await ingest(h.store, [{ fileName: 'broken.xml', text: '<Return><ReturnHeader>' }, await readIngestFile(PF)], { iris: h.iris });
    expect(r.failed).toMatchObject([{ file: 'broken.xml' }]);
    expect(r.failed[0]!.message).toMatch(/not well-formed XML/);
    expect(r.graph.edges).toBe(4);
  });

  it('records PROV-O from each edge to its grant list, the list\'s filing, and from the filing to the source document', () => {
    const [b] = g.durable.rdf.select(`PREFIX prov: <http://www.w3.org/ns/prov#> PREFIX dct: <http://purl.org/dc/terms/> SELECT ?rec ?doc ?sha ?up WHERE { GRAPH <${g.iris.graph}> {
      ?e prov:wasDerivedFrom ?list ; <${G.sourceRecord}> ?rec . ?list <${G.funder}> <${g.iris.org('ein-741894581')}> ; dct:isPartOf ?filing . ?filing prov:wasDerivedFrom ?doc . ?doc <${G.sha256}> ?sha ; prov:hadPrimarySource ?up } } ORDER BY ?rec LIMIT 1`);
    expect(b!.get('rec')!.value).toBe('IRS990ScheduleI/RecipientTable[1]');
    expect(b!.get('doc')!.value).toBe(g.iris.doc('202403589349300950'));
    expect(b!.get('up')!.value).toBe('https://s3.amazonaws.com/irs-form-990/202403589349300950_public.xml');
    expect(b!.get('sha')!.value).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('an ingest that stops before rebuilding the rollups', () => {
  it('leaves a mark every answer discloses, forward totals come from the edges listed, and the next ingest clears it', async () => {
    const g = await ingestedStore([EXTRACT]);
    const q = { direction: 'forward', funder: 'Erb Family Foundation' } as const;
    const before = await traverse({ store: g.store, iris: g.iris }, q);
    if (!before.ok || before.result.kind !== 'forward') throw new Error('expected an answer');
    expect(before.result.disclosures.map((d) => d.code)).not.toContain('ingest_unfinished');
    // what an ingest writes first; it stops here (no edges, no rollup rebuild), and the Erb funder rollups are made stale by hand
    await g.store.update(ingestStartedUpdate(g.iris, '2026-12-01T20:00:00Z'));
    await g.store.update(`DELETE { GRAPH <${g.iris.rollups}> { ?x <${G.totalAmount}> ?t } } INSERT { GRAPH <${g.iris.rollups}> { ?x <${G.totalAmount}> 1 } } WHERE { GRAPH <${g.iris.rollups}> { ?x a <${G.FunderRollup}> ; <${G.totalAmount}> ?t } }`);
    const during = await traverse({ store: g.store, iris: g.iris }, q);
    if (!during.ok || during.result.kind !== 'forward') throw new Error('expected an answer');
    expect(during.result.disclosures).toContainEqual({ code: 'ingest_unfinished', since: '2026-12-01T20:00:00Z' });
    expect(renderResult(during.result)).toContain('has not finished');
    // the stale rollup total is not used: the totals are the listed edges', equal to the answer before
    expect(during.result.totals).toEqual({ paid: { amount: before.result.totals.paid.amount, grants: before.result.totals.paid.grants }, approvedFuture: { amount: before.result.totals.approvedFuture.amount, grants: before.result.totals.approvedFuture.grants } });
    // a reverse answer reads rollups only: it says so too
    const rev = await traverse({ store: g.store, iris: g.iris }, { direction: 'reverse', recipient: 'Freshwater Future' });
    expect(rev.ok && rev.result.disclosures.map((d) => d.code)).toContain('ingest_unfinished');
    await ingest(g.store, [await readIngestFile(EXTRACT)], { iris: g.iris });
    const after = await traverse({ store: g.store, iris: g.iris }, q);
    if (!after.ok || after.result.kind !== 'forward') throw new Error('expected an answer');
    expect(after.result.disclosures.map((d) => d.code)).not.toContain('ingest_unfinished');
    expect(after.result.totals).toEqual(before.result.totals);
  });
});

describe('state totals: each grant in the state of the address filed for it', () => {
  // computed from the file itself (csv-parse): a state total is exactly the grants filed to addresses in that state
  const rows = extractRows();
  const st = (r: (typeof rows)[number]) => r.grantee_state.toUpperCase();
  const statesByEin = new Map<string, Set<string>>();
  for (const r of rows) if (r.grantee_ein) statesByEin.set(r.grantee_ein, new Set([...(statesByEin.get(r.grantee_ein) ?? []), st(r)]));
  const split = (r: (typeof rows)[number]) => !!r.grantee_ein && statesByEin.get(r.grantee_ein)!.size > 1;
  const expected = (rs: typeof rows) => ({
    paid: { amount: sum(rs.filter(paid)), grants: rs.filter(paid).length },
    approvedFuture: { amount: sum(rs.filter((r) => !paid(r))), grants: rs.filter((r) => !paid(r)).length },
  });
  /** The states split recipients were filed in (the file has six such recipients, in IL, NY, OH and WI). */
  const SPLIT_STATES = [...new Set(rows.filter(split).map(st))].sort();
  let g: Awaited<ReturnType<typeof ingestedStore>>;
  beforeAll(async () => { g = await ingestedStore([EXTRACT]); }, 300_000);
  const totalsOf = async (state: string, funder?: string) => {
    const r = await traverse({ store: g.store, iris: g.iris }, { direction: 'geographic', state, ...(funder ? { funder } : {}) });
    if (!r.ok || r.result.kind !== 'geographic') throw new Error(JSON.stringify(r));
    const t = r.result.totals;
    return { paid: { amount: t.paid.amount, grants: t.paid.grants }, approvedFuture: { amount: t.approvedFuture.amount, grants: t.approvedFuture.grants } };
  };

  it('the extract has recipients filed under two states, in OH and NY among others (what this tests)', () => {
    expect(SPLIT_STATES).toEqual(expect.arrayContaining(['OH', 'NY']));
  });

  it('one funder in Michigan: the Brookby Foundation', async () => {
    const brookby = rows.find((r) => /Brookby/i.test(r.foundation_name))!.foundation_ein;
    const want = expected(rows.filter((r) => r.foundation_ein === brookby && st(r) === 'MI'));
    expect(want.paid.grants).toBeGreaterThan(0);
    expect(await totalsOf('MI', 'Brookby Foundation')).toEqual(want);
  }, 60_000);

  it.each([...new Set(rows.map(st))].sort())('graph-wide, %s', async (s) => {
    expect(await totalsOf(s)).toEqual(expected(rows.filter((r) => st(r) === s)));
  }, 60_000);

  it.each(SPLIT_STATES)('every funder that filed a grant to a split recipient in %s', async (s) => {
    const funders = [...new Set(rows.filter((r) => split(r) && st(r) === s).map((r) => r.foundation_ein))];
    expect(funders.length).toBeGreaterThan(0);
    for (const f of funders) expect(await totalsOf(s, f.replace('-', ''))).toEqual(expected(rows.filter((r) => r.foundation_ein === f && st(r) === s)));
  }, 60_000);

  it('the state ranking lists every state by its own grants, largest first', async () => {
    const r = await traverse({ store: g.store, iris: g.iris }, { direction: 'ranking', subject: 'state', limit: 20 });
    if (!r.ok || r.result.kind !== 'ranking') throw new Error(JSON.stringify(r));
    const want = [...new Set(rows.map(st))].map((s) => ({ state: s, amount: expected(rows.filter((x) => st(x) === s)).paid.amount })).sort((a, b) => b.amount - a.amount);
    expect(r.result.stateRows!.map((x) => ({ state: x.state, amount: x.amount }))).toEqual(want);
  }, 60_000);
});
