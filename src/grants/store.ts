/**
 * What the grant graph needs from a store: SPARQL 1.1 SELECT and Update, and adding or replacing
 * the triples of one named graph. Every query the grant graph runs is plain SPARQL 1.1 naming its
 * graphs with GRAPH, so the same text runs on the embedded oxigraph store and on any SPARQL 1.1
 * endpoint (Virtuoso is the one tested). Results are read as SPARQL JSON-like terms so both
 * backends return the same rows.
 */
import type { AssayStore, RdfReader } from '../rdf/backend.ts';
import type { Bindings } from '../rdf/store.ts';
import type { RdfStore, Term } from '../rdf/store.ts';
import { SparqlHttp } from '../rdf/sparql-http.ts';

export interface RowTerm { type: 'uri' | 'literal' | 'bnode'; value: string; datatype?: string; lang?: string }
export type Row = Readonly<Record<string, RowTerm | undefined>>;

export interface GrantStore {
  /** Where the graph lives, for messages and reports ("embedded store", an endpoint URL). */
  readonly label: string;
  select(query: string, signal?: AbortSignal): Promise<Row[]>;
  update(update: string): Promise<void>;
  /** Add N-Triples to one named graph. */
  insertTriples(graph: string, ntriples: string): Promise<void>;
  /** Number of triples in one named graph. */
  graphSize(graph: string): Promise<number>;
}

function rowTerm(t: Term): RowTerm | undefined {
  if (t.termType === 'NamedNode') return { type: 'uri', value: t.value };
  if (t.termType === 'BlankNode') return { type: 'bnode', value: t.value };
  if (t.termType === 'Literal') return { type: 'literal', value: t.value, ...(t.datatype ? { datatype: t.datatype.value } : {}), ...(t.language ? { lang: t.language } : {}) };
  return undefined;
}

function selectRdf(rdf: Pick<RdfStore, 'select'> | RdfReader, query: string): Row[] {
  return toRows(rdf.select(query));
}

function toRows(bindings: readonly Bindings[]): Row[] {
  return bindings.map((b) => {
    const out: Record<string, RowTerm | undefined> = {};
    for (const [k, v] of b) out[k] = rowTerm(v);
    return out;
  });
}

/** The configured store, embedded (oxigraph, journaled) or remote (any SPARQL 1.1 endpoint). */
export function embeddedGrantStore(store: AssayStore): GrantStore {
  return {
    label: store.describe(),
    async select(query, signal) {
      signal?.throwIfAborted();
      // a remote store reads without blocking (grant traversals are the heavy reads it exists for)
      const remote = store as AssayStore & { selectAsync?: (q: string, o: { signal?: AbortSignal }) => Promise<Bindings[]> };
      if (remote.kind === 'remote' && remote.selectAsync) return toRows(await remote.selectAsync(query, signal ? { signal } : {}));
      return selectRdf(store.rdf, query);
    },
    async update(update) { await store.apply({ kind: 'update', sparql: update }); },
    async insertTriples(graph, ntriples) {
      if (ntriples.length === 0) return;
      await store.apply({ kind: 'load', data: ntriples, format: 'application/n-triples', graph });
    },
    async graphSize(graph) { return store.rdf.graphSize(graph); },
  };
}

/** A bare in-memory oxigraph store, not journaled (benchmarks). */
export function memoryGrantStore(rdf: RdfStore): GrantStore {
  return {
    label: 'embedded store (in memory, not journaled)',
    async select(query, signal) { signal?.throwIfAborted(); return selectRdf(rdf, query); },
    async update(update) { rdf.update(update); },
    async insertTriples(graph, ntriples) { if (ntriples.length) rdf.load(ntriples, { format: 'application/n-triples', graph, lenient: true }); },
    async graphSize(graph) { return rdf.graphSize(graph); },
  };
}

export const num = (t: RowTerm | undefined): number => (t ? Number(t.value) : 0);
export const val = (t: RowTerm | undefined): string | null => (t ? t.value : null);

/**
 * A read-only view of a grant graph held by any SPARQL 1.1 endpoint (SPARQL protocol, JSON
 * results), for the benchmark and for reading a graph another process loaded. Writes go through
 * the store's own backend (src/rdf), not through this view. Requests go through the remote
 * store's client (kept-alive connections; an injected fetch when given), so the benchmark times
 * the same request path the configured store takes.
 */
export function endpointGrantStore(queryUrl: string, fetchImpl?: typeof fetch): GrantStore & { close(): void } {
  const refuse = async (): Promise<never> => { throw new Error(`the endpoint view of ${queryUrl} is read-only: load and update through the configured store`); };
  const http = new SparqlHttp({ queryUrl, updateUrl: queryUrl, timeoutMs: 120_000 }, fetchImpl);
  const store: GrantStore & { close(): void } = {
    label: queryUrl,
    async select(query, signal) {
      const reply = await http.query(query, { accept: 'application/sparql-results+json', ...(signal ? { signal } : {}) });
      const body = JSON.parse(reply.body) as { results?: { bindings?: Array<Record<string, RowTerm & { 'xml:lang'?: string }>> } };
      return (body.results?.bindings ?? []).map((b) => {
        const out: Record<string, RowTerm> = {};
        for (const [k, v] of Object.entries(b)) out[k] = { type: (v.type as string) === 'typed-literal' ? 'literal' : v.type, value: v.value, ...(v.datatype ? { datatype: v.datatype } : {}), ...(v['xml:lang'] ? { lang: v['xml:lang'] } : {}) };
        return out;
      });
    },
    update: refuse,
    insertTriples: refuse,
    async graphSize(graph) {
      const [r] = await store.select(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph.replace(/[<>"\s]/g, '')}> { ?s ?p ?o } }`);
      return num(r?.n);
    },
    close() { http.close(); },
  };
  return store;
}
