/**
 * `assay load` and `assay sparql` with --store: the same commands, the graphs kept in Virtuoso.
 * A small file is parsed whole and sent as one update; a file over store.streamAboveBytes is
 * streamed in pieces, its blank nodes kept one node each across requests.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtuoso, uniqueBase, virtuosoUnavailable, type Virtuoso } from './helpers/virtuoso.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const why = await virtuosoUnavailable();

describe.skipIf(why !== undefined)('assay load / sparql --store (Virtuoso)', () => {
  let vt: Virtuoso;
  let dir: string;
  let base: string;
  let env: NodeJS.ProcessEnv;

  const assay = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ['bin/assay.js', ...args], { cwd: ROOT, env, timeout: 90_000 });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
    }
  };

  beforeAll(async () => {
    vt = await startVirtuoso();
    dir = await mkdtemp(join(tmpdir(), 'assay-remote-cli-'));
    base = uniqueBase('cli');
    const s = vt.store();
    env = {
      ...process.env, ASSAY_BASE_IRI: base, ASSAY_DATA_DIR: join(dir, 'unused'), ASSAY_STORE_UPDATE_URL: s.updateUrl,
      ASSAY_STORE_GSP_URL: s.graphStoreUrl, ASSAY_STORE_USER: s.user, ASSAY_STORE_PASSWORD: s.password,
      ASSAY_STORE_STREAM_ABOVE_BYTES: '1000',
    };
  }, 120_000);

  afterAll(async () => {
    await vt?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads N-Quads keeping graph names, and queries them back from the store', async () => {
    const file = join(dir, 'in.nq');
    await writeFile(file, `<${base}s> <${base}p> "one" <${base}g1> .\n<${base}s> <${base}p> "two" <${base}g2> .\n`);
    const load = await assay('load', file, '--store', vt.store().url!);
    expect(load.stderr).toBe('');
    expect(load.stdout).toMatch(/loaded 2 new quads/);
    const q = await assay('sparql', `SELECT ?g ?o { GRAPH ?g { <${base}s> ?p ?o } } ORDER BY ?g`, '--store', vt.store().url!, '--format', 'csv');
    expect(q.code).toBe(0);
    expect(q.stdout.trim().split(/\r?\n/)).toEqual(['g,o', `${base}g1,one`, `${base}g2,two`]);
  }, 120_000);

  it('streams a file above the threshold in pieces, keeping each blank node one node', async () => {
    const file = join(dir, 'big.ttl');
    const lines = Array.from({ length: 2_500 }, (_, i) => `<${base}org/${i}> <${base}funds> _:r${i % 10} .`);
    lines.push(...Array.from({ length: 10 }, (_, i) => `_:r${i} <${base}name> "recipient ${i}" .`));
    await writeFile(file, lines.join('\n') + '\n');
    const load = await assay('load', file, '--store', vt.store().url!, '--graph', `${base}graph/big`);
    expect(load.stderr).toBe('');
    expect(load.stdout).toMatch(/streamed 2510 triples .* blank nodes became IRIs/);
    const q = await assay('sparql', `SELECT (COUNT(DISTINCT ?r) AS ?n) { GRAPH <${base}graph/big> { ?o <${base}funds> ?r . ?r <${base}name> ?name } }`, '--store', vt.store().url!, '--format', 'csv');
    expect(q.stdout.trim().split(/\r?\n/)).toEqual(['n', '10']);
  }, 120_000);

  it('says what went wrong: a syntax error', async () => {
    const bad = join(dir, 'bad.ttl');
    await writeFile(bad, `<${base}s> <${base}p> "unterminated .\n`);
    const r = await assay('load', bad, '--store', vt.store().url!, '--graph', `${base}graph/bad`);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/not valid text\/turtle.*Nothing was loaded/);
  }, 120_000);
});
