/**
 * RdfStore: the one typed facade over the embedded oxigraph store.
 *
 * oxigraph's `query()` returns an untagged `boolean | Map[] | Quad[] | string` and takes
 * snake_case options; this module is the only place that sees that. Callers get
 * `select` / `ask` / `construct` / `update` / `load` / `dump` with camelCase options and a
 * clear error when the result kind does not match the call.
 *
 * Trust: these methods run synchronously inside WebAssembly on the calling thread. They are
 * for Assay's own queries. Untrusted SPARQL from the network goes through the query sandbox
 * in src/server/, never straight here.
 */
import type * as ox from 'oxigraph';
// The package itself comes from wasm-image.ts, which catches its WebAssembly instance as it starts.
import * as wasmImage from './wasm-image.ts';
import { DataFactory as N3DataFactory } from 'n3';

const oxigraph = wasmImage.oxigraph;

export type Term = ox.NamedNode | ox.BlankNode | ox.Literal | ox.DefaultGraph | ox.Quad | ox.Variable;
export type Quad = ox.Quad;
export type NamedNode = ox.NamedNode;
export type GraphName = ox.NamedNode | ox.BlankNode | ox.DefaultGraph;
/** One SELECT solution: variable name (without `?`) → bound term. Unbound variables are absent. */
export type Bindings = ReadonlyMap<string, Term>;

export const factory = {
  namedNode: oxigraph.namedNode,
  blankNode: oxigraph.blankNode,
  literal: oxigraph.literal,
  defaultGraph: oxigraph.defaultGraph,
  quad: oxigraph.quad,
  variable: oxigraph.variable,
};

/**
 * The same factory, building RDF/JS terms in JavaScript (N3's DataFactory) instead of in oxigraph's
 * WebAssembly heap: for quads Assay builds in bulk to serialize or validate itself (a run's record
 * and its evidence, hundreds of quads per question), where each oxigraph term would cross into
 * WebAssembly and back (measured ~100× dearer to build). oxigraph's store and its own factory take
 * these terms as they take any RDF/JS term; only what a store returns is oxigraph's.
 */
export const jsFactory = N3DataFactory as unknown as typeof factory;

/** RDF syntaxes Assay reads and writes, by short name. */
export const RDF_FORMATS = {
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  trig: 'application/trig',
  rdfxml: 'application/rdf+xml',
  n3: 'text/n3',
} as const;
export type RdfMediaType = (typeof RDF_FORMATS)[keyof typeof RDF_FORMATS];

/** Guess an RDF media type from a file name. Returns undefined for unknown extensions. */
export function mediaTypeForFile(path: string): RdfMediaType | undefined {
  const lower = path.toLowerCase();
  if (lower.endsWith('.ttl') || lower.endsWith('.turtle')) return RDF_FORMATS.turtle;
  if (lower.endsWith('.nt') || lower.endsWith('.ntriples')) return RDF_FORMATS.ntriples;
  if (lower.endsWith('.nq') || lower.endsWith('.nquads')) return RDF_FORMATS.nquads;
  if (lower.endsWith('.trig')) return RDF_FORMATS.trig;
  if (lower.endsWith('.rdf') || lower.endsWith('.owl') || lower.endsWith('.xml')) return RDF_FORMATS.rdfxml;
  if (lower.endsWith('.n3')) return RDF_FORMATS.n3;
  return undefined;
}

/** Formats whose documents carry their own graph names. */
export function isQuadFormat(mediaType: string): boolean {
  return mediaType === RDF_FORMATS.nquads || mediaType === RDF_FORMATS.trig;
}

export interface QueryOptions {
  /** Graphs that form the default graph for this query (SPARQL protocol `default-graph-uri`). */
  defaultGraphs?: readonly string[];
  /** Graphs visible through GRAPH (SPARQL protocol `named-graph-uri`). */
  namedGraphs?: readonly string[];
  /** Treat the union of all graphs as the default graph (Assay's endpoint default). */
  unionDefaultGraph?: boolean;
  baseIri?: string;
}

export interface LoadOptions {
  /** Media type, e.g. `text/turtle`; see RDF_FORMATS. */
  format: string;
  /** Target graph IRI for triple formats. Ignored for quad formats, which keep their names. */
  graph?: string;
  baseIri?: string;
  /** Skip some validation for speed; only for trusted, machine-written input. */
  lenient?: boolean;
}

/** Raised when a query returns a different kind of result than the method promised. */
export class QueryKindError extends Error {
  constructor(expected: string, got: string) {
    super(`expected a ${expected} query but the query produced ${got}; use RdfStore.${methodFor(got)}() for this query`);
    this.name = 'QueryKindError';
  }
}

function methodFor(kind: string): string {
  if (kind === 'a boolean (ASK)') return 'ask';
  if (kind === 'solutions (SELECT)') return 'select';
  if (kind === 'triples (CONSTRUCT/DESCRIBE)') return 'construct';
  return 'query';
}

function describeResult(r: unknown): string {
  if (typeof r === 'boolean') return 'a boolean (ASK)';
  if (typeof r === 'string') return 'a serialized string';
  if (Array.isArray(r)) {
    if (r.length === 0) return 'an empty result';
    return r[0] instanceof Map ? 'solutions (SELECT)' : 'triples (CONSTRUCT/DESCRIBE)';
  }
  return typeof r;
}

function toGraph(iri: string): GraphName {
  return iri === '' ? oxigraph.defaultGraph() : oxigraph.namedNode(iri);
}

function queryOptions(o: QueryOptions | undefined, resultsFormat?: string): Parameters<ox.Store['query']>[1] {
  const opts: NonNullable<Parameters<ox.Store['query']>[1]> = {};
  if (!o) return resultsFormat ? { results_format: resultsFormat } : undefined;
  if (o.baseIri) opts.base_iri = o.baseIri;
  if (o.defaultGraphs && o.defaultGraphs.length > 0) opts.default_graph = o.defaultGraphs.map(toGraph);
  else if (o.unionDefaultGraph) opts.use_default_graph_as_union = true;
  if (o.namedGraphs && o.namedGraphs.length > 0) opts.named_graphs = o.namedGraphs.map((g) => oxigraph.namedNode(g));
  if (resultsFormat) opts.results_format = resultsFormat;
  return opts;
}

/** Lines in RDF text: at least the statements of a line-based syntax (N-Triples, N-Quads). */
function lineCount(data: string): number {
  let n = 1;
  for (let i = data.indexOf('\n'); i !== -1; i = data.indexOf('\n', i + 1)) n++;
  return n;
}

export class RdfStore {
  /** The oxigraph store, made on first use (so a store never used leaves this thread's instance pristine). */
  #inner: ox.Store | null;
  /**
   * At least the number of quads the store holds, or null when unknown. oxigraph's in-memory
   * `size` walks every quad (~55 ms at 600 k quads), and every write checks the store's ceiling:
   * the bound is kept from the last count plus what each write could at most have added.
   */
  #bound: number | null = null;
  /**
   * Quads per graph counted since the last change (`graphSize` walks the graph inside the engine:
   * ~1–2 s for the 600 k-quad catalog graph). Any write clears it; a memory image carries it.
   */
  #graphSizes = new Map<string, number>();

  constructor(store?: ox.Store) {
    this.#inner = store ?? null;
    if (!store) this.#bound = 0;
  }

  get #store(): ox.Store {
    return this.#inner ??= new oxigraph.Store();
  }

  /**
   * Nothing has used this store yet: it holds no quad and has not touched oxigraph (an empty
   * store's `size` and `match` answer without making it). Such a store can still adopt a memory
   * image (`adoptImage`) when its thread's instance is pristine.
   */
  get untouched(): boolean {
    return this.#inner === null;
  }

  /**
   * Become the store in `image`, adopted by this thread's oxigraph instance (which must not have
   * been used yet) instead of parsing. Throws, changing nothing, when it cannot (this store was
   * used, the instance is not pristine, the versions differ). After the copy the store must
   * hold the quads the image says; when it does not, the copy is abandoned for a new empty
   * store (the allocator state copied is consistent, so that store is sound) and this throws.
   */
  adoptImage(image: wasmImage.WasmImage): void {
    if (this.#inner !== null) throw new Error('this store was used already; only an untouched store can adopt a memory image');
    const ptr = wasmImage.apply(image);
    const store = Object.create(oxigraph.Store.prototype) as ox.Store;
    (store as unknown as { __wbg_ptr: number }).__wbg_ptr = ptr;
    // Not registered for finalization: the adopted store lives as long as its thread.
    this.#inner = store;
    this.#graphSizes = new Map(Object.entries(image.graphSizes ?? {}));
    const n = this.size;
    if (n !== image.quads) {
      this.#inner = new oxigraph.Store();
      this.#bound = 0;
      this.#graphSizes.clear();
      throw new Error(`the store adopted from a memory image holds ${n} quads, not ${image.quads}`);
    }
  }

  /**
   * An upper bound of `size` that costs nothing to read after the first count: writes since then
   * added at most what it assumes (deletions leave it standing, an update makes it count again).
   * For limits ("would this pass the ceiling?"): count with `size` when the bound is close.
   */
  get sizeBound(): number {
    return this.#bound ?? this.size;
  }

  /**
   * A copy of this thread's oxigraph heap with this store in it, for another thread to adopt
   * without parsing (src/rdf/wasm-image.ts). Null when this thread cannot take one.
   */
  memoryImage(): wasmImage.WasmImage | null {
    const image = wasmImage.take((this.#store as unknown as { __wbg_ptr: number }).__wbg_ptr, this.#store.size);
    if (image && this.#graphSizes.size > 0) image.graphSizes = Object.fromEntries(this.#graphSizes);
    return image;
  }

  /**
   * The store in `image`, adopted by this thread's oxigraph instance, which must not have been
   * used yet (a fresh worker thread). Throws when it cannot be, or when the store it finds does
   * not hold the quads the image says.
   */
  static fromMemoryImage(image: wasmImage.WasmImage): RdfStore {
    const rdf = new RdfStore();
    rdf.adoptImage(image);
    return rdf;
  }

  /** Can this thread adopt a memory image (its oxigraph instance is still unused)? */
  static canAdoptImage(): boolean {
    return wasmImage.isPristine();
  }

  /** Number of quads in all graphs (counted: O(quads) in oxigraph's in-memory store; see sizeBound). */
  get size(): number {
    if (this.#inner === null) return 0;
    const n = this.#store.size;
    this.#bound = n;
    return n;
  }

  select(query: string, options?: QueryOptions): Bindings[] {
    const r = this.#store.query(query, queryOptions(options));
    if (Array.isArray(r) && (r.length === 0 || r[0] instanceof Map)) return r as Map<string, Term>[];
    throw new QueryKindError('SELECT', describeResult(r));
  }

  ask(query: string, options?: QueryOptions): boolean {
    const r = this.#store.query(query, queryOptions(options));
    if (typeof r === 'boolean') return r;
    throw new QueryKindError('ASK', describeResult(r));
  }

  /** CONSTRUCT or DESCRIBE. */
  construct(query: string, options?: QueryOptions): Quad[] {
    const r = this.#store.query(query, queryOptions(options));
    if (Array.isArray(r) && (r.length === 0 || !(r[0] instanceof Map))) return r as Quad[];
    throw new QueryKindError('CONSTRUCT or DESCRIBE', describeResult(r));
  }

  /**
   * Run any query and let oxigraph serialize the result directly (fast path for the endpoint).
   * `resultsFormat` is a media type: SPARQL results JSON/XML/CSV/TSV for SELECT/ASK, an RDF
   * syntax for CONSTRUCT/DESCRIBE.
   */
  querySerialized(query: string, resultsFormat: string, options?: QueryOptions): string {
    const r = this.#store.query(query, queryOptions(options, resultsFormat));
    if (typeof r === 'string') return r;
    throw new QueryKindError('serializable', describeResult(r));
  }

  update(update: string, options?: { baseIri?: string }): void {
    this.#bound = null;
    this.#graphSizes.clear();
    this.#store.update(update, options?.baseIri ? { base_iri: options.baseIri } : undefined);
  }

  /** Parse and add RDF (all or nothing: a syntax error adds nothing). */
  load(data: string | Uint8Array | Iterable<string | Uint8Array>, options: LoadOptions): void {
    const opts: Parameters<ox.Store['load']>[1] = { format: options.format };
    if (options.baseIri) opts.base_iri = options.baseIri;
    if (options.graph !== undefined && !isQuadFormat(options.format)) opts.to_graph_name = toGraph(options.graph);
    if (options.lenient) opts.lenient = true;
    const lineBased = typeof data === 'string' && (options.format === RDF_FORMATS.ntriples || options.format === RDF_FORMATS.nquads);
    const bound = this.#bound;
    this.#bound = null;
    this.#graphSizes.clear();
    this.#store.load(data as string, opts);
    if (bound !== null && lineBased) this.#bound = bound + lineCount(data);
  }

  /** Serialize one graph (triple formats) or the whole dataset (quad formats). */
  dump(options: { format: string; graph?: string }): string {
    if (options.graph !== undefined) {
      return this.#store.dump({ format: options.format, from_graph_name: toGraph(options.graph) });
    }
    if (!isQuadFormat(options.format)) {
      throw new Error(`dumping the whole dataset needs a quad format (application/n-quads or application/trig), not ${options.format}; pass a graph to dump a single graph as ${options.format}`);
    }
    return this.#store.dump({ format: options.format });
  }

  match(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): Quad[] {
    if (this.#inner === null) return [];
    return this.#store.match(subject ?? null, predicate ?? null, object ?? null, graph ?? null);
  }

  has(quad: Quad): boolean {
    return this.#store.has(quad);
  }

  add(quads: Iterable<Quad>): void {
    this.#graphSizes.clear();
    for (const q of quads) {
      this.#store.add(q);
      if (this.#bound !== null) this.#bound++;
    }
  }

  delete(quads: Iterable<Quad>): void {
    this.#graphSizes.clear();
    for (const q of quads) this.#store.delete(q);
  }

  /**
   * IRIs of the named graphs that hold at least one quad, sorted. `GRAPH ?g {}` reads oxigraph's
   * list of graph names (no quads); a name can outlive its quads (CLEAR keeps it), so each is
   * confirmed non-empty with one ASK. DISTINCT ?g over `GRAPH ?g { ?s ?p ?o }` would read every
   * quad instead (12 s at 100k quads, measured).
   */
  graphs(): string[] {
    const names = this.select('SELECT ?g WHERE { GRAPH ?g { } }')
      .map((r) => r.get('g'))
      .filter((t): t is NamedNode => t?.termType === 'NamedNode')
      .map((t) => t.value);
    return [...new Set(names)]
      .filter((g) => this.ask(`ASK { GRAPH ${iriRef(g)} { ?s ?p ?o } }`))
      .sort();
  }

  /**
   * Number of quads in one graph ('' = default graph), counted inside the engine (matching
   * would create a JavaScript object per quad: seconds of garbage for the catalog graph).
   */
  graphSize(graph: string): number {
    const known = this.#graphSizes.get(graph);
    if (known !== undefined) return known;
    if (this.#inner === null) return 0;
    const r = this.select(graph === '' ? 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }' : `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ${iriRef(graph)} { ?s ?p ?o } }`);
    const n = Number(r[0]?.get('n')?.value ?? 0);
    this.#graphSizes.set(graph, n);
    return n;
  }

  /** Does one graph ('' = default graph) hold no quad? */
  graphIsEmpty(graph: string): boolean {
    return !this.ask(graph === '' ? 'ASK { ?s ?p ?o }' : `ASK { GRAPH ${iriRef(graph)} { ?s ?p ?o } }`);
  }

  /** Remove every quad of one graph ('' = the default graph). */
  clearGraph(graph: string): void {
    // One update inside the engine: matching and deleting quad by quad would create a JS object
    // per quad, which for a graph of hundreds of thousands of quads is mostly garbage collection.
    this.#graphSizes.clear();
    this.#store.update(graph === '' ? 'CLEAR SILENT DEFAULT' : `CLEAR SILENT GRAPH ${iriRef(graph)}`);
  }
}

/**
 * An IRI as SPARQL syntax. Throws on characters SPARQL's IRIREF does not allow, so a name can
 * never become syntax. (For IRIs from code and configuration; untrusted text goes through the
 * endpoint's parser instead.)
 */
export function iriRef(iri: string): string {
  if (/[\u0000-\u0020<>"{}|^`\\]/.test(iri)) {
    throw new Error(`not usable as an IRI in SPARQL: ${JSON.stringify(iri)} (it contains a space, control character or one of <>"{}|^\`\\)`);
  }
  return `<${iri}>`;
}

/** Parse RDF text into quads without touching a store. */
export function parseRdf(data: string, options: { format: string; graph?: string; baseIri?: string }): Quad[] {
  const opts: { format: string; base_iri?: string; to_graph_name?: GraphName } = { format: options.format };
  if (options.baseIri) opts.base_iri = options.baseIri;
  if (options.graph !== undefined && !isQuadFormat(options.format)) opts.to_graph_name = toGraph(options.graph);
  return (oxigraph as unknown as { parse(d: string, o: typeof opts): Quad[] }).parse(data, opts);
}
