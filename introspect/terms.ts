/**
 * Term keys: every term the miner handles is one string in N-Triples syntax
 * (`<iri>`, `_:id`, `"lex"`, `"lex"@lang`, `"lex"^^<datatype>`).
 *
 * Why strings: a key is cheap to hash in a Map, and the fast path reads oxigraph's own
 * N-Triples dump, whose lines already hold these strings, so no term object is ever built
 * during the scan. Keys only need to be consistent within one source.
 */
import type * as RDFJS from '@rdfjs/types';
import { RDF, XSD } from './vocab.ts';

/** N-Triples key of an RDF/JS term. */
export function termKey(t: RDFJS.Term): string {
  switch (t.termType) {
    case 'NamedNode': return `<${t.value}>`;
    case 'BlankNode': return `_:${t.value}`;
    case 'Literal': {
      const lex = `"${escapeLiteral(t.value)}"`;
      if (t.language) return `${lex}@${t.language}`;
      if (!t.datatype || t.datatype.value === XSD.string) return lex;
      return `${lex}^^<${t.datatype.value}>`;
    }
    case 'DefaultGraph': return '';
    default: return `?${t.value}`;
  }
}

function escapeLiteral(s: string): string {
  return s.replace(/[\\"\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : c === '\n' ? '\\n' : '\\r'));
}

function unescapeLiteral(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_m, e: string) => {
    switch (e[0]) {
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'u': case 'U': return String.fromCodePoint(parseInt(e.slice(1), 16));
      default: return e;
    }
  });
}

export type TermKind = 'iri' | 'bnode' | 'literal';

export function kindOf(key: string): TermKind {
  const c = key.charCodeAt(0);
  return c === 60 /* < */ ? 'iri' : c === 95 /* _ */ ? 'bnode' : 'literal';
}

export const isIriKey = (key: string): boolean => key.charCodeAt(0) === 60;
export const isLiteralKey = (key: string): boolean => key.charCodeAt(0) === 34;

/** The IRI inside `<…>`. */
export const iriOf = (key: string): string => key.slice(1, -1);

/** The datatype IRI of a literal key (rdf:langString for tagged, xsd:string when plain). */
export function datatypeOf(key: string): string {
  const end = key.lastIndexOf('"');
  const tail = key.slice(end + 1);
  if (tail.startsWith('^^<')) return tail.slice(3, -1);
  if (tail.startsWith('@')) return RDF.langString;
  return XSD.string;
}

/** The lexical form of a literal key, unescaped. */
export function lexicalOf(key: string): string {
  return unescapeLiteral(key.slice(1, key.lastIndexOf('"')));
}

/** Language tag of a literal key, or ''. */
export function languageOf(key: string): string {
  const end = key.lastIndexOf('"');
  return key.charCodeAt(end + 1) === 64 ? key.slice(end + 2) : '';
}

/** Turn a key back into an RDF/JS term with the given factory. */
export function keyToTerm(key: string, f: RDFJS.DataFactory): RDFJS.NamedNode | RDFJS.BlankNode | RDFJS.Literal {
  const k = kindOf(key);
  if (k === 'iri') return f.namedNode(iriOf(key));
  if (k === 'bnode') return f.blankNode(key.slice(2));
  const lang = languageOf(key);
  if (lang) return f.literal(lexicalOf(key), lang);
  const dt = datatypeOf(key);
  return f.literal(lexicalOf(key), dt === XSD.string ? undefined : f.namedNode(dt));
}

/** Namespace of an IRI: up to and including the last '#' or '/', or undefined if there is none. */
export function namespaceOf(iri: string): string | undefined {
  const cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/'));
  return cut > 0 && cut < iri.length - 1 ? iri.slice(0, cut + 1) : undefined;
}

/** Local name of an IRI: what follows its namespace. */
export function localName(iri: string): string {
  const ns = namespaceOf(iri);
  return ns ? iri.slice(ns.length) : iri;
}
