/**
 * Memory images (src/rdf/wasm-image.ts) kept on disk, so that a start-up adopts the store it had
 * instead of parsing it again: reading and copying a few hundred MB is a fraction of a second,
 * parsing the 600 k-quad catalog graph several seconds of CPU.
 *
 * An image file is named by a key that says which store state it holds (DurableStore computes it:
 * the data directory's MANIFEST and journal bytes, or the first write into an empty store), so a
 * changed catalog or a written store simply finds no file under its new key and is built as
 * before. A file is only ever used whole and checked:
 * - written to a temporary name and renamed (a crash leaves the old file or none, never half);
 * - its header repeats the key and oxigraph's version, and every run of pages carries a CRC-32:
 *   a truncated, overwritten or foreign file is refused with the reason, and the caller rebuilds.
 *
 * Layout: "ASIMG001", u32 header length, header JSON ({key, version, storePtr, quads, table,
 * memoryBytes, runs: [[firstPage, pages, crc32]…]}), then each run's pages, in order. Zero pages
 * are left out (a store's heap is mostly sparse above what it uses).
 */
import { mkdir, open, readdir, rename, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { WasmImage } from './wasm-image.ts';

const MAGIC = Buffer.from('ASIMG001', 'latin1');
const PAGE = 65_536;
/** Bytes of one read or write: large enough to be cheap, small enough to bound a temporary. */
const CHUNK_PAGES = 256;

interface Header {
  key: string;
  version: string;
  storePtr: number;
  quads: number;
  table: WasmImage['table'];
  memoryBytes: number;
  graphSizes?: Record<string, number>;
  runs: [first: number, pages: number, crc: number][];
}

/** Why an image file was not used (it is then rebuilt), for logs and the recovery report. */
export class ImageRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageRefused';
  }
}

/** Runs of non-zero pages in a memory, as [first page, page count]. */
function nonZeroRuns(bytes: Uint8Array): [number, number][] {
  const runs: [number, number][] = [];
  const zero = new Uint8Array(PAGE);
  const pages = Math.ceil(bytes.length / PAGE);
  for (let p = 0; p < pages; p++) {
    const page = bytes.subarray(p * PAGE, (p + 1) * PAGE);
    if (Buffer.compare(page, zero.subarray(0, page.length)) === 0) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === p && last[1] < CHUNK_PAGES) last[1]++;
    else runs.push([p, 1]);
  }
  return runs;
}

/** Runs cut to at most CHUNK_PAGES pages (one CRC each). */
function splitRuns(runs: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [first, pages] of runs) for (let p = 0; p < pages; p += CHUNK_PAGES) out.push([first + p, Math.min(CHUNK_PAGES, pages - p)]);
  return out;
}

/**
 * Writes all of `data` at `position` and returns the position after it: one write(2) may take
 * fewer bytes than asked (a disk filling up), and the rest must follow or the call fails.
 */
async function writeAt(fh: FileHandle, data: Uint8Array, position: number): Promise<number> {
  for (let at = 0; at < data.length;) {
    const { bytesWritten } = await fh.write(data, at, data.length - at, position + at);
    if (bytesWritten <= 0) throw new Error(`only ${at} of ${data.length} bytes of the image could be written (is the disk full?)`);
    at += bytesWritten;
  }
  return position + data.length;
}

/** Write `image` as `path`, atomically (temporary file, then rename). */
export async function writeImageFile(path: string, key: string, image: WasmImage): Promise<number> {
  const bytes = new Uint8Array(image.memory);
  const runs = image.runs ? splitRuns(image.runs) : nonZeroRuns(bytes);
  const header: Header = {
    key, version: image.version, storePtr: image.storePtr, quads: image.quads, table: image.table, memoryBytes: bytes.length,
    ...(image.graphSizes ? { graphSizes: image.graphSizes } : {}),
    runs: runs.map(([first, pages]) => [first, pages, crc32(bytes.subarray(first * PAGE, Math.min(bytes.length, (first + pages) * PAGE)))]),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(json.length, 0);
  const tmp = `${path}.${process.pid}.tmp`;
  const fh = await open(tmp, 'w');
  let written = 0;
  try {
    const head = Buffer.concat([MAGIC, len, json]);
    written = await writeAt(fh, head, 0);
    for (const [first, pages] of runs) {
      written = await writeAt(fh, bytes.subarray(first * PAGE, Math.min(bytes.length, (first + pages) * PAGE)), written);
    }
    await fh.datasync(); // the rename below must never name a file whose bytes are not on disk yet
  } catch (e) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
  await fh.close();
  await rename(tmp, path);
  return written;
}

/**
 * Read the image in `path` if it holds `key`. Null when there is no such file; throws
 * ImageRefused (saying why) when there is one that cannot be used.
 */
export async function readImageFile(path: string, key: string): Promise<WasmImage | null> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ImageRefused(`${path} cannot be read (${(e as Error).message})`);
  }
  try {
    const size = (await fh.stat()).size;
    const pre = Buffer.alloc(MAGIC.length + 4);
    if (size < pre.length || (await fh.read(pre, 0, pre.length, 0)).bytesRead !== pre.length || !pre.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new ImageRefused(`${path} is not an Assay memory image (its first bytes are not the image marker)`);
    }
    const headerBytes = pre.readUInt32BE(MAGIC.length);
    if (pre.length + headerBytes > size) throw new ImageRefused(`${path} is truncated (${size} bytes; its header alone needs ${pre.length + headerBytes})`);
    const json = Buffer.alloc(headerBytes);
    await fh.read(json, 0, headerBytes, pre.length);
    let header: Header;
    try {
      header = JSON.parse(json.toString('utf8')) as Header;
    } catch (e) {
      throw new ImageRefused(`${path}: the image header is not valid JSON (${(e as Error).message})`);
    }
    if (header.key !== key) throw new ImageRefused(`${path} holds the store state ${header.key.slice(0, 16)}…, not ${key.slice(0, 16)}…`);
    const expected = pre.length + headerBytes + header.runs.reduce((n, [first, pages]) => n + Math.min(header.memoryBytes, (first + pages) * PAGE) - first * PAGE, 0);
    if (size !== expected) throw new ImageRefused(`${path} is ${size} bytes but its header describes ${expected}; it was truncated or overwritten`);
    const memory = new SharedArrayBuffer(header.memoryBytes);
    const bytes = new Uint8Array(memory);
    let at = pre.length + headerBytes;
    for (const [first, pages, crc] of header.runs) {
      const run = bytes.subarray(first * PAGE, Math.min(bytes.length, (first + pages) * PAGE));
      const { bytesRead } = await fh.read(run, 0, run.length, at);
      if (bytesRead !== run.length || crc32(run) !== crc) {
        throw new ImageRefused(`${path}: pages ${first}–${first + pages - 1} (bytes ${at}–${at + run.length - 1} of the file) fail their checksum; the file is damaged`);
      }
      at += run.length;
    }
    return { memory, table: header.table, storePtr: header.storePtr, quads: header.quads, version: header.version, runs: header.runs.map(([first, pages]) => [first, pages]), ...(header.graphSizes ? { graphSizes: header.graphSizes } : {}) };
  } finally {
    await fh.close();
  }
}

/**
 * A directory of image files, one per store state, the newest `keep` kept. Keys are hex digests.
 */
export class ImageCache {
  readonly dir: string;
  readonly keep: number;
  /**
   * Stores smaller than this are not saved: parsing them is as quick as reading an image, which
   * is as large as the heap (default 100,000 quads; tests pass 0).
   */
  readonly minQuads: number;

  constructor(dir: string, options: { keep?: number; minQuads?: number } = {}) {
    this.dir = dir;
    this.keep = options.keep ?? 4;
    this.minQuads = options.minQuads ?? 100_000;
  }

  pathOf(key: string): string {
    if (!/^[0-9a-f]{16,128}$/.test(key)) throw new Error(`not an image key: ${key}`);
    return join(this.dir, `store-${key.slice(0, 40)}.img`);
  }

  async has(key: string): Promise<boolean> {
    return stat(this.pathOf(key)).then(() => true, () => false);
  }

  /** The image under `key`, null if there is none; ImageRefused when its file cannot be used (it is removed). */
  async read(key: string): Promise<WasmImage | null> {
    const path = this.pathOf(key);
    try {
      const image = await readImageFile(path, key);
      // Used now: the newest files are the ones kept.
      if (image) await utimes(path, new Date(), new Date()).catch(() => undefined);
      return image;
    } catch (e) {
      if (e instanceof ImageRefused) await rm(path, { force: true }).catch(() => undefined);
      throw e;
    }
  }

  /** Write the image under `key` (atomically) and drop the oldest files past `keep`. */
  async write(key: string, image: WasmImage): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeImageFile(this.pathOf(key), key, image);
    const names = (await readdir(this.dir)).filter((f) => /^store-[0-9a-f]+\.img$/.test(f));
    const now = Date.now();
    // Temporary files of writers that died are removed once they are clearly abandoned.
    for (const f of (await readdir(this.dir)).filter((n) => /^store-[0-9a-f]+\.img\.\d+\.tmp$/.test(n))) {
      const age = await stat(join(this.dir, f)).then((s) => now - s.mtimeMs, () => 0);
      if (age > 10 * 60_000) await rm(join(this.dir, f), { force: true });
    }
    if (names.length <= this.keep) return;
    const dated = await Promise.all(names.map(async (f) => ({ f, t: await stat(join(this.dir, f)).then((s) => s.mtimeMs, () => 0) })));
    for (const { f } of dated.sort((a, b) => b.t - a.t).slice(this.keep)) await rm(join(this.dir, f), { force: true });
  }
}
