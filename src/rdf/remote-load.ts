/**
 * Streaming a large RDF file into a remote store: for files too big to parse in memory first
 * (the embedded parser is the WebAssembly store, bounded near 13 M triples), e.g. a grant graph
 * of tens of millions of triples.
 *
 * Contract
 * - Input: a byte stream in Turtle, TriG, N-Triples or N-Quads (N3.js's streaming parser; RDF/XML
 *   is refused with the conversion to use). Triple formats go into `graph`; quad formats keep
 *   their graph names, and a triple in their default graph is refused (a remote store's default
 *   graph is the union of the named ones).
 * - Output: the triples POSTed in pieces of `chunkQuads`, per graph, through the Graph Store
 *   Protocol when configured (else INSERT DATA), `concurrency` requests in flight; then one
 *   increment of the store's write counter. Returns counts.
 * - Blank nodes: each request would make its own nodes of the same label, so labels become IRIs
 *   under `{base}.well-known/genid/{loadKey}/` (RDF 1.1 Concepts §3.5, skolemization). The key is
 *   derived from the file's identity, so loading the same file again adds nothing new.
 * - Not all-or-nothing: on a syntax error (or a store failure) midway the pieces already sent
 *   stay; the error names the line and how many triples went in. Loading the corrected file again
 *   is safe: RDF graphs are sets, and the blank-node IRIs repeat.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import N3 from 'n3';
import type * as RDFJS from '@rdfjs/types';
import { RemoteStoreError } from './sparql-http.ts';
import { incrementUpdate, type RemoteStore } from './remote.ts';
import { RDF_FORMATS, iriRef } from './store.ts';
import { ensureSlash } from './vocab.ts';

const N3_FORMATS: Record<string, string> = {
  [RDF_FORMATS.turtle]: 'Turtle', [RDF_FORMATS.ntriples]: 'N-Triples', [RDF_FORMATS.nquads]: 'N-Quads', [RDF_FORMATS.trig]: 'TriG',
};

export interface StreamLoadOptions {
  format: string;
  /** Target graph for triple formats. */
  graph?: string;
  baseIri?: string;
  /** Identifies the input (e.g. absolute path, size and mtime) for stable blank-node IRIs. */
  key: string;
  /** Assay's base IRI (blank-node IRIs are minted under it). */
  assayBase: string;
  chunkQuads?: number;
  concurrency?: number;
  /** Told after each piece is acknowledged. */
  onProgress?: (sent: number) => void;
}

export interface StreamLoadResult {
  triples: number;
  requests: number;
  graphs: string[];
  /** Distinct blank-node labels given IRIs. */
  skolemized: number;
  genidPrefix: string;
}

export async function streamLoad(store: RemoteStore, input: Readable, o: StreamLoadOptions): Promise<StreamLoadResult> {
  const format = N3_FORMATS[o.format];
  if (!format) {
    throw new RemoteStoreError('refused', `a streamed load reads Turtle, TriG, N-Triples or N-Quads, not ${o.format}; convert it first (e.g. \`rapper -i rdfxml -o ntriples file.rdf > file.nt\` from Debian raptor2-utils)`);
  }
  const quadFormat = format === 'N-Quads' || format === 'TriG';
  if (!quadFormat && !o.graph) throw new RemoteStoreError('refused', 'a triple format needs a target graph (assay load --graph IRI)');
  const chunk = o.chunkQuads ?? 100_000;
  const concurrency = o.concurrency ?? 4;
  const genidPrefix = `${ensureSlash(o.assayBase)}.well-known/genid/${createHash('sha256').update(o.key).digest('hex').slice(0, 16)}/`;
  const f = N3.DataFactory;
  const labels = new Set<string>();
  const skolem = <T extends RDFJS.Term>(t: T): T | RDFJS.NamedNode => {
    if (t.termType !== 'BlankNode') return t;
    labels.add(t.value);
    return f.namedNode(genidPrefix + encodeURIComponent(t.value));
  };

  const pending = new Map<string, RDFJS.Quad[]>();
  const inFlight = new Set<Promise<void>>();
  const graphs = new Set<string>();
  let sent = 0;
  let triples = 0;
  let requests = 0;
  let failure: Error | undefined;

  const send = (graph: string, quads: RDFJS.Quad[]): Promise<void> => {
    const writer = new N3.Writer({ format: 'N-Triples' });
    const text = writer.quadsToString(quads.map((q) => f.quad(q.subject, q.predicate, q.object)));
    const http = store.http;
    const run = (http.endpoints.graphStoreUrl
      ? http.graphStore('POST', graph, text, RDF_FORMATS.ntriples)
      : http.update(`INSERT DATA { GRAPH ${iriRef(graph)} {\n${text}} }`)
    ).then(() => {
      requests++;
      sent += quads.length;
      o.onProgress?.(sent);
    });
    const tracked = run.catch((e: Error) => { failure ??= e; }).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    return tracked;
  };

  const parser = new N3.StreamParser({ format, blankNodePrefix: '', ...(o.baseIri ? { baseIRI: o.baseIri } : {}) });
  const quads = input.pipe(parser) as AsyncIterable<RDFJS.Quad>;
  try {
    for await (const q of quads) {
      if (failure) break;
      let graph: string;
      if (quadFormat) {
        if (q.graph.termType === 'DefaultGraph') {
          throw new RemoteStoreError('refused', `triple ${triples + 1} is in the default graph, which a remote store does not keep apart; give every triple a graph name`);
        }
        graph = skolem(q.graph).value;
      } else {
        graph = o.graph!;
      }
      graphs.add(graph);
      const list = pending.get(graph) ?? [];
      list.push(f.quad(skolem(q.subject) as RDFJS.Quad_Subject, q.predicate, skolem(q.object) as RDFJS.Quad_Object));
      pending.set(graph, list);
      triples++;
      if (list.length >= chunk) {
        pending.delete(graph);
        void send(graph, list);
        while (inFlight.size >= concurrency) await Promise.race(inFlight);
      }
    }
  } catch (e) {
    await Promise.allSettled(inFlight);
    if (e instanceof RemoteStoreError) throw e;
    throw new RemoteStoreError('refused', `the input does not parse (${(e as Error).message}); ${sent} triples had already been added${graphs.size ? ` to ${[...graphs].map((g) => `<${g}>`).join(', ')}` : ''}. Fix the file and load it again: triples already there are not added twice`);
  }
  if (!failure) for (const [graph, list] of pending) if (list.length > 0) void send(graph, list);
  await Promise.allSettled(inFlight);
  if (failure) {
    throw failure instanceof RemoteStoreError
      ? new RemoteStoreError(failure.code, `${failure.message} (${sent} of ${triples} triples read had been added; loading the file again is safe)`, failure.status)
      : failure;
  }
  await store.http.update(incrementUpdate(store.scope));
  return { triples, requests, graphs: [...graphs].sort(), skolemized: labels.size, genidPrefix };
}
