/**
 * Shared helpers for the description-surface tests: an app over an in-memory store, RDF parsing
 * with N3.js (always) and rapper (when installed), and canonical comparison of graphs.
 */
import { spawnSync } from 'node:child_process';
import { DataFactory, Parser, Writer } from 'n3';
import type * as RDFJS from '@rdfjs/types';
import jsonld from 'jsonld';
import type { FastifyInstance } from 'fastify';
import { build } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { DurableStore, type WriteOp } from '../../../src/rdf/durable.ts';

export const BASE = 'http://assay.test/';

export async function appWith(ops: WriteOp[] = []): Promise<{ app: FastifyInstance; store: DurableStore }> {
  const store = DurableStore.inMemory();
  for (const op of ops) await store.apply(op);
  const config = loadConfig({ baseIri: BASE, dataDir: '/nonexistent-assay-test-dir' }, {});
  const app = await build({ config, store });
  return { app, store };
}

/** Parse RDF text with N3.js; throws with the parser's message on bad syntax. */
export function parseN3(text: string, format: 'text/turtle' | 'application/n-triples' | 'application/n-quads' | 'application/trig'): RDFJS.Quad[] {
  return new Parser({ format, baseIRI: BASE }).parse(text) as RDFJS.Quad[];
}

/** JSON-LD text → quads (via N-Quads, so the N3 parser is the judge). */
export async function parseJsonLd(text: string): Promise<RDFJS.Quad[]> {
  const nquads = await jsonld.toRDF(JSON.parse(text) as Record<string, unknown>, { format: 'application/n-quads' });
  return parseN3(nquads, 'application/n-quads');
}

/** Canonical N-Quads (RDFC-1.0): two graphs are isomorphic iff these strings are equal. */
export async function canonical(quads: readonly RDFJS.Quad[], dropGraphs = false): Promise<string> {
  const input = dropGraphs
    ? quads.map((q) => DataFactory.quad(q.subject, q.predicate, q.object, DataFactory.defaultGraph()))
    : quads;
  const nq = await new Promise<string>((resolve, reject) => {
    const w = new Writer({ format: 'N-Quads' });
    w.addQuads(input as RDFJS.Quad[]);
    w.end((e: Error | null, r: string) => (e ? reject(e) : resolve(r)));
  });
  const canon = await jsonld.canonize(nq, { inputFormat: 'application/n-quads', format: 'application/n-quads', algorithm: 'RDFC-1.0' });
  // RDFC-1.0 keeps duplicates out already; sort for a stable diff.
  return [...new Set(canon.split('\n').filter(Boolean))].sort().join('\n');
}

/** Is Debian's rapper (raptor2-utils) on PATH? */
export const rapperAvailable: boolean = spawnSync('rapper', ['--version'], { encoding: 'utf8' }).status === 0;
export const RAPPER_SKIP_REASON = 'rapper (Debian raptor2-utils) is not installed: `apt-get install -y raptor2-utils` to run this check';

/** Parse with rapper and return the triple count it reports; throws with rapper's stderr on error. */
export function rapperCount(text: string, syntax: 'turtle' | 'ntriples'): number {
  const r = spawnSync('rapper', ['-i', syntax, '-c', '-', BASE], { input: text, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`rapper rejected the ${syntax}: ${r.stderr}`);
  const m = /returned (\d+) triples?/.exec(r.stderr);
  if (!m) throw new Error(`rapper said: ${r.stderr}`);
  return Number(m[1]);
}
