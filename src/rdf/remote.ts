/**
 * RemoteStore: Assay's store kept in any SPARQL 1.1 engine (Virtuoso, Fuseki, GraphDB, QLever,
 * Neptune, …), reached only through the standard protocols.
 *
 * Contract
 * - Writes (`apply`): every WriteOp is parsed locally first (oxigraph), so a syntax error sends
 *   nothing. A write up to SMALL_WRITE_QUADS goes as ONE SPARQL Update request, together with
 *   the write counter's increment: on an engine that runs a request as one transaction it is
 *   all-or-nothing. Larger loads go graph by graph through the Graph Store Protocol (POST) when
 *   one is configured, else as INSERT DATA, in chunks of LOAD_CHUNK_QUADS; a graph holding blank
 *   nodes is sent in one request, so its blank nodes stay one node each. A large replaceGraph is
 *   loaded into a staging graph and moved over the old one in a single `MOVE` request.
 * - The default graph is the union of the named graphs (as the embedded endpoint presents it),
 *   so a write into the default graph has no place of its own: it is refused, naming the fix.
 * - `seq`: the write counter, kept in the store (graph `{base}.well-known/store-state`, predicate
 *   assay:writeSeq) and read from it, so a gateway's caches notice other gateways' writes. Two
 *   writes racing from different gateways may fold into one increment; the counter still moves.
 * - `rdf`: synchronous reads over a blocking protocol round trip (blocking-http.ts), for
 *   Assay's own small reads. Graph lists, sizes and dumps leave out the engine's own graphs
 *   (config store.ignoreGraphs) and Assay's bookkeeping graphs under `{base}.well-known/`.
 * Nothing about the remote is kept in this process: another gateway on the same store sees the
 * same data, the same counter and the same resume states.
 */
import { randomBytes } from 'node:crypto';
import type { Query } from 'sparqljs';
import sparqljs from 'sparqljs';
import type { StoreConfig } from '../config.ts';
import { generate } from '../server/sparql/classify.ts';
import type { AssayStore, RdfReader, WriteListener } from './backend.ts';
import { BlockingSparql } from './blocking-http.ts';
import type { WriteOp } from './durable.ts';
import { parseResultsJson, queryTerm, serializeBoolean, toBindings } from './sparql-json.ts';
import { serializeResults, type JsonResults } from '../server/sparql/results.ts';
import { SparqlHttp, RemoteStoreError, type HttpReply, type RemoteEndpoints } from './sparql-http.ts';
import { RdfStore, RDF_FORMATS, factory, iriRef, isQuadFormat, type Bindings, type Quad, type QueryOptions, type Term } from './store.ts';
import { ASSAY, ensureSlash } from './vocab.ts';

/** Writes up to this many quads go as one update request (atomic on transactional engines). */
export const SMALL_WRITE_QUADS = 20_000;
/** Quads per request when a large load is sent in pieces. */
export const LOAD_CHUNK_QUADS = 100_000;

const RESULTS_JSON = 'application/sparql-results+json';
const NTRIPLES = RDF_FORMATS.ntriples;

export class StoreConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConfigError';
  }
}

/** Protocol endpoints from the config block (credentials go only where they are configured). */
export function endpointsOf(store: StoreConfig): RemoteEndpoints {
  if (!store.url) throw new StoreConfigError('no remote store is configured: set --store URL or ASSAY_STORE_URL');
  return {
    queryUrl: store.url,
    updateUrl: store.updateUrl ?? store.url,
    ...(store.graphStoreUrl ? { graphStoreUrl: store.graphStoreUrl } : {}),
    ...(store.user !== undefined ? { user: store.user } : {}),
    ...(store.password !== undefined ? { password: store.password } : {}),
    timeoutMs: store.timeoutMs,
  };
}

/** Which named graphs of the remote are Assay's (the engine keeps some of its own). */
export class GraphScope {
  readonly stateGraph: string;
  readonly #reserved: string;
  readonly #ignored: ReadonlySet<string>;

  constructor(baseIri: string, ignoreGraphs: readonly string[]) {
    this.#reserved = `${ensureSlash(baseIri)}.well-known/`;
    this.stateGraph = `${this.#reserved}store-state`;
    this.#ignored = new Set(ignoreGraphs);
  }

  includes(graph: string): boolean {
    return !this.#ignored.has(graph) && !graph.startsWith(this.#reserved) && !graph.endsWith('/.well-known/store-state');
  }

  /** A fresh graph name for staging a large replace (under the reserved prefix, so never listed). */
  stagingGraph(): string {
    return `${this.#reserved}staging/${randomBytes(8).toString('hex')}`;
  }

  /**
   * `FILTER(?g NOT IN (…))` leaving out the engine's graphs and this deployment's counter, as a
   * sparqljs pattern. Only IRI comparisons: a string test on ?g (STRSTARTS) made Virtuoso's
   * aggregates ~14x slower (measured), so staging graphs and other deployments' counters are
   * left out of listings client-side (`includes`) rather than here.
   */
  filter(variable: string): object {
    const g = { termType: 'Variable', value: variable };
    const out = [...this.#ignored, this.stateGraph].map((i) => factory.namedNode(i));
    return { type: 'filter', expression: { type: 'operation', operator: 'notin', args: [g, out] } };
  }
}

const v = (name: string) => ({ termType: 'Variable', value: name }) as const;

/** SELECT ?s ?p ?o ?g for one quad pattern, Assay's graphs only (sparqljs tree → text). */
export function matchQuery(scope: GraphScope, s?: Term | null, p?: Term | null, o?: Term | null, g?: Term | null, limit?: number): string {
  const triple = { subject: s ? queryTerm(s) : v('s'), predicate: p ? queryTerm(p) : v('p'), object: o ? queryTerm(o) : v('o') };
  const bgp = { type: 'bgp', triples: [triple] };
  if (g && g.termType === 'DefaultGraph') throw new RemoteStoreError('refused', 'a remote store has no default graph of its own (it is the union of the named graphs); match a named graph');
  const where = g
    ? [{ type: 'graph', name: queryTerm(g), patterns: [bgp] }]
    : [{ type: 'graph', name: v('g'), patterns: [bgp] }, scope.filter('g')];
  const query = { type: 'query', queryType: 'SELECT', prefixes: {}, variables: [v('s'), v('p'), v('o'), v('g')], where, ...(limit ? { limit } : {}) };
  return generate(query as unknown as Query);
}

/** COUNT(*) of one graph, or of all of Assay's graphs. */
export function countQuery(scope: GraphScope, graph?: string): string {
  const bgp = { type: 'bgp', triples: [{ subject: v('s'), predicate: v('p'), object: v('o') }] };
  const where = graph !== undefined
    ? [{ type: 'graph', name: factory.namedNode(graph), patterns: [bgp] }]
    : [{ type: 'graph', name: v('g'), patterns: [bgp] }, scope.filter('g')];
  const query = {
    type: 'query', queryType: 'SELECT', prefixes: {}, where,
    variables: [{ expression: { type: 'aggregate', aggregation: 'count', distinct: false, expression: { termType: 'Wildcard', value: '*' } }, variable: v('n') }],
  };
  return generate(query as unknown as Query);
}

function graphsQuery(scope: GraphScope): string {
  const bgp = { type: 'bgp', triples: [{ subject: v('s'), predicate: v('p'), object: v('o') }] };
  const query = { type: 'query', queryType: 'SELECT', distinct: true, prefixes: {}, variables: [v('g')], where: [{ type: 'graph', name: v('g'), patterns: [bgp] }, scope.filter('g')] };
  return generate(query as unknown as Query);
}

function seqQuery(scope: GraphScope): string {
  const state = factory.namedNode(scope.stateGraph);
  const query = {
    type: 'query', queryType: 'SELECT', prefixes: {}, variables: [v('n')],
    where: [{ type: 'graph', name: state, patterns: [{ type: 'bgp', triples: [{ subject: state, predicate: factory.namedNode(ASSAY.writeSeq), object: v('n') }] }] }],
  };
  return generate(query as unknown as Query);
}

/**
 * The counter's increment, as an update operation to send with (or right after) a write. The
 * current value is read with MAX in a sub-select: Virtuoso 7 inserts nothing when the WHERE is
 * OPTIONAL + BIND (measured), and MAX also copes with two values left by a racing writer.
 */
export function incrementUpdate(scope: GraphScope): string {
  const state = iriRef(scope.stateGraph);
  const seq = iriRef(ASSAY.writeSeq);
  const text = `DELETE { GRAPH ${state} { ${state} ${seq} ?n } } INSERT { GRAPH ${state} { ${state} ${seq} ?next } }
WHERE { { SELECT (MAX(?x) AS ?n) WHERE { GRAPH ${state} { ${state} ${seq} ?x } } } BIND(COALESCE(?n, 0) + 1 AS ?next) }`;
  return generate(new sparqljs.Parser().parse(text));
}

function readSeq(rows: Bindings[]): number {
  let n = 0;
  for (const r of rows) {
    const x = Number(r.get('n')?.value);
    if (Number.isInteger(x) && x > n) n = x;
  }
  return n;
}

/** Parse a write's RDF locally, so nothing is sent when it does not parse. Returns the scratch store. */
function parseLocally(data: string, format: string, graph: string | undefined, baseIri: string | undefined): RdfStore {
  const scratch = new RdfStore();
  scratch.load(data, { format, ...(graph !== undefined ? { graph } : {}), ...(baseIri ? { baseIri } : {}) });
  if (scratch.graphSize('') > 0) {
    throw new RemoteStoreError('refused', `the data puts ${scratch.graphSize('')} triples in the default graph, which a remote store does not keep apart (its default graph is the union of the named graphs); name a graph (assay load --graph IRI) or use N-Quads/TriG with graph names`);
  }
  return scratch;
}

/** One step of a computed update (durable.ts DeltaStep) as a SPARQL Update operation. */
function deltaStep(step: Extract<WriteOp, { kind: 'delta' }>['steps'][number]): string {
  if (step.step === 'clear') {
    if (step.target === 'DEFAULT' || step.target === 'NAMED' || step.target === 'ALL') {
      throw new RemoteStoreError('refused', `CLEAR ${step.target} would reach past Assay's graphs on a shared store; clear named graphs one by one`);
    }
    return `CLEAR SILENT GRAPH ${iriRef(step.target)}`;
  }
  const scratch = parseLocally(step.nquads, RDF_FORMATS.nquads, undefined, undefined);
  const parts = scratch.graphs().map((graph) => ({ graph, ntriples: scratch.dump({ format: NTRIPLES, graph }) }));
  if (parts.length === 0) return incrementNoop;
  const blank = scratch.graphs().some((g) => hasBlankNodes(scratch, g));
  if (step.step === 'insert') return insertData(parts, blank);
  if (blank) throw new RemoteStoreError('refused', 'a computed delete names blank nodes, which a query to a remote store cannot name; delete by IRI');
  return `DELETE DATA {\n${parts.map((p) => `GRAPH ${iriRef(p.graph)} {\n${p.ntriples}}\n`).join('')}}`;
}

/** An update operation that changes nothing (keeps a sequence of operations well formed). */
const incrementNoop = 'INSERT DATA { }';

function hasBlankNodes(scratch: RdfStore, graph: string): boolean {
  return scratch.ask(`ASK { GRAPH ${iriRef(graph)} { ?s ?p ?o FILTER(isBlank(?s) || isBlank(?o)) } }`);
}

/** N-Triples text split into pieces of at most `size` lines (each line is one triple). */
function* chunks(ntriples: string, size: number): Generator<string> {
  let start = 0;
  let lines = 0;
  for (let i = ntriples.indexOf('\n'); i !== -1; i = ntriples.indexOf('\n', i + 1)) {
    if (++lines === size) {
      yield ntriples.slice(start, i + 1);
      start = i + 1;
      lines = 0;
    }
  }
  if (start < ntriples.length) yield ntriples.slice(start);
}

/**
 * The triples as one update. Blank nodes are legal in INSERT DATA, but Virtuoso 7 refuses them
 * there ("not allowed in a constant clause"); `INSERT { … } WHERE {}` has the same meaning (one
 * solution, so each label is one fresh node across the whole request) and every engine takes it.
 */
function insertData(parts: { graph: string; ntriples: string }[], blankNodes: boolean): string {
  const body = parts.map((p) => `GRAPH ${iriRef(p.graph)} {\n${p.ntriples}}\n`).join('');
  return blankNodes ? `INSERT {\n${body}} WHERE {}` : `INSERT DATA {\n${body}}`;
}

/** Where a write stops being one request, and the size of the pieces (tests make them small). */
export interface WriteSizes {
  smallWriteQuads?: number;
  loadChunkQuads?: number;
}

export class RemoteStore implements AssayStore {
  readonly kind = 'remote' as const;
  readonly http: SparqlHttp;
  readonly scope: GraphScope;
  readonly rdf: RemoteReader;
  readonly #blocking: BlockingSparql;
  readonly #listeners = new Set<WriteListener>();
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  readonly #small: number;
  readonly #chunk: number;

  private constructor(readonly config: StoreConfig, baseIri: string, fetchImpl?: typeof fetch, sizes: WriteSizes = {}) {
    this.#small = sizes.smallWriteQuads ?? SMALL_WRITE_QUADS;
    this.#chunk = sizes.loadChunkQuads ?? LOAD_CHUNK_QUADS;
    const endpoints = endpointsOf(config);
    this.http = new SparqlHttp(endpoints, fetchImpl);
    this.scope = new GraphScope(baseIri, config.ignoreGraphs);
    this.#blocking = new BlockingSparql(endpoints);
    this.rdf = new RemoteReader(this.#blocking, this.scope);
  }

  /** Connect and check the store answers (one ASK); fails naming the URL and the fix. */
  static async open(config: StoreConfig, options: { baseIri: string; fetch?: typeof fetch; sizes?: WriteSizes }): Promise<RemoteStore> {
    const store = new RemoteStore(config, options.baseIri, options.fetch, options.sizes);
    try {
      const r = await store.http.query('ASK {}', { accept: RESULTS_JSON });
      parseResultsJson(r.body, store.http.endpoints.queryUrl);
    } catch (e) {
      await store.close();
      if (e instanceof RemoteStoreError) throw e;
      throw new RemoteStoreError('refused', `${config.url} does not answer as a SPARQL 1.1 query endpoint: ${(e as Error).message}`);
    }
    return store;
  }

  get seq(): number {
    return readSeq(this.rdf.select(seqQuery(this.scope)));
  }

  /** The counter read without blocking (for async callers). */
  async currentSeq(signal?: AbortSignal): Promise<number> {
    return readSeq(toBindings(parseResultsJson((await this.http.query(seqQuery(this.scope), { accept: RESULTS_JSON, ...(signal ? { signal } : {}) })).body, this.http.endpoints.queryUrl)));
  }

  /** SELECT (or ASK) without blocking, for heavy reads (graph traversals, rankings) off the facade. */
  async selectAsync(query: string, options: { signal?: AbortSignal; defaultGraphs?: readonly string[]; namedGraphs?: readonly string[] } = {}): Promise<Bindings[]> {
    const reply = await this.http.query(query, { accept: RESULTS_JSON, ...options });
    return toBindings(parseResultsJson(reply.body, this.http.endpoints.queryUrl));
  }

  describe(): string {
    const e = this.http.endpoints;
    return `remote SPARQL store ${e.queryUrl}${e.updateUrl !== e.queryUrl ? ` (updates ${e.updateUrl})` : ''}${e.graphStoreUrl ? ` (loads ${e.graphStoreUrl})` : ''}`;
  }

  onWrite(listener: WriteListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Writes from this process go one at a time, in order (as the embedded store's queue does). */
  apply(op: WriteOp): Promise<void> {
    const run = this.#queue.then(() => this.#applyNow(op));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  applyComputed(compute: (seq: number) => Promise<WriteOp | null>): Promise<void> {
    const run = this.#queue.then(async () => {
      const op = await compute(await this.currentSeq());
      if (op) await this.#applyNow(op);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #applyNow(op: WriteOp): Promise<void> {
    if (this.#closed) throw new Error('the store is closed; open it again before writing');
    const increment = incrementUpdate(this.scope);
    switch (op.kind) {
      case 'update':
        // One request: the checked update, then the counter (SPARQL 1.1 Update allows a sequence).
        await this.http.update(`${op.sparql}\n;\n${increment}`);
        break;
      case 'clearGraph':
        if (op.graph === '') throw new RemoteStoreError('refused', 'a remote store has no default graph of its own to clear; clear a named graph');
        await this.http.update(`CLEAR SILENT GRAPH ${iriRef(op.graph)} ;\n${increment}`);
        break;
      case 'load':
        await this.#load(parseLocally(op.data, op.format, isQuadFormat(op.format) ? undefined : op.graph, op.baseIri), increment);
        break;
      case 'replaceGraph':
        await this.#replace(op.graph, parseLocally(op.data, op.format, op.graph, op.baseIri), increment);
        break;
      case 'delta':
        await this.http.update([...op.steps.map(deltaStep), increment].join(' ;\n'));
        break;
    }
    const seq = await this.currentSeq();
    for (const l of this.#listeners) l(op, seq);
  }

  async #load(scratch: RdfStore, increment: string): Promise<void> {
    const graphs = scratch.graphs();
    if (scratch.size <= this.#small) {
      const parts = graphs.map((graph) => ({ graph, ntriples: scratch.dump({ format: NTRIPLES, graph }) }));
      const blank = graphs.some((g) => hasBlankNodes(scratch, g));
      await this.http.update(parts.length > 0 ? `${insertData(parts, blank)} ;\n${increment}` : increment);
      return;
    }
    for (const graph of graphs) await this.#sendGraph(scratch, graph, graph);
    await this.http.update(increment);
  }

  async #replace(graph: string, scratch: RdfStore, increment: string): Promise<void> {
    if (scratch.size <= this.#small) {
      const nt = scratch.dump({ format: NTRIPLES, graph });
      const data = nt.length > 0 ? `${insertData([{ graph, ntriples: nt }], hasBlankNodes(scratch, graph))} ;\n` : '';
      await this.http.update(`CLEAR SILENT GRAPH ${iriRef(graph)} ;\n${data}${increment}`);
      return;
    }
    const staging = this.scope.stagingGraph();
    try {
      await this.#sendGraph(scratch, graph, staging);
      await this.http.update(`MOVE SILENT GRAPH ${iriRef(staging)} TO GRAPH ${iriRef(graph)} ;\n${increment}`);
    } catch (e) {
      await this.http.update(`DROP SILENT GRAPH ${iriRef(staging)}`).catch(() => undefined);
      throw e;
    }
  }

  /** One graph of the scratch store into `target`: GSP POST or INSERT DATA, chunked unless it holds blank nodes. */
  async #sendGraph(scratch: RdfStore, graph: string, target: string): Promise<void> {
    const nt = scratch.dump({ format: NTRIPLES, graph });
    const blank = hasBlankNodes(scratch, graph);
    for (const piece of blank ? [nt] : chunks(nt, this.#chunk)) {
      if (this.http.endpoints.graphStoreUrl) await this.http.graphStore('POST', target, piece, NTRIPLES);
      else await this.http.update(insertData([{ graph: target, ntriples: piece }], blank));
    }
  }

  async close(): Promise<void> {
    await this.#queue;
    this.#closed = true;
    this.#blocking.close();
    this.http.close();
  }
}

/**
 * The synchronous read facade over the remote store (see blocking-http.ts for what blocking
 * costs). Query options: `defaultGraphs`/`namedGraphs` go as protocol parameters;
 * `unionDefaultGraph` is what a remote store's default graph already is.
 */
export class RemoteReader implements RdfReader {
  readonly #http: BlockingSparql;
  readonly #scope: GraphScope;

  constructor(http: BlockingSparql, scope: GraphScope) {
    this.#http = http;
    this.#scope = scope;
  }

  get size(): number {
    return count(this.select(countQuery(this.#scope)));
  }

  /** The count itself (the remote store counts; nothing is kept here between calls). */
  get sizeBound(): number {
    return this.size;
  }

  select(query: string, options?: QueryOptions): Bindings[] {
    return toBindings(this.#results(query, options));
  }

  ask(query: string, options?: QueryOptions): boolean {
    const r = this.#results(query, options);
    if (typeof r.boolean !== 'boolean') throw new Error('expected an ASK query but the store answered with solutions; use select() for this query');
    return r.boolean;
  }

  construct(query: string, options?: QueryOptions): Quad[] {
    const reply = this.#send(query, `${NTRIPLES}, text/turtle;q=0.5`, options);
    return parseGraphReply(reply, this.#where).match(null, null, null, null).map((q) => factory.quad(q.subject, q.predicate, q.object));
  }

  querySerialized(query: string, resultsFormat: string, options?: QueryOptions): string {
    const isResults = resultsFormat.startsWith('application/sparql-results') || resultsFormat === 'text/csv' || resultsFormat === 'text/tab-separated-values';
    // The engine would answer in some format either way; refuse a mismatch as oxigraph does.
    const kind = queryKind(query);
    if (isResults !== (kind === 'SELECT' || kind === 'ASK')) {
      throw new Error(`a ${kind} result cannot be serialized as ${resultsFormat}`);
    }
    if (!isResults) {
      const store = parseGraphReply(this.#send(query, `${NTRIPLES}, text/turtle;q=0.5`, options), this.#where);
      return store.dump({ format: resultsFormat, graph: '' });
    }
    // Always read as JSON and written here, so every format is standard whatever the engine's dialect.
    const r = this.#results(query, options);
    if (typeof r.boolean === 'boolean') {
      if (resultsFormat !== RESULTS_JSON && resultsFormat !== 'application/sparql-results+xml') throw new Error(`an ASK result cannot be serialized as ${resultsFormat}`);
      return serializeBoolean(r.boolean, resultsFormat);
    }
    return serializeResults(r as JsonResults, resultsFormat, ASSAY.truncated);
  }

  match(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): Quad[] {
    return this.select(matchQuery(this.#scope, subject, predicate, object, graph)).map((r) => factory.quad(
      (subject ?? r.get('s')) as Quad['subject'], (predicate ?? r.get('p')) as Quad['predicate'],
      (object ?? r.get('o')) as Quad['object'], (graph ?? r.get('g')) as Quad['graph']));
  }

  graphs(): string[] {
    return this.select(graphsQuery(this.#scope)).map((r) => r.get('g')!)
      .filter((t) => t.termType === 'NamedNode' && this.#scope.includes(t.value)).map((t) => t.value).sort();
  }

  graphSize(graph: string): number {
    if (graph === '') return 0;
    return count(this.select(countQuery(this.#scope, graph)));
  }

  dump(options: { format: string; graph?: string }): string {
    if (options.graph !== undefined) {
      if (options.graph === '') return new RdfStore().dump({ format: options.format, graph: '' });
      const q = generate({
        type: 'query', queryType: 'CONSTRUCT', prefixes: {}, template: [{ subject: v('s'), predicate: v('p'), object: v('o') }],
        where: [{ type: 'graph', name: factory.namedNode(options.graph), patterns: [{ type: 'bgp', triples: [{ subject: v('s'), predicate: v('p'), object: v('o') }] }] }],
      } as unknown as Query);
      return parseGraphReply(this.#send(q, NTRIPLES), this.#where).dump({ format: options.format, graph: '' });
    }
    if (!isQuadFormat(options.format)) throw new Error(`dumping the whole dataset needs a quad format (application/n-quads or application/trig), not ${options.format}`);
    const scratch = new RdfStore();
    scratch.add(this.match());
    return scratch.dump({ format: options.format });
  }

  get #where(): string {
    return 'the remote store';
  }

  #results(query: string, options?: QueryOptions) {
    return parseResultsJson(this.#send(query, RESULTS_JSON, options).body, this.#where);
  }

  #send(query: string, accept: string, options?: QueryOptions): HttpReply {
    return this.#http.query(query, {
      accept,
      ...(options?.defaultGraphs?.length ? { defaultGraphs: options.defaultGraphs } : {}),
      ...(options?.namedGraphs?.length ? { namedGraphs: options.namedGraphs } : {}),
    });
  }
}

function queryKind(query: string): string {
  try {
    const ast = new sparqljs.Parser().parse(query);
    return ast.type === 'query' ? ast.queryType : 'UPDATE';
  } catch (e) {
    throw new Error(`the query does not parse: ${(e as Error).message}`);
  }
}

function count(rows: Bindings[]): number {
  return Number(rows[0]?.get('n')?.value ?? 0);
}

/** An RDF reply (N-Triples or Turtle) parsed into a scratch store's default graph. */
export function parseGraphReply(reply: HttpReply, where: string): RdfStore {
  const format = reply.contentType === 'text/turtle' ? RDF_FORMATS.turtle : reply.contentType === 'text/plain' ? NTRIPLES : reply.contentType || NTRIPLES;
  const scratch = new RdfStore();
  try {
    // Blank nodes come back with fresh labels (a document's labels are its own); select() and
    // match() keep the engine's, through SPARQL JSON.
    scratch.load(reply.body, { format, graph: '' });
  } catch (e) {
    throw new RemoteStoreError('failed', `${where} sent an RDF answer that does not parse as ${format}: ${(e as Error).message}`);
  }
  return scratch;
}
