/**
 * Memory images of the embedded store: how a new thread gets a replica of the store without
 * parsing it.
 *
 * oxigraph's npm build is one WebAssembly instance per thread; everything a store holds (its
 * dictionary, its six indexes, the allocator's own state) lives in that instance's linear
 * memory, plus a few interned strings in the instance's externref table. Between two calls into
 * the instance (any time JavaScript runs) nothing else is in flight. So a copy of the linear
 * memory and of the table's entries, taken at such a moment in one thread and written into a
 * *pristine* instance of the same module in another thread (one that has not allocated
 * anything since it started), yields in the second thread an identical heap; a store object
 * that points at the same address there is the same store. Copying a few hundred MB is a
 * memcpy; parsing the same store as N-Quads takes seconds to tens of seconds.
 *
 * Limits, checked rather than assumed:
 * - the target instance must be pristine: a CRC of its memory right after oxigraph started is
 *   kept and compared (any allocation since changes the allocator's state);
 * - the table may only hold primitives (interned strings, null, booleans): a live JavaScript
 *   object referenced from the heap cannot be carried to another thread, so no image is taken;
 * - the image holds every allocation of the source thread, garbage included, so a replica made
 *   from it is as large as the source's heap, not as its store;
 * - it depends on oxigraph's generated glue (the instance is caught as the package starts, and a
 *   store object is rebuilt from its address), so oxigraph is pinned exactly and
 *   test/rdf/wasm-image.test.ts checks a round trip. When anything does not hold, callers fall
 *   back to parsing (`available()` is false, `take` returns null, `apply` throws).
 */
import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';

type Primitive = string | number | boolean | null | undefined;

export interface WasmImage {
  /** The linear memory, byte for byte (zero 64 KiB pages left unwritten). */
  memory: SharedArrayBuffer;
  /** The externref table's entries (primitives only). */
  table: Primitive[];
  /** The address of the store object in that memory. */
  storePtr: number;
  /** Quads the store held when the image was taken (checked after applying it). */
  quads: number;
  /** oxigraph's version, which must be the same on both sides. */
  version: string;
  /**
   * The runs of pages that are not zero, as [first page, page count], when known (an image read
   * from a file, or taken here): applying then copies exactly those instead of testing every page.
   */
  runs?: [number, number][];
  /** Quads per graph, where the source had counted them at this state (RdfStore.graphSize). */
  graphSizes?: Record<string, number>;
}

interface Exports {
  memory: WebAssembly.Memory;
  __wbindgen_externrefs: WebAssembly.Table;
}

const require = createRequire(import.meta.url);
type Oxigraph = typeof import('oxigraph');
let exports: Exports | null = null;
let pristine: { bytes: number; crc: number } | null = null;
let version = '';

/**
 * The oxigraph package, loaded here so that its instance is caught as its glue creates it:
 * src/rdf/store.ts takes it from here rather than importing the package itself. If something
 * loaded oxigraph before, no instance is caught and images are unavailable in this thread.
 */
export const oxigraph: Oxigraph = loadOxigraph();

function loadOxigraph(): Oxigraph {
  const modulePath = require.resolve('oxigraph');
  if (require.cache[modulePath]) return require('oxigraph') as Oxigraph;
  {
    const Original = WebAssembly.Instance;
    let caught: WebAssembly.Instance | undefined;
    const Catching = function (this: unknown, module: WebAssembly.Module, imports?: WebAssembly.Imports) {
      const instance = new Original(module, imports);
      caught ??= instance;
      return instance;
    } as unknown as typeof WebAssembly.Instance;
    Catching.prototype = Original.prototype;
    WebAssembly.Instance = Catching;
    let loaded: Oxigraph;
    try {
      loaded = require('oxigraph') as Oxigraph;
    } finally {
      WebAssembly.Instance = Original;
    }
    const e = caught?.exports as Partial<Exports> | undefined;
    if (e?.memory instanceof WebAssembly.Memory && e.__wbindgen_externrefs instanceof WebAssembly.Table) {
      exports = e as Exports;
      const bytes = new Uint8Array(exports.memory.buffer);
      pristine = { bytes: bytes.length, crc: crc32(bytes) };
      version = (require('oxigraph/package.json') as { version: string }).version;
    }
    return loaded;
  }
}

const PAGE = 65_536;
const ZERO = new Uint8Array(PAGE);

/** Why the last `take` returned null (for logs), or null. */
export let lastRefusal: string | null = null;

/** The oxigraph version this thread runs ('' when its instance was not caught): part of every image's identity. */
export function oxigraphVersion(): string {
  return version;
}

/** Can this thread take and apply images? */
export function available(): boolean {
  return exports !== null;
}

/** Bytes of this thread's oxigraph heap (what an image of it copies), 0 if unknown. */
export function heapBytes(): number {
  return exports?.memory.buffer.byteLength ?? 0;
}

/** Has this thread's instance allocated nothing since oxigraph started? */
export function isPristine(): boolean {
  if (!exports || !pristine) return false;
  const bytes = new Uint8Array(exports.memory.buffer);
  return bytes.length === pristine.bytes && crc32(bytes) === pristine.crc;
}

/**
 * Copy this thread's instance with the store at `storePtr` in it. Must be called from plain
 * JavaScript (never from inside a call into oxigraph). Null when images are unavailable or the
 * table holds something that cannot be carried.
 */
export function take(storePtr: number, quads: number): WasmImage | null {
  if (!exports || !storePtr) {
    lastRefusal = exports ? 'the store has been freed' : 'oxigraph\'s instance was not caught in this thread';
    return null;
  }
  const table: Primitive[] = [];
  const t = exports.__wbindgen_externrefs;
  for (let i = 0; i < t.length; i++) {
    const v: unknown = t.get(i);
    if ((v !== null && typeof v === 'object') || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') {
      lastRefusal = `the instance holds a JavaScript ${typeof v} (${(v as object)?.constructor?.name ?? ''}) at table slot ${i}, which cannot be carried to another thread`;
      return null;
    }
    table.push(v as Primitive);
  }
  lastRefusal = null;
  const src = new Uint8Array(exports.memory.buffer);
  const memory = new SharedArrayBuffer(src.length);
  const dst = new Uint8Array(memory);
  // A SharedArrayBuffer starts zeroed: leaving zero pages unwritten keeps them unmapped.
  const runs: [number, number][] = [];
  for (let at = 0; at < src.length; at += PAGE) {
    const page = src.subarray(at, at + PAGE);
    if (Buffer.compare(page, ZERO.subarray(0, page.length)) === 0) continue;
    dst.set(page, at);
    const p = at / PAGE;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === p) last[1]++;
    else runs.push([p, 1]);
  }
  return { memory, table, storePtr, quads, version, runs };
}

/**
 * Make this thread's instance a copy of the image's and return the store's address in it.
 * Throws (changing nothing) unless the instance is pristine and the versions match.
 */
export function apply(image: WasmImage): number {
  if (!exports) throw new Error('this thread did not catch oxigraph\'s WebAssembly instance');
  if (image.version !== version) throw new Error(`the image is of oxigraph ${image.version}, this thread runs ${version}`);
  if (!isPristine()) throw new Error('this thread has used oxigraph already; an image can only replace a fresh instance');
  const mem = exports.memory;
  const missing = (image.memory.byteLength - mem.buffer.byteLength) / PAGE;
  if (missing < 0 || !Number.isInteger(missing)) throw new Error(`the image (${image.memory.byteLength} bytes) does not fit this instance (${mem.buffer.byteLength} bytes)`);
  if (missing > 0) mem.grow(missing);
  const t = exports.__wbindgen_externrefs;
  if (t.length < image.table.length) t.grow(image.table.length - t.length);
  const src = new Uint8Array(image.memory);
  const dst = new Uint8Array(mem.buffer);
  if (image.runs) {
    // Fresh pages are zero: the pristine region (which the fresh instance itself wrote) and the
    // image's non-zero runs are all there is to copy.
    const low = Math.min(pristine?.bytes ?? 0, src.length);
    dst.set(src.subarray(0, low), 0);
    for (const [first, pages] of image.runs) {
      const from = Math.max(first * PAGE, low);
      const to = Math.min((first + pages) * PAGE, src.length);
      if (to > from) dst.set(src.subarray(from, to), from);
    }
    for (let i = 0; i < image.table.length; i++) t.set(i, image.table[i]);
    return image.storePtr;
  }
  for (let at = 0; at < src.length; at += PAGE) {
    const page = src.subarray(at, at + PAGE);
    // Pages the image left zero are zero here too (fresh memory), except the ones the fresh
    // instance itself used: write every page of the pristine region, and non-zero ones above.
    if (at < (pristine?.bytes ?? 0) || Buffer.compare(page, ZERO.subarray(0, page.length)) !== 0) dst.set(page, at);
  }
  for (let i = 0; i < image.table.length; i++) t.set(i, image.table[i]);
  return image.storePtr;
}
