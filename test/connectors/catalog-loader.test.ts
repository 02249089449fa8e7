/**
 * One validated loader of the descriptors for the connector layer: declarations come from
 * validated descriptors of the configured directory; a broken descriptor is refused with every
 * problem listed, never half read.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDescriptors, rebase } from '../../src/connectors/catalog.ts';
import { readDeclarations } from '../../src/connectors/declarations.ts';
import { CatalogValidationError } from '../../src/ard/problems.ts';

describe('loadDescriptors', () => {
  it('reads the bundled descriptors: declarations, display names, datasets and declared periods', async () => {
    const d = await loadDescriptors('ard-okf');
    expect(d.declarations.operation('sec-edgar', 'companyconcept')).toBeDefined();
    expect(d.displayName('sec-edgar')).toBe('SEC EDGAR');
    expect(d.displayName('no-such')).toBe('no-such');
    expect(d.newestDeclaredYear('census-acs')).toBe(2024);
    expect(d.datasetOf('cdc-svi', 'county-poverty')?.temporal.end.slice(0, 4)).toBe('2018');
    expect((await readDeclarations('ard-okf')).all().length).toBe(d.declarations.all().length);
    expect(d.declaredPeriod('cdc-svi', 'county-poverty', 'svi-candidate')).toMatchObject({ candidate: 'svi-candidate', source: 'cdc-svi', end: expect.stringMatching(/^2018-/) });
    expect(d.declaredPeriod('sec-edgar', 'no-such-op')).toBeUndefined();
  });

  it('honours the directory it is given (a moved catalog with a changed descriptor)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-cat-'));
    await cp('ard-okf/census-acs.json', join(dir, 'census-acs.json'));
    const text = (await readFile(join(dir, 'census-acs.json'), 'utf8')).replace(/"end": "2024-12-31"/g, '"end": "2031-12-31"');
    await writeFile(join(dir, 'census-acs.json'), text);
    const d = await loadDescriptors(dir);
    expect([...d.publishers.keys()]).toEqual(['census-acs']);
    expect(d.newestDeclaredYear('census-acs')).toBe(2031);
  });

  it('refuses an invalid descriptor, listing the problem with its path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-cat-'));
    const m = JSON.parse(await readFile('ard-okf/treasury-fiscal-data.json', 'utf8')) as { entries: Array<{ type: string; data: Record<string, unknown> }> };
    const ap = m.entries.find((e) => e.type.includes('access-path'))!;
    ap.data.method = 'FETCH';
    await writeFile(join(dir, 'treasury-fiscal-data.json'), JSON.stringify(m));
    const e = await loadDescriptors(dir).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CatalogValidationError);
    expect((e as CatalogValidationError).problems[0]).toMatchObject({ layer: 'extension', path: expect.stringMatching(/\/data\/method$/) });
  });

  it('rebases a URL template onto a stand-in, keeping its path and query', () => {
    expect(rebase('https://data.sec.gov/api/xbrl/frames/{taxonomy}/{tag}/{unit}/{period}.json', 'http://127.0.0.1:9')).toBe('http://127.0.0.1:9/api/xbrl/frames/{taxonomy}/{tag}/{unit}/{period}.json');
    expect(rebase('https://api.census.gov/data/{year}/acs/{product}?get={variables}', 'http://127.0.0.1:9/mirror/')).toBe('http://127.0.0.1:9/mirror/data/{year}/acs/{product}?get={variables}');
  });
});
