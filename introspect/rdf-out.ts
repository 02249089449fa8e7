/**
 * Writing renderer output as RDF text: quads built with n3's DataFactory, serialized by n3's
 * Writer as N-Triples (the default: one statement per line, and valid Turtle) or Turtle with
 * prefixes.
 */
import type * as RDFJS from '@rdfjs/types';
import { DataFactory, Writer } from 'n3';
import { IntrospectError } from './errors.ts';
import { RDF_NS, RDFS_NS, SH_NS, VOID_NS, XSD, XSD_NS } from './vocab.ts';

export type RdfOutput = 'ntriples' | 'turtle';

export const { namedNode, blankNode, literal, quad } = DataFactory;
export const int = (n: number): RDFJS.Literal => literal(String(n), namedNode(XSD.integer));

export function serialize(quads: RDFJS.Quad[], format: RdfOutput = 'ntriples', extraPrefixes: Record<string, string> = {}): string {
  if (format !== 'ntriples' && format !== 'turtle') {
    throw new IntrospectError('bad-option', `RDF output must be ntriples or turtle, not ${String(format)}`);
  }
  const writer = format === 'turtle'
    ? new Writer({ format: 'Turtle', prefixes: { rdf: RDF_NS, rdfs: RDFS_NS, xsd: XSD_NS, void: VOID_NS, sh: SH_NS, ...extraPrefixes } })
    : new Writer({ format: 'N-Triples' });
  writer.addQuads(quads);
  let out = '';
  writer.end((error, result) => {
    if (error) throw error;
    out = result;
  });
  return out;
}
