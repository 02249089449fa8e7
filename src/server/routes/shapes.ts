/**
 * `/shapes`: the SHACL shapes (and Assay's vocabulary) from shapes/*.ttl, merged into one graph,
 * as Turtle, N-Triples or JSON-LD by Accept.
 *
 * The files are read and parsed once, when the app is built: they are part of the code, so a file
 * that does not parse stops the start-up with its name and the parser's message rather than
 * serving half the shapes. They are parsed into JavaScript terms (N3), not oxigraph's: building the
 * app must leave the main thread's WebAssembly heap unused, so that the store can still adopt a
 * memory image when the catalog graph is written (src/rdf/durable.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Parser } from 'n3';
import type { Quad } from '../../rdf/store.ts';
import { TRIPLE_RDF_OUTPUT } from '../../rdf/serialize.ts';
import { ensureSlash } from '../../rdf/vocab.ts';
import { notFound, sendRdf } from './rdf-reply.ts';

/** shapes/ at the top of the repository. */
export const DEFAULT_SHAPES_DIR = fileURLToPath(new URL('../../../shapes/', import.meta.url));

/**
 * Every `*.ttl` directly in `dir`, parsed and merged (sorted by file name). Missing dir = none.
 * Relative IRIs resolve against `baseIri` (where the shapes are served), never a local path.
 */
export function loadShapes(dir: string = DEFAULT_SHAPES_DIR, baseIri?: string): { files: string[]; quads: Quad[] } {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.ttl')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], quads: [] };
    throw e;
  }
  const quads: Quad[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      quads.push(...(new Parser({ format: 'text/turtle', ...(baseIri ? { baseIRI: baseIri } : {}) }).parse(readFileSync(path, 'utf8')) as unknown as Quad[]));
    } catch (e) {
      throw new Error(`shapes file ${path} is not valid Turtle: ${(e as Error).message}; fix the file (it is served at /shapes and used for validation)`);
    }
  }
  return { files: names.map((n) => join(dir, n)), quads };
}

export interface ShapesRouteOptions {
  /** Directory of *.ttl shapes; defaults to the repository's shapes/. */
  shapesDir?: string;
}

export async function shapesRoutes(app: FastifyInstance, options: ShapesRouteOptions = {}): Promise<void> {
  const dir = options.shapesDir ?? DEFAULT_SHAPES_DIR;
  const { quads } = loadShapes(dir, `${ensureSlash(app.assay.config.baseIri)}shapes`);
  app.get('/shapes', async (request, reply) => {
    if (quads.length === 0) return notFound(reply, `no SHACL shapes found: ${dir} holds no *.ttl file. Add the shapes there and restart the gateway.`);
    return sendRdf(request, reply, quads, TRIPLE_RDF_OUTPUT, { dropGraphs: true });
  });
}
