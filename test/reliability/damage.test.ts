/**
 * Faults 5 and 6 as an operator meets them: `assay serve` on a data directory whose snapshot
 * or last journal record is damaged refuses to start, naming the file and the byte offset, and
 * loads nothing half.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DurableStore } from '../../src/rdf/durable.ts';
import { serveMustFail, tempDir } from './helpers/gateway.ts';

async function storeWith(compact: boolean): Promise<string> {
  const dir = await tempDir();
  const s = await DurableStore.open(dir);
  await s.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: Array.from({ length: 200 }, (_, i) => `<http://x/s${i}> <http://x/p> "${i}" .\n`).join('') });
  if (compact) await s.compact();
  await s.apply({ kind: 'load', format: 'application/n-triples', graph: 'http://x/g', data: '<http://x/last> <http://x/p> "acknowledged" .\n' });
  await s.close();
  return dir;
}

describe('damaged data directories (real process)', () => {
  it('six overwritten bytes in the snapshot stop start-up with the file and byte range', async () => {
    const dir = await storeWith(true);
    const snapshot = join(dir, (await readdir(dir)).find((f) => f.startsWith('snapshot-'))!);
    const bytes = Buffer.from(await readFile(snapshot));
    bytes.write('qqqqqq', 500);
    await writeFile(snapshot, bytes);
    const r = await serveMustFail(dir);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(snapshot);
    expect(r.stderr).toMatch(/bytes 0–\d+ of the snapshot \(block 1 of 1\) fail their checksum/);
    expect(r.stdout).not.toMatch(/^ready$/m);
  }, 90_000);

  it('one flipped bit in the last journal record stops start-up instead of dropping the acknowledged write', async () => {
    const dir = await storeWith(false);
    const journal = join(dir, (await readdir(dir)).find((f) => f.startsWith('journal-'))!);
    const bytes = Buffer.from(await readFile(journal));
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0x04;
    await writeFile(journal, bytes);
    const r = await serveMustFail(dir);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(journal);
    expect(r.stderr).toMatch(/last journal record, at byte \d+, is damaged/);
  }, 90_000);
});
