/**
 * A small quad collector: typed helpers for IRIs and literals so the RDF builders read as
 * "subject, predicate, object" lists, and every quad lands in the one target graph.
 */
import { factory, type Quad } from '../../rdf/store.ts';
import { XSD } from '../../rdf/vocab.ts';
import type * as ox from 'oxigraph';

type Obj = ox.NamedNode | ox.Literal;

export class QuadWriter {
  readonly quads: Quad[] = [];
  private readonly graph: ox.NamedNode | ox.DefaultGraph;
  constructor(graphIri?: string) {
    this.graph = graphIri ? factory.namedNode(graphIri) : factory.defaultGraph();
  }
  iri(value: string): ox.NamedNode { return factory.namedNode(value); }
  str(value: string, lang?: string): ox.Literal { return factory.literal(value, lang); }
  typed(value: string, datatype: string): ox.Literal { return factory.literal(value, factory.namedNode(datatype)); }
  bool(value: boolean): ox.Literal { return this.typed(String(value), XSD.boolean); }
  int(value: number): ox.Literal { return this.typed(String(Math.trunc(value)), XSD.integer); }
  dec(value: number): ox.Literal { return this.typed(String(value), XSD.decimal); }
  date(value: string): ox.Literal { return this.typed(value, XSD.date); }
  dateTime(value: string): ox.Literal { return this.typed(value, XSD.dateTime); }
  /** Adds `s p o` for each object; skips undefined objects so optional fields read simply. */
  add(subject: string, predicate: string, ...objects: (Obj | undefined)[]): void {
    const s = factory.namedNode(subject);
    const p = factory.namedNode(predicate);
    for (const o of objects) if (o !== undefined) this.quads.push(factory.quad(s, p, o, this.graph));
  }
  /** Adds `s p <iri>` for each IRI string. */
  link(subject: string, predicate: string, ...iris: (string | undefined)[]): void {
    this.add(subject, predicate, ...iris.map((i) => (i === undefined ? undefined : factory.namedNode(i))));
  }
}
