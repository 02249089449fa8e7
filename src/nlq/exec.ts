/**
 * Running SPARQL for the NL→SPARQL loop in the endpoint's worker pool (src/server/sparql/pool.ts),
 * never on the main thread: generated queries are untrusted, and even grounding reads (labels,
 * the dictionary, mining) can be slow on a large graph. One typed facade over the pool's
 * serialized SPARQL-JSON replies.
 *
 * Scope: `graph` set → that named graph is the query's default graph (as TEXT2SPARQL runs a
 * query against a dataset); `graph` undefined → the union of every graph (the endpoint's default).
 */
import type { QueryPool } from '../server/sparql/pool.ts';
import { SparqlError, fromReply } from '../server/sparql/errors.ts';
import type { QueryJob } from '../server/sparql/evaluate.ts';
import { fromJson, type Introspection } from '../../introspect/index.ts';

/** A SPARQL-JSON term. */
export interface Term {
  type: 'uri' | 'literal' | 'bnode' | 'triple';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

export type Row = Record<string, Term | undefined>;

export interface SelectResult { kind: 'select'; vars: string[]; rows: Row[]; truncated: boolean }
export interface AskResult { kind: 'ask'; value: boolean }
export type QueryResult = SelectResult | AskResult;

export interface RunLimits {
  timeoutMs: number;
  maxRows: number;
  /** The setting that gave timeoutMs, named in a timeout message. */
  limitName?: string;
}

/** What the loop needs from a store: the pool, the endpoint's policy bits, and its IRI base. */
export interface GraphRunner {
  query(text: string, graph: string | undefined, limits: RunLimits): Promise<QueryResult>;
  mine(graph: string | undefined, timeoutMs: number): Promise<Introspection>;
}

export function poolRunner(pool: Pick<QueryPool, 'run'>, options: { baseIri: string; allowedRemoteHosts?: readonly string[] }): GraphRunner {
  const baseIri = options.baseIri;
  return {
    async query(text, graph, limits) {
      const job: QueryJob = {
        kind: 'query', text, defaultGraphs: graph === undefined ? [] : [graph], namedGraphs: [],
        accept: 'application/sparql-results+json', maxRows: limits.maxRows, truncationLink: 'urn:assay:truncated',
        baseIri, localBase: baseIri, allowedRemoteHosts: options.allowedRemoteHosts ?? [],
      };
      const { reply } = await pool.run(job, limits.timeoutMs, limits.limitName ?? 'nlq.timeoutMs');
      if (!reply.ok) throw fromReply(reply);
      if (reply.kind !== 'query') throw new Error(`the query worker answered a query with a ${reply.kind} result; this is a bug in Assay`);
      const body = JSON.parse(reply.body) as { head?: { vars?: string[] }; boolean?: boolean; results?: { bindings: Row[] } };
      if (typeof body.boolean === 'boolean') return { kind: 'ask', value: body.boolean };
      return { kind: 'select', vars: body.head?.vars ?? [], rows: body.results?.bindings ?? [], truncated: reply.truncated };
    },
    async mine(graph, timeoutMs) {
      const { reply } = await pool.run(graph === undefined ? { kind: 'mine' } : { kind: 'mine', graph }, timeoutMs, 'nlq.groundTimeoutMs');
      if (!reply.ok) throw fromReply(reply);
      if (reply.kind !== 'mine') throw new Error(`the query worker answered a mining job with a ${reply.kind} result; this is a bug in Assay`);
      return fromJson(reply.json, 'the mined schema');
    },
  };
}

export { SparqlError };

/** An RDF term in N-Triples-like text, for display and for row comparison. */
export function termKey(t: Term | undefined): string {
  if (!t) return '';
  if (t.type === 'uri') return `<${t.value}>`;
  if (t.type === 'bnode') return `_:${t.value}`;
  if (t.type === 'literal') {
    const v = JSON.stringify(t.value);
    if (t['xml:lang']) return `${v}@${t['xml:lang']}`;
    if (t.datatype && t.datatype !== 'http://www.w3.org/2001/XMLSchema#string') return `${v}^^<${t.datatype}>`;
    return v;
  }
  return t.value;
}
