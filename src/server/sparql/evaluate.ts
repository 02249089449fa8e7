/**
 * One endpoint job against one store: parse, classify, negotiate, cap, evaluate, serialize
 * (or, for a `void` job, mine the store's VoID figures off the main thread).
 * Runs inside a query worker (src/server/sparql/worker.ts) against that worker's replica, so
 * anything here may be slow or fault: the pool stops it from outside. Pure otherwise: the
 * job carries every limit and policy; nothing is read from module state.
 *
 * Dataset: with no FROM / FROM NAMED in the query and no default-graph-uri / named-graph-uri
 * in the request, the default graph is the union of all graphs (Assay keeps its data in
 * named graphs; the service description says sd:UnionDefaultGraph). Protocol graphs replace
 * the query's own dataset, as the protocol requires.
 *
 * Row cap: SELECT/CONSTRUCT/DESCRIBE without a LIMIT at or under maxRows get LIMIT maxRows+1.
 * SELECT then materialises SPARQL-JSON, keeps maxRows rows and flags the cut; a query whose
 * own LIMIT is within the cap cannot be cut, so oxigraph serializes it directly (fast path).
 * CONSTRUCT/DESCRIBE count triples (cut at maxRows) and, when the injected LIMIT could have
 * cut solutions without the triple count showing it, probe for a solution past the cap.
 */
import type { Query, Update, Pattern } from 'sparqljs';
import sparqljs from 'sparqljs';
import { RdfStore, type QueryOptions } from '../../rdf/store.ts';
import { SparqlError, toReply, type ErrorReply } from './errors.ts';
import { capRows, clearIsSilent, generate, parseOperation, refuseRemote, refuseRemoteGraphs, isDeterministic, refuseRemoteReferences, remoteReferences, withUsingGraphs, type Parsed, type RemoteReference } from './classify.ts';
import { ASK_OFFERS, RDF_OFFERS, RESULTS_JSON, SELECT_OFFERS, negotiate, offered, type Offer } from './negotiate.ts';
import { serializeResults, type JsonResults } from './results.ts';
import { updateEffect, type UpdateEffect } from './update-delta.ts';
import { voidFigures, type StoreFigures } from '../../void/compute.ts';
import { graphSource } from '../../void/kept.ts';
import { fromDumpable, mine, toJson } from '../../../introspect/index.ts';

export interface Policy {
  /** Base for relative IRIs in requests (the endpoint's own URL). */
  baseIri: string;
  /** Assay's IRI base: graphs under it are local even when empty. */
  localBase: string;
  allowedRemoteHosts: readonly string[];
}

export interface QueryJob extends Policy {
  kind: 'query';
  text: string;
  defaultGraphs: string[];
  namedGraphs: string[];
  accept: string | undefined;
  maxRows: number;
  /** IRI put in the results head when a result was cut. */
  truncationLink: string;
  /**
   * Check defaultGraphs/namedGraphs against the remote policy, as FROM is (set for the protocol's
   * default-graph-uri/named-graph-uri from a client; Assay's own jobs select graphs they name).
   */
  checkDatasetGraphs?: boolean;
}

export interface UpdateCheckJob extends Policy {
  kind: 'update-check';
  text: string;
  usingGraphs: string[];
  usingNamedGraphs: string[];
}

/**
 * Run a SPARQL Update against the replica and return its effect (update-delta.ts), leaving the
 * replica as it was. `atSeq` is the store's sequence number the effect must be computed at.
 */
export interface UpdateJob extends Policy {
  kind: 'update';
  text: string;
  usingGraphs: string[];
  usingNamedGraphs: string[];
  atSeq: number;
  maxQuads: number;
}

/** Mine the replica's VoID figures (src/void/compute.ts); slow on large stores, hence a worker. */
export interface VoidJob {
  kind: 'void';
}

/** Mine one graph (or the whole store) with introspect/ for a schema card; returned as sidecar JSON. */
export interface MineJob {
  kind: 'mine';
  /** Graph IRI, '' for the default graph; absent = every graph together. */
  graph?: string;
}

export type Job = QueryJob | UpdateCheckJob | UpdateJob | VoidJob | MineJob;

export interface QueryReply {
  ok: true;
  kind: 'query';
  contentType: string;
  body: string;
  truncated: boolean;
  /** SELECT rows or CONSTRUCT/DESCRIBE triples returned. */
  count?: number;
  /** The same query over the same data gives this same answer (no NOW(), RAND(), …): it may be remembered until the next write. */
  cacheable?: boolean;
}

export interface UpdateCheckReply {
  ok: true;
  kind: 'update-check';
  /** The checked update, regenerated from its syntax tree (what the store must run). */
  sparql: string;
}

export interface UpdateReply {
  ok: true;
  kind: 'update';
  /** The checked update as text (what the owner runs itself when the effect is not portable). */
  sparql: string;
  effect: UpdateEffect;
}

export interface VoidReply {
  ok: true;
  kind: 'void';
  figures: StoreFigures;
}

export interface MineReply {
  ok: true;
  kind: 'mine';
  /** The mined result in introspect's sidecar JSON (plain data crosses the thread boundary). */
  json: string;
}

/** `poisoned`: the engine trapped; the worker that ran this must be thrown away. */
export type Reply = QueryReply | UpdateCheckReply | UpdateReply | VoidReply | MineReply | (ErrorReply & { poisoned?: boolean });

/**
 * A worker's memo of queries already parsed, capped and regenerated, keyed by the query text
 * and the limits that shape the rewrite. Parsing with sparqljs and generating the text again
 * cost more than evaluating a small lookup, and clients repeat their queries. What depends on
 * the data (whether a FROM graph is local) is still checked on every run. Least recently used
 * entries go first.
 */
export class PreparedQueries {
  readonly #entries = new Map<string, Prepared>();
  constructor(readonly capacity = 256) {}

  get(key: string): Prepared | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: Prepared): void {
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  get size(): number {
    return this.#entries.size;
  }

  readonly #offers = new Map<string, Offer | null>();

  /** negotiate() for a query form, remembered per Accept header (clients send few distinct ones). */
  offer(accept: string | undefined, queryType: string, offers: readonly Offer[]): Offer | undefined {
    const key = `${queryType}\u0000${accept ?? ''}`;
    const hit = this.#offers.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const chosen = negotiate(accept, offers);
    if (this.#offers.size >= OFFER_MEMO) this.#offers.delete(this.#offers.keys().next().value!);
    this.#offers.set(key, chosen ?? null);
    return chosen;
  }
}

/** Distinct (query form, Accept) pairs remembered by PreparedQueries.offer. */
const OFFER_MEMO = 64;

export interface Prepared {
  parsed: Extract<Parsed, { kind: 'query' }>;
  /** Whether capRows added the LIMIT (so a cut is possible). */
  injected: boolean;
  /** The capped query as text, what the store runs. */
  text: string;
  /** SERVICE and FROM / FROM NAMED references (from the tree; whether a FROM graph is local is checked per run). */
  remote: RemoteReference[];
  /** classify.ts isDeterministic. */
  deterministic: boolean;
}

export function runJob(store: RdfStore, job: Job, prepared?: PreparedQueries): Reply {
  try {
    if (job.kind === 'void') return { ok: true, kind: 'void', figures: voidFigures(store) };
    // One graph is read from this replica's kept columns once it was mined (src/void/kept.ts).
    if (job.kind === 'mine') return { ok: true, kind: 'mine', json: toJson(mine(job.graph === undefined ? fromDumpable(store) : graphSource(store, job.graph))) };
    if (job.kind === 'update') return runUpdate(store, job);
    return job.kind === 'query' ? runQuery(store, job, prepared) : checkUpdate(store, job);
  } catch (e) {
    if (e instanceof SparqlError) return toReply(e);
    if (isEngineTrap(e)) {
      return {
        ok: false, code: 'engine-fault', poisoned: true,
        message: `the query engine faulted (${(e as Error).message}): it ran out of memory or stack, which for a query that passed the size, nesting and expression checks means it sorts or holds too much of the store at once (each worker's WebAssembly store is limited to 4 GiB); its worker is being replaced, the data is intact`,
      };
    }
    return { ok: false, code: 'query-failed', message: `the store could not evaluate the request: ${(e as Error).message ?? String(e)}` };
  }
}

/** A WebAssembly trap or stack overflow can leave the oxigraph instance unusable. */
export function isEngineTrap(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError || e instanceof RangeError;
}

export function parse(text: string, baseIri: string): Parsed {
  try {
    return parseOperation(text, baseIri);
  } catch (e) {
    if (e instanceof RangeError) throw new SparqlError('too-deeply-nested', 'the request is too deeply nested for the parser');
    throw e;
  }
}

function policyFor(store: RdfStore, p: Policy) {
  return {
    allowedHosts: p.allowedRemoteHosts,
    isLocalGraph: (iri: string) => iri.startsWith(p.localBase) || graphExists(store, iri),
  };
}

function graphExists(store: RdfStore, iri: string): boolean {
  const ask = {
    type: 'query', queryType: 'ASK', prefixes: {},
    where: [{
      type: 'graph', name: { termType: 'NamedNode', value: iri },
      patterns: [{ type: 'bgp', triples: [{ subject: v('s'), predicate: v('p'), object: v('o') }] }],
    }],
  } as unknown as Query;
  return store.ask(generate(ask));
}

function v(name: string) {
  return { termType: 'Variable', value: name } as const;
}

export function prepare(job: QueryJob, memo: PreparedQueries | undefined): Prepared {
  const key = `${job.maxRows}\u0000${job.baseIri}\u0000${job.text}`;
  const hit = memo?.get(key);
  if (hit) return hit;
  const parsed = parse(job.text, job.baseIri);
  if (parsed.kind !== 'query') {
    throw new SparqlError('syntax-error', 'the `query` parameter holds a SPARQL Update; send it as `update` with POST');
  }
  const remote = remoteReferences(parsed);
  const injected = capRows(parsed.ast, job.maxRows);
  const prepared: Prepared = { parsed, injected, text: generate(parsed.ast), remote, deterministic: isDeterministic(parsed) };
  memo?.set(key, prepared);
  return prepared;
}

function runQuery(store: RdfStore, job: QueryJob, memo?: PreparedQueries): QueryReply {
  const { parsed, injected, text, remote, deterministic } = prepare(job, memo);
  const cacheable = deterministic;
  const datasetGraphs = job.checkDatasetGraphs === true && (job.defaultGraphs.length > 0 || job.namedGraphs.length > 0);
  if (remote.length > 0 || datasetGraphs) {
    const policy = policyFor(store, job);
    refuseRemoteReferences(remote, policy);
    if (datasetGraphs) {
      refuseRemoteGraphs('default-graph-uri', job.defaultGraphs, policy);
      refuseRemoteGraphs('named-graph-uri', job.namedGraphs, policy);
    }
  }
  const ast = parsed.ast;
  const offers = ast.queryType === 'SELECT' ? SELECT_OFFERS : ast.queryType === 'ASK' ? ASK_OFFERS : RDF_OFFERS;
  const offer = memo ? memo.offer(job.accept, ast.queryType, offers) : negotiate(job.accept, offers);
  if (!offer) {
    throw new SparqlError('not-acceptable', `a ${ast.queryType} result can be sent as ${offered(offers)}; the request's Accept (${job.accept}) allows none of them`);
  }
  const options = datasetOptions(ast, job);
  const mediaType = offer.mediaType;

  if (ast.queryType === 'ASK' || (ast.queryType === 'SELECT' && !injected)) {
    return { ok: true, kind: 'query', contentType: mediaType, body: store.querySerialized(text, mediaType, options), truncated: false, cacheable };
  }
  if (ast.queryType === 'SELECT') {
    const r = JSON.parse(store.querySerialized(text, RESULTS_JSON, options)) as JsonResults;
    const truncated = r.results.bindings.length > job.maxRows;
    if (truncated) {
      r.results.bindings.length = job.maxRows;
      r.truncated = true;
    }
    return { ok: true, kind: 'query', contentType: mediaType, body: serializeResults(r, mediaType, job.truncationLink), truncated, count: r.results.bindings.length, cacheable };
  }
  const quads = store.construct(text, options);
  let truncated = quads.length > job.maxRows;
  if (truncated) quads.length = job.maxRows;
  else if (injected) truncated = solutionPastCap(store, ast, job.maxRows, options);
  const scratch = new RdfStore();
  scratch.add(quads);
  return { ok: true, kind: 'query', contentType: mediaType, body: scratch.dump({ format: mediaType, graph: '' }), truncated, count: quads.length, cacheable };
}

/**
 * The query that asks whether there is a solution after the first maxRows (one row past the cap, by
 * the same pattern and grouping); undefined when the query has no pattern or groups by no variable.
 */
export function pastCapProbe(ast: Query, maxRows: number): string | undefined {
  if (!('where' in ast) || !ast.where) return undefined;
  const group = 'group' in ast ? ast.group : undefined;
  const variables = group
    ? group.map((g) => g.expression).filter((e) => typeof e === 'object' && e !== null && 'termType' in e && e.termType === 'Variable')
    : [new sparqljs.Wildcard()];
  if (variables.length === 0) return undefined;
  const probe = {
    type: 'query', queryType: 'SELECT', prefixes: ast.prefixes, base: ast.base, from: ast.from,
    variables, where: ast.where as Pattern[], group, having: 'having' in ast ? ast.having : undefined,
    offset: ((ast as { offset?: number }).offset ?? 0) + maxRows, limit: 1,
  } as unknown as Query;
  return generate(probe);
}

/** Is there a solution after the first maxRows? (Only asked when the triple count cannot tell.) */
function solutionPastCap(store: RdfStore, ast: Query, maxRows: number, options: QueryOptions): boolean {
  const probe = pastCapProbe(ast, maxRows);
  return probe !== undefined && store.select(probe, options).length > 0;
}

export function datasetOptions(ast: Query, job: QueryJob): QueryOptions {
  if (job.defaultGraphs.length > 0 || job.namedGraphs.length > 0) {
    return { defaultGraphs: job.defaultGraphs, namedGraphs: job.namedGraphs };
  }
  const hasFrom = (ast.from?.default.length ?? 0) + (ast.from?.named.length ?? 0) > 0;
  return hasFrom ? {} : { unionDefaultGraph: true };
}

function runUpdate(store: RdfStore, job: UpdateJob): UpdateReply {
  const checked = checkedUpdate(store, job);
  return { ok: true, kind: 'update', sparql: generate(checked), effect: updateEffect(store, checked, { maxQuads: job.maxQuads }) };
}

function checkUpdate(store: RdfStore, job: UpdateCheckJob): UpdateCheckReply {
  return { ok: true, kind: 'update-check', sparql: generate(checkedUpdate(store, job)) };
}

function checkedUpdate(store: RdfStore, job: UpdateCheckJob | UpdateJob): Update {
  const parsed = parse(job.text, job.baseIri);
  if (parsed.kind !== 'update') {
    throw new SparqlError('syntax-error', 'the `update` parameter holds a query; send it as `query`');
  }
  const ast: Update = parsed.ast;
  withUsingGraphs(ast, job.usingGraphs, job.usingNamedGraphs);
  clearIsSilent(ast);
  refuseRemote(parsed, policyFor(store, job));
  return ast;
}
