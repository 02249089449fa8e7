import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assay } from './run-assay.ts';

async function tmp(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'assay-cli-'));
}

// Concurrent: each test runs its own child processes over its own files, so they overlap.
describe.concurrent('assay CLI', () => {
  it('prints help for every command', async () => {
    for (const cmd of [[], ['serve'], ['sparql'], ['load']]) {
      const r = await assay(...cmd, '--help');
      expect(r.code, `assay ${cmd.join(' ')} --help`).toBe(0);
      expect(r.stdout).toMatch(/Usage: assay/);
    }
  });

  it('loads N-Quads keeping graph names and queries them back', async () => {
    const dir = await tmp();
    const file = join(dir, 'in.nq');
    await writeFile(file, '<http://x/s> <http://x/p> "one" <http://x/g1> .\n<http://x/s> <http://x/p> "two" <http://x/g2> .\n');
    const load = await assay('load', file, '--data', join(dir, 'data'));
    expect(load.code).toBe(0);
    expect(load.stdout).toMatch(/loaded 2 new quads/);
    const q = await assay('sparql', 'SELECT ?g ?o { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g', '--data', join(dir, 'data'), '--format', 'csv');
    expect(q.code).toBe(0);
    expect(q.stdout.trim().split(/\r?\n/)).toEqual(['g,o', 'http://x/g1,one', 'http://x/g2,two']);
  });

  it('puts triples into the graph named by --graph', async () => {
    const dir = await tmp();
    const file = join(dir, 'in.ttl');
    await writeFile(file, '@prefix x: <http://x/> . x:s x:p 42 .');
    expect((await assay('load', file, '--graph', 'http://x/mine', '--data', join(dir, 'd'))).code).toBe(0);
    const q = await assay('sparql', 'ASK { GRAPH <http://x/mine> { <http://x/s> <http://x/p> 42 } }', '--data', join(dir, 'd'));
    expect(q.stdout.trim()).toBe('true');
  });

  it.each([
    ['an unknown extension', ['load', 'data.xyz'], /cannot tell the RDF syntax/],
    ['a missing file', ['load', '/nonexistent/file.ttl'], /cannot read/],
    ['a relative graph name', ['load', 'x.ttl', '--graph', 'notaniri'], /absolute IRI/],
    ['a malformed query', ['sparql', 'SELECT * {'], /the query failed/],
    ['a bad port', ['serve', '--port', 'eighty'], /--port must be an integer/],
    ['an unknown command', ['frobnicate'], /unknown command/],
  ])('exits non-zero with a clear message on %s', async (_what, args, message) => {
    const dir = await tmp();
    const needsData = args[0] === 'load' || args[0] === 'sparql';
    if (args[0] === 'sparql') await assay('load', '/dev/null', '--format', 'application/n-triples', '--data', join(dir, 'd'));
    const r = await assay(...args, ...(needsData ? ['--data', join(dir, 'd')] : []));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('keeps a command\'s own exit code for an outcome that is not an error', async () => {
    // `understand` exits 3 when it cannot tell what was asked (a result, not a failure).
    const r = await assay('understand', 'zzzz qqqq');
    expect(r.code).toBe(3);
  });

  it('rejects invalid RDF without changing the store', async () => {
    const dir = await tmp();
    const good = join(dir, 'good.nt');
    const bad = join(dir, 'bad.nt');
    await writeFile(good, '<http://x/s> <http://x/p> "ok" .\n');
    await writeFile(bad, '<http://x/s> <http://x/p> "unterminated .\n');
    expect((await assay('load', good, '--data', join(dir, 'd'))).code).toBe(0);
    const r = await assay('load', bad, '--data', join(dir, 'd'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/is not valid application\/n-triples.*Nothing was loaded/);
    const q = await assay('sparql', 'SELECT (COUNT(*) AS ?n) { GRAPH ?g { ?s ?p ?o } }', '--data', join(dir, 'd'), '--format', 'tsv');
    expect(q.stdout).toMatch(/\n1(\^\^|\s|$)/);
  });
});
