// Grant questions by direction over the ingested extract, every expected value computed here from
// the CSV itself (csv-parse, not Assay's parser).
import { beforeAll, describe, expect, it } from 'vitest';
import { readCoverage, traverse, type GrantOutcome, type GrantQuestion, type GrantResult } from '../../src/grants/traverse.ts';
import { renderResult } from '../../src/grants/render.ts';
import { openOfflineRegistry } from '../../src/resolve/registry.ts';
import { rebuildRollups } from '../../src/grants/rollups.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { embeddedGrantStore } from '../../src/grants/store.ts';
import { grantIris } from '../../src/grants/vocab.ts';
import { ingest } from '../../src/grants/ingest.ts';

import { EXTRACT, extractRows, ingestedStore, norm, paid, sum, toOrg, type Row } from './helpers.ts';

const LEGAL = new Set(['inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'llc', 'plc', 'the']);
/** The same organization: the same EIN, or, without one, the same name (legal-form words aside) and state. */
const recipientKey = (r: Row) => r.grantee_ein ? `ein:${r.grantee_ein.replace('-', '')}` : `name:${norm(r.grantee_name.replace(/&/g, ' and ')).split(' ').filter((w) => !LEGAL.has(w)).join(' ')}|${r.grantee_state.toUpperCase()}`;

describe('grant questions by direction', async () => {
  const rows = extractRows();
  const registry = await openOfflineRegistry();
  let ctx: Parameters<typeof traverse>[0];
  beforeAll(async () => { const g = await ingestedStore([EXTRACT]); ctx = { store: g.store, iris: g.iris, registry }; });
  const ok = async (q: GrantQuestion): Promise<GrantResult> => {
    const r: GrantOutcome = await traverse(ctx, q);
    if (!r.ok) throw new Error(`expected an answer, got ${JSON.stringify(r.failure)}`);
    return r.result;
  };
  const funders = new Set(rows.map((r) => r.foundation_ein)).size;

  it('forward: the grants the Erb Family Foundation made, paid and approved-for-future apart', async () => {
    const erb = rows.filter((r) => r.foundation_ein === '20-5966333');
    const r = await ok({ direction: 'forward', funder: 'Erb Family Foundation' });
    if (r.kind !== 'forward') throw new Error(r.kind);
    expect(r.totals.paid).toMatchObject({ amount: sum(erb.filter(paid)), grants: erb.filter(paid).length });
    expect(r.totals.approvedFuture).toMatchObject({ amount: sum(erb.filter((x) => x.grant_bucket === '3b')), grants: erb.filter((x) => x.grant_bucket === '3b').length });
    expect(r.edges).toHaveLength(erb.length);
    expect(r.disclosures).toContainEqual(expect.objectContaining({ code: 'match_method', method: 'name_words' }));
    expect(r.disclosures).toContainEqual(expect.objectContaining({ code: 'approved_not_paid' }));
    // every edge cites its filing and its row in the extract
    expect(r.edges.every((e) => /^row=\d+$/.test(e.record) && e.filing.includes('/filing/205966333/2023/'))).toBe(true);
  });

  it('reverse: who funds Freshwater Future, with amounts, the name match and the coverage disclosed', async () => {
    const to = toOrg(rows, 'Freshwater Future').filter(paid);
    const expected = new Map<string, number>();
    for (const x of to) expected.set(x.foundation_ein.replace('-', ''), (expected.get(x.foundation_ein.replace('-', '')) ?? 0) + Number(x.grant_amount));
    const r = await ok({ direction: 'reverse', recipient: 'Freshwater Future' });
    if (r.kind !== 'reverse') throw new Error(r.kind);
    expect(new Map(r.funders.filter((f) => f.status === 'paid').map((f) => [f.org.ein!, f.amount]))).toEqual(expected);
    expect(r.totals.paid.amount).toBe(sum(to));
    expect(r.disclosures).toContainEqual(expect.objectContaining({ code: 'match_method', method: 'name_exact' }));
    expect(r.disclosures).toContainEqual({ code: 'partial_coverage', funders, filings: expect.any(Number), taxYears: [2023, 2024] });
    expect(renderResult(r)).toContain(`among the ${funders} funders whose filings the graph holds`);
  });

  it('reverse with a limit: the largest funders only, the total and the funder count still over all of them, disclosed', async () => {
    // the recipient EIN with the most distinct funders in the extract
    const byEin = new Map<string, Set<string>>();
    for (const x of rows.filter((x) => x.grantee_ein && paid(x))) byEin.set(x.grantee_ein, (byEin.get(x.grantee_ein) ?? new Set()).add(x.foundation_ein));
    const [ein, many] = [...byEin].sort((a, b) => b[1].size - a[1].size)[0]!;
    expect(many.size).toBeGreaterThan(2);
    const all = await ok({ direction: 'reverse', recipient: ein.replace('-', '') });
    const top = await ok({ direction: 'reverse', recipient: ein.replace('-', ''), limit: 2 });
    if (all.kind !== 'reverse' || top.kind !== 'reverse') throw new Error(all.kind);
    const paidRows = (r: typeof all) => r.funders.filter((f) => f.status === 'paid').map((f) => [f.org.iri, f.amount, f.grants]);
    expect(paidRows(top)).toEqual(paidRows(all).slice(0, 2));
    expect(top.totals).toEqual(all.totals);
    expect(top.totals.paid.counterparts).toBe(paidRows(all).length);
    expect(top.totals.paid.counterparts).toBeGreaterThanOrEqual(many.size);
    expect(top.disclosures).toContainEqual({ code: 'largest_shown', role: 'funder', status: 'paid', shown: 2, total: paidRows(all).length });
    expect(all.disclosures.map((d) => d.code)).not.toContain('largest_shown');
    expect(renderResult(top)).toContain(`the largest 2 of ${paidRows(all).length} funders are listed`);
    expect(renderResult(top)).toContain(`from ${paidRows(all).length} funders`);
  });

  it('reverse reads sent beside the name resolution are kept only when the resolution selected what they read', { timeout: 120_000 }, async () => {
    // recipients named every way a question can name them: as filed (exact name), by EIN, by a
    // shortened name (words), by names the registry knows, and names the graph does not hold
    const names = [...new Set(rows.filter(paid).map((r) => r.grantee_name))].sort().filter((_, i) => i % 331 === 0);
    const eins = [...new Set(rows.filter((r) => r.grantee_ein).map((r) => r.grantee_ein.replace('-', '')))].sort().filter((_, i) => i % 401 === 0);
    const asked = [...names, ...names.map((n) => n.split(/\s+/).slice(0, 2).join(' ')), ...eins, 'Stanford University', 'Freshwater Future', 'No Such Recipient Anywhere', '999999999'];
    let selects = 0;
    const counted = { ...ctx, store: { ...ctx.store, label: ctx.store.label, select: (q: string, s?: AbortSignal) => { selects++; return ctx.store.select(q, s); } } };
    let kept = 0, dropped = 0;
    for (const [i, recipient] of asked.entries()) {
      {
        const limit = i % 2 ? 3 : undefined;
        const q: GrantQuestion = { direction: 'reverse', recipient, ...(limit ? { limit } : {}) };
        selects = 0;
        const ahead = await traverse(counted, q);
        const withAhead = selects;
        selects = 0;
        const plain = await traverse({ ...counted, readAhead: false }, q);
        // the same outcome, figure for figure, whichever way the reads went
        expect(ahead, `${recipient} (limit ${limit})`).toEqual(plain);
        // kept: no reads sent twice (fewer or as many queries); dropped: the two reads (totals, funders) sent again
        if (withAhead <= selects) kept++;
        else { dropped++; expect(withAhead).toBe(selects + 2); }
      }
    }
    // both ways were taken: most names decide their recipient alone, some do not
    expect(kept).toBeGreaterThan(asked.length / 2);
    expect(dropped).toBeGreaterThan(0);
  });

  it('intersection: whom the Toledo and the Rochester community foundations both fund (EIN, or name and state)', async () => {
    const of = (ein: string) => new Set(rows.filter((r) => r.foundation_ein === ein).map(recipientKey));
    const toledo = of('23-7284004');
    const both = [...of('23-7250641')].filter((k) => toledo.has(k));
    const r = await ok({ direction: 'intersection', funders: ['Toledo Community Foundation', 'Rochester Area Community Foundation'] });
    if (r.kind !== 'intersection') throw new Error(r.kind);
    expect(r.recipients).toHaveLength(both.length);
    expect(new Set(r.recipients.map((x) => (x.recipient.ein ? `ein:${x.recipient.ein}` : 'name')))).toEqual(new Set(both.map((k) => (k.startsWith('ein:') ? k : 'name'))));
    const nd = r.recipients.find((x) => x.recipient.ein === '350868188')!; // University of Notre Dame
    const amount = (ein: string) => sum(rows.filter((x) => x.foundation_ein === ein && x.grantee_ein === '35-0868188' && paid(x)));
    expect([nd.amounts[0].paid.amount, nd.amounts[1].paid.amount]).toEqual([amount('23-7284004'), amount('23-7250641')]);
  });

  it('ranking: the largest funders by grants paid, from the rollups, over the coverage it says', async () => {
    const totals = new Map<string, number>();
    for (const x of rows.filter(paid)) totals.set(x.foundation_ein.replace('-', ''), (totals.get(x.foundation_ein.replace('-', '')) ?? 0) + Number(x.grant_amount));
    const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 5);
    const r = await ok({ direction: 'ranking', subject: 'funder', limit: 5 });
    if (r.kind !== 'ranking') throw new Error(r.kind);
    expect(r.rows.map((x) => [x.org.ein, x.amount])).toEqual(top);
    expect(r.disclosures).toContainEqual(expect.objectContaining({ code: 'partial_coverage', funders }));
  });

  it('ranking of one funder\'s recipients: the largest recipients of the National Fish and Wildlife Foundation', async () => {
    const nfwf = rows.filter((x) => x.foundation_ein === '52-1384139' && paid(x));
    const by = new Map<string, number>();
    for (const x of nfwf) by.set(recipientKey(x), (by.get(recipientKey(x)) ?? 0) + Number(x.grant_amount));
    const top = [...by.values()].sort((a, b) => b - a).slice(0, 3);
    const r = await ok({ direction: 'top_recipients_of', funder: 'National Fish and Wildlife Foundation', limit: 3 });
    if (r.kind !== 'ranking') throw new Error(r.kind);
    expect(r.rows.map((x) => x.amount)).toEqual(top);
    expect(r.disclosures).toContainEqual(expect.objectContaining({ code: 'match_method', method: 'ein', einSource: 'registry' }));
  });

  it('geographic: how much the Brookby Foundation gave to organizations in Michigan', async () => {
    const mi = rows.filter((x) => x.foundation_ein === '38-3202330' && x.grantee_state.toUpperCase() === 'MI');
    const r = await ok({ direction: 'geographic', state: 'MI', funder: 'Brookby Foundation' });
    if (r.kind !== 'geographic') throw new Error(r.kind);
    expect(r.totals.paid).toMatchObject({ amount: sum(mi.filter(paid)), grants: mi.filter(paid).length });
  });

  it('cause: funding for education, each grant saying whether the NTEE code or the purpose text selected it', async () => {
    const r = await ok({ direction: 'cause', cause: 'education', funder: 'Mott Foundation' });
    if (r.kind !== 'cause') throw new Error(r.kind);
    expect(r.edges.length).toBeGreaterThan(0);
    expect(r.edges.every((e) => e.causeBy === 'purpose' && /educat|school|scholarship|tuition|college|universit|literacy|student|learning/i.test(e.purpose ?? ''))).toBe(true);
    expect(r.totals.paid.amount).toBe(r.edges.filter((e) => e.status === 'paid').reduce((s, e) => s + e.amount, 0));
  });

  it('coverage is read from the rollup the ingest counted, and equals what a scan of the filings counts', async () => {
    // a filing is one funder's return for one tax year and form (Schedule I: 990; lines 3a/3b: 990-PF)
    const filings = new Set(rows.map((r) => `${r.foundation_ein}|${r.tax_year}|${r.grant_bucket === 'schedule_i' ? '990' : '990PF'}`)).size;
    const expected = { complete: false, synthetic: false, funders, filings, taxYears: [...new Set(rows.map((r) => Number(r.tax_year)))].sort(), documentCount: 1, release: null, unfinishedIngest: null };
    expect(await readCoverage(ctx)).toEqual(expected);
    // a graph ingested before the coverage rollup existed: the filings are counted instead, to the same figures
    await ctx.store.update(`DELETE WHERE { GRAPH <${ctx.iris.rollups}> { <${ctx.iris.rollup('coverage')}> ?p ?o } }`);
    try {
      expect(await readCoverage(ctx)).toEqual(expected);
    } finally {
      await rebuildRollups(ctx.store, ctx.iris);
    }
    expect(await readCoverage(ctx)).toEqual(expected);
  });

  it('a funder whose filings the graph does not hold is not found, with the coverage, not an empty answer', async () => {
    const r = await traverse(ctx, { direction: 'forward', funder: 'Ford Foundation' });
    expect(r).toMatchObject({ ok: false, failure: { code: 'not_in_graph', role: 'funder', coverage: { funders, complete: false } } });
  });
});

// A SYNTHETIC extract written here (no real grant): one recipient whose funders' totals tie across
// the cut of a limited reverse answer, so the rows shown must not depend on an engine's order among equals.
describe('a limited reverse answer whose cut falls inside a tie', () => {
  it('lists the funders above the tie, then the tied ones with the lowest IRIs; totals cover every funder', async () => {
    const header = 'grantee_name,grantee_city,grantee_state,grantee_zip,grantee_country,grant_amount,grant_purpose_raw,relationship,foundation_status,grant_bucket,region_id,region_name,region_rule_source,region_relevant,foundation_name,foundation_ein,tax_year,grantee_ein,cash_grant_amount,non_cash_amount,irc_section,source_file,foundation_country,source_system,grant_amount_cash,grant_amount_in_kind,currency,fiscal_year,reporting_period';
    const grant = (funder: string, ein: string, amount: number) => `SYNTHETIC TIE RECIPIENT,Lansing,MI,48933,US,${amount},SYNTHETIC TEST GRANT,NONE,PC,3a,,,,,${funder},${ein},2023,,,,,,US,IRS_990,,,USD,,`;
    const text = [header, grant('SYNTHETIC FUNDER A', '90-0000001', 300), grant('SYNTHETIC FUNDER B', '90-0000002', 200), grant('SYNTHETIC FUNDER C', '90-0000003', 200), grant('SYNTHETIC FUNDER D', '90-0000004', 200), grant('SYNTHETIC FUNDER E', '90-0000005', 100)].join('\n');
    const durable = DurableStore.inMemory();
    const store = embeddedGrantStore(durable);
    const iris = grantIris('http://assay.test/');
    await ingest(store, [{ fileName: 'synthetic-tie.csv', text, note: 'SYNTHETIC test extract: no real grant' }], { iris });
    const c = { store, iris };
    const all = await traverse(c, { direction: 'reverse', recipient: 'SYNTHETIC TIE RECIPIENT' });
    for (const limit of [2, 3]) {
      const r = await traverse(c, { direction: 'reverse', recipient: 'SYNTHETIC TIE RECIPIENT', limit });
      if (!r.ok || r.result.kind !== 'reverse' || !all.ok || all.result.kind !== 'reverse') throw new Error('expected answers');
      const tied = all.result.funders.filter((f) => f.amount === 200).map((f) => f.org.iri).sort();
      expect(r.result.funders.map((f) => f.amount)).toEqual([300, 200, 200].slice(0, limit));
      expect(r.result.funders.filter((f) => f.amount === 200).map((f) => f.org.iri).sort()).toEqual(tied.slice(0, limit - 1));
      expect(r.result.totals).toEqual(all.result.totals);
      expect(r.result.disclosures).toContainEqual({ code: 'largest_shown', role: 'funder', status: 'paid', shown: limit, total: 5 });
    }
  });
});

// A SYNTHETIC extract written here (no real grant): one recipient filed under two nodes (with its
// EIN by most funders, by name alone in the same state by two), many paid funders and two approved
// for future payment, so a limited answer's one read of both statuses is cut short for one of them.
describe('a limited reverse answer whose paid funders crowd out the approved-for-future ones', () => {
  it('lists the largest of each status and counts every funder once, however the reads went', async () => {
    const header = 'grantee_name,grantee_city,grantee_state,grantee_zip,grantee_country,grant_amount,grant_purpose_raw,relationship,foundation_status,grant_bucket,region_id,region_name,region_rule_source,region_relevant,foundation_name,foundation_ein,tax_year,grantee_ein,cash_grant_amount,non_cash_amount,irc_section,source_file,foundation_country,source_system,grant_amount_cash,grant_amount_in_kind,currency,fiscal_year,reporting_period';
    const grant = (f: number, amount: number, bucket: '3a' | '3b', ein: string) => `SYNTHETIC CROWDED RECIPIENT,Lansing,MI,48933,US,${amount},SYNTHETIC TEST GRANT,NONE,PC,${bucket},,,,,SYNTHETIC FUNDER ${f},90-00000${String(f).padStart(2, '0')},2023,${ein},,,,,US,IRS_990,,,USD,,`;
    const lines = [header];
    for (let f = 1; f <= 8; f++) lines.push(grant(f, 900 - 100 * f, '3a', '91-0000001'));
    lines.push(grant(9, 50, '3b', '91-0000001'), grant(10, 40, '3b', '91-0000001'));
    // funder 1 also reaches the name-keyed node (one funder, counted once); funder 11 only that node
    lines.push(grant(1, 5, '3a', ''), grant(11, 30, '3a', ''));
    const store = embeddedGrantStore(DurableStore.inMemory());
    const iris = grantIris('http://assay.test/');
    await ingest(store, [{ fileName: 'synthetic-crowded.csv', text: lines.join('\n'), note: 'SYNTHETIC test extract: no real grant' }], { iris });
    const recipient = 'SYNTHETIC CROWDED RECIPIENT';
    const all = await traverse({ store, iris }, { direction: 'reverse', recipient });
    if (!all.ok || all.result.kind !== 'reverse') throw new Error('expected an answer');
    expect(all.result.recipient).toHaveLength(2);
    const of = (r: typeof all.result, s: string) => r.funders.filter((f) => f.status === s).map((f) => [f.org.iri, f.amount, f.grants]);
    expect(of(all.result, 'paid').map((x) => x[1])).toEqual([805, 700, 600, 500, 400, 300, 200, 100, 30]);
    expect(of(all.result, 'approved_future').map((x) => x[1])).toEqual([50, 40]);
    expect([all.result.totals.paid.counterparts, all.result.totals.approvedFuture.counterparts]).toEqual([9, 2]);
    for (const limit of [1, 2, 4, 5, 9]) {
      for (const readAhead of [true, false]) {
        const r = await traverse({ store, iris, readAhead }, { direction: 'reverse', recipient, limit });
        if (!r.ok || r.result.kind !== 'reverse') throw new Error('expected an answer');
        expect(of(r.result, 'paid'), `limit ${limit}`).toEqual(of(all.result, 'paid').slice(0, limit));
        expect(of(r.result, 'approved_future'), `limit ${limit}`).toEqual(of(all.result, 'approved_future').slice(0, limit));
        expect(r.result.totals).toEqual(all.result.totals);
        expect(r.result.disclosures.filter((d) => d.code === 'largest_shown')).toEqual([
          ...(limit < 9 ? [{ code: 'largest_shown', role: 'funder', status: 'paid', shown: limit, total: 9 }] : []),
          ...(limit < 2 ? [{ code: 'largest_shown', role: 'funder', status: 'approved_future', shown: limit, total: 2 }] : []),
        ]);
      }
    }
  });
});
