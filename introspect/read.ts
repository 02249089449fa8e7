/**
 * Reading RDF text and files into a TripleSource, with clear errors for bad input.
 *
 * Turtle, TriG, N-Triples, N-Quads and N3 are parsed by n3 (pure JS); RDF/XML by oxigraph.
 * Every quad of the document counts, whatever graph it names, unless `graph` picks one
 * ('' = the default graph).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type * as RDFJS from '@rdfjs/types';
import { Parser } from 'n3';
import type * as Ox from 'oxigraph';
import { IntrospectError } from './errors.ts';
import { fromQuads, type TripleSource } from './source.ts';

// oxigraph is loaded when RDF/XML is first read, not at import: a static import would start its
// WebAssembly instance before Assay's store module catches it (src/rdf/wasm-image.ts).
const require = createRequire(import.meta.url);
let ox: typeof Ox | undefined;

/** Syntax names the library accepts, with their media types. */
export const SYNTAXES = {
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  trig: 'application/trig',
  n3: 'text/n3',
  rdfxml: 'application/rdf+xml',
} as const;
export type Syntax = keyof typeof SYNTAXES;

const EXTENSIONS: Record<string, Syntax> = {
  ttl: 'turtle', turtle: 'turtle', nt: 'ntriples', ntriples: 'ntriples', nq: 'nquads', nquads: 'nquads',
  trig: 'trig', n3: 'n3', rdf: 'rdfxml', owl: 'rdfxml', xml: 'rdfxml',
};

const N3_FORMATS: Record<Exclude<Syntax, 'rdfxml'>, string> = {
  turtle: 'Turtle', ntriples: 'N-Triples', nquads: 'N-Quads', trig: 'TriG', n3: 'N3',
};

/** A syntax from a name, a media type or a file name; throws `unknown-format` otherwise. */
export function syntaxOf(nameOrPath: string): Syntax {
  const lower = nameOrPath.toLowerCase().trim();
  if (lower in SYNTAXES) return lower as Syntax;
  for (const [name, media] of Object.entries(SYNTAXES)) if (lower === media) return name as Syntax;
  const ext = /\.([a-z0-9]+)$/.exec(lower)?.[1];
  const byExt = ext ? EXTENSIONS[ext] : undefined;
  if (byExt) return byExt;
  throw new IntrospectError('unknown-format',
    `cannot tell the RDF syntax of "${nameOrPath}": use one of ${Object.keys(SYNTAXES).join(', ')} (or a file ending in .${Object.keys(EXTENSIONS).join(', .')})`);
}

/** Parse RDF text into quads; a parse failure is an IntrospectError naming where it stopped. */
export function parseQuads(text: string, syntax: Syntax, options: { baseIri?: string; label?: string } = {}): RDFJS.Quad[] {
  const label = options.label ?? 'the input';
  try {
    if (syntax === 'rdfxml') {
      ox ??= require('oxigraph') as typeof Ox;
      return ox.parse(text, { format: SYNTAXES.rdfxml, ...(options.baseIri ? { base_iri: options.baseIri } : {}) }) as unknown as RDFJS.Quad[];
    }
    return new Parser({ format: N3_FORMATS[syntax], ...(options.baseIri ? { baseIRI: options.baseIri } : {}) }).parse(text);
  } catch (e) {
    throw new IntrospectError('not-rdf', `${label} is not valid ${syntax}: ${(e as Error).message}`);
  }
}

/** A source over RDF text. */
export function sourceFromText(text: string, syntax: Syntax, options: { baseIri?: string; label?: string; graph?: string } = {}): TripleSource {
  let quads = parseQuads(text, syntax, options);
  if (options.graph !== undefined) {
    const g = options.graph;
    quads = quads.filter((q) => (g === '' ? q.graph.termType === 'DefaultGraph' : q.graph.termType === 'NamedNode' && q.graph.value === g));
  }
  return fromQuads(quads);
}

/** A source over an RDF file; the syntax comes from `syntax` or the file extension. */
export async function sourceFromFile(path: string, options: { syntax?: string; graph?: string } = {}): Promise<TripleSource> {
  const syntax = syntaxOf(options.syntax ?? path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new IntrospectError('not-rdf', `cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  if (text.includes('\u0000')) throw new IntrospectError('not-rdf', `${path} is not valid ${syntax}: it looks like a binary file, not RDF text`);
  return sourceFromText(text, syntax, { baseIri: pathToFileURL(path).href, label: path, graph: options.graph });
}
