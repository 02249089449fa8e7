// A recipient line a filer wrote in place of recipients ("SEE ATTACHED SCHEDULE") names no
// organization and may total several grants: rankings of recipients and of single grants leave it
// out and say how many, totals keep it. Expected values from the extract file (csv-parse).
import { beforeAll, describe, expect, it } from 'vitest';
import { traverse, type GrantOutcome, type GrantQuestion, type GrantResult } from '../../src/grants/traverse.ts';
import { renderDisclosure, renderFailure } from '../../src/grants/render.ts';
import { G } from '../../src/grants/vocab.ts';
import { EXTRACT, extractRows, ingestedStore, paid, sum } from './helpers.ts';

describe('placeholder recipients ("SEE ATTACHED SCHEDULE") out of rankings', () => {
  const rows = extractRows();
  const placeholder = (n: string) => /^\s*(see attached|see schedule|various\s*$)/i.test(n);
  const unnamed = rows.filter((r) => placeholder(r.grantee_name) && paid(r));
  let ctx: Parameters<typeof traverse>[0];
  beforeAll(async () => { const g = await ingestedStore([EXTRACT]); ctx = { store: g.store, iris: g.iris }; }, 120_000);
  const ok = async (q: GrantQuestion): Promise<GrantResult> => {
    const r: GrantOutcome = await traverse(ctx, q);
    if (!r.ok) throw new Error(JSON.stringify(r.failure));
    return r.result;
  };

  it('the extract has one such line, and the rollups graph types that recipient only', async () => {
    expect(unnamed.map((r) => r.grantee_name)).toEqual(['SEE ATTACHED SCHEDULE']);
    const typed = await ctx.store.select(`SELECT ?o WHERE { GRAPH <${ctx.iris.rollups}> { ?o a <${G.UnnamedRecipient}> } }`);
    expect(typed).toHaveLength(1);
  });

  it('the graph\'s largest recipients leave it out and name it, with its amount', async () => {
    const r = await ok({ direction: 'ranking', subject: 'recipient', limit: 50 });
    if (r.kind !== 'ranking') throw new Error(r.kind);
    expect(r.rows.map((x) => x.org.name)).not.toContain('SEE ATTACHED SCHEDULE');
    const d = r.disclosures.find((x) => x.code === 'unnamed_left_out')!;
    expect(d).toEqual({ code: 'unnamed_left_out', ranking: 'recipients', names: ['SEE ATTACHED SCHEDULE'], grants: 1, amount: sum(unnamed) });
    expect(renderDisclosure(d)).toContain(`is left out of this ranking of recipients ($${sum(unnamed).toLocaleString('en-US')} in 1 paid grant line; still in the totals)`);
    const byCount = await ok({ direction: 'ranking', subject: 'recipient', limit: 3000, by: 'count' });
    if (byCount.kind !== 'ranking') throw new Error(byCount.kind);
    expect(byCount.rows.map((x) => x.org.name)).not.toContain('SEE ATTACHED SCHEDULE');
  });

  it('a funder that filed all its grants to it has no recipients to rank, and says why; its total keeps the grant', async () => {
    const funder = unnamed[0]!.foundation_name;
    const top = await traverse(ctx, { direction: 'top_recipients_of', funder, limit: 10 });
    expect(top.ok).toBe(false);
    if (!top.ok) {
      expect(top.failure).toMatchObject({ code: 'only_unnamed', names: ['SEE ATTACHED SCHEDULE'], amount: sum(unnamed), grants: 1 });
      expect(renderFailure(top.failure)).toMatch(/filed its paid grants .* to "SEE ATTACHED SCHEDULE".*ask for its total instead/);
    }
    const big = await traverse(ctx, { direction: 'largest_grants', funder, limit: 5 });
    expect(!big.ok && big.failure.code).toBe('only_unnamed');
    const all = await ok({ direction: 'forward', funder });
    if (all.kind !== 'forward') throw new Error(all.kind);
    expect(all.totals.paid.amount).toBe(sum(rows.filter((r) => r.foundation_name === funder && paid(r))));
  });

  it('the largest single grants of the graph leave it out and say so', async () => {
    const r = await ok({ direction: 'largest_grants', limit: 20 });
    if (r.kind !== 'largest') throw new Error(r.kind);
    expect(r.edges.map((e) => e.recipient.name)).not.toContain('SEE ATTACHED SCHEDULE');
    expect(r.disclosures).toContainEqual(expect.objectContaining({ code: 'unnamed_left_out', ranking: 'grants' }));
    // the next largest grants are still exact: the extract's 20 largest paid grants to named recipients
    const want = rows.filter((x) => paid(x) && !placeholder(x.grantee_name)).map((x) => Number(x.grant_amount)).sort((a, b) => b - a).slice(0, 20);
    expect(r.edges.map((e) => e.amount)).toEqual(want);
  });
});
