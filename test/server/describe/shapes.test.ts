/**
 * /shapes serves every shapes/*.ttl merged, in Turtle, N-Triples and JSON-LD; the loader names a
 * file that does not parse.
 */
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SHAPES_DIR, loadShapes } from '../../../src/server/routes/shapes.ts';
import { SH } from '../../../src/rdf/vocab.ts';
import { appWith, canonical, parseJsonLd, parseN3, rapperAvailable, rapperCount } from './helpers.ts';

const apps: FastifyInstance[] = [];
const dirs: string[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'assay-shapes-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('loadShapes', () => {
  it('merges every .ttl file and ignores other files', () => {
    const dir = tempDir({
      'a.ttl': '@prefix sh: <http://www.w3.org/ns/shacl#> . <http://ex.org/A> a sh:NodeShape .',
      'b.ttl': '@prefix sh: <http://www.w3.org/ns/shacl#> . <http://ex.org/B> a sh:NodeShape ; sh:property [ sh:path <http://ex.org/p> ] .',
      'README.md': 'not turtle',
    });
    const { files, quads } = loadShapes(dir);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(['a.ttl', 'b.ttl']);
    expect(quads).toHaveLength(4);
  });

  it('names the file that does not parse', () => {
    const dir = tempDir({ 'ok.ttl': '<http://ex.org/a> <http://ex.org/b> <http://ex.org/c> .', 'bad.ttl': '<http://ex.org/a> <http://ex.org/b> .' });
    expect(() => loadShapes(dir)).toThrow(/bad\.ttl is not valid Turtle/);
  });

  it('treats a missing directory as no shapes', () => {
    expect(loadShapes(join(tmpdir(), 'assay-no-such-dir-for-shapes'))).toEqual({ files: [], quads: [] });
  });
});

describe('/shapes', () => {
  const { quads, files } = loadShapes(DEFAULT_SHAPES_DIR, 'http://assay.test/shapes');

  it.runIf(files.length > 0)('serves the repository shapes merged, in Turtle, N-Triples and JSON-LD', async () => {
    const { app } = await appWith();
    apps.push(app);
    const expected = await canonical(quads, true);
    expect(expected).toContain(SH.NodeShape);
    const ttl = await app.inject({ url: '/shapes' });
    expect(ttl.statusCode).toBe(200);
    expect(ttl.headers['content-type']).toBe('text/turtle; charset=utf-8');
    expect(await canonical(parseN3(ttl.body, 'text/turtle'))).toBe(expected);
    const nt = await app.inject({ url: '/shapes', headers: { accept: 'application/n-triples' } });
    expect(await canonical(parseN3(nt.body, 'application/n-triples'))).toBe(expected);
    const jl = await app.inject({ url: '/shapes', headers: { accept: 'application/ld+json' } });
    expect(await canonical(await parseJsonLd(jl.body))).toBe(expected);
    if (rapperAvailable) {
      expect(rapperCount(ttl.body, 'turtle')).toBe(expected.split('\n').length);
      expect(rapperCount(nt.body, 'ntriples')).toBe(expected.split('\n').length);
    }
  });

  it('answers 406 for a format it does not offer', async () => {
    const { app } = await appWith();
    apps.push(app);
    const res = await app.inject({ url: '/shapes', headers: { accept: 'application/sparql-results+json' } });
    expect(res.statusCode).toBe(406);
  });
});
