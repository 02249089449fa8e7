/**
 * A file system emulated by the FileHandle's `write`, the one call the journal and the image
 * writer make: `faultyWrites(fake)` sends every handle's write through `fake` (given the real
 * write and a running call count) until `vi.restoreAllMocks()`.
 */
import { mkdtemp, open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';

export type Write = (this: FileHandle, buf: Uint8Array, off: number, len: number, pos: number | null) => Promise<{ bytesWritten: number; buffer: Uint8Array }>;

export async function faultyWrites(fake: (real: Write, self: FileHandle, buf: Uint8Array, off: number, len: number, pos: number | null, n: number) => ReturnType<Write>) {
  const probe = await open(join(await mkdtemp(join(tmpdir(), 'assay-probe-')), 'x'), 'w');
  const proto = Object.getPrototypeOf(probe) as { write: Write };
  await probe.close();
  const real = proto.write;
  let n = 0;
  return vi.spyOn(proto, 'write').mockImplementation(function (this: FileHandle, buf: Uint8Array, off: number, len: number, pos: number | null) {
    return fake(real, this, buf, off, len, pos, ++n);
  } as never);
}

/** The error a full disk gives. */
export const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
