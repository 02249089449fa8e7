/**
 * `assay grants ingest` with no file brings a grant graph the store already holds up to this
 * build; on a store holding none there is nothing to do, and it says so (exit 2) instead of
 * writing an empty graph and reporting success.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assay } from './run-assay.ts';

describe('assay grants ingest with no file', () => {
  it('refuses on a store with no grant graph, then rebuilds one that is held', async () => {
    const data = join(await mkdtemp(join(tmpdir(), 'assay-grants-cli-')), 'data');
    const empty = await assay('grants', 'ingest', '--data', data);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no files named, and this store holds no grant graph .*name the Form 990 e-file XML returns .* Nothing was written/);
    const coverage = await assay('grants', 'coverage', '--data', data);
    expect(coverage.stdout).toMatch(/^0 filings from 0 funders/m);

    const first = await assay('grants', 'ingest', 'fixtures/grants/c4c-orggraph_glfn_grants_detail.csv', '--data', data, '--json');
    expect(first.code, first.stderr).toBe(0);
    const again = await assay('grants', 'ingest', '--data', data, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(await assay('grants', 'coverage', '--data', data)).toMatchObject({ stdout: expect.stringMatching(/^[1-9]\d* filings from 15 funders/m) });
  }, 180_000);
});
