/**
 * A disk that fills in the middle of a journal append. write(2) then writes what fits and
 * returns a short count, and the next call fails with ENOSPC. Taking the short count as the whole
 * record acknowledged a write whose record was cut short: at the next start it was cut off as a
 * torn tail ("never acknowledged"), and the write was lost (seen with `assay serve` on a full
 * tmpfs: the catalog graph served, then gone after a restart). The file system is emulated here
 * by the handle's `write`, the one call the journal makes.
 */
import { mkdtemp, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enospc, faultyWrites } from './faulty-writes.ts';
import { DurableStore } from '../../src/rdf/durable.ts';

const G = 'http://example.org/g';
const nt = (from: number, n: number) => Array.from({ length: n }, (_, i) => `<http://example.org/s${from + i}> <http://example.org/p> "v${from + i}" .\n`).join('');


afterEach(() => { vi.restoreAllMocks(); });

describe('a journal append on a disk that fills mid-record', () => {
  it('is refused, not acknowledged; the store opens afterwards with every acknowledged write and nothing torn', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-full-'));
    const a = await DurableStore.open(dir);
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(0, 10) });
    // the disk fills: half the record is written, then no space is left
    await faultyWrites((real, self, buf, off, len, pos, n) => n === 1
      ? real.call(self, buf, off, Math.floor(len / 2), pos)
      : Promise.reject(enospc()));
    await expect(a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(10, 500) })).rejects.toThrow(/could not be journaled \(ENOSPC.*not acknowledged/);
    vi.restoreAllMocks();
    // nothing more is acknowledged on top of it
    await expect(a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(600, 1) })).rejects.toThrow(/refused writes after an earlier fault/);
    await a.close();

    const b = await DurableStore.open(dir);
    expect(b.recovery.tornTail).toBeUndefined();
    expect(b.rdf.graphSize(G)).toBe(10);
    await b.close();
  });

  it('a short count with room left is written in full and acknowledged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-short-'));
    const a = await DurableStore.open(dir);
    await faultyWrites((real, self, buf, off, len, pos) => real.call(self, buf, off, Math.min(len, 1000), pos));
    await a.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: nt(0, 500) });
    vi.restoreAllMocks();
    await a.close();

    const b = await DurableStore.open(dir);
    expect(b.recovery.tornTail).toBeUndefined();
    expect(b.rdf.graphSize(G)).toBe(500);
    await b.close();
  });
});

describe('a data directory that cannot be opened for writing', () => {
  it('is a StoreWriteError saying why and what to do, not an internal error', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'assay-notdir-')), 'a-file');
    await (await open(file, 'w')).close();
    const e = await DurableStore.open(join(file, 'data')).catch((x: unknown) => x);
    expect((e as Error).name).toBe('StoreWriteError');
    expect((e as Error).message).toMatch(/cannot be opened for writing \(ENOTDIR.*choose another data directory.*assay sparql --data/);
  });
});
