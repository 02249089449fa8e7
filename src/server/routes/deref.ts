/**
 * Dereferencing: a GET on the path of an IRI Assay minted under `config.baseIri` returns the
 * description of that resource, in the RDF format the Accept header prefers.
 *
 * Contract
 * - The IRI is the base IRI plus the request path (query string ignored): with base
 *   `https://h/` a GET on `/source/sec-edgar` describes `<https://h/source/sec-edgar>`. A base with
 *   a path (`https://h/assay/`) expects a proxy that strips that prefix.
 * - The description is the resource's concise bounded description over all graphs (every triple
 *   with it as subject, and, recursively, those of the blank nodes it links to) plus the labels
 *   (rdfs:label, skos:prefLabel, dct:title, foaf:name, schema:name) of the IRIs it links to.
 *   A named graph's IRI also gets its VoID figures (computed off the event loop, see void.ts;
 *   503 if they cannot be). Nothing known: 404 saying so.
 * - Lookups go through `match()` with RDF terms, never through SPARQL text, so nothing from the
 *   path can become query syntax (and a lookup costs ~16 µs, not ~67 µs).
 * - Registered as a wildcard: fastify prefers static routes, so /sparql, /health, /catalog,
 *   /shapes and /.well-known/* keep their own handlers; unknown /.well-known/ paths are 404 here
 *   without a lookup.
 */
import type { FastifyInstance } from 'fastify';
import type * as RDFJS from '@rdfjs/types';
import { factory, type Quad } from '../../rdf/store.ts';
import type { RdfReader } from '../../rdf/backend.ts';
import { ALL_RDF_OUTPUT, RDF_OUTPUT, negotiateRdf, termKey } from '../../rdf/serialize.ts';
import { DCT, FOAF, RDFS, SCHEMA, SKOS, ensureSlash } from '../../rdf/vocab.ts';
import { currentVoid, ownCache, type VoidRouteOptions } from './void.ts';
import { notAcceptable, notFound, sendRdf } from './rdf-reply.ts';

const LABELS = [RDFS.label, SKOS.prefLabel, DCT.title, FOAF.name, SCHEMA.name];

/** Concise bounded description of `iri` across all graphs, or [] if it is never a subject. */
export function describeResource(rdf: RdfReader, iri: string): Quad[] {
  const out: Quad[] = [];
  const seen = new Set<string>();
  const linked = new Map<string, RDFJS.NamedNode>();
  const queue: Quad['subject'][] = [factory.namedNode(iri)];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    const key = termKey(node);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const q of rdf.match(node, null, null, null)) {
      out.push(q);
      if (q.object.termType === 'BlankNode') queue.push(q.object);
      else if (q.object.termType === 'NamedNode' && q.object.value !== iri) linked.set(q.object.value, q.object);
    }
  }
  if (out.length === 0) return out;
  for (const node of linked.values()) {
    for (const p of LABELS) out.push(...rdf.match(node, factory.namedNode(p), null, null));
  }
  return out;
}

/** The quads about `node` in a VoID document, with the blank-node partitions hanging off it. */
function voidAbout(voidQuads: readonly Quad[], node: string): Quad[] {
  const bySubject = new Map<string, Quad[]>();
  for (const q of voidQuads) {
    const k = termKey(q.subject);
    const list = bySubject.get(k);
    if (list) list.push(q);
    else bySubject.set(k, [q]);
  }
  const out: Quad[] = [];
  const queue = [`<${node}>`];
  for (let i = 0; i < queue.length; i++) {
    for (const q of bySubject.get(queue[i]!) ?? []) {
      out.push(q);
      if (q.object.termType === 'BlankNode') queue.push(termKey(q.object));
    }
  }
  return out;
}

/** Characters IRIREF (SPARQL 1.1 §19.8) forbids; an IRI holding one cannot be written as <...>. */
const NOT_IRIREF = /[<>"{}|^`\\\u0000-\u0020]/;

/**
 * Does a named graph with this IRI hold anything? One ASK instead of listing every graph
 * (a scan of the whole store). The IRI is checked against IRIREF before it is written as a term.
 */
export function isGraphName(rdf: RdfReader, iri: string): boolean {
  if (NOT_IRIREF.test(iri)) return false;
  try {
    return rdf.ask(`ASK { GRAPH <${iri}> { ?s ?p ?o } }`);
  } catch {
    // oxigraph refused the IRI (e.g. a bad percent-escape): no graph in the store can have it.
    return false;
  }
}

/** Candidate IRIs for a request path: as sent, and with its percent-escapes decoded or normalized. */
export function iriCandidates(baseIri: string, rawPath: string): string[] {
  const base = ensureSlash(baseIri);
  const rel = rawPath.replace(/^\/+/, '');
  const out = new Set([base + rel]);
  try {
    const segments = rel.split('/').map((s) => decodeURIComponent(s));
    out.add(base + segments.join('/'));
    out.add(base + segments.map((s) => encodeURIComponent(s)).join('/'));
  } catch {
    // A malformed escape: only the path as sent can match.
  }
  return [...out].filter(isValidIri);
}

/** oxigraph refuses to build a term from an invalid IRI; such a path names nothing in the store. */
function isValidIri(iri: string): boolean {
  try {
    factory.namedNode(iri);
    return true;
  } catch {
    return false;
  }
}

export async function derefRoutes(app: FastifyInstance, options: VoidRouteOptions = {}): Promise<void> {
  const { store, config } = app.assay;
  const voidCache = options.voidCache ?? ownCache(app);

  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/.well-known/')) {
      return notFound(reply, `${path} is not a well-known resource Assay serves; try /.well-known/void or /.well-known/ai-catalog.json.`);
    }
    // Refuse unknown formats before looking anything up.
    const type = negotiateRdf(request.headers.accept, ALL_RDF_OUTPUT);
    if (!type) return notAcceptable(request, reply, ALL_RDF_OUTPUT);
    const candidates = iriCandidates(config.baseIri, path);
    for (const iri of candidates) {
      const quads = describeResource(store.rdf, iri);
      if (isGraphName(store.rdf, iri)) {
        // The graph's VoID figures are mined in a worker; this waits without blocking the loop.
        const snap = await currentVoid(voidCache, reply);
        if (!snap) return reply;
        quads.push(...voidAbout(snap.quads, iri));
      }
      if (quads.length > 0) {
        // JSON-LD readers expect one default graph; N-Quads/TriG keep where each statement lives.
        return sendRdf(request, reply, quads, ALL_RDF_OUTPUT, { dropGraphs: type === RDF_OUTPUT.jsonld });
      }
    }
    return notFound(reply, `nothing is known about <${ensureSlash(config.baseIri)}${path.replace(/^\/+/, '')}>: no statement in any graph has it as subject. Browse ${ensureSlash(config.baseIri)}catalog, or ask ${ensureSlash(config.baseIri)}sparql.`);
  });
}
