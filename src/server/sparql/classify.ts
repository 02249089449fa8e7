/**
 * What an untrusted SPARQL request is, decided from its sparqljs syntax tree (never by
 * searching the text for keywords), and the rewrites the endpoint applies to that tree.
 *
 * - `parseOperation` parses with sparqljs and says whether it is a query or an update.
 * - `remoteReferences` lists every place the request names something outside this store:
 *   SERVICE (at any depth, including sub-queries and EXISTS filters), LOAD, and the graphs
 *   of FROM / FROM NAMED / USING / USING NAMED.
 * - `refuseRemote` applies the operator's policy: a remote reference whose host is not in
 *   `allowedRemoteHosts` is refused (403); an allowed one is refused as not supported (501),
 *   because oxigraph evaluates no SERVICE and Assay fetches nothing on a client's behalf.
 *   FROM/USING IRIs are only selections of local graphs (oxigraph never dereferences them);
 *   they count as remote when they are neither under Assay's base IRI nor a graph in the store.
 * - `capRows` puts a LIMIT of maxRows+1 on the outer query so the engine stops early and the
 *   extra row proves the result was cut.
 * - `withUsingGraphs` applies protocol using-graph-uri / using-named-graph-uri to an update.
 * - `clearIsSilent`: Assay's store does not record empty graphs (a graph exists while it has
 *   quads), so CLEAR of a graph with no quads is clearing an empty graph and succeeds, as
 *   SPARQL 1.1 Update allows for such stores; DROP keeps its strict meaning.
 *
 * Whatever is evaluated is the text the sparqljs Generator writes from the checked tree, so
 * the engine runs exactly what was classified.
 */
import sparqljs from 'sparqljs';
import type { SparqlQuery, Query, Update, IriTerm } from 'sparqljs';
import { SparqlError } from './errors.ts';

const { Parser, Generator } = sparqljs;

export type Parsed = { kind: 'query'; ast: Query } | { kind: 'update'; ast: Update };

export function parseOperation(text: string, baseIri: string): Parsed {
  let ast: SparqlQuery;
  try {
    ast = new Parser({ baseIRI: baseIri }).parse(text);
  } catch (e) {
    throw new SparqlError('syntax-error', `SPARQL syntax error: ${(e as Error).message}`);
  }
  return ast.type === 'query' ? { kind: 'query', ast } : { kind: 'update', ast };
}

export function generate(ast: SparqlQuery): string {
  return new Generator().stringify(ast);
}

export interface RemoteReference {
  /** Where it appeared: SERVICE, LOAD, FROM, FROM NAMED, USING, USING NAMED. */
  clause: string;
  /** The IRI, or undefined when it is a variable (e.g. SERVICE ?s). */
  iri: string | undefined;
  /** Graph selections may be local; SERVICE and LOAD always leave the store. */
  graphSelection: boolean;
}

export function remoteReferences(parsed: Parsed): RemoteReference[] {
  const out: RemoteReference[] = [];
  walk(parsed.ast, (node) => {
    if (node.type === 'service') {
      const name = node.name as { termType: string; value: string };
      out.push({ clause: 'SERVICE', iri: name.termType === 'NamedNode' ? name.value : undefined, graphSelection: false });
    }
  });
  if (parsed.kind === 'query') {
    for (const g of parsed.ast.from?.default ?? []) out.push({ clause: 'FROM', iri: g.value, graphSelection: true });
    for (const g of parsed.ast.from?.named ?? []) out.push({ clause: 'FROM NAMED', iri: g.value, graphSelection: true });
  } else {
    for (const op of parsed.ast.updates) {
      if ('type' in op && op.type === 'load') out.push({ clause: 'LOAD', iri: op.source.value, graphSelection: false });
      if ('updateType' in op && op.updateType === 'insertdelete') {
        for (const g of op.using?.default ?? []) out.push({ clause: 'USING', iri: g.value, graphSelection: true });
        for (const g of op.using?.named ?? []) out.push({ clause: 'USING NAMED', iri: g.value, graphSelection: true });
      }
    }
  }
  return out;
}

/** Visit every object node of a syntax tree (iteratively: trees from hostile input may be deep). */
function walk(root: unknown, visit: (node: Record<string, unknown>) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const child of node) stack.push(child);
    } else if (node !== null && typeof node === 'object') {
      visit(node as Record<string, unknown>);
      for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}

/** Functions whose value differs between two evaluations of the same query over the same data. */
const FRESH_EACH_TIME = new Set(['now', 'rand', 'uuid', 'struuid', 'bnode']);

/**
 * Whether evaluating the query twice over the same data gives the same answer: false when it
 * calls NOW(), RAND(), UUID(), STRUUID(), BNODE() or any extension function (whose behaviour is
 * unknown here). Decided from the syntax tree.
 */
export function isDeterministic(parsed: Parsed): boolean {
  let deterministic = true;
  walk(parsed.ast, (node) => {
    if (node.type === 'functionCall') deterministic = false;
    else if (node.type === 'operation' && typeof node.operator === 'string' && FRESH_EACH_TIME.has(node.operator.toLowerCase())) deterministic = false;
  });
  return deterministic;
}

export interface RemotePolicy {
  allowedHosts: readonly string[];
  /** True when the IRI names a graph this store holds or would mint. */
  isLocalGraph(iri: string): boolean;
}

function hostOf(iri: string): string | undefined {
  try {
    return new URL(iri).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function refuseRemote(parsed: Parsed, policy: RemotePolicy): void {
  refuseReferences(remoteReferences(parsed), policy);
}

/** refuseRemote over references already listed (a prepared query lists them once). */
export function refuseRemoteReferences(refs: readonly RemoteReference[], policy: RemotePolicy): void {
  refuseReferences(refs, policy);
}

/**
 * The protocol's dataset parameters (default-graph-uri, named-graph-uri, using-graph-uri, …)
 * select graphs exactly as FROM / USING do, so they get the same policy.
 */
export function refuseRemoteGraphs(clause: string, iris: readonly string[], policy: RemotePolicy): void {
  refuseReferences(iris.map((iri) => ({ clause, iri, graphSelection: true })), policy);
}

function refuseReferences(refs: readonly { clause: string; iri?: string | undefined; graphSelection: boolean }[], policy: RemotePolicy): void {
  const allowed = new Set(policy.allowedHosts.map((h) => h.toLowerCase()));
  for (const ref of refs) {
    if (ref.graphSelection && ref.iri !== undefined && policy.isLocalGraph(ref.iri)) continue;
    const host = ref.iri === undefined ? undefined : hostOf(ref.iri);
    const what = ref.iri === undefined ? `${ref.clause} with a variable` : `${ref.clause} <${ref.iri}>`;
    if (host === undefined || !allowed.has(host)) {
      throw new SparqlError('remote-not-allowed',
        `${what} would reach outside this store${host ? ` (host ${host})` : ''}, and no operator has allowed it`);
    }
    throw new SparqlError('remote-not-supported', `${what}: host ${host} is allowed, but Assay does not fetch remote data inside a query`);
  }
}

/** Cap the outer solution sequence at maxRows+1. Returns whether the cap could cut the result. */
export function capRows(query: Query, maxRows: number): boolean {
  if (query.queryType === 'ASK') return false;
  // ConstructQuery's typing omits the solution modifiers the grammar gives it.
  const q = query as { limit?: number };
  if (q.limit !== undefined && q.limit <= maxRows) return false;
  q.limit = maxRows + 1;
  return true;
}

/** Apply protocol using-graph-uri / using-named-graph-uri to every INSERT/DELETE ... WHERE. */
export function withUsingGraphs(update: Update, usingGraphs: readonly string[], usingNamedGraphs: readonly string[]): void {
  if (usingGraphs.length === 0 && usingNamedGraphs.length === 0) return;
  const iri = (value: string) => ({ termType: 'NamedNode', value }) as IriTerm;
  for (const op of update.updates) {
    if (!('updateType' in op) || op.updateType !== 'insertdelete') continue;
    const hasUsing = (op.using?.default.length ?? 0) + (op.using?.named.length ?? 0) > 0;
    if (hasUsing || op.graph !== undefined) {
      throw new SparqlError('dataset-conflict', 'the update names its dataset with USING/WITH and the request also sends using-graph-uri/using-named-graph-uri');
    }
    op.using = { default: usingGraphs.map(iri), named: usingNamedGraphs.map(iri) };
  }
}

export function clearIsSilent(update: Update): void {
  for (const op of update.updates) if ('type' in op && op.type === 'clear') op.silent = true;
}
