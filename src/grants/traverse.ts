/**
 * A grant question, typed → a typed grant result: rows with the evidence each stands on (edge,
 * filing, source document and record), the graph's coverage, and disclosures as codes with
 * parameters. Wording happens once, in render.ts.
 *
 * Decides: the mechanism from the direction (queries.ts), which organizations a name denotes
 * (resolve.ts), and what must be disclosed — the match method, partial coverage for every reverse
 * and graph-wide answer, approved-for-future amounts beside (never inside) paid totals, the cause
 * method. Never: sums paid and approved amounts, or states a graph-wide figure without its coverage.
 */
import type { IdentityRegistry } from '../resolve/registry.ts';
import { causeMatch, type CauseMatch } from './cause.ts';
import * as Q from './queries.ts';
import { nameSelection, orgDetailsOf, resolveOrg, type MatchMethod, type OrgHit, type OrgResolution, type Role } from './resolve.ts';
import { num, type GrantStore, type Row, type RowTerm } from './store.ts';
import type { PaymentStatus } from './types.ts';
import { G, GRANT_LAYOUT, type GrantIris } from './vocab.ts';

export type GrantQuestion =
  | { direction: 'forward'; funder: string; taxYear?: number; limit?: number }
  | { direction: 'reverse'; recipient: string; taxYear?: number; limit?: number }
  /** What one funder gave one recipient: the funder's edges to that recipient. */
  | { direction: 'pair'; funder: string; recipient: string; taxYear?: number }
  | { direction: 'intersection'; funders: [string, string] }
  | { direction: 'top_recipients_of'; funder: string; limit: number }
  | { direction: 'ranking'; subject: Q.RankSubject; limit: number; order?: 'desc' | 'asc' }
  | { direction: 'geographic'; state: string; funder?: string }
  | { direction: 'cause'; cause: string; funder?: string };

export interface Totals { paid: Total; approvedFuture: Total }
export interface Total { amount: number; grants: number; counterparts?: number }

export interface OrgRef { iri: string; name: string; ein: string | null; state: string | null }

export interface EdgeRow {
  edge: string; funder: OrgRef; recipient: OrgRef; amount: number; cash: number | null; nonCash: number | null;
  status: PaymentStatus; taxYear: number; purpose: string | null; filing: string; record: string;
  /** How a cause question selected the edge. */
  causeBy?: 'ntee' | 'purpose';
}

export interface TotalRow { org: OrgRef; status: PaymentStatus; amount: number; grants: number; counterparts?: number }

export interface Coverage {
  complete: boolean;
  synthetic: boolean;
  funders: number;
  filings: number;
  taxYears: number[];
  /** Distinct source documents the filings were read from. */
  documentCount: number;
  release: string | null;
  /** When an ingest began that has not rebuilt the rollups (it is running, or it stopped midway); else null. */
  unfinishedIngest: string | null;
}

export type Disclosure =
  | { code: 'match_method'; role: Role; asked: string; method: MatchMethod; orgs: number; einSource?: 'question' | 'registry' }
  | { code: 'name_keyed_added'; asked: string; orgs: number }
  | { code: 'partial_coverage'; funders: number; filings: number; taxYears: number[] }
  | { code: 'approved_not_paid'; amount: number; grants: number }
  | { code: 'recipients_keyed'; }
  | { code: 'cause_method'; cause: string; groups: string[]; byNtee: number; byPurpose: number; words: string[] }
  | { code: 'state_as_filed' }
  | { code: 'rows_shown'; shown: number; total: number }
  /** Only the largest `shown` of `total` counterparts are listed; the totals and counts cover all of them. */
  | { code: 'largest_shown'; role: Role; status: PaymentStatus; shown: number; total: number }
  | { code: 'synthetic_graph' }
  /** An ingest began at `since` and has not rebuilt the rollups: totals may not count its filings yet. */
  | { code: 'ingest_unfinished'; since: string }
  | { code: 'tax_year_filter'; taxYear: number };

export type GrantFailure =
  | { code: 'empty_graph' }
  /** The graph holds filings written in another layout than this build reads (layout.ts): the next ingest upgrades it. */
  | { code: 'layout_outdated'; found: number | null; expected: number }
  | { code: 'not_in_graph'; role: Role; asked: string; coverage: Coverage }
  | { code: 'ambiguous_org'; role: Role; asked: string; candidates: OrgRef[] }
  | { code: 'unknown_cause'; cause: string }
  | { code: 'no_grants'; what: string; coverage: Coverage };

export type GrantResult =
  | { kind: 'forward'; funder: OrgRef[]; totals: Totals; edges: EdgeRow[]; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'reverse'; recipient: OrgRef[]; totals: Totals; funders: TotalRow[]; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'pair'; funder: OrgRef[]; recipient: OrgRef[]; totals: Totals; edges: EdgeRow[]; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'intersection'; funders: [OrgRef[], OrgRef[]]; recipients: Array<{ recipient: OrgRef; amounts: [Totals, Totals] }>; coverage: Coverage; disclosures: Disclosure[] }
  | { kind: 'ranking'; subject: Q.RankSubject | 'recipient_of'; of?: OrgRef[]; rows: TotalRow[]; stateRows?: Array<{ state: string; amount: number; grants: number; counterparts: number }>; coverage: Coverage; disclosures: Disclosure[] }
  | { kind: 'geographic'; state: string; funder?: OrgRef[]; totals: Totals; coverage: Coverage; disclosures: Disclosure[] }
  | { kind: 'cause'; cause: CauseMatch; funder?: OrgRef[]; totals: Totals; edges: EdgeRow[]; coverage: Coverage; disclosures: Disclosure[] };

export type GrantOutcome = { ok: true; result: GrantResult } | { ok: false; failure: GrantFailure };

export interface TraverseContext {
  store: GrantStore; iris: GrantIris; registry?: IdentityRegistry; signal?: AbortSignal;
  /** Send a reverse answer's reads beside its name resolution (default true; false for comparisons). */
  readAhead?: boolean;
}

const statusOf = (iri: string): PaymentStatus => (iri === G.Paid ? 'paid' : 'approved_future');
const ref = (h: OrgHit): OrgRef => ({ iri: h.iri, name: h.names[0] ?? h.iri, ein: h.ein, state: h.state });
const namedRef = (x: Row): OrgRef => ({ iri: x.f!.value, name: x.name?.value ?? x.f!.value, ein: x.ein?.value ?? null, state: x.state?.value ?? null });
const zero = (): Totals => ({ paid: { amount: 0, grants: 0 }, approvedFuture: { amount: 0, grants: 0 } });
const slot = (t: Totals, s: PaymentStatus): Total => (s === 'paid' ? t.paid : t.approvedFuture);

export async function readCoverage(ctx: TraverseContext): Promise<Coverage> {
  return (await readCoverageAndLayout(ctx)).coverage;
}

/** The coverage, and the layout the graph is marked with (null: none, an earlier build's). */
async function readCoverageAndLayout(ctx: TraverseContext): Promise<{ coverage: Coverage; layout: number | null }> {
  const rows = await ctx.store.select(Q.coverageSummary(ctx.iris), ctx.signal);
  const layout = rows[0]?.layout ? num(rows[0].layout) : null;
  return { coverage: await coverageOf(ctx, rows), layout };
}

async function coverageOf(ctx: TraverseContext, rows: Row[]): Promise<Coverage> {
  const flag = (v: RowTerm | undefined) => v?.value === 'true' || v?.value === '1';
  const first = rows[0];
  const unfinished = rows.map((r) => r.unfinished?.value).filter((v): v is string => !!v).sort()[0] ?? null;
  const flags = { complete: flag(first?.complete), synthetic: flag(first?.synthetic), release: first?.release?.value ?? null, unfinishedIngest: unfinished };
  if (first?.filings) {
    return { ...flags, filings: num(first.filings), funders: num(first.funders), documentCount: num(first.docs), taxYears: [...new Set(rows.filter((r) => r.year).map((r) => num(r.year)))].sort() };
  }
  // a graph ingested before the coverage rollup existed: count its filings here
  const scan = await ctx.store.select(Q.coverageScan(ctx.iris), ctx.signal);
  return {
    ...flags,
    funders: new Set(scan.map((r) => r.funder!.value)).size,
    filings: new Set(scan.map((r) => r.filing!.value)).size,
    taxYears: [...new Set(scan.map((r) => num(r.year)))].sort(),
    documentCount: new Set(scan.map((r) => r.doc!.value)).size,
  };
}

function coverageDisclosures(c: Coverage): Disclosure[] {
  return [
    ...(c.complete ? [] : [{ code: 'partial_coverage', funders: c.funders, filings: c.filings, taxYears: c.taxYears } as const]),
    ...(c.synthetic ? [{ code: 'synthetic_graph' } as const] : []),
  ];
}

function matchDisclosures(r: Extract<OrgResolution, { status: 'found' }>): Disclosure[] {
  const named = r.orgs.filter((o) => o.method === 'name_exact' && r.method === 'ein').length;
  return [
    { code: 'match_method', role: r.role, asked: r.asked, method: r.method, orgs: r.orgs.length - named, ...(r.einSource && r.method === 'ein' ? { einSource: r.einSource } : {}) },
    ...(named > 0 ? [{ code: 'name_keyed_added', asked: r.asked, orgs: named } as const] : []),
  ];
}

function approvedDisclosure(t: Totals): Disclosure[] {
  return t.approvedFuture.grants > 0 ? [{ code: 'approved_not_paid', amount: t.approvedFuture.amount, grants: t.approvedFuture.grants }] : [];
}

async function orgRefs(ctx: TraverseContext, iris: readonly string[]): Promise<Map<string, OrgRef>> {
  const hits = await orgDetailsOf(ctx.store, ctx.iris, [...new Set(iris)], 'name_exact');
  return new Map(hits.map((h) => [h.iri, ref(h)]));
}

type Found = Extract<OrgResolution, { status: 'found' }>;

type Lookups = Map<string, Promise<OrgResolution>>;

/** The names a question resolves, each with its role. */
function namesOf(q: GrantQuestion): Array<[string, Role]> {
  switch (q.direction) {
    case 'forward': case 'top_recipients_of': return [[q.funder, 'funder']];
    case 'reverse': return [[q.recipient, 'recipient']];
    case 'pair': return [[q.funder, 'funder'], [q.recipient, 'recipient']];
    case 'intersection': return [[q.funders[0], 'funder'], [q.funders[1], 'funder']];
    case 'geographic': case 'cause': return q.funder ? [[q.funder, 'funder']] : [];
    case 'ranking': return [];
  }
}

/**
 * Starts every name resolution of the question at once: they do not depend on the coverage or on
 * each other, and on a remote store each is a round trip. A resolution nobody awaits (the graph
 * turned out empty) must not surface as an unhandled rejection.
 */
function startLookups(ctx: TraverseContext, q: GrantQuestion): Lookups {
  const out: Lookups = new Map();
  for (const [name, role] of namesOf(q)) {
    const key = `${role}|${name}`;
    if (out.has(key)) continue;
    const p = resolveOrg(ctx.store, ctx.iris, name, role, ctx.registry, ctx.signal);
    p.catch(() => {});
    out.set(key, p);
  }
  return out;
}

async function find(ctx: TraverseContext, name: string, role: Role, coverage: Coverage, lookups?: Lookups): Promise<Found | GrantFailure> {
  const r = await (lookups?.get(`${role}|${name}`) ?? resolveOrg(ctx.store, ctx.iris, name, role, ctx.registry, ctx.signal));
  if (r.status === 'found') return r;
  if (r.status === 'ambiguous') return { code: 'ambiguous_org', role, asked: r.asked, candidates: r.candidates.map(ref) };
  return { code: 'not_in_graph', role, asked: r.asked, coverage };
}

const failed = (x: Found | GrantFailure): x is GrantFailure => 'code' in x;

async function edgeRows(ctx: TraverseContext, rows: Awaited<ReturnType<GrantStore['select']>>): Promise<EdgeRow[]> {
  const orgs = await orgRefs(ctx, rows.flatMap((r) => [r.f!.value, r.r!.value]));
  return rows.map((r) => ({
    edge: r.e!.value, funder: orgs.get(r.f!.value)!, recipient: orgs.get(r.r!.value)!, amount: num(r.amount),
    cash: r.cash ? num(r.cash) : null, nonCash: r.noncash ? num(r.noncash) : null, status: statusOf(r.status!.value), taxYear: num(r.year),
    purpose: r.purpose?.value ?? null, filing: r.filing!.value, record: r.record!.value,
  })).sort((a, b) => b.amount - a.amount || a.recipient.name.localeCompare(b.recipient.name) || a.edge.localeCompare(b.edge));
}

function totalsOf(edges: readonly EdgeRow[]): Totals {
  const t = zero();
  for (const e of edges) { const s = slot(t, e.status); s.amount += e.amount; s.grants++; }
  return t;
}

type Reads = Map<string, Row[]>;

/**
 * A reverse answer's reads: the recipients' rollup totals (and funder counts), and the largest
 * funders of both payment statuses with their names, in one read (`reverseFundersBoth`; a status
 * that read cut short is read again on its own: `fundersOf`). Independent, so sent at once (on a
 * remote store each is a round trip), and not as one UNION: an engine runs a UNION's branches one
 * after another (Virtuoso: a folded query cost the sum of its parts). Over `nodes`, or over the
 * recipients of one name key (what the exact-name resolution step selects).
 */
async function reverseReads(ctx: TraverseContext, over: { nodes: readonly string[] } | { key: string }, limit?: number): Promise<Reads> {
  const parts: Array<[string, string]> = [
    ['totals', 'nodes' in over ? Q.recipientTotals(ctx.iris, over.nodes) : Q.recipientTotalsOf(ctx.iris, over.key)],
    ['funders', Q.withFunderNames(ctx.iris, Q.reverseFundersBoth(ctx.iris, over, limit))],
  ];
  return new Map(await Promise.all(parts.map(async ([p, text]) => [p, await ctx.store.select(text, ctx.signal)] as const)));
}

/**
 * The funders of each payment status from the read of both (`reverseFundersBoth`), as many as the
 * cut needs: `limit` + 1 rows of a status, or every row of it when that read held every pair (it
 * returned fewer rows than it asked for). A status the other's rows crowded out is read on its own
 * (`limit` + 1 rows, ordered by total alone, as `cutAt` expects). `complete` says whether the rows
 * of both statuses are every funder the recipients have.
 */
async function fundersOf(ctx: TraverseContext, rows: readonly Row[], limit: number | undefined, nodes: readonly string[]): Promise<{ paid: Row[]; future: Row[]; complete: boolean }> {
  const complete = !limit || rows.length < Q.bothStatusRows(limit);
  const of = async (status: string): Promise<Row[]> => {
    const mine = rows.filter((x) => x.status!.value === status);
    if (complete || mine.length > limit!) return mine;
    return ctx.store.select(Q.withFunderNames(ctx.iris, Q.reverseFunders(ctx.iris, nodes, { status, top: limit! })), ctx.signal);
  };
  const [paid, future] = await Promise.all([of(G.Paid), of(G.ApprovedForFuturePayment)]);
  return { paid, future, complete };
}

/**
 * The largest `limit` funders of one status from `limit` + 1 rows ordered by total alone: ordered by
 * total, then funder IRI (the order every store agrees on). When the row past the cut ties the last
 * row kept, the funders of exactly that total are read (one more query, only then) and the lowest
 * IRIs among them fill the cut, so the rows shown never depend on an engine's order among equals.
 */
async function cutAt(ctx: TraverseContext, rows: Row[], limit: number | undefined, nodes: readonly string[], status: string): Promise<Row[]> {
  const order = (a: Row, b: Row) => num(b.total) - num(a.total) || (a.f!.value < b.f!.value ? -1 : a.f!.value > b.f!.value ? 1 : 0);
  const sorted = [...rows].sort(order);
  if (!limit || sorted.length <= limit) return sorted;
  const edge = num(sorted[limit - 1]!.total);
  if (num(sorted[limit]!.total) !== edge) return sorted.slice(0, limit);
  const above = sorted.filter((x) => num(x.total) > edge);
  const tied = (await ctx.store.select(Q.withFunderNames(ctx.iris, Q.reverseFunders(ctx.iris, nodes, { status, total: edge })), ctx.signal))
    .filter((x) => num(x.total) === edge).sort(order);
  return [...above, ...tied].slice(0, limit);
}

/** Reads sent before the resolution ended, and whether they read exactly what it selected. */
interface ReadAhead { reads: Promise<Reads>; fits(r: Found): Promise<boolean> }

/**
 * A reverse question without a tax year: its rollup reads go out with the name resolution, over
 * what the name alone selects (an EIN in the question: that node; otherwise the exact name key),
 * so the common answer takes one round trip instead of two. They are kept only when the
 * resolution ended on exactly that selection (for a name: the exact-name step, and the recipients
 * the reads name are the ones it found); otherwise they are dropped and the reads are sent again.
 */
function readAhead(ctx: TraverseContext, q: GrantQuestion): ReadAhead | undefined {
  if (ctx.readAhead === false || q.direction !== 'reverse' || q.taxYear !== undefined) return undefined;
  const sel = nameSelection(ctx.iris, q.recipient, 'recipient');
  const node = sel.einNode;
  const reads = reverseReads(ctx, node ? { nodes: [node] } : { key: sel.key }, q.limit);
  reads.catch(() => {});
  const fits = async (r: Found): Promise<boolean> => {
    if (node) return r.orgs.length === 1 && r.orgs[0]!.iri === node;
    if (r.method !== 'name_exact') return false;
    const got = await reads.catch(() => undefined);
    const named = new Set((got?.get('totals') ?? []).map((x) => x.r!.value));
    return got !== undefined && named.size === r.orgs.length && r.orgs.every((o) => named.has(o.iri));
  };
  return { reads, fits };
}

export async function traverse(ctx: TraverseContext, q: GrantQuestion): Promise<GrantOutcome> {
  const out = await traverseGraph(ctx, q);
  const since = out.ok ? out.result.coverage.unfinishedIngest : null;
  if (out.ok && since) out.result.disclosures.push({ code: 'ingest_unfinished', since });
  return out;
}

async function traverseGraph(ctx: TraverseContext, q: GrantQuestion): Promise<GrantOutcome> {
  const lookups = startLookups(ctx, q);
  const ahead = readAhead(ctx, q);
  const { coverage, layout } = await readCoverageAndLayout(ctx);
  if (coverage.filings === 0) return { ok: false, failure: { code: 'empty_graph' } };
  // an earlier build's graph is not read as this layout (its edges have no grant lists): say so, and what upgrades it
  if (layout !== GRANT_LAYOUT) return { ok: false, failure: { code: 'layout_outdated', found: layout, expected: GRANT_LAYOUT } };
  const fail = (failure: GrantFailure): GrantOutcome => ({ ok: false, failure });
  switch (q.direction) {
    case 'forward': {
      const f = await find(ctx, q.funder, 'funder', coverage, lookups);
      if (failed(f)) return fail(f);
      const fi = f.orgs.map((o) => o.iri);
      const edges = await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, fi, q.taxYear), ctx.signal));
      let totals: Totals;
      // the rollups, unless an unfinished ingest may have left them behind the edges listed here
      if (q.taxYear === undefined && !coverage.unfinishedIngest) {
        totals = zero();
        for (const r of await ctx.store.select(Q.funderTotals(ctx.iris, fi), ctx.signal)) {
          const s = slot(totals, statusOf(r.status!.value));
          s.amount += num(r.total); s.grants += num(r.n); s.counterparts = (s.counterparts ?? 0) + num(r.k);
        }
      } else totals = totalsOf(edges);
      if (edges.length === 0) return fail({ code: 'no_grants', what: `grants made by ${q.funder}${q.taxYear ? ` in tax year ${q.taxYear}` : ''}`, coverage });
      return { ok: true, result: { kind: 'forward', funder: f.orgs.map(ref), totals, edges, coverage, disclosures: [...matchDisclosures(f), ...approvedDisclosure(totals), ...(q.taxYear ? [{ code: 'tax_year_filter', taxYear: q.taxYear } as const] : []), ...(coverage.synthetic ? [{ code: 'synthetic_graph' } as const] : [])], ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    case 'reverse': {
      const r = await find(ctx, q.recipient, 'recipient', coverage, lookups);
      if (failed(r)) return fail(r);
      const ri = r.orgs.map((o) => o.iri);
      const totals = zero();
      const shown_: Disclosure[] = [];
      let rows: TotalRow[];
      if (q.taxYear === undefined) {
        // the reads sent ahead beside the resolution, when it selected what they read; else sent now
        let got = ahead && await ahead.fits(r) ? await ahead.reads : undefined;
        got ??= await reverseReads(ctx, { nodes: ri }, q.limit);
        const part = (p: string) => got.get(p) ?? [];
        const totalRows = part('totals');
        const funders = await fundersOf(ctx, part('funders'), q.limit, ri);
        // distinct funders of several nodes of one organization (a funder reaching two is counted
        // once): the rows of each status when the read held every pair, else counted from the edges
        const countRows = ri.length > 1 && !funders.complete ? ctx.store.select(Q.reverseFunderCount(ctx.iris, ri), ctx.signal) : undefined;
        countRows?.catch(() => {});
        const [paidRows, futureRows] = await Promise.all([
          cutAt(ctx, funders.paid, q.limit, ri, G.Paid), cutAt(ctx, funders.future, q.limit, ri, G.ApprovedForFuturePayment),
        ]);
        const counted = { paid: 0, approved_future: 0 };
        for (const t of totalRows) {
          const st = statusOf(t.status!.value);
          const s = slot(totals, st); s.amount += num(t.total); s.grants += num(t.n); counted[st] += num(t.k);
        }
        // one node: its rollup counts its funders
        if (ri.length > 1) {
          if (countRows) {
            counted.paid = 0; counted.approved_future = 0;
            for (const c of await countRows) counted[statusOf(c.status!.value)] = num(c.k);
          } else {
            counted.paid = funders.paid.length; counted.approved_future = funders.future.length;
          }
        }
        totals.paid.counterparts = counted.paid;
        totals.approvedFuture.counterparts = counted.approved_future;
        // each funder's name came with its row (withFunderNames): no second round trip
        rows = [...paidRows, ...futureRows].map((x) => ({ org: namedRef(x), status: statusOf(x.status!.value), amount: num(x.total), grants: num(x.n) }));
        for (const [status, total] of [['paid', counted.paid], ['approved_future', counted.approved_future]] as const) {
          const shown = rows.filter((x) => x.status === status).length;
          if (shown < total) shown_.push({ code: 'largest_shown', role: 'funder', status, shown, total });
        }
      } else {
        // a tax year is not a rollup key: read the edges of the recipient for that year
        const edges = (await edgeRowsToRecipient(ctx, ri)).filter((e) => e.taxYear === q.taxYear);
        const by = new Map<string, TotalRow>();
        for (const e of edges) {
          const s = slot(totals, e.status); s.amount += e.amount; s.grants++;
          const k = `${e.funder.iri}|${e.status}`;
          const v = by.get(k) ?? { org: e.funder, status: e.status, amount: 0, grants: 0 };
          v.amount += e.amount; v.grants++; by.set(k, v);
        }
        rows = [...by.values()];
        totals.paid.counterparts = new Set(rows.filter((x) => x.status === 'paid').map((x) => x.org.iri)).size;
        totals.approvedFuture.counterparts = new Set(rows.filter((x) => x.status === 'approved_future').map((x) => x.org.iri)).size;
        if (q.limit) {
          for (const status of ['paid', 'approved_future'] as const) {
            const all = rows.filter((x) => x.status === status);
            if (all.length > q.limit) shown_.push({ code: 'largest_shown', role: 'funder', status, shown: q.limit, total: all.length });
          }
        }
      }
      rows.sort((a, b) => Number(a.status !== 'paid') - Number(b.status !== 'paid') || b.amount - a.amount || a.org.name.localeCompare(b.org.name));
      if (q.limit && q.taxYear !== undefined) rows = [...rows.filter((x) => x.status === 'paid').slice(0, q.limit), ...rows.filter((x) => x.status !== 'paid').slice(0, q.limit)];
      if (rows.length === 0) return fail({ code: 'no_grants', what: `grants to ${q.recipient}`, coverage });
      return { ok: true, result: { kind: 'reverse', recipient: r.orgs.map(ref), totals, funders: rows, coverage, disclosures: [...matchDisclosures(r), ...coverageDisclosures(coverage), ...approvedDisclosure(totals), ...shown_, { code: 'recipients_keyed' }, ...(q.taxYear ? [{ code: 'tax_year_filter', taxYear: q.taxYear } as const] : [])], ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    case 'pair': {
      const f = await find(ctx, q.funder, 'funder', coverage, lookups);
      if (failed(f)) return fail(f);
      const r = await find(ctx, q.recipient, 'recipient', coverage, lookups);
      if (failed(r)) return fail(r);
      // the funder's edges to the recipient's nodes, summed here: a pair total is the sum of its grants
      const edges = await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, f.orgs.map((o) => o.iri), q.taxYear, r.orgs.map((o) => o.iri)), ctx.signal));
      const what = `grants from ${q.funder} to ${q.recipient}${q.taxYear ? ` in tax year ${q.taxYear}` : ''}`;
      if (edges.length === 0) return fail({ code: 'no_grants', what, coverage });
      const totals = totalsOf(edges);
      return { ok: true, result: { kind: 'pair', funder: f.orgs.map(ref), recipient: r.orgs.map(ref), totals, edges, coverage, disclosures: [...matchDisclosures(f), ...matchDisclosures(r), ...approvedDisclosure(totals), { code: 'recipients_keyed' }, ...(q.taxYear ? [{ code: 'tax_year_filter', taxYear: q.taxYear } as const] : []), ...(coverage.synthetic ? [{ code: 'synthetic_graph' } as const] : [])], ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    case 'intersection': {
      const a = await find(ctx, q.funders[0], 'funder', coverage, lookups);
      if (failed(a)) return fail(a);
      const b = await find(ctx, q.funders[1], 'funder', coverage, lookups);
      if (failed(b)) return fail(b);
      const ai = a.orgs.map((o) => o.iri);
      const bi = b.orgs.map((o) => o.iri);
      const common = (await ctx.store.select(Q.intersection(ctx.iris, ai, bi), ctx.signal)).map((r) => r.r!.value);
      const amounts = new Map<string, [Totals, Totals]>(common.map((r) => [r, [zero(), zero()]]));
      if (common.length > 0) {
        for (const p of await ctx.store.select(Q.pairTotals(ctx.iris, [...ai, ...bi], common), ctx.signal)) {
          const pair = amounts.get(p.r!.value)!;
          const side = ai.includes(p.f!.value) ? 0 : 1;
          const s = slot(pair[side], statusOf(p.status!.value)); s.amount += num(p.total); s.grants += num(p.n);
        }
      }
      const orgs = await orgRefs(ctx, common);
      const recipients = common.map((r) => ({ recipient: orgs.get(r)!, amounts: amounts.get(r)! }))
        .sort((x, y) => (y.amounts[0].paid.amount + y.amounts[1].paid.amount) - (x.amounts[0].paid.amount + x.amounts[1].paid.amount) || x.recipient.name.localeCompare(y.recipient.name));
      return { ok: true, result: { kind: 'intersection', funders: [a.orgs.map(ref), b.orgs.map(ref)], recipients, coverage, disclosures: [...matchDisclosures(a), ...matchDisclosures(b), { code: 'recipients_keyed' }, ...(coverage.synthetic ? [{ code: 'synthetic_graph' } as const] : [])] } };
    }
    case 'top_recipients_of': {
      const f = await find(ctx, q.funder, 'funder', coverage, lookups);
      if (failed(f)) return fail(f);
      const raw = await ctx.store.select(Q.topRecipientsOf(ctx.iris, f.orgs.map((o) => o.iri), G.Paid, q.limit), ctx.signal);
      const orgs = await orgRefs(ctx, raw.map((r) => r.r!.value));
      const rows = raw.map((r) => ({ org: orgs.get(r.r!.value)!, status: 'paid' as const, amount: num(r.total), grants: num(r.n) }));
      const totals = zero();
      for (const r of await ctx.store.select(Q.funderTotals(ctx.iris, f.orgs.map((o) => o.iri)), ctx.signal)) {
        const s = slot(totals, statusOf(r.status!.value)); s.amount += num(r.total); s.grants += num(r.n); s.counterparts = (s.counterparts ?? 0) + num(r.k);
      }
      return { ok: true, result: { kind: 'ranking', subject: 'recipient_of', of: f.orgs.map(ref), rows, coverage, disclosures: [...matchDisclosures(f), ...approvedDisclosure(totals), { code: 'rows_shown', shown: rows.length, total: totals.paid.counterparts ?? rows.length }, { code: 'recipients_keyed' }] } };
    }
    case 'ranking': {
      const raw = await ctx.store.select(Q.ranking(ctx.iris, q.subject, G.Paid, q.limit, q.order ?? 'desc'), ctx.signal);
      if (q.subject === 'state') {
        return { ok: true, result: { kind: 'ranking', subject: 'state', rows: [], stateRows: raw.map((r) => ({ state: r.o!.value, amount: num(r.total), grants: num(r.n), counterparts: num(r.k) })), coverage, disclosures: [...coverageDisclosures(coverage), { code: 'state_as_filed' }] } };
      }
      const orgs = await orgRefs(ctx, raw.map((r) => r.o!.value));
      const rows = raw.map((r) => ({ org: orgs.get(r.o!.value)!, status: 'paid' as const, amount: num(r.total), grants: num(r.n), counterparts: num(r.k) }));
      return { ok: true, result: { kind: 'ranking', subject: q.subject, rows, coverage, disclosures: [...coverageDisclosures(coverage), ...(q.subject === 'recipient' ? [{ code: 'recipients_keyed' } as const] : [])] } };
    }
    case 'geographic': {
      const state = q.state.toUpperCase();
      const totals = zero();
      let funder: Found | undefined;
      if (q.funder) {
        const f = await find(ctx, q.funder, 'funder', coverage, lookups);
        if (failed(f)) return fail(f);
        funder = f;
      }
      for (const r of await ctx.store.select(Q.stateTotals(ctx.iris, [state], funder?.orgs.map((o) => o.iri)), ctx.signal)) {
        const s = slot(totals, statusOf(r.status!.value)); s.amount += num(r.total); s.grants += num(r.n); s.counterparts = (s.counterparts ?? 0) + num(r.k);
      }
      return { ok: true, result: { kind: 'geographic', state, ...(funder ? { funder: funder.orgs.map(ref) } : {}), totals, coverage, disclosures: [...(funder ? matchDisclosures(funder) : coverageDisclosures(coverage)), ...approvedDisclosure(totals), { code: 'state_as_filed' }] } };
    }
    case 'cause': {
      const cause = causeMatch(q.cause);
      if (!cause) return fail({ code: 'unknown_cause', cause: q.cause });
      let funder: Found | undefined;
      if (q.funder) {
        const f = await find(ctx, q.funder, 'funder', coverage, lookups);
        if (failed(f)) return fail(f);
        funder = f;
      }
      const raw = await ctx.store.select(Q.causeEdges(ctx.iris, cause.groups.map((g) => g.letter), cause.pattern, funder?.orgs.map((o) => o.iri)), ctx.signal);
      const ntee = new Map(raw.map((r) => [r.e!.value, r.ntee ? 'ntee' as const : 'purpose' as const]));
      const edges = (await edgeRows(ctx, raw)).map((e) => ({ ...e, causeBy: ntee.get(e.edge)! }));
      const totals = totalsOf(edges);
      return { ok: true, result: { kind: 'cause', cause, ...(funder ? { funder: funder.orgs.map(ref) } : {}), totals, edges, coverage, disclosures: [
        ...(funder ? matchDisclosures(funder) : coverageDisclosures(coverage)),
        { code: 'cause_method', cause: q.cause, groups: cause.groups.map((g) => `${g.letter} ${g.label}`), byNtee: edges.filter((e) => e.causeBy === 'ntee').length, byPurpose: edges.filter((e) => e.causeBy === 'purpose').length, words: cause.words },
        ...approvedDisclosure(totals),
      ] } };
    }
  }
}

async function edgeRowsToRecipient(ctx: TraverseContext, recipients: readonly string[]): Promise<EdgeRow[]> {
  // funders of the recipient first (from its edges), then their edges to it: never a scan of the whole graph
  const funders = [...new Set((await ctx.store.select(Q.reverseFunders(ctx.iris, recipients), ctx.signal)).map((r) => r.f!.value))];
  if (funders.length === 0) return [];
  const rows = await ctx.store.select(Q.forwardEdges(ctx.iris, funders, undefined, recipients), ctx.signal);
  return edgeRows(ctx, rows.filter((r) => recipients.includes(r.r!.value)));
}
