/**
 * A small quad collector: typed helpers for IRIs and literals so the RDF builders read as
 * "subject, predicate, object" lists, and every quad lands in the one target graph.
 *
 * Terms are plain RDF/JS objects (N3's DataFactory), not oxigraph's: the catalog makes about
 * 700 k quads, and creating that many WebAssembly-backed objects (each with a finalizer) spent
 * most of its time in garbage collection. The store takes the result as N-Triples text.
 */
import { DataFactory } from 'n3';
import type * as RDFJS from '@rdfjs/types';
import { XSD } from '../../rdf/vocab.ts';

type Obj = RDFJS.NamedNode | RDFJS.Literal;
const { namedNode, literal, quad, defaultGraph } = DataFactory;

export class QuadWriter {
  readonly quads: RDFJS.Quad[] = [];
  private readonly graph: RDFJS.NamedNode | RDFJS.DefaultGraph;
  constructor(graphIri?: string) {
    this.graph = graphIri ? namedNode(graphIri) : defaultGraph();
  }
  iri(value: string): RDFJS.NamedNode { return namedNode(value); }
  str(value: string, lang?: string): RDFJS.Literal { return literal(value, lang); }
  typed(value: string, datatype: string): RDFJS.Literal { return literal(value, namedNode(datatype)); }
  bool(value: boolean): RDFJS.Literal { return this.typed(String(value), XSD.boolean); }
  int(value: number): RDFJS.Literal { return this.typed(String(Math.trunc(value)), XSD.integer); }
  dec(value: number): RDFJS.Literal { return this.typed(String(value), XSD.decimal); }
  date(value: string): RDFJS.Literal { return this.typed(value, XSD.date); }
  dateTime(value: string): RDFJS.Literal { return this.typed(value, XSD.dateTime); }
  /** Adds `s p o` for each object; skips undefined objects so optional fields read simply. */
  add(subject: string, predicate: string, ...objects: (Obj | undefined)[]): void {
    const s = namedNode(subject);
    const p = namedNode(predicate);
    for (const o of objects) if (o !== undefined) this.quads.push(quad(s, p, o, this.graph));
  }
  /** Adds `s p <iri>` for each IRI string. */
  link(subject: string, predicate: string, ...iris: (string | undefined)[]): void {
    this.add(subject, predicate, ...iris.map((i) => (i === undefined ? undefined : namedNode(i))));
  }
}
