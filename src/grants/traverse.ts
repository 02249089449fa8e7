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
import { filesToIngestAgain } from './layout.ts';
import * as Q from './queries.ts';
import { nameSelection, orgDetailsOf, resolveOrg, type MatchMethod, type OrgHit, type OrgResolution, type Role } from './resolve.ts';
import { num, type GrantStore, type Row, type RowTerm } from './store.ts';
import type { PaymentStatus } from './types.ts';
import { G, GRANT_LAYOUT, type GrantIris } from './vocab.ts';

export type GrantQuestion =
  | { direction: 'forward'; funder: string; taxYear?: number; limit?: number }
  | { direction: 'reverse'; recipient: string; taxYear?: number; limit?: number; threshold?: Threshold }
  /** What one funder gave one recipient: the funder's edges to that recipient. */
  | { direction: 'pair'; funder: string; recipient: string; taxYear?: number }
  | { direction: 'intersection'; funders: [string, string] }
  | { direction: 'top_recipients_of'; funder: string; limit: number; by?: RankBy; taxYear?: number; threshold?: Threshold }
  | { direction: 'ranking'; subject: Q.RankSubject; limit: number; order?: 'desc' | 'asc'; by?: RankBy }
  | { direction: 'geographic'; state: string; funder?: string; taxYear?: number; threshold?: Threshold }
  | { direction: 'cause'; cause: string; funder?: string; taxYear?: number }
  /** The largest single grants paid: of one funder, to one recipient, or graph-wide (neither named). */
  | { direction: 'largest_grants'; funder?: string; recipient?: string; limit: number; taxYear?: number; order?: 'desc' | 'asc' }
  /** The totals an average grant is derived from: one funder's, one recipient's, or the graph's (neither named). */
  | { direction: 'average'; funder?: string; recipient?: string; taxYear?: number }
  /** Two funders' totals side by side: each one's grants to one recipient, or each one's grants in all. */
  | { direction: 'two_funders'; funders: [string, string]; recipient?: string; taxYear?: number; combine: 'sum' | 'difference' }
  /** The funders two recipients share (the mirror of the intersection). */
  | { direction: 'common_funders'; recipients: [string, string] }
  /** One funder's grants ranked by recipient state. */
  | { direction: 'states_of'; funder: string; limit: number; taxYear?: number; by?: RankBy }
  /** Funders ranked by what they gave to recipients in one state. */
  | { direction: 'funders_in_state'; state: string; limit: number; by?: RankBy; threshold?: Threshold }
  /** One recipient's funders ranked by the number of grants each made it (beside the reverse traversal, which ranks by amount). */
  | { direction: 'funders_by_count'; recipient: string; limit: number };

/** An amount the rows of a reading are kept by: each funder's (or recipient's) paid total against it. */
export interface Threshold { op: '>' | '>=' | '<' | '<='; value: number }

export const passes = (t: Threshold, amount: number): boolean => (t.op === '>' ? amount > t.value : t.op === '>=' ? amount >= t.value : t.op === '<' ? amount < t.value : amount <= t.value);

/** What a ranking orders by: the amount paid, or the number of grants. */
export type RankBy = 'amount' | 'count';

export interface Totals { paid: Total; approvedFuture: Total }
export interface Total { amount: number; grants: number; counterparts?: number }

export interface OrgRef { iri: string; name: string; ein: string | null; state: string | null; /** A unit of the organization asked for (units.ts), counted with it. */ unit?: true }

export interface EdgeRow {
  edge: string; funder: OrgRef; recipient: OrgRef; amount: number; cash: number | null; nonCash: number | null;
  /** The recipient's state as filed for this grant (layout 3's grants:recipientAddress); null where the reading or the filing has none. */
  state: string | null;
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
  | { code: 'tax_year_filter'; taxYear: number }
  /** Several organizations matched a name; the answer is for `chosen`, the one with the largest paid total in that role. */
  | { code: 'ambiguous_chosen'; role: Role; asked: string; chosen: string; others: string[] }
  /** Only grants paid are ranked; grants approved for future payment are not single payments made. */
  | { code: 'paid_only'; approvedGrants: number }
  /** A ranking by the number of grants, not by amount. */
  | { code: 'ranked_by_count' }
  /** An average grant: derived by Assay from the paid total and the number of paid grants, not stated in any filing. */
  | { code: 'average_derived' }
  /** A sum or difference of two funders' totals: derived by Assay from the two totals shown. */
  | { code: 'combined_derived'; combine: 'sum' | 'difference' }
  /** Recipients listed whose filed name is a placeholder ("SEE ATTACHED SCHEDULE"): no organization named, perhaps several grants. */
  | { code: 'unnamed_recipient'; names: string[] }
  /** Paid grants whose recipient was filed with no state: in no state's row. */
  | { code: 'no_state_filed'; grants: number }
  /**
   * Recipients filed as units of the organization asked for ("University of Chicago - Urban Labs",
   * no EIN of their own; units.ts) are counted with it; `parentHeld` false: only its units received grants.
   */
  | { code: 'units_included'; asked: string; parentHeld: boolean; units: Array<{ name: string; state: string | null }> }
  /** Only the funders (or recipients) whose paid total passes the threshold are listed: `kept` of `of`. */
  | { code: 'threshold_filter'; role: Role; op: Threshold['op']; value: number; kept: number; of: number; /** Whose grants the totals are: to the recipient asked, from the funder asked, or to one state's organizations. */ over: 'recipient' | 'funder' | 'state' }
  /** Recipients filed under a placeholder ("SEE ATTACHED SCHEDULE"; unnamed.ts) left out of a ranking of recipients or of single grants: their paid grant lines. */
  | { code: 'unnamed_left_out'; ranking: 'recipients' | 'grants'; names: string[]; grants: number; amount: number }
  /** Units of that name filed in another state than the organization's: left out (another organization may be meant). */
  | { code: 'units_other_state'; asked: string; states: string[]; units: Array<{ name: string; state: string | null }> };

export type GrantFailure =
  | { code: 'empty_graph' }
  /**
   * The graph holds filings written in another layout than this build reads (layout.ts). An earlier
   * layout is upgraded by ingesting its files again (`files`: the first few, of `total`, as recorded).
   */
  | { code: 'layout_outdated'; found: number | null; expected: number; files?: string[]; total?: number; /** The upgrade needs no file (3 → 4: from the names the graph holds). */ storeOnly?: boolean }
  | { code: 'not_in_graph'; role: Role; asked: string; coverage: Coverage }
  | { code: 'ambiguous_org'; role: Role; asked: string; candidates: OrgRef[]; method?: MatchMethod }
  | { code: 'unknown_cause'; cause: string }
  /** Every paid grant of the funder is filed to a placeholder ("SEE ATTACHED SCHEDULE"): no recipient or single grant to rank. */
  | { code: 'only_unnamed'; funder: string; names: string[]; amount: number; grants: number }
  | { code: 'no_grants'; what: string; coverage: Coverage; /** How the recipient was matched, where a pair found none: a name match misses records filed under other names. */ recipientMatch?: MatchMethod };

export type GrantResult =
  | { kind: 'forward'; funder: OrgRef[]; totals: Totals; edges: EdgeRow[]; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'reverse'; recipient: OrgRef[]; totals: Totals; funders: TotalRow[]; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'pair'; funder: OrgRef[]; recipient: OrgRef[]; totals: Totals; edges: EdgeRow[]; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'intersection'; funders: [OrgRef[], OrgRef[]]; recipients: Array<{ recipient: OrgRef; amounts: [Totals, Totals] }>; coverage: Coverage; disclosures: Disclosure[] }
  | { kind: 'ranking'; subject: Q.RankSubject | 'recipient_of'; of?: OrgRef[]; rows: TotalRow[]; stateRows?: Array<{ state: string; amount: number; grants: number; counterparts: number }>; coverage: Coverage; disclosures: Disclosure[]; by?: RankBy; state?: string; taxYear?: number; to?: OrgRef[]; order?: 'asc' | 'desc' }
  /** `recipients`: one funder's recipients in the state, largest first (the first GEO_ROWS). */
  | { kind: 'geographic'; state: string; funder?: OrgRef[]; recipients?: TotalRow[]; totals: Totals; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'cause'; cause: CauseMatch; funder?: OrgRef[]; totals: Totals; edges: EdgeRow[]; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  /** Largest single paid grants; `totals` are the scope's own (a funder's, a recipient's, the graph's). */
  | { kind: 'largest'; scope: Scope; of?: OrgRef[]; to?: OrgRef[]; edges: EdgeRow[]; totals: Totals; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number; order?: 'asc' }
  /** The totals an average grant is derived from (the average itself is computed where the answer is built, and graded derived). */
  | { kind: 'average'; scope: Scope; of?: OrgRef[]; to?: OrgRef[]; totals: Totals; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'two_funders'; combine: 'sum' | 'difference'; recipient?: OrgRef[]; sides: [{ funder: OrgRef[]; totals: Totals }, { funder: OrgRef[]; totals: Totals }]; coverage: Coverage; disclosures: Disclosure[]; taxYear?: number }
  | { kind: 'common_funders'; recipients: [OrgRef[], OrgRef[]]; funders: Array<{ funder: OrgRef; amounts: [Totals, Totals] }>; coverage: Coverage; disclosures: Disclosure[] };

/** Whose grants a reading covers: one funder's, one recipient's, or every grant the graph holds. */
export type Scope = 'funder' | 'recipient' | 'pair' | 'graph';

export type GrantOutcome = { ok: true; result: GrantResult } | { ok: false; failure: GrantFailure };

export interface TraverseContext {
  store: GrantStore; iris: GrantIris; registry?: IdentityRegistry; signal?: AbortSignal;
  /** Send a reverse answer's reads beside its name resolution (default true; false for comparisons). */
  readAhead?: boolean;
}

const statusOf = (iri: string): PaymentStatus => (iri === G.Paid ? 'paid' : 'approved_future');
const ref = (h: OrgHit): OrgRef => ({ iri: h.iri, name: h.names[0] ?? h.iri, ein: h.ein, state: h.state, ...(h.unit ? { unit: true as const } : {}) });
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
  const named = r.orgs.filter((o) => !o.unit && o.method === 'name_exact' && r.method === 'ein').length;
  const units = r.units;
  const label = (u: OrgHit) => ({ name: u.names[0] ?? u.iri, state: u.state });
  return [
    ...(units && !units.parentHeld ? [] : [{ code: 'match_method', role: r.role, asked: r.asked, method: r.method, orgs: r.orgs.filter((o) => !o.unit).length - named, ...(r.einSource && r.method === 'ein' ? { einSource: r.einSource } : {}) } as const]),
    ...(named > 0 ? [{ code: 'name_keyed_added', asked: r.asked, orgs: named } as const] : []),
    ...(units && units.included.length > 0 ? [{ code: 'units_included', asked: r.asked, parentHeld: units.parentHeld, units: units.included.map(label) } as const] : []),
    ...(units && units.otherState.length > 0 ? [{ code: 'units_other_state', asked: r.asked, states: [...new Set(r.orgs.filter((o) => !o.unit).map((o) => o.state).filter((x): x is string => !!x))].sort(), units: units.otherState.map(label) } as const] : []),
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
    case 'ranking': case 'funders_in_state': return [];
    case 'largest_grants': case 'average': return [...(q.funder ? [[q.funder, 'funder'] as [string, Role]] : []), ...(q.recipient ? [[q.recipient, 'recipient'] as [string, Role]] : [])];
    case 'two_funders': return [[q.funders[0], 'funder'], [q.funders[1], 'funder'], ...(q.recipient ? [[q.recipient, 'recipient'] as [string, Role]] : [])];
    case 'common_funders': return [[q.recipients[0], 'recipient'], [q.recipients[1], 'recipient']];
    case 'states_of': return [[q.funder, 'funder']];
    case 'funders_by_count': return [[q.recipient, 'recipient']];
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
  // an organization chosen among a name's candidates (a clarification's option, or the leading reading) is named by its IRI
  const chosen = chosenOrg(ctx.iris, name);
  if (chosen) {
    const hits = (await orgDetailsOf(ctx.store, ctx.iris, [chosen.iri], chosen.method)).filter((h) => h.names.length > 0);
    if (hits.length === 0) return { code: 'not_in_graph', role, asked: chosen.asked, coverage };
    return { status: 'found', asked: chosen.asked, role, orgs: hits, method: chosen.method };
  }
  const r = await (lookups?.get(`${role}|${name}`) ?? resolveOrg(ctx.store, ctx.iris, name, role, ctx.registry, ctx.signal));
  if (r.status === 'found') return r;
  if (r.status === 'ambiguous') return { code: 'ambiguous_org', role, asked: r.asked, candidates: r.candidates.map(ref), ...(r.candidates[0] ? { method: r.candidates[0].method } : {}) };
  return { code: 'not_in_graph', role, asked: r.asked, coverage };
}

const failed = (x: Found | GrantFailure): x is GrantFailure => 'code' in x;

/**
 * A name that is one organization chosen among the candidates of an asked name: `<org IRI>#<method>#<asked>`,
 * written by `choiceName` (never typed by a user: it must be an IRI of this graph's organizations).
 */
export function choiceName(org: string, method: MatchMethod, asked: string): string {
  return `${org}#${method}#${asked}`;
}
function chosenOrg(iris: GrantIris, name: string): { iri: string; method: MatchMethod; asked: string } | null {
  const base = iris.org('');
  if (!name.startsWith(base)) return null;
  const m = /^([^#\s]+)#(ein|name_exact|name_words)#(.*)$/s.exec(name);
  return m ? { iri: m[1]!, method: m[2] as MatchMethod, asked: m[3]! } : null;
}

async function edgeRows(ctx: TraverseContext, rows: Awaited<ReturnType<GrantStore['select']>>): Promise<EdgeRow[]> {
  const orgs = await orgRefs(ctx, rows.flatMap((r) => [r.f!.value, r.r!.value]));
  return rows.map((r) => ({
    edge: r.e!.value, funder: orgs.get(r.f!.value)!, recipient: orgs.get(r.r!.value)!, amount: num(r.amount),
    cash: r.cash ? num(r.cash) : null, nonCash: r.noncash ? num(r.noncash) : null, status: statusOf(r.status!.value), taxYear: num(r.year),
    purpose: r.purpose?.value ?? null, filing: r.filing!.value, record: r.record!.value, state: r.fst?.value?.toUpperCase() ?? null,
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
  // a name chosen among candidates is said as it was asked
  if (!out.ok && out.failure.code === 'no_grants') {
    let what = out.failure.what;
    for (const [name] of namesOf(q)) { const c = chosenOrg(ctx.iris, name); if (c) what = what.split(name).join(c.asked); }
    out.failure.what = what;
  }
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
  if (layout !== GRANT_LAYOUT) {
    if (layout !== null && layout > GRANT_LAYOUT) return { ok: false, failure: { code: 'layout_outdated', found: layout, expected: GRANT_LAYOUT } };
    // layout 3 → 4 needs no file: an ingest derives the unit links from the names the graph holds
    if (layout === 3) return { ok: false, failure: { code: 'layout_outdated', found: layout, expected: GRANT_LAYOUT, storeOnly: true } };
    return { ok: false, failure: { code: 'layout_outdated', found: layout, expected: GRANT_LAYOUT, ...(await filesToIngestAgain(ctx.store, ctx.iris, 5, ctx.signal)) } };
  }
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
      // kept by an amount: every funder is read (bounded by the recipient's own grants), then the threshold keeps some
      if (q.threshold && q.limit !== undefined) return traverseGraph(ctx, { ...q, limit: undefined } as GrantQuestion);
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
      if (q.threshold) {
        const t = q.threshold;
        const paidRows = rows.filter((x) => x.status === 'paid');
        rows = paidRows.filter((x) => passes(t, x.amount));
        shown_.push({ code: 'threshold_filter', role: 'funder', op: t.op, value: t.value, kept: rows.length, of: paidRows.length, over: 'recipient' });
      }
      return { ok: true, result: { kind: 'reverse', recipient: r.orgs.map(ref), totals, funders: rows, coverage, disclosures: [...matchDisclosures(r), ...coverageDisclosures(coverage), ...approvedDisclosure(totals), ...shown_, { code: 'recipients_keyed' }, ...(q.taxYear ? [{ code: 'tax_year_filter', taxYear: q.taxYear } as const] : [])], ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    case 'pair': {
      // the funder's edges to the recipient's nodes, summed here: a pair total is the sum of its grants
      const pr = await pairEdges(ctx, q.funder, q.recipient, q.taxYear, coverage, lookups);
      if ('code' in pr) return fail(pr);
      const { f, r, edges } = pr;
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
      const fi = f.orgs.map((o) => o.iri);
      let rows: TotalRow[];
      let totals: Totals;
      let left: Disclosure[] = [];
      if (q.taxYear !== undefined) {
        // a tax year is not a rollup key: one funder's edges of that year, grouped by recipient here
        // (bounded by the funder's own grants)
        const edges = await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, fi, q.taxYear), ctx.signal));
        if (edges.length === 0) return fail({ code: 'no_grants', what: `grants made by ${q.funder} in tax year ${q.taxYear}`, coverage });
        totals = totalsOf(edges);
        const by = new Map<string, TotalRow>();
        for (const e of edges.filter((x) => x.status === 'paid')) {
          const v = by.get(e.recipient.iri) ?? { org: e.recipient, status: 'paid', amount: 0, grants: 0 };
          v.amount += e.amount; v.grants++; by.set(e.recipient.iri, v);
        }
        totals.paid.counterparts = by.size;
        // a placeholder a filer wrote in place of a recipient is no organization to rank (unnamed.ts)
        left = await unnamedLeftOut(ctx, 'recipients', { rows: [...by.values()] });
        const unnamed = new Set(left.flatMap((d) => (d.code === 'unnamed_left_out' ? d.names : [])));
        rows = [...by.values()].filter((x) => !unnamed.has(x.org.name)).sort((a, b) => (q.by === 'count' ? b.grants - a.grants : 0) || b.amount - a.amount || a.org.iri.localeCompare(b.org.iri)).slice(0, q.threshold ? ALL_ROWS : q.limit);
      } else {
        const [raw, l] = await Promise.all([
          // kept by an amount: the engine keeps the funder's recipients over it (a filter over its pairs), the largest THRESHOLD_ROWS listed
          ctx.store.select(q.threshold ? Q.topRecipientsOf(ctx.iris, fi, G.Paid, THRESHOLD_ROWS, q.threshold) : q.by === 'count' ? Q.topRecipientsOfByCount(ctx.iris, fi, G.Paid, q.limit) : Q.topRecipientsOf(ctx.iris, fi, G.Paid, q.limit), ctx.signal),
          unnamedLeftOut(ctx, 'recipients', { funders: fi }),
        ]);
        left = l;
        const orgs = await orgRefs(ctx, raw.map((r) => r.r!.value));
        rows = raw.map((r) => ({ org: orgs.get(r.r!.value)!, status: 'paid' as const, amount: num(r.total), grants: num(r.n) }));
        totals = await funderTotalsOf(ctx, fi, coverage);
      }
      const only = rows.length === 0 && !q.threshold ? onlyUnnamed(f, left) : null;
      if (q.threshold) {
        const t = q.threshold;
        if (q.taxYear !== undefined) {
          // the year's rows were grouped here from the funder's edges of that year
          const kept = rows.filter((x) => passes(t, x.amount));
          left.push({ code: 'threshold_filter', role: 'recipient', op: t.op, value: t.value, kept: kept.length, of: rows.length, over: 'funder' });
          rows = kept.slice(0, THRESHOLD_ROWS);
        } else {
          const [c] = await ctx.store.select(Q.recipientsOverCount(ctx.iris, fi, G.Paid, t), ctx.signal);
          left.push({ code: 'threshold_filter', role: 'recipient', op: t.op, value: t.value, kept: num(c?.kept), of: num(c?.all), over: 'funder' });
        }
      }
      if (only) return fail(only);
      const named = (totals.paid.counterparts ?? rows.length) - left.reduce((n, d) => n + (d.code === 'unnamed_left_out' ? d.names.length : 0), 0);
      return { ok: true, result: { kind: 'ranking', subject: 'recipient_of', of: f.orgs.map(ref), rows, coverage, disclosures: [...matchDisclosures(f), ...approvedDisclosure(totals), ...left, ...(q.threshold ? [] : [{ code: 'rows_shown', shown: rows.length, total: Math.max(rows.length, named) } as const]), { code: 'recipients_keyed' }, ...(q.by === 'count' ? [{ code: 'ranked_by_count' } as const] : []), ...yearDisclosure(q.taxYear)], ...(q.by ? { by: q.by } : {}), ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    case 'ranking': {
      const byCount = q.by === 'count' && q.subject !== 'state';
      const raw = await ctx.store.select(byCount ? Q.rankingByCount(ctx.iris, q.subject as 'funder' | 'recipient', G.Paid, q.limit, q.order ?? 'desc') : Q.ranking(ctx.iris, q.subject, G.Paid, q.limit, q.order ?? 'desc'), ctx.signal);
      if (q.subject === 'state') {
        return { ok: true, result: { kind: 'ranking', subject: 'state', rows: [], stateRows: raw.map((r) => ({ state: r.o!.value, amount: num(r.total), grants: num(r.n), counterparts: num(r.k) })), coverage, disclosures: [...coverageDisclosures(coverage), { code: 'state_as_filed' }] } };
      }
      const orgs = await orgRefs(ctx, raw.map((r) => r.o!.value));
      const rows = raw.map((r) => ({ org: orgs.get(r.o!.value)!, status: 'paid' as const, amount: num(r.total), grants: num(r.n), counterparts: num(r.k) }));
      const left = q.subject === 'recipient' ? await unnamedLeftOut(ctx, 'recipients', 'graph') : [];
      return { ok: true, result: { kind: 'ranking', subject: q.subject, rows, coverage, disclosures: [...coverageDisclosures(coverage), ...(q.subject === 'recipient' ? [{ code: 'recipients_keyed' } as const] : []), ...left, ...(byCount ? [{ code: 'ranked_by_count' } as const] : [])], ...(byCount ? { by: 'count' as const } : {}), ...(q.order === 'asc' ? { order: 'asc' as const } : {}) } };
    }
    case 'geographic': {
      const state = q.state.toUpperCase();
      let totals = zero();
      let funder: Found | undefined;
      if (q.funder) {
        const f = await find(ctx, q.funder, 'funder', coverage, lookups);
        if (failed(f)) return fail(f);
        funder = f;
      }
      if (funder && q.taxYear !== undefined) {
        // a tax year is not a rollup key: one funder's edges of that year to recipients filed in the
        // state (bounded by the funder's own grants; each grant in the state filed for it, as the rollups count it)
        const edges = (await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, funder.orgs.map((o) => o.iri), q.taxYear), ctx.signal))).filter((e) => e.state === state);
        totals = totalsOf(edges);
        totals.paid.counterparts = new Set(edges.filter((e) => e.status === 'paid').map((e) => e.recipient.iri)).size;
      } else {
        for (const r of await ctx.store.select(Q.stateTotals(ctx.iris, [state], funder?.orgs.map((o) => o.iri)), ctx.signal)) {
          const s = slot(totals, statusOf(r.status!.value)); s.amount += num(r.total); s.grants += num(r.n); s.counterparts = (s.counterparts ?? 0) + num(r.k);
        }
      }
      // which organizations: one funder's recipients in the state, from its own edges (bounded by its grants), largest first
      let recipients: TotalRow[] | undefined;
      const shown: Disclosure[] = [];
      if (funder) {
        const by = new Map<string, TotalRow>();
        for (const e of await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, funder.orgs.map((o) => o.iri), q.taxYear), ctx.signal))) {
          if (e.state !== state || e.status !== 'paid') continue;
          const v = by.get(e.recipient.iri) ?? { org: e.recipient, status: 'paid', amount: 0, grants: 0 };
          v.amount += e.amount; v.grants++; by.set(e.recipient.iri, v);
        }
        const all = [...by.values()].sort((a, b) => b.amount - a.amount || a.org.name.localeCompare(b.org.name));
        const t = q.threshold;
        if (t) {
          const kept = all.filter((x) => passes(t, x.amount));
          recipients = kept.slice(0, THRESHOLD_ROWS);
          shown.push({ code: 'threshold_filter', role: 'recipient', op: t.op, value: t.value, kept: kept.length, of: all.length, over: 'funder' });
        } else {
          recipients = all.slice(0, GEO_ROWS);
          if (all.length > recipients.length) shown.push({ code: 'largest_shown', role: 'recipient', status: 'paid', shown: recipients.length, total: all.length });
        }
      }
      const year = funder && q.taxYear !== undefined ? q.taxYear : undefined;
      return { ok: true, result: { kind: 'geographic', state, ...(funder ? { funder: funder.orgs.map(ref) } : {}), ...(recipients ? { recipients } : {}), totals, coverage, disclosures: [...(funder ? matchDisclosures(funder) : coverageDisclosures(coverage)), ...approvedDisclosure(totals), { code: 'state_as_filed' }, ...shown, ...yearDisclosure(year)], ...(year ? { taxYear: year } : {}) } };
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
      // a tax year: the cause's edges are read one by one already, so the year filters them here
      const edges = (await edgeRows(ctx, raw)).map((e) => ({ ...e, causeBy: ntee.get(e.edge)! })).filter((e) => q.taxYear === undefined || e.taxYear === q.taxYear);
      const totals = totalsOf(edges);
      return { ok: true, result: { kind: 'cause', cause, ...(funder ? { funder: funder.orgs.map(ref) } : {}), totals, edges, coverage, disclosures: [
        ...(funder ? matchDisclosures(funder) : coverageDisclosures(coverage)),
        { code: 'cause_method', cause: q.cause, groups: cause.groups.map((g) => `${g.letter} ${g.label}`), byNtee: edges.filter((e) => e.causeBy === 'ntee').length, byPurpose: edges.filter((e) => e.causeBy === 'purpose').length, words: cause.words },
        ...approvedDisclosure(totals), ...yearDisclosure(q.taxYear),
      ], ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    default: return traverseMore(ctx, q, coverage, lookups);
  }
}

/** Rows read when a threshold selects among all of a scope's funders or recipients (bounded by that scope's own pairs or rollups). */
const ALL_ROWS = 100_000;
/** Most rows a threshold answer lists (its disclosure counts all it kept). */
const THRESHOLD_ROWS = 50;

/** How many of one funder's recipients in a state an answer lists. */
const GEO_ROWS = 10;

const yearDisclosure = (taxYear: number | undefined): Disclosure[] => (taxYear !== undefined ? [{ code: 'tax_year_filter', taxYear }] : []);

/** A funder whose paid grants are all filed to placeholders: nothing to rank, and why (not "no grants"). */
function onlyUnnamed(f: Found, left: readonly Disclosure[]): GrantFailure | null {
  const d = left.find((x) => x.code === 'unnamed_left_out');
  return d && d.code === 'unnamed_left_out' ? { code: 'only_unnamed', funder: f.orgs[0]!.names[0] ?? f.asked, names: d.names, amount: d.amount, grants: d.grants } : null;
}

/**
 * What a ranking left out as unnamed recipients (unnamed.ts): over the graph, or over some
 * funders' recipients (their pair totals), or among recipients already grouped (`rows`).
 */
async function unnamedLeftOut(ctx: TraverseContext, ranking: 'recipients' | 'grants', scope: { funders: readonly string[] } | 'graph' | { rows: readonly TotalRow[] }): Promise<Disclosure[]> {
  let found: Array<{ iri: string; amount: number; grants: number }>;
  if (scope !== 'graph' && 'rows' in scope) {
    if (scope.rows.length === 0) return [];
    const marked = new Set((await ctx.store.select(Q.unnamedAmong(ctx.iris, scope.rows.map((x) => x.org.iri)), ctx.signal)).map((r) => r.o!.value));
    found = scope.rows.filter((x) => marked.has(x.org.iri)).map((x) => ({ iri: x.org.iri, amount: x.amount, grants: x.grants }));
  } else {
    const rows = await ctx.store.select(scope === 'graph' ? Q.unnamedInGraph(ctx.iris) : Q.unnamedOf(ctx.iris, scope.funders), ctx.signal);
    found = rows.map((r) => ({ iri: (r.o ?? r.r)!.value, amount: num(r.total), grants: num(r.n) }));
  }
  if (found.length === 0) return [];
  const orgs = await orgRefs(ctx, found.map((x) => x.iri));
  return [{ code: 'unnamed_left_out', ranking, names: [...new Set(found.map((x) => orgs.get(x.iri)?.name ?? x.iri))].sort(), grants: found.reduce((a, x) => a + x.grants, 0), amount: found.reduce((a, x) => a + x.amount, 0) }];
}

/** Funder rollup totals of some funder nodes, summed per payment status (the counterparts: recipients per node, summed). */
async function funderTotalsOf(ctx: TraverseContext, funders: readonly string[], coverage: Coverage, taxYear?: number): Promise<Totals> {
  // a year, or rollups an unfinished ingest may have left behind the edges: the funder's own edges
  // (bounded by its grants)
  if (taxYear !== undefined || coverage.unfinishedIngest) {
    const edges = await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, funders, taxYear), ctx.signal));
    const t = totalsOf(edges);
    t.paid.counterparts = new Set(edges.filter((e) => e.status === 'paid').map((e) => e.recipient.iri)).size;
    return t;
  }
  const totals = zero();
  for (const r of await ctx.store.select(Q.funderTotals(ctx.iris, funders), ctx.signal)) {
    const s = slot(totals, statusOf(r.status!.value)); s.amount += num(r.total); s.grants += num(r.n); s.counterparts = (s.counterparts ?? 0) + num(r.k);
  }
  return totals;
}

/** Recipient rollup totals of some recipient nodes (or, for a tax year, their edges of that year). */
async function recipientTotalsOf(ctx: TraverseContext, recipients: readonly string[], taxYear?: number): Promise<Totals> {
  if (taxYear !== undefined) return totalsOf(await edgeRows(ctx, await ctx.store.select(Q.edgesToRecipients(ctx.iris, recipients, { taxYear }), ctx.signal)));
  const totals = zero();
  for (const r of await ctx.store.select(Q.recipientTotals(ctx.iris, recipients), ctx.signal)) {
    const s = slot(totals, statusOf(r.status!.value)); s.amount += num(r.total); s.grants += num(r.n);
  }
  return totals;
}

/** The graph's totals: every funder rollup summed (one row per funder and status, not an edge scan). */
async function graphTotalsOf(ctx: TraverseContext): Promise<Totals> {
  const totals = zero();
  for (const r of await ctx.store.select(Q.graphTotals(ctx.iris), ctx.signal)) {
    const s = slot(totals, statusOf(r.status!.value)); s.amount += num(r.total); s.grants += num(r.n);
  }
  return totals;
}

/** One funder's edges to one recipient (both names resolved), as the pair reading reads them. */
async function pairEdges(ctx: TraverseContext, funder: string, recipient: string, taxYear: number | undefined, coverage: Coverage, lookups: Lookups): Promise<{ f: Found; r: Found; edges: EdgeRow[] } | GrantFailure> {
  const f = await find(ctx, funder, 'funder', coverage, lookups);
  if (failed(f)) return f;
  const r = await find(ctx, recipient, 'recipient', coverage, lookups);
  if (failed(r)) return r;
  const edges = await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, f.orgs.map((o) => o.iri), taxYear, r.orgs.map((o) => o.iri)), ctx.signal));
  if (edges.length === 0) return { code: 'no_grants', what: `grants from ${funder} to ${recipient}${taxYear ? ` in tax year ${taxYear}` : ''}`, coverage, recipientMatch: r.method };
  return { f, r, edges };
}

/** Funders read per page by the graph-wide search for the largest single grants. */
const FUNDER_PAGE = 25;

/**
 * The graph's largest `limit` paid grants without scanning every edge: funders are read in order
 * of their paid total, and each one's own largest grants merged in, until the next funder's whole
 * total is below the smallest grant kept — no grant of that funder, or of any after it, can be
 * larger. Exact; it reads as many funders as the amounts require (on the bundled extract, a few).
 * Ordered by amount, then edge IRI (the order every store agrees on).
 */
async function largestInGraph(ctx: TraverseContext, limit: number): Promise<{ edges: EdgeRow[]; fundersRead: number }> {
  let kept: EdgeRow[] = [];
  let fundersRead = 0;
  const order = (a: EdgeRow, b: EdgeRow) => b.amount - a.amount || (a.edge < b.edge ? -1 : a.edge > b.edge ? 1 : 0);
  for (let offset = 0; ; offset += FUNDER_PAGE) {
    const page = await ctx.store.select(Q.fundersByTotal(ctx.iris, G.Paid, FUNDER_PAGE, offset), ctx.signal);
    for (const f of page) {
      if (kept.length >= limit && num(f.total) < kept[limit - 1]!.amount) return { edges: kept, fundersRead };
      fundersRead++;
      const rows = await edgeRows(ctx, await ctx.store.select(Q.largestEdgesOf(ctx.iris, [f.o!.value], G.Paid, limit), ctx.signal));
      kept = [...kept, ...rows].sort(order).slice(0, limit);
    }
    if (page.length < FUNDER_PAGE) return { edges: kept, fundersRead };
  }
}

/** The readings added beside the directions above: each bounded by what it names (see queries.ts). */
async function traverseMore(ctx: TraverseContext, q: GrantQuestion, coverage: Coverage, lookups: Lookups): Promise<GrantOutcome> {
  const fail = (failure: GrantFailure): GrantOutcome => ({ ok: false, failure });
  const paidOnly = (t: Totals): Disclosure[] => (t.approvedFuture.grants > 0 ? [{ code: 'paid_only', approvedGrants: t.approvedFuture.grants }] : []);
  switch (q.direction) {
    case 'largest_grants': {
      if (q.funder && q.recipient) {
        // one funder's grants to one recipient: its edges to that recipient (bounded by the pair's grants)
        const pr = await pairEdges(ctx, q.funder, q.recipient, q.taxYear, coverage, lookups);
        if ('code' in pr) return fail(pr);
        const asc = q.order === 'asc';
        const edges = pr.edges.filter((e) => e.status === 'paid').sort((a, b) => (asc ? a.amount - b.amount : b.amount - a.amount)).slice(0, q.limit);
        return { ok: true, result: { kind: 'largest', scope: 'pair', of: pr.f.orgs.map(ref), to: pr.r.orgs.map(ref), edges, totals: totalsOf(pr.edges), coverage, disclosures: [...matchDisclosures(pr.f), ...matchDisclosures(pr.r), ...paidOnly(totalsOf(pr.edges)), { code: 'recipients_keyed' }, ...yearDisclosure(q.taxYear)], ...(q.taxYear ? { taxYear: q.taxYear } : {}), ...(asc ? { order: 'asc' as const } : {}) } };
      }
      if (q.funder) {
        const f = await find(ctx, q.funder, 'funder', coverage, lookups);
        if (failed(f)) return fail(f);
        const fi = f.orgs.map((o) => o.iri);
        const asc = q.order === 'asc';
        const edges = (await edgeRows(ctx, await ctx.store.select(Q.largestEdgesOf(ctx.iris, fi, G.Paid, q.limit, q.taxYear, q.order), ctx.signal))).sort((a, b) => (asc ? a.amount - b.amount : 0));
        const left = await unnamedLeftOut(ctx, 'grants', { funders: fi });
        if (edges.length === 0) return fail(onlyUnnamed(f, left) ?? { code: 'no_grants', what: `grants paid by ${q.funder}${q.taxYear ? ` in tax year ${q.taxYear}` : ''}`, coverage });
        const totals = await funderTotalsOf(ctx, fi, coverage, q.taxYear);
        return { ok: true, result: { kind: 'largest', scope: 'funder', of: f.orgs.map(ref), edges, totals, coverage, disclosures: [...matchDisclosures(f), ...paidOnly(totals), ...left, ...yearDisclosure(q.taxYear), ...(coverage.synthetic ? [{ code: 'synthetic_graph' } as const] : [])], ...(q.taxYear ? { taxYear: q.taxYear } : {}), ...(asc ? { order: 'asc' as const } : {}) } };
      }
      if (q.recipient) {
        const r = await find(ctx, q.recipient, 'recipient', coverage, lookups);
        if (failed(r)) return fail(r);
        const ri = r.orgs.map((o) => o.iri);
        const asc = q.order === 'asc';
        const edges = (await edgeRows(ctx, await ctx.store.select(Q.edgesToRecipients(ctx.iris, ri, { status: G.Paid, limit: q.limit, ...(q.taxYear ? { taxYear: q.taxYear } : {}), ...(q.order ? { order: q.order } : {}) }), ctx.signal))).sort((a, b) => (asc ? a.amount - b.amount : 0));
        if (edges.length === 0) return fail({ code: 'no_grants', what: `grants paid to ${q.recipient}${q.taxYear ? ` in tax year ${q.taxYear}` : ''}`, coverage });
        const totals = await recipientTotalsOf(ctx, ri, q.taxYear);
        return { ok: true, result: { kind: 'largest', scope: 'recipient', of: r.orgs.map(ref), edges, totals, coverage, disclosures: [...matchDisclosures(r), ...coverageDisclosures(coverage), ...paidOnly(totals), { code: 'recipients_keyed' }, ...yearDisclosure(q.taxYear)], ...(q.taxYear ? { taxYear: q.taxYear } : {}), ...(asc ? { order: 'asc' as const } : {}) } };
      }
      const { edges } = await largestInGraph(ctx, q.limit);
      if (edges.length === 0) return fail({ code: 'no_grants', what: 'grants paid', coverage });
      const totals = await graphTotalsOf(ctx);
      const left = await unnamedLeftOut(ctx, 'grants', 'graph');
      return { ok: true, result: { kind: 'largest', scope: 'graph', edges, totals, coverage, disclosures: [...coverageDisclosures(coverage), ...paidOnly(totals), ...left] } };
    }
    case 'average': {
      let scope: Scope = 'graph';
      let of: OrgRef[] | undefined;
      let totals: Totals;
      const shown: Disclosure[] = [];
      let to: OrgRef[] | undefined;
      if (q.funder && q.recipient) {
        const pr = await pairEdges(ctx, q.funder, q.recipient, q.taxYear, coverage, lookups);
        if ('code' in pr) return fail(pr);
        scope = 'pair'; of = pr.f.orgs.map(ref); to = pr.r.orgs.map(ref); shown.push(...matchDisclosures(pr.f), ...matchDisclosures(pr.r), { code: 'recipients_keyed' });
        totals = totalsOf(pr.edges);
      } else if (q.funder) {
        const f = await find(ctx, q.funder, 'funder', coverage, lookups);
        if (failed(f)) return fail(f);
        scope = 'funder'; of = f.orgs.map(ref); shown.push(...matchDisclosures(f));
        totals = await funderTotalsOf(ctx, f.orgs.map((o) => o.iri), coverage, q.taxYear);
      } else if (q.recipient) {
        const r = await find(ctx, q.recipient, 'recipient', coverage, lookups);
        if (failed(r)) return fail(r);
        scope = 'recipient'; of = r.orgs.map(ref); shown.push(...matchDisclosures(r), ...coverageDisclosures(coverage), { code: 'recipients_keyed' });
        totals = await recipientTotalsOf(ctx, r.orgs.map((o) => o.iri), q.taxYear);
      } else {
        shown.push(...coverageDisclosures(coverage));
        totals = await graphTotalsOf(ctx);
      }
      if (totals.paid.grants === 0) return fail({ code: 'no_grants', what: `grants paid${q.funder ? ` by ${q.funder}` : q.recipient ? ` to ${q.recipient}` : ''}${q.taxYear ? ` in tax year ${q.taxYear}` : ''}`, coverage });
      return { ok: true, result: { kind: 'average', scope, ...(of ? { of } : {}), ...(to ? { to } : {}), totals, coverage, disclosures: [...shown, ...approvedDisclosure(totals), ...yearDisclosure(q.taxYear)], ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    case 'two_funders': {
      const a = await find(ctx, q.funders[0], 'funder', coverage, lookups);
      if (failed(a)) return fail(a);
      const b = await find(ctx, q.funders[1], 'funder', coverage, lookups);
      if (failed(b)) return fail(b);
      let to: Found | undefined;
      if (q.recipient) {
        const r = await find(ctx, q.recipient, 'recipient', coverage, lookups);
        if (failed(r)) return fail(r);
        to = r;
      }
      // each side: the funder's edges to the recipient, summed (a pair total); or the funder's own totals
      const side = async (f: Found): Promise<Totals> => to
        ? totalsOf(await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, f.orgs.map((o) => o.iri), q.taxYear, to.orgs.map((o) => o.iri)), ctx.signal)))
        : funderTotalsOf(ctx, f.orgs.map((o) => o.iri), coverage, q.taxYear);
      const [ta, tb] = [await side(a), await side(b)];
      if (ta.paid.grants + tb.paid.grants + ta.approvedFuture.grants + tb.approvedFuture.grants === 0) {
        return fail({ code: 'no_grants', what: `grants from ${q.funders[0]} or ${q.funders[1]}${q.recipient ? ` to ${q.recipient}` : ''}${q.taxYear ? ` in tax year ${q.taxYear}` : ''}`, coverage });
      }
      const future: Totals = { paid: { amount: 0, grants: 0 }, approvedFuture: { amount: ta.approvedFuture.amount + tb.approvedFuture.amount, grants: ta.approvedFuture.grants + tb.approvedFuture.grants } };
      return { ok: true, result: { kind: 'two_funders', combine: q.combine, ...(to ? { recipient: to.orgs.map(ref) } : {}), sides: [{ funder: a.orgs.map(ref), totals: ta }, { funder: b.orgs.map(ref), totals: tb }], coverage, disclosures: [...matchDisclosures(a), ...matchDisclosures(b), ...(to ? [...matchDisclosures(to), { code: 'recipients_keyed' } as const] : []), ...approvedDisclosure(future), ...yearDisclosure(q.taxYear)], ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    case 'common_funders': {
      const a = await find(ctx, q.recipients[0], 'recipient', coverage, lookups);
      if (failed(a)) return fail(a);
      const b = await find(ctx, q.recipients[1], 'recipient', coverage, lookups);
      if (failed(b)) return fail(b);
      const ai = a.orgs.map((o) => o.iri);
      const bi = b.orgs.map((o) => o.iri);
      const common = (await ctx.store.select(Q.commonFunders(ctx.iris, ai, bi), ctx.signal)).map((r) => r.f!.value);
      const amounts = new Map<string, [Totals, Totals]>(common.map((f) => [f, [zero(), zero()]]));
      if (common.length > 0) {
        for (const p of await ctx.store.select(Q.pairTotals(ctx.iris, common, [...ai, ...bi]), ctx.signal)) {
          const pair = amounts.get(p.f!.value)!;
          const s = slot(pair[ai.includes(p.r!.value) ? 0 : 1], statusOf(p.status!.value)); s.amount += num(p.total); s.grants += num(p.n);
        }
      }
      const orgs = await orgRefs(ctx, common);
      const funders = common.map((f) => ({ funder: orgs.get(f)!, amounts: amounts.get(f)! }))
        .sort((x, y) => (y.amounts[0].paid.amount + y.amounts[1].paid.amount) - (x.amounts[0].paid.amount + x.amounts[1].paid.amount) || x.funder.name.localeCompare(y.funder.name));
      return { ok: true, result: { kind: 'common_funders', recipients: [a.orgs.map(ref), b.orgs.map(ref)], funders, coverage, disclosures: [...matchDisclosures(a), ...matchDisclosures(b), ...coverageDisclosures(coverage), { code: 'recipients_keyed' }] } };
    }
    case 'states_of': {
      const f = await find(ctx, q.funder, 'funder', coverage, lookups);
      if (failed(f)) return fail(f);
      // one funder's edges grouped by state here: bounded by that funder's own grants (at the
      // reference size a funder's grants are its return's list, not the graph); each grant in the
      // state filed for it (layout 3's grants:recipientAddress), as the state rollups count it
      const edges = (await edgeRows(ctx, await ctx.store.select(Q.forwardEdges(ctx.iris, f.orgs.map((o) => o.iri), q.taxYear), ctx.signal))).filter((e) => e.status === 'paid');
      if (edges.length === 0) return fail({ code: 'no_grants', what: `grants paid by ${q.funder}${q.taxYear ? ` in tax year ${q.taxYear}` : ''}`, coverage });
      const by = new Map<string, { state: string; amount: number; grants: number; recipients: Set<string> }>();
      let unplaced = 0;
      for (const e of edges) {
        const st = e.state;
        if (!st) { unplaced++; continue; }
        const v = by.get(st) ?? { state: st, amount: 0, grants: 0, recipients: new Set<string>() };
        v.amount += e.amount; v.grants++; v.recipients.add(e.recipient.iri); by.set(st, v);
      }
      const stateRows = [...by.values()].sort((x, y) => (q.by === 'count' ? y.grants - x.grants : 0) || y.amount - x.amount || x.state.localeCompare(y.state)).slice(0, q.limit)
        .map((x) => ({ state: x.state, amount: x.amount, grants: x.grants, counterparts: x.recipients.size }));
      return { ok: true, result: { kind: 'ranking', subject: 'state', of: f.orgs.map(ref), rows: [], stateRows, coverage, ...(q.by ? { by: q.by } : {}), disclosures: [...matchDisclosures(f), { code: 'state_as_filed' }, ...(q.by === 'count' ? [{ code: 'ranked_by_count' } as const] : []), ...(by.size > stateRows.length ? [{ code: 'rows_shown', shown: stateRows.length, total: by.size } as const] : []), ...(unplaced ? [{ code: 'no_state_filed', grants: unplaced } as const] : []), ...yearDisclosure(q.taxYear)], ...(q.taxYear ? { taxYear: q.taxYear } : {}) } };
    }
    case 'funders_in_state': {
      const state = q.state.toUpperCase();
      // kept by an amount: the engine keeps the state's funders over it (a filter over their funder-state rollups), the largest THRESHOLD_ROWS listed
      const t = q.threshold;
      const [raw, counted] = await Promise.all([
        ctx.store.select(Q.fundersInState(ctx.iris, state, G.Paid, t ? THRESHOLD_ROWS : q.limit, q.by ?? 'amount', t), ctx.signal),
        t ? ctx.store.select(Q.fundersInStateOverCount(ctx.iris, state, G.Paid, t), ctx.signal) : Promise.resolve([]),
      ]);
      if (raw.length === 0 && (!t || num(counted[0]?.all) === 0)) return fail({ code: 'no_grants', what: `grants paid to organizations in ${state}`, coverage });
      const orgs = await orgRefs(ctx, raw.map((r) => r.o!.value));
      const rows = raw.map((r) => ({ org: orgs.get(r.o!.value)!, status: 'paid' as const, amount: num(r.total), grants: num(r.n), counterparts: num(r.k) }));
      const kept: Disclosure[] = t ? [{ code: 'threshold_filter', role: 'funder', op: t.op, value: t.value, kept: num(counted[0]?.kept), of: num(counted[0]?.all), over: 'state' }] : [];
      return { ok: true, result: { kind: 'ranking', subject: 'funder', state, rows, coverage, disclosures: [...coverageDisclosures(coverage), { code: 'state_as_filed' }, ...kept, ...(q.by === 'count' ? [{ code: 'ranked_by_count' } as const] : [])], ...(q.by ? { by: q.by } : {}) } };
    }
    case 'funders_by_count': {
      const r = await find(ctx, q.recipient, 'recipient', coverage, lookups);
      if (failed(r)) return fail(r);
      const ri = r.orgs.map((o) => o.iri);
      // grouped and cut by the engine over the recipient's own edges: `limit` + 1 rows (the extra one says more exist)
      const raw = await ctx.store.select(Q.fundersOfByCount(ctx.iris, ri, q.limit), ctx.signal);
      if (raw.length === 0) return fail({ code: 'no_grants', what: `grants paid to ${q.recipient}`, coverage });
      const more = raw.length > q.limit;
      const kept = raw.slice(0, q.limit);
      const orgs = await orgRefs(ctx, kept.map((x) => x.f!.value));
      const rows: TotalRow[] = kept.map((x) => ({ org: orgs.get(x.f!.value)!, status: 'paid', amount: num(x.total), grants: num(x.n) }));
      const counted = (await ctx.store.select(Q.reverseFunderCount(ctx.iris, ri), ctx.signal)).find((x) => x.status?.value === G.Paid);
      const by = { size: more && counted ? num(counted.k) : rows.length };
      return { ok: true, result: { kind: 'ranking', subject: 'funder', to: r.orgs.map(ref), rows, by: 'count', coverage, disclosures: [...matchDisclosures(r), ...coverageDisclosures(coverage), { code: 'ranked_by_count' }, ...(by.size > rows.length ? [{ code: 'rows_shown', shown: rows.length, total: by.size } as const] : []), { code: 'recipients_keyed' }] } };
    }
    default: throw new Error(`no reading for a grant question of direction ${q.direction}`);
  }
}

async function edgeRowsToRecipient(ctx: TraverseContext, recipients: readonly string[]): Promise<EdgeRow[]> {
  // funders of the recipient first (from its edges), then their edges to it: never a scan of the whole graph
  const funders = [...new Set((await ctx.store.select(Q.reverseFunders(ctx.iris, recipients), ctx.signal)).map((r) => r.f!.value))];
  if (funders.length === 0) return [];
  const rows = await ctx.store.select(Q.forwardEdges(ctx.iris, funders, undefined, recipients), ctx.signal);
  return edgeRows(ctx, rows.filter((r) => recipients.includes(r.r!.value)));
}
