/**
 * The store interface: what the rest of Assay holds when it holds "the store", with two backends.
 *
 * - `DurableStore` (src/rdf/durable.ts): the embedded oxigraph store with a data directory; the
 *   default, and what runs with nothing configured.
 * - `RemoteStore` (src/rdf/remote.ts): any SPARQL 1.1 endpoint, through the SPARQL 1.1 Query and
 *   Update protocols and (for loads) the Graph Store HTTP Protocol; chosen with `--store URL` or
 *   ASSAY_STORE_URL (config.store).
 *
 * Contract
 * - Writes are `WriteOp`s through `apply()`; it resolves once the write is durable and visible to
 *   every later read, from this process or (remote) any other gateway on the same store.
 * - `rdf` is the synchronous read facade Assay's own code uses for small reads (a run graph, a
 *   citation chain, resume state). The embedded backend answers it in-process; the remote one
 *   with one blocking protocol round trip per call, so it is never used for untrusted SPARQL:
 *   `/sparql` goes through the pool (embedded) or src/server/sparql/remote.ts (remote).
 * - `seq` is the number of acknowledged writes the store holds. The remote backend keeps it in
 *   the store itself, so a cache keyed on it (VoID, /health) sees other gateways' writes too.
 * - `onWrite` tells of this process's own writes only (replicas, caches that clear on write).
 *
 * This module only names the shapes; it opens nothing (see src/rdf/open.ts).
 */
import type { WriteOp } from './durable.ts';
import type { Bindings, Quad, QueryOptions, Term } from './store.ts';

/** The synchronous reads Assay's own code makes. `RdfStore` (oxigraph) has exactly these. */
export interface RdfReader {
  /** Number of quads in every graph the store holds for Assay. */
  readonly size: number;
  /** At least `size`, and cheap to read when counting is not (limits check this first; see RdfStore). */
  readonly sizeBound: number;
  select(query: string, options?: QueryOptions): Bindings[];
  ask(query: string, options?: QueryOptions): boolean;
  /** CONSTRUCT or DESCRIBE. */
  construct(query: string, options?: QueryOptions): Quad[];
  /** Any query, serialized by the store in `resultsFormat` (a results or RDF media type). */
  querySerialized(query: string, resultsFormat: string, options?: QueryOptions): string;
  match(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): Quad[];
  /** Named graphs holding at least one quad, sorted. */
  graphs(): string[];
  /** Quads in one graph ('' = the default graph). */
  graphSize(graph: string): number;
  /** One graph in a triple format, or every graph in a quad format. */
  dump(options: { format: string; graph?: string }): string;
}

export type StoreKind = 'embedded' | 'remote';

/** Told of each acknowledged write this process made, with its sequence number. */
export type WriteListener = (op: WriteOp, seq: number) => void;

export interface AssayStore {
  readonly kind: StoreKind;
  readonly rdf: RdfReader;
  /** Acknowledged writes the store holds (read from the store itself on the remote backend). */
  readonly seq: number;
  apply(op: WriteOp): Promise<void>;
  /**
   * A write computed from the store's current state: `compute` gets the counter and returns the
   * op (or null for no change); no other write of this process runs in between.
   */
  applyComputed(compute: (seq: number) => Promise<WriteOp | null>): Promise<void>;
  onWrite(listener: WriteListener): () => void;
  close(): Promise<void>;
  /** One line for an operator: where the data lives. */
  describe(): string;
}
