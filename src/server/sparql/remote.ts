/**
 * The endpoint's evaluator when the store is remote: the same jobs as the query pool (query,
 * update check, VoID figures, schema mining), run against the SPARQL store over the protocol.
 *
 * The protections are the pool's, applied here before anything reaches the store: the request is
 * parsed and classified from its syntax tree (read-only unless an update was authorized by the
 * route; SERVICE, LOAD and remote FROM refused, evaluate.ts/classify.ts), the row cap is injected
 * as a LIMIT and enforced again on the reply, and each job has a deadline (the HTTP request to
 * the store is aborted at `timeoutMs`, answered 503 timeout). At most store.maxConcurrent jobs
 * run at once; up to sparql.maxQueue more wait, then 503 busy.
 *
 * Results are re-serialized here, never passed through, so every client sees standard SPARQL
 * JSON/XML/CSV/TSV and RDF whatever the engine's dialect (e.g. Virtuoso's `typed-literal`).
 * The store's own time limit should be set at or above sparql.timeoutMs: an aborted request
 * stops Assay waiting, but not every engine stops computing when its client goes away.
 */
import type { Query } from 'sparqljs';
import { fromNTriples, mine, toJson } from '../../../introspect/index.ts';
import { remoteFigures } from '../../rdf/remote-figures.ts';
import { parseGraphReply, type RemoteStore } from '../../rdf/remote.ts';
import { jsonToTerm, parseResultsJson, serializeBoolean, type RemoteResults } from '../../rdf/sparql-json.ts';
import { RemoteStoreError } from '../../rdf/sparql-http.ts';
import { RdfStore, factory, type QueryOptions } from '../../rdf/store.ts';
import { clearIsSilent, generate, refuseRemote, remoteReferences, withUsingGraphs, type Parsed } from './classify.ts';
import { SparqlError, toReply } from './errors.ts';
import { datasetOptions, parse, pastCapProbe, prepare, PreparedQueries, type Job, type Policy, type QueryJob, type QueryReply, type Reply, type UpdateCheckJob } from './evaluate.ts';
import { ASK_OFFERS, RDF_OFFERS, RESULTS_JSON, SELECT_OFFERS, negotiate, offered } from './negotiate.ts';
import type { JobOutcome } from './pool.ts';
import { serializeResults, type JsonResults } from './results.ts';

const NTRIPLES = 'application/n-triples';

export interface RemoteEvaluatorOptions {
  /** Jobs running against the store at once (config.store.maxConcurrent). */
  maxConcurrent: number;
  /** Jobs allowed to wait (config.sparql.maxQueue). */
  maxQueue: number;
}

export class RemoteEvaluator {
  readonly #store: RemoteStore;
  readonly #opts: RemoteEvaluatorOptions;
  readonly #prepared = new PreparedQueries();
  readonly #waiting: Array<() => void> = [];
  readonly #inflight = new Set<AbortController>();
  #running = 0;
  #closed = false;

  constructor(store: RemoteStore, opts: RemoteEvaluatorOptions) {
    this.#store = store;
    this.#opts = opts;
  }

  /** No workers to replace: the store does the work. (The pool's figure, for the same callers.) */
  get replacements(): number {
    return 0;
  }

  async ready(): Promise<void> {}

  async run(job: Job, timeoutMs: number, limitName = 'sparql.timeoutMs'): Promise<JobOutcome> {
    if (this.#closed) throw new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    this.#inflight.add(controller);
    try {
      await this.#slot(controller.signal, timeoutMs);
      const started = performance.now();
      try {
        const seq = job.kind === 'void' || job.kind === 'mine' ? await this.#store.currentSeq(controller.signal) : 0;
        const reply = await this.#runJob(job, controller.signal);
        return { reply, runMs: performance.now() - started, seq };
      } catch (e) {
        if (controller.signal.aborted && !this.#closed) {
          const what = job.kind === 'void' ? 'the VoID computation' : 'the query';
          throw new SparqlError('timeout', `${what} was stopped after ${timeoutMs} ms (the limit is ${limitName} = ${timeoutMs})`);
        }
        throw asSparqlError(e);
      } finally {
        this.#release();
      }
    } finally {
      clearTimeout(timer);
      this.#inflight.delete(controller);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const c of this.#inflight) c.abort();
    for (const w of this.#waiting.splice(0)) w();
  }

  /** Wait for a free slot (or refuse: queue full, or none free within the deadline). */
  async #slot(signal: AbortSignal, timeoutMs: number): Promise<void> {
    if (this.#running < this.#opts.maxConcurrent) {
      this.#running++;
      return;
    }
    if (this.#waiting.length >= this.#opts.maxQueue) {
      throw new SparqlError('busy', `${this.#waiting.length} queries are already waiting for the store`, { 'Retry-After': '1' });
    }
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', giveUp);
        if (this.#closed) reject(new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' }));
        else resolve();
      };
      const giveUp = () => {
        const at = this.#waiting.indexOf(go);
        if (at !== -1) this.#waiting.splice(at, 1);
        reject(new SparqlError('busy', `the store had no free slot within ${timeoutMs} ms`, { 'Retry-After': '1' }));
      };
      signal.addEventListener('abort', giveUp, { once: true });
      this.#waiting.push(go);
    });
    this.#running++;
  }

  #release(): void {
    this.#running--;
    this.#waiting.shift()?.();
  }

  async #runJob(job: Job, signal: AbortSignal): Promise<Reply> {
    try {
      switch (job.kind) {
        case 'query':
          return await this.#query(job, signal);
        case 'update-check':
          return await this.#checkUpdate(job, signal);
        case 'update': {
          // The checked text is what the store runs: the engine computes the effect itself,
          // in one request (RemoteStore.apply). No delta: there is no replica to compute it on.
          const checked = await this.#checkUpdate({ ...job, kind: 'update-check' }, signal);
          return { ok: true, kind: 'update', sparql: checked.sparql, effect: { portable: false } };
        }
        case 'void':
          return { ok: true, kind: 'void', figures: await remoteFigures(this.#store.http, this.#store.scope, signal) };
        case 'mine':
          return { ok: true, kind: 'mine', json: toJson(mine(fromNTriples(await this.#dump(job.graph, signal), { groupedBySubject: false }))) };
      }
    } catch (e) {
      if (e instanceof SparqlError) return toReply(e);
      throw e;
    }
  }

  /** SERVICE / LOAD / FROM checks, with "is this graph in the store?" asked without blocking. */
  async #refuseRemote(parsed: Parsed, policy: Policy, signal: AbortSignal): Promise<void> {
    const local = new Map<string, boolean>();
    for (const ref of remoteReferences(parsed)) {
      if (!ref.graphSelection || ref.iri === undefined || local.has(ref.iri)) continue;
      local.set(ref.iri, ref.iri.startsWith(policy.localBase) || await this.#graphExists(ref.iri, signal));
    }
    refuseRemote(parsed, { allowedHosts: policy.allowedRemoteHosts, isLocalGraph: (iri) => local.get(iri) === true });
  }

  async #graphExists(iri: string, signal: AbortSignal): Promise<boolean> {
    const ask = {
      type: 'query', queryType: 'ASK', prefixes: {},
      where: [{ type: 'graph', name: { termType: 'NamedNode', value: iri }, patterns: [{ type: 'bgp', triples: [{ subject: v('s'), predicate: v('p'), object: v('o') }] }] }],
    } as unknown as Query;
    const r = await this.#results(generate(ask), {}, signal);
    return r.boolean === true;
  }

  async #query(job: QueryJob, signal: AbortSignal): Promise<QueryReply> {
    const { parsed, injected, text } = prepare(job, this.#prepared);
    await this.#refuseRemote(parsed, job, signal);
    const ast = parsed.ast;
    const offers = ast.queryType === 'SELECT' ? SELECT_OFFERS : ast.queryType === 'ASK' ? ASK_OFFERS : RDF_OFFERS;
    const offer = negotiate(job.accept, offers);
    if (!offer) {
      throw new SparqlError('not-acceptable', `a ${ast.queryType} result can be sent as ${offered(offers)}; the request's Accept (${job.accept}) allows none of them`);
    }
    const options = datasetOptions(ast, job);
    const mediaType = offer.mediaType;
    if (ast.queryType === 'ASK') {
      const r = await this.#results(text, options, signal);
      if (typeof r.boolean !== 'boolean') throw new SparqlError('query-failed', 'the store answered an ASK query with solutions');
      return { ok: true, kind: 'query', contentType: mediaType, body: serializeBoolean(r.boolean, mediaType), truncated: false };
    }
    if (ast.queryType === 'SELECT') {
      const r = await this.#results(text, options, signal);
      if (typeof r.boolean === 'boolean') throw new SparqlError('query-failed', 'the store answered a SELECT query with a boolean');
      const results = r as JsonResults;
      const truncated = injected && results.results.bindings.length > job.maxRows;
      if (truncated) {
        results.results.bindings.length = job.maxRows;
        results.truncated = true;
      }
      return { ok: true, kind: 'query', contentType: mediaType, body: serializeResults(results, mediaType, job.truncationLink), truncated, count: results.results.bindings.length };
    }
    const scratch = parseGraphReply(await this.#send(text, `${NTRIPLES}, text/turtle;q=0.5`, options, signal), 'the store');
    const quads = scratch.match(null, null, null, null);
    let truncated = quads.length > job.maxRows;
    if (truncated) quads.length = job.maxRows;
    else if (injected) truncated = await this.#solutionPastCap(ast, job.maxRows, options, signal);
    const out = new RdfStore();
    out.add(quads);
    return { ok: true, kind: 'query', contentType: mediaType, body: out.dump({ format: mediaType, graph: '' }), truncated, count: quads.length };
  }

  /** Is there a solution after the first maxRows? (The probe evaluate.ts asks of a replica.) */
  async #solutionPastCap(ast: Query, maxRows: number, options: QueryOptions, signal: AbortSignal): Promise<boolean> {
    const probe = pastCapProbe(ast, maxRows);
    if (probe === undefined) return false;
    const r = await this.#results(probe, options, signal);
    return (r.results?.bindings.length ?? 0) > 0;
  }

  async #checkUpdate(job: UpdateCheckJob, signal: AbortSignal): Promise<{ ok: true; kind: 'update-check'; sparql: string }> {
    const parsed = parse(job.text, job.baseIri);
    if (parsed.kind !== 'update') {
      throw new SparqlError('syntax-error', 'the `update` parameter holds a query; send it as `query`');
    }
    withUsingGraphs(parsed.ast, job.usingGraphs, job.usingNamedGraphs);
    clearIsSilent(parsed.ast);
    await this.#refuseRemote(parsed, job, signal);
    return { ok: true, kind: 'update-check', sparql: generate(parsed.ast) };
  }

  /** One graph (or all of Assay's graphs) as N-Triples / N-Quads lines for the miner. */
  async #dump(graph: string | undefined, signal: AbortSignal): Promise<string> {
    if (graph === '') return '';
    const spo = [{ subject: v('s'), predicate: v('p'), object: v('o') }];
    if (graph !== undefined) {
      const q = generate({
        type: 'query', queryType: 'CONSTRUCT', prefixes: {}, template: spo,
        where: [{ type: 'graph', name: { termType: 'NamedNode', value: graph }, patterns: [{ type: 'bgp', triples: spo }] }],
      } as unknown as Query);
      return parseGraphReply(await this.#send(q, NTRIPLES, {}, signal), 'the store').dump({ format: NTRIPLES, graph: '' });
    }
    const q = generate({
      type: 'query', queryType: 'SELECT', prefixes: {}, variables: [v('s'), v('p'), v('o'), v('g')],
      where: [{ type: 'graph', name: v('g'), patterns: [{ type: 'bgp', triples: spo }] }, this.#store.scope.filter('g')],
    } as unknown as Query);
    const rows = await this.#results(q, {}, signal);
    const scratch = new RdfStore();
    for (const b of rows.results?.bindings ?? []) {
      scratch.add([factory.quad(jsonToTerm(b.s!) as never, jsonToTerm(b.p!) as never, jsonToTerm(b.o!) as never, jsonToTerm(b.g!) as never)]);
    }
    return scratch.dump({ format: 'application/n-quads' });
  }

  async #results(text: string, options: QueryOptions, signal: AbortSignal): Promise<RemoteResults> {
    return parseResultsJson((await this.#send(text, RESULTS_JSON, options, signal)).body, 'the store');
  }

  #send(text: string, accept: string, options: QueryOptions, signal: AbortSignal) {
    return this.#store.http.query(text, {
      accept, signal,
      ...(options.defaultGraphs?.length ? { defaultGraphs: options.defaultGraphs } : {}),
      ...(options.namedGraphs?.length ? { namedGraphs: options.namedGraphs } : {}),
    });
  }
}

function v(name: string) {
  return { termType: 'Variable', value: name } as const;
}

/** The store's failures in the endpoint's catalogue (what the client can do about each). */
function asSparqlError(e: unknown): SparqlError {
  if (e instanceof SparqlError) return e;
  if (e instanceof RemoteStoreError) {
    if (e.code === 'timeout') return new SparqlError('timeout', e.message);
    // The store refused a query that Assay's parser accepted (a dialect gap, or its own limits).
    if (e.code === 'refused' || e.code === 'truncated') return new SparqlError('query-failed', `the store rejected the query: ${e.message}`);
    return new SparqlError('store-unavailable', e.message, { 'Retry-After': '5' });
  }
  return new SparqlError('query-failed', `the store could not evaluate the request: ${(e as Error).message ?? String(e)}`);
}
