/**
 * VoID renderer: a mined result as a `void:Dataset` description.
 *
 * Contract: figures are the miner's, so each equals a SPARQL COUNT over the same graph
 * (asserted in test/void.test.ts):
 *   void:triples COUNT(*) · void:distinctSubjects COUNT(DISTINCT ?s) · void:entities the same over
 *   IRI subjects · void:distinctObjects COUNT(DISTINCT ?o) · void:properties COUNT(DISTINCT ?p) ·
 *   void:classes COUNT(DISTINCT ?c) for IRI ?c in `?s a ?c`.
 *   Class partition C: void:entities = instances, void:triples = triples whose subject is one.
 *   Property partition p: void:triples, void:distinctSubjects, void:distinctObjects.
 * Partitions cover the classes and predicates the result kept (see BuildOptions caps); a result
 * mined with minimizeTypes counts each subject under its most specific classes only, which is
 * not VoID's meaning of void:class, so mine without it for a catalogue entry.
 */
import type * as RDFJS from '@rdfjs/types';
import type { Introspection } from './model.ts';
import { blankNode, int, namedNode, quad, serialize, type RdfOutput } from './rdf-out.ts';
import { RDF, VOID } from './vocab.ts';

export interface VoidOptions {
  format?: RdfOutput;
  /** Emit class and property partitions (default true). */
  partitions?: boolean;
}

export function voidQuads(ix: Introspection, datasetIri: string, options: VoidOptions = {}): RDFJS.Quad[] {
  const out: RDFJS.Quad[] = [];
  const ds = namedNode(datasetIri);
  const add = (s: RDFJS.Quad_Subject, p: string, o: RDFJS.Quad_Object) => out.push(quad(s, namedNode(p), o));
  add(ds, RDF.type, namedNode(VOID.Dataset));
  add(ds, VOID.triples, int(ix.triples));
  add(ds, VOID.entities, int(ix.entities));
  add(ds, VOID.distinctSubjects, int(ix.subjects));
  if (ix.objects !== undefined) add(ds, VOID.distinctObjects, int(ix.objects));
  add(ds, VOID.classes, int(ix.classCount));
  add(ds, VOID.properties, int(ix.predicateCount));
  for (const ns of ix.namespaces.namespaces) add(ds, VOID.vocabulary, namedNode(ns.iri));
  if (options.partitions === false) return out;
  ix.classes.forEach((c, i) => {
    const b = blankNode(`class${i}`);
    add(ds, VOID.classPartition, b);
    add(b, VOID.class, namedNode(c.iri));
    add(b, VOID.entities, int(c.instances));
    add(b, VOID.triples, int(c.triples));
  });
  ix.predicates.forEach((p, i) => {
    const b = blankNode(`property${i}`);
    add(ds, VOID.propertyPartition, b);
    add(b, VOID.property, namedNode(p.iri));
    add(b, VOID.triples, int(p.triples));
    add(b, VOID.distinctSubjects, int(p.subjects));
    if (p.objects !== undefined) add(b, VOID.distinctObjects, int(p.objects));
  });
  return out;
}

export function toVoid(ix: Introspection, datasetIri: string, options: VoidOptions = {}): string {
  return serialize(voidQuads(ix, datasetIri, options), options.format ?? 'ntriples');
}
