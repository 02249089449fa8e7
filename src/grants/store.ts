/**
 * What the grant graph needs from a store: SPARQL 1.1 SELECT and Update, and adding or replacing
 * the triples of one named graph. Every query the grant graph runs is plain SPARQL 1.1 naming its
 * graphs with GRAPH, so the same text runs on the embedded oxigraph store and on any SPARQL 1.1
 * endpoint (Virtuoso is the one tested). Results are read as SPARQL JSON-like terms so both
 * backends return the same rows.
 */
import type { AssayStore } from '../rdf/backend.ts';
import type { Term } from '../rdf/store.ts';

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

/** The embedded store (oxigraph in WebAssembly, journaled by DurableStore). */
export function embeddedGrantStore(store: AssayStore): GrantStore {
  return {
    label: 'embedded store',
    async select(query, signal) {
      signal?.throwIfAborted();
      return store.rdf.select(query).map((b) => {
        const out: Record<string, RowTerm | undefined> = {};
        for (const [k, v] of b) out[k] = rowTerm(v);
        return out;
      });
    },
    async update(update) { await store.apply({ kind: 'update', sparql: update }); },
    async insertTriples(graph, ntriples) {
      if (ntriples.length === 0) return;
      await store.apply({ kind: 'load', data: ntriples, format: 'application/n-triples', graph });
    },
    async graphSize(graph) { return store.rdf.graphSize(graph); },
  };
}

export const num = (t: RowTerm | undefined): number => (t ? Number(t.value) : 0);
export const val = (t: RowTerm | undefined): string | null => (t ? t.value : null);
