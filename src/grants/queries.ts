/**
 * The grant graph's SPARQL, by direction. Every query is plain SPARQL 1.1 naming its graphs with
 * GRAPH (the same text runs embedded and on an endpoint), and every value from a question enters
 * as an escaped RDF term through the `sparql` tag, which also parses the result: user text can
 * never become syntax.
 *
 * The mechanism follows the direction:
 * - forward (what X funds): the edges of X's grant lists; totals from X's funder rollups;
 * - reverse (who funds X): X's edges summed per funder, largest first (bounded by X's own edges),
 *   and X's recipient rollups for the totals and funder counts;
 * - intersection (whom X and Y both fund): two SELECT DISTINCT sub-queries joined on the recipient
 *   (the fast form; one basic graph pattern over both funders' edges is the slow one, kept in
 *   `naive` for the benchmark);
 * - ranking: funder, recipient or state rollups ordered by total; a funder's largest recipients from
 *   its pairs, each read from the pair rollup or, for a pair of one grant (no rollup), the edge;
 * - geography: state and funder–state rollups, which count each grant in the state of the
 *   recipient address filed for it (layout 3);
 * - cause: edges whose recipient's NTEE code is in the cause's major groups, or, where the recipient
 *   has no NTEE code, whose purpose text names the cause.
 * Paid and approved-for-future amounts are separate rows (the payment status is a group key
 * everywhere); no query sums across them. An edge's funder, tax year and payment status are its
 * grant list's (layout 2, model.ts).
 */
import { DCT, PROV, RDF } from '../rdf/vocab.ts';
import { iri, lit, sparql, type SparqlTerm } from '../resolve/sparql-text.ts';
import sparqljs from 'sparqljs';
import { iriRef } from '../rdf/store.ts';
import { G, SDO, type GrantIris } from './vocab.ts';

/** Parses text assembled from already-escaped parts: a malformed query fails here, not at the endpoint. */
function checked(text: string): string {
  new sparqljs.Parser().parse(text);
  return text;
}

/**
 * Fixed text around queries this module built (each parsed by the `sparql` tag when it was built):
 * the wrapper is parsed once per process, around a known query, and not again on every call — a
 * large composed query costs milliseconds to parse, which a remote read's budget does not have.
 */
const SAMPLE = 'SELECT ?f ?status ?total ?n ?o ?d WHERE { ?f ?status ?total . ?o ?n ?d }';
const wrappersChecked = new Set<string>();
function composed<A extends unknown[]>(name: string, wrap: (inner: (q: string) => string, ...a: A) => string, sampleArgs: A, ...args: A): string {
  if (!wrappersChecked.has(name)) {
    checked(wrap(() => SAMPLE, ...sampleArgs));
    wrappersChecked.add(name);
  }
  return wrap((q) => q, ...args);
}

const T = (x: string) => iri(x);
const list = (xs: readonly string[]) => xs.map(iri);

/**
 * Calls the `sparql` tag with fixed parts and terms built at run time (a variable number of
 * escaped literals), so dynamic queries get the same escaping and parse check as written ones.
 */
function tagged(parts: readonly string[], terms: SparqlTerm[]): string {
  return sparql(Object.assign([...parts], { raw: [...parts] }) as unknown as TemplateStringsArray, ...terms);
}

/** Edges of some funders, with recipient details (optionally one tax year; optionally to some recipients only). */
export function forwardEdges(iris: GrantIris, funders: readonly string[], taxYear?: number, recipients?: readonly string[]): string {
  // no year asked: -1, and the filter's first test passes every edge
  const year = taxYear === undefined ? -1 : Math.trunc(taxYear);
  // no recipients given: ?r is bound by the edge alone (an empty VALUES would match nothing)
  const toSome = recipients && recipients.length > 0 ? sparql`SELECT * WHERE { VALUES ?r { ${list(recipients)} } }` : '';
  const byRecipient = toSome ? toSome.slice(toSome.indexOf('{') + 1, toSome.lastIndexOf('}')) : '';
  // ?fst: the state filed for the grant itself (layout 3), which an answer prints beside the recipient
  return checked(`SELECT ?e ?f ?r ?amount ?status ?year ?purpose ?cash ?noncash ?filing ?record ?fst WHERE {${byRecipient}
  ${forwardPattern(iris, funders, year)}`);
}

function forwardPattern(iris: GrantIris, funders: readonly string[], year: number): string {
  const q = sparql`SELECT * WHERE {
  GRAPH ${T(iris.graph)} { VALUES ?f { ${list(funders)} }
    ?l ${T(G.funder)} ?f ; ${T(G.paymentStatus)} ?status ; ${T(G.taxYear)} ?year ; ${T(DCT.isPartOf)} ?filing .
    ?e ${T(PROV.wasDerivedFrom)} ?l ; ${T(G.recipient)} ?r ; ${T(G.amount)} ?amount ; ${T(G.sourceRecord)} ?record .
    OPTIONAL { ?e ${T(G.purpose)} ?purpose }
    OPTIONAL { ?e ${T(G.cashAmount)} ?cash }
    OPTIONAL { ?e ${T(G.nonCashAmount)} ?noncash }
    OPTIONAL { ?e ${T(G.recipientAddress)} ?place . ?place ${T(SDO.addressRegion)} ?fst }
  }
  FILTER(${year} < 0 || ?year = ${year})
}`;
  return q.slice(q.indexOf('{') + 1);
}

/** Funder rollups (totals per payment status) of some funders. */
export function funderTotals(iris: GrantIris, funders: readonly string[]): string {
  return sparql`SELECT ?f ?status ?total ?n ?k WHERE {
  GRAPH ${T(iris.rollups)} { VALUES ?f { ${list(funders)} } ?x ${T(G.rollupFunder)} ?f ; ${T(RDF.type)} ${T(G.FunderRollup)} ; ${T(G.paymentStatus)} ?status ; ${T(G.totalAmount)} ?total ; ${T(G.grantCount)} ?n ; ${T(G.counterpartCount)} ?k }
}`;
}

/** Recipient rollups of some recipients. */
export function recipientTotals(iris: GrantIris, recipients: readonly string[]): string {
  return sparql`SELECT ?r ?status ?total ?n ?k WHERE {
  GRAPH ${T(iris.rollups)} { VALUES ?r { ${list(recipients)} } ?x ${T(G.rollupRecipient)} ?r ; ${T(RDF.type)} ${T(G.RecipientRollup)} ; ${T(G.paymentStatus)} ?status ; ${T(G.totalAmount)} ?total ; ${T(G.grantCount)} ?n ; ${T(G.counterpartCount)} ?k }
}`;
}

/**
 * The edges of some recipients, each with its funder, payment status and amount (the grant
 * list's funder and status). Several recipient nodes of one organization (EIN-keyed and
 * name-keyed) are one set: a funder reaching two nodes is one row below.
 */
function edgesTo(iris: GrantIris, recipients: readonly string[], status: SparqlTerm | null): string {
  const q = status
    ? sparql`SELECT * WHERE { GRAPH ${T(iris.graph)} { VALUES ?r { ${list(recipients)} } ?e ${T(G.recipient)} ?r ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ${status} ; ${T(G.funder)} ?f } }`
    : sparql`SELECT * WHERE { GRAPH ${T(iris.graph)} { VALUES ?r { ${list(recipients)} } ?e ${T(G.recipient)} ?r ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ?status ; ${T(G.funder)} ?f } }`;
  return q.slice(q.indexOf('{') + 1, q.lastIndexOf('}'));
}

/**
 * Reverse traversal: each funder of some recipients, per payment status, largest first, summed from
 * the recipients' own edges (as many as the recipients have grants; an engine groups the hottest
 * recipient's 71,841 edges and keeps the top few faster than it reads as many rollups). With
 * `status`, that status only, and with `limit`, the largest `limit` funders only (the recipient
 * rollups hold the complete count and total).
 */
export function reverseFunders(iris: GrantIris, recipients: readonly string[], opts: { limit?: number; status?: string; top?: number; total?: number } = {}): string {
  if (opts.top !== undefined || opts.total !== undefined) return reverseFundersCut(iris, recipients, opts);
  const q = opts.status
    ? checked(`SELECT ?f (${sparqlIri(opts.status)} AS ?status) (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE {${edgesTo(iris, recipients, T(opts.status))}} GROUP BY ?f ORDER BY DESC(?total) ?f`)
    : checked(`SELECT ?f ?status (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE {${edgesTo(iris, recipients, null)}} GROUP BY ?f ?status ORDER BY DESC(?total) ?f`);
  return opts.limit ? `${q} LIMIT ${Math.trunc(opts.limit)}` : q;
}

/**
 * The largest funders of one payment status by total, for an answer that shows `top` of them:
 * ordered by the total alone, `top` + 1 rows — an engine orders a top-k by one key far faster than
 * by two (Virtuoso, 7.8 M edges: 0.05 s against 0.13–0.25 s for the hottest recipient's 71,841
 * funders), and the extra row shows whether the cut falls inside a tie. With `total`: every funder
 * whose total lies between the integers around it (the caller keeps those equal to it: the tie across
 * the cut, which it orders by funder). Written through the `sparql` tag (parsed once per shape, not
 * per call: sparqljs takes 1–5 ms a query, which a remote read's budget does not have).
 */
function reverseFundersCut(iris: GrantIris, recipients: readonly string[], opts: { status?: string; top?: number; total?: number }): string {
  if (!opts.status) throw new Error('a cut of the largest funders is of one payment status');
  // a total read from this graph, as the integers around it (written as integers only): the caller
  // keeps the rows equal to the total itself
  if (opts.total !== undefined && !(Number.isFinite(opts.total) && Math.abs(opts.total) < 1e15)) throw new Error(`not a grant total: ${opts.total}`);
  const at = opts.total;
  const st = T(opts.status);
  return at !== undefined
    ? sparql`SELECT ?f (${st} AS ?status) (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE {
  GRAPH ${T(iris.graph)} { VALUES ?r { ${list(recipients)} } ?e ${T(G.recipient)} ?r ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ${st} ; ${T(G.funder)} ?f }
} GROUP BY ?f HAVING (SUM(?a) >= ${Math.floor(at)} && SUM(?a) <= ${Math.ceil(at)})`
    : sparql`SELECT ?f (${st} AS ?status) (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE {
  GRAPH ${T(iris.graph)} { VALUES ?r { ${list(recipients)} } ?e ${T(G.recipient)} ?r ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ${st} ; ${T(G.funder)} ?f }
} GROUP BY ?f ORDER BY DESC(?total) LIMIT ${Math.trunc(opts.top!) + 1}`;
}

/** How many rows `reverseFundersBoth` reads for an answer that shows the largest `top` of each status. */
export const bothStatusRows = (top: number): number => 2 * (Math.trunc(top) + 1);

/**
 * The largest funders of both payment statuses in one read: per funder and status, summed from the
 * recipients' edges, ordered by the total alone, `bothStatusRows(top)` rows (all of them without
 * `top`). Over listed recipient nodes, or over the recipients of one name key that have a recipient
 * rollup (what the exact-name step of the resolution selects; see `recipientTotalsOf`).
 *
 * One read instead of one per status: on Virtuoso each request costs ~1 ms of the engine's CPU
 * before any work and each query a few more to compile, about as much as a typical recipient's
 * whole answer (1 M SYNTHETIC edges: 6.8 ms of engine CPU for this read against 6.4 + 6.4 ms for
 * the two). A status's rows here are its largest by total (a prefix of its order, ties at the last
 * total aside), so the caller keeps them when there are `top` + 1 of them, or when the read
 * returned fewer rows than it asked for (then it holds every pair); only a status cut short by
 * the other's rows is read again on its own.
 */
export function reverseFundersBoth(iris: GrantIris, over: { nodes: readonly string[] } | { key: string }, top?: number): string {
  // the status open, not bound by VALUES: a grant list has one of the two (model.ts), and on Virtuoso
  // a VALUES over ?status made the hottest recipient's read 3× slower (7.8 M edges: 139 against 48 ms
  // of the engine's CPU)
  const q = 'nodes' in over
    ? sparql`SELECT ?f ?status (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE {
  GRAPH ${T(iris.graph)} { VALUES ?r { ${list(over.nodes)} } ?e ${T(G.recipient)} ?r ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ?status ; ${T(G.funder)} ?f }
} GROUP BY ?f ?status ORDER BY DESC(?total)`
    : sparql`SELECT ?f ?status (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE {
  GRAPH ${T(iris.graph)} { ?r ${T(G.nameKey)} ${lit(over.key)} . ?e ${T(G.recipient)} ?r ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ?status ; ${T(G.funder)} ?f }
  FILTER EXISTS { GRAPH ${T(iris.rollups)} { ?x ${T(G.rollupRecipient)} ?r } }
} GROUP BY ?f ?status ORDER BY DESC(?total)`;
  return top ? `${q} LIMIT ${bothStatusRows(top)}` : q;
}

const sparqlIri = (x: string) => `<${iri(x).value}>`;

/**
 * A query over funders (`?f`, with `?status ?total ?n`) with each funder's name, EIN and state
 * read in the same round trip: the lowest of each where a filer wrote several, the rule
 * `orgDetailsOf` applies. Rows keep the inner query's order (largest total first).
 */
export function withFunderNames(iris: GrantIris, inner: string): string {
  const g = iriRef(iris.graph);
  return composed('withFunderNames', (q, query: string) => `SELECT ?f ?status ?total ?n (MIN(?nm) AS ?name) (MIN(?tid) AS ?ein) (MIN(?st) AS ?state) WHERE {
  { ${q(query)} }
  OPTIONAL { GRAPH ${g} { ?f <${SDO.name}> ?nm } }
  OPTIONAL { GRAPH ${g} { ?f <${SDO.taxID}> ?tid } }
  OPTIONAL { GRAPH ${g} { ?f <${SDO.addressRegion}> ?st } }
} GROUP BY ?f ?status ?total ?n ORDER BY DESC(?total) ?f`, [''], inner);
}

/**
 * The reverse reads over the recipients whose name key is `key` — what the exact-name step of the
 * resolution selects (`orgsByNameKey`: the name key, and a recipient rollup) — instead of listed
 * IRIs: sent beside the name resolution, so a reverse answer whose recipient the name alone decides
 * takes one round trip, not two. The key is a pattern of the same query, not a sub-query: Virtuoso
 * answered three such reads in parallel in 35–42 ms this way against 65 ms with the selection as a
 * sub-query (1 M SYNTHETIC edges). The caller keeps the rows only when the resolution selected
 * exactly the recipients they name.
 */
export function recipientTotalsOf(iris: GrantIris, key: string): string {
  return sparql`SELECT ?r ?status ?total ?n ?k WHERE {
  GRAPH ${T(iris.graph)} { ?r ${T(G.nameKey)} ${lit(key)} }
  GRAPH ${T(iris.rollups)} { ?x ${T(G.rollupRecipient)} ?r ; ${T(RDF.type)} ${T(G.RecipientRollup)} ; ${T(G.paymentStatus)} ?status ; ${T(G.totalAmount)} ?total ; ${T(G.grantCount)} ?n ; ${T(G.counterpartCount)} ?k }
}`;
}

/** `reverseFunders` of one payment status over the recipients whose name key is `key` and that have a recipient rollup (see `recipientTotalsOf`). */
export function reverseFundersOf(iris: GrantIris, key: string, opts: { status: string; top?: number }): string {
  // as `reverseFundersCut`: ordered by the total alone, one row past the cut to show a tie across it
  const q = sparql`SELECT ?f (${T(opts.status)} AS ?status) (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE {
  GRAPH ${T(iris.graph)} { ?r ${T(G.nameKey)} ${lit(key)} . ?e ${T(G.recipient)} ?r ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ${T(opts.status)} ; ${T(G.funder)} ?f }
  FILTER EXISTS { GRAPH ${T(iris.rollups)} { ?x ${T(G.rollupRecipient)} ?r } }
} GROUP BY ?f ORDER BY DESC(?total)`;
  return opts.top ? `${q} LIMIT ${Math.trunc(opts.top) + 1}` : q;
}

/** Distinct funders of several recipient nodes per payment status, from their edges (one node: its recipient rollup's counterpart count). */
export function reverseFunderCount(iris: GrantIris, recipients: readonly string[]): string {
  return sparql`SELECT ?status (COUNT(DISTINCT ?f) AS ?k) WHERE {
  GRAPH ${T(iris.graph)} { VALUES ?r { ${list(recipients)} } ?e ${T(G.recipient)} ?r ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ?status ; ${T(G.funder)} ?f }
} GROUP BY ?status`;
}

/**
 * Pair totals, each from the pair rollup or — a pair of one grant has none — from that grant:
 * `?f ?r ?status ?total ?n`, one row per pair and status. Funders and recipients as VALUES (either
 * may be left open, but not both); the status fixed or open.
 */
function pairs(iris: GrantIris, funders: readonly string[] | null, recipients: readonly string[] | null, status: string | null): string {
  const vf = funders ? `VALUES ?f { ${funders.map(sparqlIri).join(' ')} }` : '';
  const vr = recipients ? `VALUES ?r { ${recipients.map(sparqlIri).join(' ')} }` : '';
  const st = status ? sparqlIri(status) : '?status';
  const bind = status ? `BIND(${st} AS ?status)` : '';
  const g = iriRef(iris.graph), ro = iriRef(iris.rollups);
  return `{ GRAPH ${ro} { ${vf} ${vr} ?x <${G.rollupFunder}> ?f ; a <${G.PairRollup}> ; <${G.rollupRecipient}> ?r ; <${G.paymentStatus}> ${st} ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n } ${bind} }
  UNION
  { GRAPH ${g} { ${vf} ?l <${G.funder}> ?f ; <${G.paymentStatus}> ${st} . ?e <${PROV.wasDerivedFrom}> ?l ; <${G.recipient}> ?r ; <${G.amount}> ?total . ${vr} }
    FILTER NOT EXISTS { GRAPH ${ro} { ?y <${G.rollupFunder}> ?f ; <${G.rollupRecipient}> ?r ; <${G.paymentStatus}> ${st} } }
    BIND(1 AS ?n) ${bind} }`;
}

/** Recipients of a funder ranked by total of one status (the funder's "largest recipients"), one row per pair. */
export function topRecipientsOf(iris: GrantIris, funders: readonly string[], status: string, limit: number, over?: AmountTest): string {
  return checked(`SELECT ?r ?total ?n WHERE {\n  ${pairs(iris, funders, null, status)}\n  ${notUnnamed(iris, '?r')}\n  ${over ? `FILTER(${amountTest(over)})` : ''}\n} ORDER BY DESC(?total) ?r LIMIT ${Math.trunc(limit)}`);
}

/** A paid total compared with an amount a question set ("more than $1 million"). */
export interface AmountTest { op: '>' | '>=' | '<' | '<='; value: number }

/** `?total <op> <value>`: the operator from its four, the value a finite number written as a decimal. */
function amountTest(t: AmountTest): string {
  if (!['>', '>=', '<', '<='].includes(t.op) || !Number.isFinite(t.value) || Math.abs(t.value) >= 1e15) throw new Error(`not an amount test: ${JSON.stringify(t)}`);
  return `?total ${t.op} ${t.value.toFixed(2)}`;
}

/** How many of some funders' named recipients (placeholders aside) there are, and how many pass an amount test (one row). */
export function recipientsOverCount(iris: GrantIris, funders: readonly string[], status: string, over: AmountTest): string {
  return checked(`SELECT (COUNT(?r) AS ?all) (SUM(IF(${amountTest(over)}, 1, 0)) AS ?kept) WHERE {\n  ${pairs(iris, funders, null, status)}\n  ${notUnnamed(iris, '?r')}\n}`);
}

/** How many funders gave to one state's organizations, and how many of them pass an amount test (one row, from the funder–state rollups). */
export function fundersInStateOverCount(iris: GrantIris, state: string, status: string, over: AmountTest): string {
  return tagged([`SELECT (COUNT(?o) AS ?all) (SUM(IF(${amountTest(over)}, 1, 0)) AS ?kept) WHERE {
  GRAPH ${iriRef(iris.rollups)} { ?x a <${G.FunderStateRollup}> ; <${G.rollupFunder}> ?o ; <${G.rollupState}> `, ` ; <${G.paymentStatus}> ${sparqlIri(status)} ; <${G.totalAmount}> ?total }
}`], [lit(state.toUpperCase())]);
}

/** Leaves out a recipient whose filed name is a placeholder (unnamed.ts): no organization to rank. */
const notUnnamed = (iris: GrantIris, v: string): string => `FILTER NOT EXISTS { GRAPH ${iriRef(iris.rollups)} { ${v} a <${G.UnnamedRecipient}> } }`;

/** Intersection, fast form: the distinct recipients of each funder set, joined on the recipient. */
export function intersection(iris: GrantIris, a: readonly string[], b: readonly string[]): string {
  return sparql`SELECT ?r WHERE {
  { SELECT DISTINCT ?r WHERE { GRAPH ${T(iris.graph)} { VALUES ?f1 { ${list(a)} } ?l1 ${T(G.funder)} ?f1 . ?e1 ${T(PROV.wasDerivedFrom)} ?l1 ; ${T(G.recipient)} ?r } } }
  { SELECT DISTINCT ?r WHERE { GRAPH ${T(iris.graph)} { VALUES ?f2 { ${list(b)} } ?l2 ${T(G.funder)} ?f2 . ?e2 ${T(PROV.wasDerivedFrom)} ?l2 ; ${T(G.recipient)} ?r } } }
}`;
}

/** Pair totals for given funders and recipients (the amounts beside an intersection): rollup or edge. */
export function pairTotals(iris: GrantIris, funders: readonly string[], recipients: readonly string[]): string {
  return checked(`SELECT ?f ?r ?status ?total ?n WHERE {\n  ${pairs(iris, funders, recipients, null)}\n}`);
}

export type RankSubject = 'funder' | 'recipient' | 'state';

/** Graph-wide ranking from rollups: largest funders, recipients or recipient states by total of one status. */
export function ranking(iris: GrantIris, subject: RankSubject, status: string, limit: number, order: 'desc' | 'asc' = 'desc'): string {
  const cls = subject === 'funder' ? G.FunderRollup : subject === 'recipient' ? G.RecipientRollup : G.StateRollup;
  const key = subject === 'funder' ? G.rollupFunder : subject === 'recipient' ? G.rollupRecipient : G.rollupState;
  // a recipient whose filed name is a placeholder ("SEE ATTACHED SCHEDULE") is no organization to rank (unnamed.ts)
  const q = subject === 'recipient'
    ? sparql`SELECT ?o ?total ?n ?k WHERE {
  GRAPH ${T(iris.rollups)} { ?x ${T(RDF.type)} ${T(cls)} ; ${T(key)} ?o ; ${T(G.paymentStatus)} ${T(status)} ; ${T(G.totalAmount)} ?total ; ${T(G.grantCount)} ?n ; ${T(G.counterpartCount)} ?k
    FILTER NOT EXISTS { ?o ${T(RDF.type)} ${T(G.UnnamedRecipient)} } }
} ORDER BY DESC(?total) ?o LIMIT ${Math.trunc(limit)}`
    : sparql`SELECT ?o ?total ?n ?k WHERE {
  GRAPH ${T(iris.rollups)} { ?x ${T(RDF.type)} ${T(cls)} ; ${T(key)} ?o ; ${T(G.paymentStatus)} ${T(status)} ; ${T(G.totalAmount)} ?total ; ${T(G.grantCount)} ?n ; ${T(G.counterpartCount)} ?k }
} ORDER BY DESC(?total) ?o LIMIT ${Math.trunc(limit)}`;
  return order === 'asc' ? q.replace('ORDER BY DESC(?total)', 'ORDER BY ASC(?total)') : q;
}

/** Totals of grants to recipients in some states, optionally from some funders only. */
export function stateTotals(iris: GrantIris, states: readonly string[], funders?: readonly string[]): string {
  const st = states.map((s) => lit(s.toUpperCase()));
  if (funders && funders.length > 0) {
    return sparql`SELECT ?f ?st ?status ?total ?n ?k WHERE {
  GRAPH ${T(iris.rollups)} { VALUES ?f { ${list(funders)} } VALUES ?st { ${st} } ?x ${T(RDF.type)} ${T(G.FunderStateRollup)} ; ${T(G.rollupFunder)} ?f ; ${T(G.rollupState)} ?st ; ${T(G.paymentStatus)} ?status ; ${T(G.totalAmount)} ?total ; ${T(G.grantCount)} ?n ; ${T(G.counterpartCount)} ?k }
}`;
  }
  return sparql`SELECT ?st ?status ?total ?n ?k WHERE {
  GRAPH ${T(iris.rollups)} { VALUES ?st { ${st} } ?x ${T(RDF.type)} ${T(G.StateRollup)} ; ${T(G.rollupState)} ?st ; ${T(G.paymentStatus)} ?status ; ${T(G.totalAmount)} ?total ; ${T(G.grantCount)} ?n ; ${T(G.counterpartCount)} ?k }
}`;
}

/**
 * Edges by cause: recipient NTEE code starting with one of `nteeGroups`, or — where the recipient
 * has no NTEE code — purpose text matching `purposePattern` (an XPath regex over lower-case text).
 */
export function causeEdges(iris: GrantIris, nteeGroups: readonly string[], purposePattern: string, funders: readonly string[] = []): string {
  const groups = nteeGroups.length ? nteeGroups.map((g) => lit(g.toUpperCase())) : [lit('-')];
  const pattern = sparql`SELECT * WHERE {
    ?l ${T(G.funder)} ?f ; ${T(G.paymentStatus)} ?status ; ${T(G.taxYear)} ?year ; ${T(DCT.isPartOf)} ?filing .
    ?e ${T(PROV.wasDerivedFrom)} ?l ; ${T(G.recipient)} ?r ; ${T(G.amount)} ?amount ; ${T(G.sourceRecord)} ?record .
    OPTIONAL { ?e ${T(G.purpose)} ?purpose }
    OPTIONAL { ?r ${T(G.nteeCode)} ?ntee }
    OPTIONAL { ?e ${T(G.recipientAddress)} ?place . ?place ${T(SDO.addressRegion)} ?fst }
  }`;
  const filter = sparql`SELECT * WHERE { VALUES ?group { ${groups} } FILTER((BOUND(?ntee) && STRSTARTS(?ntee, ?group)) || (!BOUND(?ntee) && BOUND(?purpose) && REGEX(LCASE(?purpose), ${lit(purposePattern)}))) }`;
  const body = (q: string) => q.slice(q.indexOf('{') + 1, q.lastIndexOf('}'));
  // the funders, when given, are bound first (VALUES), so the engine starts from their edges
  const byFunder = funders.length ? sparql`SELECT * WHERE { VALUES ?f { ${list(funders)} } }` : '';
  return checked(`SELECT DISTINCT ?e ?f ?r ?amount ?status ?year ?purpose ?ntee ?filing ?record ?fst WHERE {
  GRAPH ${iriRef(iris.graph)} { ${byFunder ? body(byFunder) : ''} ${body(pattern)} }
  ${body(filter)}
}`);
}

/**
 * Everything the graph says about some organizations, as (subject, property, value) rows; the
 * caller keeps the properties it reads. One pattern, bound by VALUES: OPTIONAL blocks with an
 * unbound subject would make some engines enumerate every organization first.
 */
export function orgDetails(iris: GrantIris, orgs: readonly string[]): string {
  return sparql`SELECT ?o ?p ?v WHERE {
  GRAPH ${T(iris.graph)} { VALUES ?o { ${list(orgs)} } ?o ?p ?v }
}`;
}

/** The organizations an inner `SELECT DISTINCT ?o` selects, with every statement about each (one round trip). */
export function orgsWithDetails(iris: GrantIris, inner: string): string {
  return composed('orgsWithDetails', (q, query: string) => `SELECT ?o ?p ?v WHERE {\n  { ${q(query)} }\n  GRAPH ${iriRef(iris.graph)} { ?o ?p ?v }\n}`, [''], inner);
}

/** Organizations whose name key equals one of `keys`, in a role (funder or recipient, read from the rollups). */
export function orgsByNameKey(iris: GrantIris, keys: readonly string[], role: 'funder' | 'recipient'): string {
  return sparql`SELECT DISTINCT ?o WHERE {
  GRAPH ${T(iris.graph)} { VALUES ?key { ${keys.map((k) => lit(k))} } ?o ${T(G.nameKey)} ?key }
  GRAPH ${T(iris.rollups)} { ?x ${T(role === 'funder' ? G.rollupFunder : G.rollupRecipient)} ?o ; ${T(RDF.type)} ${T(role === 'funder' ? G.FunderRollup : G.RecipientRollup)} }
}`;
}

/** Organizations whose name key holds every word (whole words), in a role. */
export function orgsByWords(iris: GrantIris, words: readonly string[], role: 'funder' | 'recipient', limit = 50): string {
  if (words.length === 0) throw new Error('orgsByWords needs at least one word');
  const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const roleCls = role === 'funder' ? G.FunderRollup : G.RecipientRollup;
  const roleKey = role === 'funder' ? G.rollupFunder : G.rollupRecipient;
  // fixed parts written here, one escaped literal per word between them
  const parts = [
    `SELECT DISTINCT ?o WHERE {\n  GRAPH ${iriRef(iris.rollups)} { ?x a <${roleCls}> ; <${roleKey}> ?o }\n  GRAPH ${iriRef(iris.graph)} { ?o <${G.nameKey}> ?key }\n  FILTER(CONTAINS(?key, `,
    ...words.map(() => ') && REGEX(?key, '),
    `))\n} LIMIT ${Math.trunc(limit)}`,
  ];
  return tagged(parts, [lit(words[0]!), ...words.map((w) => lit(`(^| )${esc(w)}( |$)`))]);
}

/** Organizations in the graph with one of these EINs, in a role. */
export function orgsByEin(iris: GrantIris, orgIris: readonly string[], role: 'funder' | 'recipient'): string {
  return sparql`SELECT DISTINCT ?o WHERE {
  GRAPH ${T(iris.rollups)} { VALUES ?o { ${list(orgIris)} } ?x ${T(role === 'funder' ? G.rollupFunder : G.rollupRecipient)} ?o ; ${T(RDF.type)} ${T(role === 'funder' ? G.FunderRollup : G.RecipientRollup)} }
}`;
}

/**
 * The graph's coverage as the ingest counted it (the coverage rollup: one row per tax year) with the
 * graph's flags; no filing is scanned. A graph written before the coverage rollup existed returns
 * no counts, and `coverageScan` reads its filings instead.
 */
export function coverageSummary(iris: GrantIris): string {
  // read on every question: written from checked IRIs and parsed once per process (sparqljs takes
  // 11–16 ms to parse this text, more than the store takes to answer it)
  return composed('coverageSummary', (_q, g: string, ro: string, cov: string) => `SELECT ?filings ?funders ?docs ?year ?complete ?release ?synthetic ?unfinished ?layout WHERE {
  OPTIONAL { GRAPH ${ro} { ${cov} <${G.filingCount}> ?filings ; <${G.funderCount}> ?funders ; <${G.documentCount}> ?docs . OPTIONAL { ${cov} <${G.taxYear}> ?year } } }
  OPTIONAL { GRAPH ${g} { ${g} <${G.coverageComplete}> ?complete } }
  OPTIONAL { GRAPH ${g} { ${g} <${G.synthetic}> ?synthetic } }
  OPTIONAL { GRAPH ${g} { ${g} <${G.ingestStartedAt}> ?unfinished } }
  OPTIONAL { GRAPH ${g} { ${g} <${G.layout}> ?layout } }
  OPTIONAL { GRAPH ${g} { ${g} <http://purl.org/dc/terms/description> ?release } }
}`, ['<urn:g>', '<urn:r>', '<urn:c>'], iriRef(iris.graph), iriRef(iris.rollups), iriRef(iris.rollup('coverage')));
}

/** The filings the graph holds, with the documents they came from (a graph without a coverage rollup). */
export function coverageScan(iris: GrantIris): string {
  return sparql`SELECT ?filing ?funder ?year ?doc WHERE {
  GRAPH ${T(iris.graph)} { ?filing ${T(RDF.type)} ${T(G.Filing)} ; ${T(G.funder)} ?funder ; ${T(G.taxYear)} ?year ; ${T(PROV.wasDerivedFrom)} ?doc }
}`;
}

/**
 * The source documents an answer stands on, with what a citation needs (title, hash, kind, upstream,
 * where, when ingested), in IRI order: the documents of some filings, and of every filing of some
 * funders. With neither, the graph's documents. At most `limit`.
 */
export function answerDocuments(iris: GrantIris, opts: { filings?: readonly string[]; funders?: readonly string[]; limit: number }): string {
  const g = T(iris.graph);
  const limit = Math.max(1, Math.trunc(opts.limit));
  const filings = opts.filings ?? [];
  const funders = opts.funders ?? [];
  const details = sparql`SELECT ?d ?title ?sha ?kind ?upstream ?at ?t WHERE { GRAPH ${g} { ?d <http://purl.org/dc/terms/title> ?title ; ${T(G.sha256)} ?sha ; ${T(G.sourceKind)} ?kind . OPTIONAL { ?d ${T(PROV.hadPrimarySource)} ?upstream } OPTIONAL { ?d ${T(PROV.atLocation)} ?at } OPTIONAL { ?d ${T(PROV.generatedAtTime)} ?t } } }`;
  const pick = filings.length === 0 && funders.length === 0
    ? sparql`SELECT DISTINCT ?d WHERE { GRAPH ${g} { ?filing ${T(RDF.type)} ${T(G.Filing)} ; ${T(PROV.wasDerivedFrom)} ?d } } ORDER BY ?d LIMIT ${limit}`
    : sparql`SELECT DISTINCT ?d WHERE { GRAPH ${g} { { VALUES ?filing { ${list(filings)} } ?filing ${T(PROV.wasDerivedFrom)} ?d } UNION { VALUES ?f { ${list(funders)} } ?filing ${T(G.funder)} ?f ; ${T(PROV.wasDerivedFrom)} ?d } } } ORDER BY ?d LIMIT ${limit}`;
  // the pick as a sub-query of the details, both already checked: one round trip
  const body = details.slice(details.indexOf('WHERE {') + 'WHERE {'.length, details.lastIndexOf('}'));
  return composed('answerDocuments', (q, query: string) => `SELECT ?d ?title ?sha ?kind ?upstream ?at ?t WHERE {\n  { ${q(query)} }\n ${body}\n} ORDER BY ?d`, [''], pick);
}

/**
 * The slow forms of the same questions, for the benchmark only: they scan and group edges where
 * the fast forms read rollups, and intersect with one basic graph pattern.
 */
export const naive = {
  reverse(iris: GrantIris, recipient: string): string {
    return sparql`SELECT ?f ?status (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE { GRAPH ${T(iris.graph)} { ?e ${T(G.recipient)} ${T(recipient)} ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.funder)} ?f ; ${T(G.paymentStatus)} ?status } } GROUP BY ?f ?status ORDER BY DESC(?total)`;
  },
  intersection(iris: GrantIris, a: string, b: string): string {
    return sparql`SELECT DISTINCT ?r WHERE { GRAPH ${T(iris.graph)} { ?l1 ${T(G.funder)} ${T(a)} . ?e1 ${T(PROV.wasDerivedFrom)} ?l1 ; ${T(G.recipient)} ?r . ?e2 ${T(G.recipient)} ?r ; ${T(PROV.wasDerivedFrom)} ?l2 . ?l2 ${T(G.funder)} ${T(b)} } }`;
  },
  /** A state's paid total grouped from the edges by the address filed for each grant (what the state rollup holds). */
  stateTotal(iris: GrantIris, state: string): string {
    return sparql`SELECT (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE { GRAPH ${T(iris.graph)} { ?p ${T(SDO.addressRegion)} ${lit(state)} . ?e ${T(G.recipientAddress)} ?p ; ${T(G.amount)} ?a ; ${T(PROV.wasDerivedFrom)} ?l . ?l ${T(G.paymentStatus)} ${T(G.Paid)} } }`;
  },
  topFunders(iris: GrantIris, limit: number): string {
    return sparql`SELECT ?f (SUM(?a) AS ?total) WHERE { GRAPH ${T(iris.graph)} { ?l ${T(G.funder)} ?f ; ${T(G.paymentStatus)} ${T(G.Paid)} . ?e ${T(PROV.wasDerivedFrom)} ?l ; ${T(G.amount)} ?a } } GROUP BY ?f ORDER BY DESC(?total) LIMIT ${Math.trunc(limit)}`;
  },
};

/*
 * Readings beside the directions above (averages, single grants, rankings by count, two recipients'
 * shared funders, a state's funders). Each is bounded by what it names: one funder's or one
 * recipient's edges, or rollups read in order; none scans every edge of the graph.
 */

/**
 * Some funders' largest single grants of one payment status (optionally one tax year): their own
 * edges, ordered by amount — bounded by those funders' edges.
 */
export function largestEdgesOf(iris: GrantIris, funders: readonly string[], status: string, limit: number, taxYear?: number, order: 'desc' | 'asc' = 'desc'): string {
  const q = forwardEdges(iris, funders, taxYear);
  // a line filed to a placeholder ("SEE ATTACHED SCHEDULE") may total several grants: not a single grant to rank (unnamed.ts)
  return checked(`${q.slice(0, q.lastIndexOf('}'))} FILTER(?status = ${sparqlIri(status)})\n  ${notUnnamed(iris, '?r')}\n} ORDER BY ${order === 'asc' ? 'ASC' : 'DESC'}(?amount) ?e LIMIT ${Math.trunc(limit)}`);
}

/**
 * The edges to some recipients with what an edge row needs (funder, status, year, filing, record,
 * purpose): optionally of one status, one tax year, the largest `limit` only. Bounded by the
 * recipients' own edges (the same pattern the reverse traversal groups).
 */
export function edgesToRecipients(iris: GrantIris, recipients: readonly string[], opts: { status?: string; taxYear?: number; limit?: number; order?: 'desc' | 'asc' } = {}): string {
  const year = opts.taxYear === undefined ? -1 : Math.trunc(opts.taxYear);
  const st = opts.status ? sparqlIri(opts.status) : '?status';
  const g = iriRef(iris.graph);
  const vr = `VALUES ?r { ${recipients.map(sparqlIri).join(' ')} }`;
  const body = `GRAPH ${g} { ${vr}
    ?e <${G.recipient}> ?r ; <${G.amount}> ?amount ; <${PROV.wasDerivedFrom}> ?l ; <${G.sourceRecord}> ?record .
    ?l <${G.funder}> ?f ; <${G.paymentStatus}> ${st} ; <${G.taxYear}> ?year ; <${DCT.isPartOf}> ?filing .
    OPTIONAL { ?e <${G.purpose}> ?purpose }
    OPTIONAL { ?e <${G.cashAmount}> ?cash }
    OPTIONAL { ?e <${G.nonCashAmount}> ?noncash }
    OPTIONAL { ?e <${G.recipientAddress}> ?place . ?place <${SDO.addressRegion}> ?fst }
  }
  ${opts.status ? `BIND(${st} AS ?status)` : ''}
  FILTER(${year} < 0 || ?year = ${year})`;
  const tail = opts.limit ? ` ORDER BY ${opts.order === 'asc' ? 'ASC' : 'DESC'}(?amount) ?e LIMIT ${Math.trunc(opts.limit)}` : '';
  return checked(`SELECT ?e ?f ?r ?amount ?status ?year ?purpose ?cash ?noncash ?filing ?record ?fst WHERE {\n  ${body}\n}${tail}`);
}

/** Funders by paid total, largest first, a page at a time (`offset`): the order a threshold search over funders reads them in. */
export function fundersByTotal(iris: GrantIris, status: string, limit: number, offset = 0): string {
  return checked(`SELECT ?o ?total ?n WHERE {
  GRAPH ${iriRef(iris.rollups)} { ?x a <${G.FunderRollup}> ; <${G.rollupFunder}> ?o ; <${G.paymentStatus}> ${sparqlIri(status)} ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n }
} ORDER BY DESC(?total) ?o LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`);
}

/** Graph-wide ranking of funders or recipients by the number of grants of one status (ties by total, then IRI), from their rollups. */
export function rankingByCount(iris: GrantIris, subject: 'funder' | 'recipient', status: string, limit: number, order: 'desc' | 'asc' = 'desc'): string {
  const cls = subject === 'funder' ? G.FunderRollup : G.RecipientRollup;
  const key = subject === 'funder' ? G.rollupFunder : G.rollupRecipient;
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  return checked(`SELECT ?o ?total ?n ?k WHERE {
  GRAPH ${iriRef(iris.rollups)} { ?x a <${cls}> ; <${key}> ?o ; <${G.paymentStatus}> ${sparqlIri(status)} ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n ; <${G.counterpartCount}> ?k }
  ${subject === 'recipient' ? notUnnamed(iris, '?o') : ''}
} ORDER BY ${dir}(?n) ${dir}(?total) ?o LIMIT ${Math.trunc(limit)}`);
}

/** A funder's recipients ranked by the number of grants of one status (pair rollup or edge), ties by total. */
export function topRecipientsOfByCount(iris: GrantIris, funders: readonly string[], status: string, limit: number): string {
  return checked(`SELECT ?r ?total ?n WHERE {\n  ${pairs(iris, funders, null, status)}\n  ${notUnnamed(iris, '?r')}\n} ORDER BY DESC(?n) DESC(?total) ?r LIMIT ${Math.trunc(limit)}`);
}

/**
 * The funders two recipient sets share, fast form (the mirror of `intersection`): the distinct
 * funders of each set's edges, joined on the funder — bounded by the two recipients' edges.
 */
export function commonFunders(iris: GrantIris, a: readonly string[], b: readonly string[]): string {
  return sparql`SELECT ?f WHERE {
  { SELECT DISTINCT ?f WHERE { GRAPH ${T(iris.graph)} { VALUES ?r1 { ${list(a)} } ?e1 ${T(G.recipient)} ?r1 ; ${T(PROV.wasDerivedFrom)} ?l1 . ?l1 ${T(G.funder)} ?f } } }
  { SELECT DISTINCT ?f WHERE { GRAPH ${T(iris.graph)} { VALUES ?r2 { ${list(b)} } ?e2 ${T(G.recipient)} ?r2 ; ${T(PROV.wasDerivedFrom)} ?l2 . ?l2 ${T(G.funder)} ?f } } }
}`;
}

/**
 * Funders ranked by what they gave to recipients in one state (one status), from the funder–state
 * rollups: one row per funder that gave there, read in order — the same rollups the geographic
 * reading reads one funder at a time.
 */
export function fundersInState(iris: GrantIris, state: string, status: string, limit: number, by: 'amount' | 'count' = 'amount', over?: AmountTest): string {
  const order = by === 'count' ? 'DESC(?n) DESC(?total)' : 'DESC(?total)';
  return tagged([`SELECT ?o ?total ?n ?k WHERE {
  GRAPH ${iriRef(iris.rollups)} { ?x a <${G.FunderStateRollup}> ; <${G.rollupFunder}> ?o ; <${G.rollupState}> `, ` ; <${G.paymentStatus}> ${sparqlIri(status)} ; <${G.totalAmount}> ?total ; <${G.grantCount}> ?n ; <${G.counterpartCount}> ?k }
  ${over ? `FILTER(${amountTest(over)})` : ''}
} ORDER BY ${order} ?o LIMIT ${Math.trunc(limit)}`], [lit(state.toUpperCase())]);
}

/** The graph's paid and approved-for-future totals and grant counts: the funder rollups summed (one row per funder and status). */
export function graphTotals(iris: GrantIris): string {
  return checked(`SELECT ?status (SUM(?t) AS ?total) (SUM(?c) AS ?n) WHERE {
  GRAPH ${iriRef(iris.rollups)} { ?x a <${G.FunderRollup}> ; <${G.paymentStatus}> ?status ; <${G.totalAmount}> ?t ; <${G.grantCount}> ?c }
} GROUP BY ?status`);
}

/**
 * One recipient's funders ranked by the number of paid grants each made it (ties by total, then
 * funder), the largest `limit`: grouped and cut by the engine over the recipient's own edges, so a
 * hot recipient's answer reads `limit` rows, not one per grant.
 */
export function fundersOfByCount(iris: GrantIris, recipients: readonly string[], limit: number): string {
  const g = iriRef(iris.graph);
  return checked(`SELECT ?f (SUM(?a) AS ?total) (COUNT(?e) AS ?n) WHERE {
  GRAPH ${g} { VALUES ?r { ${recipients.map(sparqlIri).join(' ')} } ?e <${G.recipient}> ?r ; <${G.amount}> ?a ; <${PROV.wasDerivedFrom}> ?l . ?l <${G.paymentStatus}> <${G.Paid}> ; <${G.funder}> ?f }
} GROUP BY ?f ORDER BY DESC(?n) DESC(?total) ?f LIMIT ${Math.trunc(limit) + 1}`);
}

/*
 * Units of an organization filed as recipients ("University of Chicago - Urban Labs"; units.ts).
 */

/** Name-keyed recipients (no EIN) whose filed name holds " - ": the candidates for a unit of a parent. */
export function unitCandidates(iris: GrantIris): string {
  return sparql`SELECT ?o ?name WHERE {
  GRAPH ${T(iris.graph)} { ?o ${T(G.nameKey)} ?k ; ${T(SDO.name)} ?name . FILTER(CONTAINS(?name, " - ")) FILTER NOT EXISTS { ?o ${T(SDO.taxID)} ?t } }
}`;
}

/** Which of these cities (as place nodes key them: upper case) a filer gave as an address in the graph. */
export function filedCities(iris: GrantIris, cities: readonly string[]): string {
  return sparql`SELECT DISTINCT ?c WHERE {
  GRAPH ${T(iris.graph)} { VALUES ?c { ${cities.map((c) => lit(c))} } ?p ${T(SDO.addressLocality)} ?c ; ${T(RDF.type)} ${T(SDO.PostalAddress)} }
}`;
}

/** The units (recipients with a recipient rollup) whose parent's name key is one of `keys`. */
export function unitsOf(iris: GrantIris, keys: readonly string[]): string {
  return sparql`SELECT DISTINCT ?o WHERE {
  GRAPH ${T(iris.rollups)} { VALUES ?key { ${keys.map((k) => lit(k))} } ?o ${T(G.parentNameKey)} ?key . ?x ${T(G.rollupRecipient)} ?o ; ${T(RDF.type)} ${T(G.RecipientRollup)} }
}`;
}

/** Recipients whose filed name opens as a placeholder may ("SEE …", "PER ATTACHED", "VARIOUS"): the candidates unnamed.ts tests in full. */
export function unnamedCandidates(iris: GrantIris): string {
  return sparql`SELECT ?o ?name WHERE {
  GRAPH ${T(iris.graph)} { ?o ${T(G.nameKey)} ?k ; ${T(SDO.name)} ?name . FILTER(REGEX(?name, ${lit('^\\s*(see|per|attached|various)')}, "i")) }
}`;
}

/** The unnamed recipients (unnamed.ts) a graph-wide ranking of recipients leaves out: how many, and their paid grants. */
export function unnamedInGraph(iris: GrantIris): string {
  return sparql`SELECT ?o ?total ?n WHERE {
  GRAPH ${T(iris.rollups)} { ?o ${T(RDF.type)} ${T(G.UnnamedRecipient)} . ?x ${T(G.rollupRecipient)} ?o ; ${T(RDF.type)} ${T(G.RecipientRollup)} ; ${T(G.paymentStatus)} ${T(G.Paid)} ; ${T(G.totalAmount)} ?total ; ${T(G.grantCount)} ?n }
}`;
}

/** The unnamed recipients of some funders' paid grants, with the pair totals a ranking of their recipients leaves out. */
export function unnamedOf(iris: GrantIris, funders: readonly string[]): string {
  return checked(`SELECT ?r ?total ?n WHERE {\n  ${pairs(iris, funders, null, G.Paid)}\n  GRAPH ${iriRef(iris.rollups)} { ?r a <${G.UnnamedRecipient}> }\n}`);
}

/** Which of these recipients are unnamed (unnamed.ts). */
export function unnamedAmong(iris: GrantIris, orgs: readonly string[]): string {
  return sparql`SELECT ?o WHERE { GRAPH ${T(iris.rollups)} { VALUES ?o { ${list(orgs)} } ?o ${T(RDF.type)} ${T(G.UnnamedRecipient)} } }`;
}
