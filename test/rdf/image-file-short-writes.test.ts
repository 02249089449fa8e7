/**
 * A memory image written to a disk that takes fewer bytes per write(2) than asked (a disk filling
 * up, some network file systems): every byte must still land where it belongs, or the write must
 * fail and leave no file under the image's name. Writing each run once and taking the short count
 * as the whole left holes; the checksums caught it at the next start (the store was parsed
 * instead), but the image was useless. The file system is emulated by the handle's `write`.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enospc, faultyWrites } from './faulty-writes.ts';
import { readImageFile, writeImageFile } from '../../src/rdf/image-file.ts';
import type { WasmImage } from '../../src/rdf/wasm-image.ts';


afterEach(() => { vi.restoreAllMocks(); });

/** A made-up image (not oxigraph's): three 64 KiB pages, the middle one zero. */
function image(): WasmImage {
  const memory = new SharedArrayBuffer(3 * 65536);
  const bytes = new Uint8Array(memory);
  for (let i = 0; i < 65536; i++) { bytes[i] = (i * 7) & 0xff; bytes[2 * 65536 + i] = (i * 13 + 1) & 0xff; }
  return { memory, table: [null, 1, 'x'], storePtr: 1234, quads: 5, version: 'test' };
}

describe('writing a memory image', () => {
  it('writes every byte when the disk takes at most 1000 bytes per call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-img-'));
    const path = join(dir, 'a.img');
    await faultyWrites((real, self, buf, off, len, pos) => real.call(self, buf, off, Math.min(len, 1000), pos));
    await writeImageFile(path, 'k1', image());
    vi.restoreAllMocks();
    const back = await readImageFile(path, 'k1');
    expect(back).not.toBeNull();
    expect(Buffer.from(new Uint8Array(back!.memory)).equals(Buffer.from(new Uint8Array(image().memory)))).toBe(true);
    expect(back).toMatchObject({ table: [null, 1, 'x'], storePtr: 1234, quads: 5 });
  });

  it('fails when the disk is full part-way, leaving no file under the name and no temporary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'assay-img-'));
    const path = join(dir, 'a.img');
    await faultyWrites((real, self, buf, off, len, pos, n) => n <= 2
      ? real.call(self, buf, off, Math.min(len, 4096), pos)
      : Promise.reject(enospc()));
    await expect(writeImageFile(path, 'k1', image())).rejects.toThrow(/ENOSPC/);
    vi.restoreAllMocks();
    expect(await readdir(dir)).toEqual([]);
  });
});
