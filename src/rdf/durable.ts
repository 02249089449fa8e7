/**
 * DurableStore: the RdfStore plus a data directory that keeps every graph across restarts.
 *
 * Contract
 * - Every write is a `WriteOp`. `apply()` applies it to memory (oxigraph ops are
 *   all-or-nothing), then appends it to the journal and fsyncs, and only then resolves and
 *   tells listeners. A write that was acknowledged survives SIGKILL or a crash; one that failed
 *   or was cut short by a crash leaves nothing in the journal, so it can never stop start-up.
 *   (Until 2026-12 records were journaled before they were applied; such a legacy record at the
 *   very end of a journal that cannot be replayed was never acknowledged, and is cut off and
 *   reported in `recovery.unreplayable`.)
 * - SPARQL Update from the endpoint is journaled as its effect (`delta`: graphs cleared, quads
 *   deleted, quads inserted), computed in a query worker under a time limit, so replay is fast,
 *   deterministic and cannot fail; see src/server/sparql/update-delta.ts.
 * - On open: the snapshot named by MANIFEST is checked against the block checksums MANIFEST
 *   records for it, then loaded; then the journal is replayed. Only a record of incomplete
 *   length at the very end (a torn append) is a write that was never acknowledged: it is cut
 *   off and reported in `recovery.tornTail`. A record of complete length that fails its
 *   checksum, a damaged record marker, or damage with valid records after it is damage to an
 *   acknowledged write: open fails with a message naming the file and byte offset. A damaged
 *   snapshot likewise. Nothing is ever loaded half.
 * - Compaction writes a new snapshot + empty journal and switches MANIFEST atomically
 *   (write temp, fsync, rename, fsync directory); a crash at any point leaves the old or the
 *   new pair, never a mixture. The snapshot is the store dumped at the current sequence
 *   number, with the write queue held. Dumping a large store takes seconds of synchronous
 *   WebAssembly, so a gateway hands it to a query worker whose replica holds exactly that
 *   sequence (`setSnapshotWriter`; src/server/sparql/pool.ts): reads and /health go on while it
 *   runs, and only writes wait. Without one (CLI, tests) the dump runs here. A compaction
 *   that fails leaves the old pair in place; one started because the journal grew never fails
 *   or delays the write that triggered it (that write is already durable and acknowledged; the
 *   compaction runs next in the write queue).
 * - One process owns a data directory at a time (LOCK file with the owner's pid). Other
 *   threads hold followers (`DurableStore.follower`): a replica whose writes go to the owner
 *   and resolve once the owner acknowledged them and the replica holds them.
 *
 * Reads go straight to `rdf` (synchronous oxigraph). Writes are serialized through a queue.
 */
import { mkdir, open, readFile, rename, rm, writeFile, readdir, stat, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { createHash, type Hash } from 'node:crypto';
import { join } from 'node:path';
import { RdfStore, RDF_FORMATS, parseRdf } from './store.ts';
import type { AssayStore } from './backend.ts';
import { oxigraphVersion, type WasmImage } from './wasm-image.ts';
import { ImageRefused, type ImageCache } from './image-file.ts';
import { keepFromEmpty, noteDocument, noteUnknown, noteWrite, noteWriteEarly, releaseKeeper, type KeepOptions } from '../void/kept.ts';

/**
 * One step of a computed update, in order. `clear` empties a graph IRI, or 'DEFAULT', 'NAMED'
 * (every named graph) or 'ALL'; `delete` / `insert` carry concrete quads as N-Quads (blank
 * node labels kept as written, so every replica gets the same nodes).
 */
export type DeltaStep =
  | { step: 'clear'; target: string }
  | { step: 'delete'; nquads: string }
  | { step: 'insert'; nquads: string };

export type WriteOp =
  | { kind: 'update'; sparql: string; baseIri?: string }
  | { kind: 'delta'; steps: DeltaStep[] }
  | { kind: 'load'; data: string; format: string; graph?: string; baseIri?: string }
  | { kind: 'clearGraph'; graph: string }
  | { kind: 'replaceGraph'; graph: string; data: string; format: string; baseIri?: string };

export interface RecoveryReport {
  /** Snapshot file loaded, if any. */
  snapshot?: string;
  snapshotQuads: number;
  /** Journal records replayed. */
  replayed: number;
  /** A torn tail that was cut off (never acknowledged). */
  tornTail?: { offset: number; bytes: number; reason: string };
  /** A legacy record (journaled before it was applied) at the end that cannot be replayed: never acknowledged, cut off. */
  unreplayable?: { offset: number; bytes: number; kind: string; reason: string };
  /** False when the snapshot predates snapshot checksums (it was parsed strictly instead). */
  snapshotChecked?: boolean;
  /**
   * With DurableOptions.images: whether the store was adopted from a memory image of exactly
   * this snapshot and journal instead of parsed, and if not, why (no image yet, or the image
   * file was refused: `refused` holds the reason, and the store was parsed as without one).
   */
  image?: ImageOutcome;
}

/** What became of a memory image at open or at the first write into an empty store. */
export type ImageOutcome =
  | { code: 'adopted'; key: string; ms: number }
  | { code: 'none'; key: string }
  | { code: 'refused'; key: string; reason: string }
  | { code: 'unusable'; reason: string };

export interface DurableOptions {
  /** Compact once the journal passes this many bytes (default 64 MiB). */
  compactAfterBytes?: number;
  /**
   * Open without taking the lock or touching any file: for reading a directory another
   * process owns (e.g. `assay sparql` beside a running gateway). Writes are refused.
   */
  readOnly?: boolean;
  /**
   * Refuse writes that would take the store past this many quads. The WebAssembly store
   * aborts irrecoverably near 13.1 M triples (ARCHITECTURE.md); the default leaves headroom.
   */
  maxQuads?: number;
  /**
   * Keep memory images of the store in this cache (src/rdf/image-file.ts) and adopt one at open
   * when it holds exactly the snapshot and journal found, instead of parsing them; likewise for
   * the first write into an empty store (a first start's catalog graph). Images are saved after
   * start-up (`saveImage`) and at close. Owner only (ignored when read-only); off by default.
   */
  images?: ImageCache | null;
  /**
   * Keep the introspection library's columns from the first write on (src/void/kept.ts), so that
   * introspecting this store folds the writes it was told instead of dumping each graph: for a
   * process that loads and then introspects (the CLI). Writes are posted to a thread that folds
   * them as they come (bounded by `maxPendingChars` not yet folded; `thread: false` queues them
   * here until the next introspection instead); off by default, where a store keeps from its first
   * introspection on. The thread ends at `close()`.
   */
  keep?: boolean | KeepOptions;
}

/** Part of every image key: a change to how images or stores are made invalidates them all. */
const IMAGE_FORMAT = 'assay store image 1';

/** The key of the state a data directory's files hold (MANIFEST + the journal's bytes). */
function stateKey(manifest: Manifest, journalDigest: string): string {
  return createHash('sha256').update(`${IMAGE_FORMAT}\noxigraph ${oxigraphVersion()}\nstate\n${JSON.stringify(manifest)}\njournal ${journalDigest}\n`).digest('hex');
}

/**
 * The key of the store an empty store becomes by applying one op (a first start's catalog graph):
 * the SHA-256 of the op's journal record (every field of the op, its data included), which is
 * encoded for the journal anyway.
 */
function firstWriteKey(record: Buffer): string {
  return createHash('sha256').update(`${IMAGE_FORMAT}\noxigraph ${oxigraphVersion()}\nfirst write\n`).update(record).digest('hex');
}

/**
 * A journal's identity for image keys: the SHA-256 of its records' headers (length and CRC-32
 * of each), with every record's checksum verified. Null when the journal does not end on a
 * complete, valid record (a torn or damaged tail: open's replay reports and handles it).
 */
function journalIdentity(buf: Buffer): Hash | null {
  const hash = createHash('sha256');
  let at = 0;
  while (at < buf.length) {
    const len = validRecordAt(buf, at);
    if (len === undefined) return null;
    hash.update(buf.subarray(at, at + HEADER));
    at += HEADER + len;
  }
  return hash;
}

export class StoreCorruptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreCorruptError';
  }
}

/**
 * A write the data directory could not take (full disk, read-only or unwritable directory): it was
 * not acknowledged, and the store refuses further writes until a restart (memory may hold what
 * the disk does not). The message says what to do; reads keep working.
 */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';
  constructor(message: string, readonly code?: string, cause?: unknown) { super(message, { cause }); }
}

/** What an operator does about a write the file system refused, by its errno code. */
function writeFaultAdvice(dir: string, code: string | undefined): string {
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk holding ${dir} is full: free space there (or move the data directory: --data / ASSAY_DATA_DIR), then restart Assay`;
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return `${dir} cannot be written: make it writable by this process (or choose another data directory: --data / ASSAY_DATA_DIR), then restart Assay`;
  return `check the disk holding ${dir}, then restart Assay`;
}

export class StoreCapacityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreCapacityError';
  }
}

export class StoreLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreLockedError';
  }
}

const MAGIC = 0x4153_4a31; // "ASJ1"
const HEADER = 12; // magic u32, length u32, crc32 u32
const MANIFEST = 'MANIFEST.json';
const LOCK = 'LOCK';
const DEFAULT_MAX_QUADS = 12_000_000;

interface Manifest {
  version: 1;
  generation: number;
  /** Writes folded into the snapshot (so a journal record's sequence number is seq + its index + 1). */
  seq?: number;
  snapshot: string | null;
  journal: string;
  /** The snapshot's length and the CRC-32 of each block of it (absent for snapshots written before 2026-12). */
  snapshotSums?: SnapshotSums;
}

export interface SnapshotSums {
  bytes: number;
  blockBytes: number;
  crc32: number[];
}

const SNAPSHOT_BLOCK = 1024 * 1024;

function snapshotSums(data: Buffer): SnapshotSums {
  const crcs: number[] = [];
  for (let at = 0; at < data.length; at += SNAPSHOT_BLOCK) crcs.push(crc32(data.subarray(at, at + SNAPSHOT_BLOCK)));
  return { bytes: data.length, blockBytes: SNAPSHOT_BLOCK, crc32: crcs };
}

/**
 * Write `data` as a snapshot file durably (temp, fsync, rename, fsync directory) and return
 * the checksums MANIFEST records for it. Used by the owner and by the query worker that
 * dumps the snapshot for it (SnapshotWriter).
 */
export async function writeSnapshotFile(path: string, data: Buffer): Promise<SnapshotSums> {
  await writeDurably(path, data);
  return snapshotSums(data);
}

/**
 * Writes the store's state at sequence `seq` as the snapshot file `path` and returns its
 * checksums; for compaction off the owner's thread (DurableStore.setSnapshotWriter).
 */
export type SnapshotWriter = (path: string, seq: number) => Promise<SnapshotSums>;

function verifySnapshot(path: string, data: Buffer, sums: SnapshotSums): void {
  if (data.length !== sums.bytes) {
    throw new StoreCorruptError(`${path}: the snapshot is ${data.length} bytes but ${MANIFEST} recorded ${sums.bytes}; it was truncated or overwritten and was not loaded. Restore the data directory from a backup.`);
  }
  for (let i = 0; i < sums.crc32.length; i++) {
    const at = i * sums.blockBytes;
    const end = Math.min(at + sums.blockBytes, data.length);
    if (crc32(data.subarray(at, end)) !== sums.crc32[i]) {
      throw new StoreCorruptError(`${path}: bytes ${at}–${end - 1} of the snapshot (block ${i + 1} of ${sums.crc32.length}) fail their checksum; the snapshot is damaged and was not loaded. Restore the data directory from a backup.`);
    }
  }
}

/** Told of each acknowledged write with its sequence number (1, 2, … over the store's life). */
type Listener = (op: WriteOp, seq: number) => void;

/**
 * Append all of `data`. One write(2) may write less than asked and still succeed (a disk that fills
 * mid-record writes what fits; the next call then fails with ENOSPC); a record taken as written on
 * a short count would be acknowledged and then cut off at the next start as a torn tail.
 */
async function writeFully(fh: FileHandle, data: Buffer): Promise<void> {
  for (let at = 0; at < data.length;) {
    const { bytesWritten } = await fh.write(data, at, data.length - at, null);
    if (bytesWritten <= 0) throw new Error(`only ${at} of the record's ${data.length} bytes could be written`);
    at += bytesWritten;
  }
}

/**
 * A record's payload is `{"v":2,"op":…}` for writes journaled after they were applied; a bare
 * op is a legacy record, journaled before it was applied.
 */
function encodeRecord(op: WriteOp): Buffer {
  const payload = Buffer.from(JSON.stringify({ v: 2, op }), 'utf8');
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(MAGIC, 0);
  header.writeUInt32BE(payload.length, 4);
  header.writeUInt32BE(crc32(payload), 8);
  return Buffer.concat([header, payload]);
}

function decodeRecord(payload: string): { op: WriteOp; legacy: boolean } {
  const o = JSON.parse(payload) as { v?: number; op?: WriteOp } & Partial<WriteOp>;
  if (o.v === 2 && o.op) return { op: o.op, legacy: false };
  return { op: o as WriteOp, legacy: true };
}

/** Is there a complete record with a valid checksum starting at `at`? */
function validRecordAt(buf: Buffer, at: number): number | undefined {
  if (at + HEADER > buf.length || buf.readUInt32BE(at) !== MAGIC) return undefined;
  const len = buf.readUInt32BE(at + 4);
  if (at + HEADER + len > buf.length) return undefined;
  const payload = buf.subarray(at + HEADER, at + HEADER + len);
  return crc32(payload) === buf.readUInt32BE(at + 8) ? len : undefined;
}

/**
 * Apply one op to an in-memory store. Throws on bad input; oxigraph ops are all-or-nothing.
 * Replicas (the query workers) use the same function so they stay exact copies; `replay`
 * marks an op that was acknowledged once already (its data is known to be valid).
 */
export function applyToMemory(rdf: RdfStore, op: WriteOp, how: { replay?: boolean } = {}): void {
  // A keeper with a thread of its own folds a load's text while oxigraph parses it here; should
  // the op fail (it then changed nothing), the keeper forgets what it was told.
  if (noteWriteEarly(rdf, op)) {
    try {
      applyOp(rdf, op, how);
    } catch (e) {
      noteUnknown(rdf);
      throw e;
    }
    return;
  }
  applyOp(rdf, op, how);
  // Only after the op was applied in full (a failed op changed nothing).
  noteWrite(rdf, op);
}

function applyOp(rdf: RdfStore, op: WriteOp, how: { replay?: boolean }): void {
  switch (op.kind) {
    case 'update':
      rdf.update(op.sparql, op.baseIri ? { baseIri: op.baseIri } : undefined);
      return;
    case 'load':
      // A replayed load was validated when it was acknowledged (lenient is the fast path).
      rdf.load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri, lenient: how.replay === true });
      return;
    case 'clearGraph':
      rdf.clearGraph(op.graph);
      return;
    case 'delta':
      for (const s of op.steps) {
        if (s.step === 'clear') {
          if (s.target === 'DEFAULT') rdf.clearGraph('');
          else if (s.target === 'NAMED' || s.target === 'ALL') rdf.update(`CLEAR SILENT ${s.target}`);
          else rdf.clearGraph(s.target);
        } else {
          // parseRdf keeps blank node labels (store.load would rename them).
          const quads = parseRdf(s.nquads, { format: RDF_FORMATS.nquads });
          if (s.step === 'delete') rdf.delete(quads);
          else rdf.add(quads);
        }
      }
      return;
    case 'replaceGraph': {
      // A replayed op was valid when it was acknowledged, and oxigraph's load is all-or-nothing,
      // so one parse suffices when the data is known good (replay) or the graph is empty (a
      // failed load leaves it as it was). Otherwise parse once into a scratch store first so a
      // syntax error leaves the old graph untouched; then swap inside the engine. (Copying quads
      // across as JS objects costs far more than a second, unchecked parse.)
      if (how.replay === true) {
        rdf.clearGraph(op.graph);
        rdf.load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri, lenient: true });
        return;
      }
      if (rdf.graphIsEmpty(op.graph)) {
        rdf.load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri });
        return;
      }
      new RdfStore().load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri });
      rdf.clearGraph(op.graph);
      rdf.load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri, lenient: true });
      return;
    }
  }
}

function estimateQuads(op: WriteOp): number {
  const lines = (data: string) => {
    let n = 0;
    for (let i = data.indexOf('\n'); i !== -1; i = data.indexOf('\n', i + 1)) n++;
    return n;
  };
  if (op.kind === 'delta') return op.steps.reduce((n, s) => n + (s.step === 'insert' ? lines(s.nquads) : 0), 0);
  if (op.kind !== 'load' && op.kind !== 'replaceGraph') return 0;
  return Math.max(lines(op.data), Math.ceil(op.data.length / 200));
}

/** Sends a write to the owner of the data directory; resolves with its sequence number once acknowledged. */
export type RemoteWriter = (op: WriteOp) => Promise<number>;

export class DurableStore implements AssayStore {
  readonly kind = 'embedded' as const;
  readonly rdf: RdfStore;
  readonly dir: string | null;
  readonly recovery: RecoveryReport;
  readonly #opts: Required<DurableOptions>;
  #journal: FileHandle | null;
  #journalBytes: number;
  /**
   * Bytes at the head of the journal that a compaction would not shrink: the first record of a
   * journal with no snapshot under it (a fresh data directory's first write, e.g. a first start's
   * catalog graph, is the whole state: a snapshot of it holds the same triples and replays at the
   * same cost). Compaction counts the journal's growth beyond it, so that this write does not
   * trigger a whole-store dump at once, ahead of the first questions' writes.
   */
  #journalBase: number;
  #manifest: Manifest | null;
  #queue: Promise<unknown> = Promise.resolve();
  #listeners = new Set<Listener>();
  #failed: Error | null = null;
  /** Memory holds a write that is not acknowledged yet (between applying it and its fsync). */
  #unacked = false;
  #closed = false;
  #seq: number;
  readonly #readOnly: boolean;
  readonly #remote: RemoteWriter | null;
  /** Followers: writes acknowledged by the owner that this replica does not hold yet. */
  #waiters: { seq: number; resolve: () => void }[] = [];
  #snapshotWriter: SnapshotWriter | null = null;
  /** A compaction is waiting in the write queue. */
  #compactionQueued = false;
  /** The last memory image taken, while it may still serve replicas seeded at the same write. */
  #lastImage: { image: WasmImage; seq: number } | null = null;
  /** The last compaction that failed (the old snapshot and journal stay in use). */
  #compactionError: { error: Error; journalBytes: number } | null = null;
  readonly #images: ImageCache | null;
  /** SHA-256 of the journal's bytes so far (with images only: part of the state's key). */
  #journalHash: Hash | null;
  /** The key of the state last saved as (or adopted from) an image. */
  #imageKey: string | null = null;
  /** An image wanted under a key for the state at a sequence number (the first write's). */
  #wantImage: { key: string; seq: number } | null = null;
  #saving: Promise<void> = Promise.resolve();
  /** Images adopted, refused and saved, oldest first (the last 20): for logs and tests. */
  readonly imageLog: (ImageOutcome | { code: 'saved'; key: string; ms: number } | { code: 'save-failed'; key: string; reason: string })[] = [];

  private constructor(args: {
    rdf: RdfStore; dir: string | null; journal: FileHandle | null; journalBytes: number;
    manifest: Manifest | null; recovery: RecoveryReport; opts: DurableOptions; remote?: RemoteWriter; seq?: number;
    journalHash?: Hash | null; imageKey?: string | null; adopted?: { image: WasmImage; seq: number };
    /** The journal's first bytes as read at open (for #journalBase). */
    journalHead?: Buffer | null;
  }) {
    this.#seq = args.seq ?? (args.manifest?.seq ?? 0) + args.recovery.replayed;
    this.rdf = args.rdf;
    this.dir = args.dir;
    this.#journal = args.journal;
    this.#journalBytes = args.journalBytes;
    this.#journalBase = args.manifest && !args.manifest.snapshot ? firstRecordBytes(args.journalHead ?? null, args.journalBytes) : 0;
    this.#manifest = args.manifest;
    this.recovery = args.recovery;
    this.#readOnly = args.opts.readOnly === true;
    this.#remote = args.remote ?? null;
    this.#opts = {
      readOnly: this.#readOnly,
      compactAfterBytes: args.opts.compactAfterBytes ?? 64 * 1024 * 1024,
      maxQuads: args.opts.maxQuads ?? DEFAULT_MAX_QUADS,
      images: null,
      keep: args.opts.keep ?? false,
    };
    this.#images = this.#readOnly || this.#remote || !this.dir ? null : args.opts.images ?? null;
    this.#journalHash = this.#images ? args.journalHash ?? createHash('sha256') : null;
    this.#imageKey = args.imageKey ?? null;
    if (args.recovery.image) this.#logImage(args.recovery.image);
    // The image adopted serves the replicas seeded next (start-up), instead of a copy of the heap.
    if (args.adopted) this.#keepImage(args.adopted, 10_000);
  }

  #logImage(e: DurableStore['imageLog'][number]): void {
    this.imageLog.push(e);
    if (this.imageLog.length > 20) this.imageLog.shift();
  }

  #keepImage(taken: { image: WasmImage; seq: number }, ms: number): void {
    this.#lastImage = taken;
    setTimeout(() => { if (this.#lastImage === taken) this.#lastImage = null; }, ms).unref();
  }

  /** A store with no data directory (tests, scratch work). Writes are not persisted. */
  static inMemory(opts: DurableOptions = {}): DurableStore {
    const rdf = new RdfStore();
    if (opts.keep) keepFromEmpty(rdf, opts.keep === true ? {} : opts.keep);
    return new DurableStore({
      rdf, dir: null, journal: null, journalBytes: 0, manifest: null,
      recovery: { snapshotQuads: 0, replayed: 0 }, opts,
    });
  }

  /**
   * A replica in another thread that writes through the owner: `apply()` sends the op with
   * `send` and resolves once the owner acknowledged it AND this replica holds it (the owner
   * forwards every acknowledged write, in order, to `follow()`). Reads see the replica.
   */
  static follower(args: { rdf: RdfStore; seq: number; send: RemoteWriter; maxQuads?: number }): DurableStore {
    return new DurableStore({
      rdf: args.rdf, dir: null, journal: null, journalBytes: 0, manifest: null, seq: args.seq,
      recovery: { snapshotQuads: args.rdf.size, replayed: 0 }, opts: { maxQuads: args.maxQuads }, remote: args.send,
    });
  }

  /**
   * Apply a write the owner acknowledged as number `seq` (followers only). Writes the replica
   * already holds are skipped. Throws when the op cannot be applied: the replica has diverged.
   */
  follow(op: WriteOp, seq: number): void {
    if (seq <= this.#seq) return;
    applyToMemory(this.rdf, op, { replay: true });
    this.#seq = seq;
    for (const l of this.#listeners) l(op, seq);
    const ready = this.#waiters.filter((w) => w.seq <= seq);
    this.#waiters = this.#waiters.filter((w) => w.seq > seq);
    for (const w of ready) w.resolve();
  }

  /** Open (creating if needed) the data directory, load the snapshot and replay the journal. */
  static async open(dir: string, opts: DurableOptions = {}): Promise<DurableStore> {
    const readOnly = opts.readOnly === true;
    if (readOnly) {
      try {
        await stat(join(dir, MANIFEST));
      } catch {
        throw new StoreCorruptError(`${dir} is not an Assay data directory (no ${MANIFEST}); start \`assay serve --data ${dir}\` or \`assay load\` once to create it`);
      }
    } else {
      try {
        await mkdir(dir, { recursive: true });
        await acquireLock(dir);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (!code || !['EROFS', 'EACCES', 'EPERM', 'ENOSPC', 'EDQUOT', 'ENOTDIR'].includes(code)) throw e;
        throw new StoreWriteError(`the data directory ${dir} cannot be opened for writing (${(e as Error).message}); ${code === 'ENOTDIR' ? `${dir} (or a folder above it) is a file: choose another data directory (--data / ASSAY_DATA_DIR)` : writeFaultAdvice(dir, code)}. To only read it, \`assay sparql --data ${dir}\` opens it read-only`, code, e);
      }
    }
    try {
      const manifest = await readManifest(dir);
      const rdf = new RdfStore();
      if (opts.keep) keepFromEmpty(rdf, opts.keep === true ? {} : opts.keep);
      const recovery: RecoveryReport = { snapshotQuads: 0, replayed: 0 };
      const images = readOnly ? null : opts.images ?? null;
      let snapshotData: Buffer | undefined;
      if (manifest.snapshot) {
        const path = join(dir, manifest.snapshot);
        try {
          snapshotData = await readFile(path);
        } catch (e) {
          throw new StoreCorruptError(`${path}: the snapshot named in ${MANIFEST} cannot be read (${(e as Error).message}); restore the data directory from a backup`);
        }
        // Checked even when an image is adopted instead: damage is reported the same either way.
        if (manifest.snapshotSums) verifySnapshot(path, snapshotData, manifest.snapshotSums);
        recovery.snapshot = manifest.snapshot;
        recovery.snapshotChecked = manifest.snapshotSums !== undefined;
      }
      const journalPath = join(dir, manifest.journal);
      const journalData = await readJournal(journalPath);
      // An image saved under the key of exactly these files (MANIFEST, which names the snapshot and
      // its checksums, and every byte of the journal) holds what loading them would: adopt it.
      // It was saved by a store whose journal was these bytes, all acknowledged records, so there
      // is no torn tail to cut and nothing to replay.
      let adopted: { image: WasmImage; seq: number } | undefined;
      let imageKey: string | null = null;
      const journalHash = images ? journalIdentity(journalData) : null;
      if (images && journalHash && (manifest.snapshot || journalData.length > 0)) {
        const key = stateKey(manifest, journalHash!.copy().digest('hex'));
        const t0 = performance.now();
        const image = await adoptImage(rdf, images, key);
        recovery.image = image.outcome.code === 'adopted' ? { ...image.outcome, ms: performance.now() - t0 } : image.outcome;
        if (image.adopted) {
          noteUnknown(rdf);
          imageKey = key;
          recovery.snapshotQuads = rdf.size;
          recovery.replayed = countRecords(journalData);
          adopted = { image: image.adopted, seq: (manifest.seq ?? 0) + recovery.replayed };
        }
      }
      let goodBytes = journalData.length;
      if (!adopted) {
        if (snapshotData) {
          // Checked snapshots are parsed leniently (fast); an old one without checksums strictly,
          // so that at least damage which breaks the syntax is caught.
          // Told first: a keeper's thread folds it while oxigraph parses it (a failure ends the open).
          noteDocument(rdf, snapshotData, RDF_FORMATS.nquads);
          try {
            rdf.load(snapshotData, { format: RDF_FORMATS.nquads, lenient: manifest.snapshotSums !== undefined });
          } catch (e) {
            throw new StoreCorruptError(`${join(dir, manifest.snapshot!)}: the snapshot does not parse (${(e as Error).message}); restore the data directory from a backup`);
          }
          recovery.snapshotQuads = rdf.size;
        }
        const replay = replayJournal(journalPath, journalData, rdf);
        goodBytes = replay.goodBytes;
        recovery.replayed = replay.replayed;
        if (replay.tornTail) recovery.tornTail = replay.tornTail;
        if (replay.unreplayable) recovery.unreplayable = replay.unreplayable;
      }
      snapshotData = undefined;
      if (readOnly) {
        return new DurableStore({ rdf, dir, journal: null, journalBytes: goodBytes, manifest, recovery, opts });
      }
      const journal = await open(journalPath, 'a+');
      if (goodBytes < journalData.length) {
        await journal.truncate(goodBytes);
        await journal.sync();
      }
      const hash = images ? journalHash ?? journalIdentity(journalData.subarray(0, goodBytes)) : null;
      return new DurableStore({ rdf, dir, journal, journalBytes: goodBytes, manifest, recovery, opts, journalHash: hash, imageKey, journalHead: journalData.subarray(0, Math.min(goodBytes, HEADER)), ...(adopted ? { adopted } : {}) });
    } catch (e) {
      if (!readOnly) await releaseLock(dir);
      throw e;
    }
  }

  describe(): string {
    return this.dir ? `embedded store in ${this.dir}` : 'embedded store in memory (not persisted)';
  }

  /** Sequence number of the last acknowledged write (0 for a store never written). */
  get seq(): number {
    return this.#seq;
  }

  /** The most quads this store accepts (DurableOptions.maxQuads). */
  get maxQuads(): number {
    return this.#opts.maxQuads;
  }

  /** Bytes in the current journal (compaction folds them into a snapshot). */
  get journalBytes(): number {
    return this.#journalBytes;
  }

  /**
   * Read the acknowledged state of a data directory another process or thread owns, without
   * locking it: for seeding query replicas off the main thread. Retries when a compaction
   * swaps files underneath it. `seq` says which writes the result already holds.
   */
  static async readReplica(dir: string): Promise<{ rdf: RdfStore; seq: number }> {
    for (let attempt = 0; ; attempt++) {
      try {
        const s = await DurableStore.open(dir, { readOnly: true });
        // A compaction between reading MANIFEST and the files it names could hide writes
        // (the old journal gone, read as empty): only a generation that held still counts.
        const after = await readManifest(dir);
        if (after.generation !== s.#manifest?.generation) throw Object.assign(new Error('compacted while reading'), { code: 'ENOENT' });
        return { rdf: s.rdf, seq: s.seq };
      } catch (e) {
        const missing = (e as NodeJS.ErrnoException).code === 'ENOENT' || /cannot be read/.test((e as Error).message);
        if (!missing || attempt >= 5) throw e;
      }
    }
  }

  /**
   * Dump snapshots elsewhere (a query worker at the same sequence) instead of on this thread;
   * `null` goes back to dumping here. The gateway sets one once its query pool is up.
   */
  setSnapshotWriter(writer: SnapshotWriter | null): void {
    this.#snapshotWriter = writer;
  }

  /** Why the last compaction failed, if it did (the store keeps its old snapshot and journal). */
  get compactionError(): Error | null {
    return this.#compactionError?.error ?? null;
  }

  /**
   * A memory image of the store (src/rdf/wasm-image.ts) and the sequence number it holds, for
   * seeding a replica in a fresh thread without parsing. Null when memory holds a write that is
   * not acknowledged yet (or one that failed to journal), for a follower, or when this thread
   * cannot take images: seed from the data directory then.
   */
  memoryImage(): { image: WasmImage; seq: number } | null {
    if (this.#unacked || this.#failed || this.#remote || this.#closed) return null;
    // Replicas seeded at the same write (the query workers and the ask workers at start-up)
    // share one copy; it is dropped soon after, so the owner does not keep a copy of its heap.
    if (this.#lastImage?.seq === this.#seq) return this.#lastImage;
    const image = this.rdf.memoryImage();
    if (!image) return null;
    const taken = { image, seq: this.#seq };
    this.#lastImage = taken;
    setTimeout(() => { if (this.#lastImage === taken) this.#lastImage = null; }, 2_000).unref();
    return taken;
  }

  /** Why the store refuses writes (a write the disk would not take), or null while it accepts them. */
  get writeFault(): StoreWriteError | null {
    return this.#failed instanceof StoreWriteError ? this.#failed : null;
  }

  /** Called after each acknowledged write (e.g. to keep a query replica current). */
  onWrite(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Apply, journal, fsync. Resolves once the write is durable and visible. */
  apply(op: WriteOp): Promise<void> {
    const run = this.#queue.then(() => this.#applyNow(op));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Run `compute` with the write queue held (no other write can land meanwhile), then apply the
   * op it returns, if any. For writes derived from the current state, such as an update whose
   * effect a query worker computed against a replica at exactly `seq`.
   */
  applyComputed(compute: (seq: number) => Promise<WriteOp | null>): Promise<void> {
    const run = this.#queue.then(async () => {
      const op = await compute(this.#seq);
      if (op) await this.#applyNow(op);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #applyNow(op: WriteOp): Promise<void> {
    if (this.#closed) throw new Error('the store is closed; open it again before writing');
    if (this.#readOnly) throw new Error(`the store at ${this.dir} was opened read-only; stop the process that owns it, or send the write to its endpoint`);
    if (this.#failed) throw new StoreWriteError(`the store refused writes after an earlier fault: ${this.#failed.message}`, this.#failed instanceof StoreWriteError ? this.#failed.code : undefined);
    if (this.#remote) {
      const seq = await this.#remote(op);
      if (seq > this.#seq) await new Promise<void>((resolve) => this.#waiters.push({ seq, resolve }));
      return;
    }
    // The first write into an empty, untouched store (a first start's catalog graph) may be in an
    // image already: adopt it instead of parsing; it is journaled below all the same.
    let adopted: WasmImage | undefined;
    let record: Buffer | undefined;
    if (this.#images && this.#seq === 0 && this.rdf.untouched && (op.kind === 'replaceGraph' || op.kind === 'load')) {
      record = encodeRecord(op);
      const key = firstWriteKey(record);
      const t0 = performance.now();
      const r = await adoptImage(this.rdf, this.#images, key, this.#opts.maxQuads);
      this.#logImage(r.outcome.code === 'adopted' ? { ...r.outcome, ms: performance.now() - t0 } : r.outcome);
      if (r.adopted) {
        adopted = r.adopted;
        noteUnknown(this.rdf);
      } else if (r.outcome.code !== 'unusable') this.#wantImage = { key, seq: 1 };
    }
    const estimate = adopted ? 0 : estimateQuads(op);
    // The bound first (free); a count only when the bound says the write could pass the ceiling.
    if (estimate > 0 && this.rdf.sizeBound + estimate > this.#opts.maxQuads && this.rdf.size + estimate > this.#opts.maxQuads) {
      throw new StoreCapacityError(
        `refusing to load about ${estimate} quads: the embedded store holds ${this.rdf.size} and is capped at ${this.#opts.maxQuads} ` +
        '(the WebAssembly store aborts near 13.1 M triples). Keep the graph in a scale-out SPARQL 1.1 store instead: `--store URL` or ASSAY_STORE_URL (e.g. Virtuoso; see the README\'s store section), or clear a graph first.');
    }
    // Memory first: an op that fails (or a crash while it runs) leaves no journal record.
    this.#unacked = true;
    try {
      if (!adopted) applyToMemory(this.rdf, op);
    } catch (e) {
      this.#unacked = false; // all-or-nothing: memory is unchanged
      throw e;
    }
    if (this.#journal) {
      const before = this.#journalBytes;
      record ??= encodeRecord(op);
      try {
        await writeFully(this.#journal, record);
        await this.#journal.datasync();
        if (before === 0 && !this.#manifest?.snapshot) this.#journalBase = record.length;
        this.#journalBytes += record.length;
        this.#journalHash?.update(record.subarray(0, HEADER));
      } catch (e) {
        // Memory now holds a write the disk does not: refuse every further write so nothing
        // is acknowledged on top of it; a restart reloads the acknowledged state.
        const code = (e as NodeJS.ErrnoException).code;
        const fault = new StoreWriteError(`the write could not be journaled (${(e as Error).message}); it was not acknowledged, and the store refuses writes until Assay is restarted; ${writeFaultAdvice(this.dir ?? 'the data directory', code)}`, code, e);
        this.#failed = fault;
        await this.#journal.truncate(before).catch(() => undefined);
        throw fault;
      }
    }
    this.#seq++;
    this.#unacked = false;
    if (adopted) this.#keepImage({ image: adopted, seq: this.#seq }, 10_000);
    for (const l of this.#listeners) l(op, this.#seq);
    if (this.#journal && !this.#compactionQueued && this.#journalBytes - this.#journalBase > this.#opts.compactAfterBytes && this.#shouldRetryCompaction()) {
      // The write is durable already: it is acknowledged now, and the compaction runs next in the
      // write queue (later writes wait for it; this one, e.g. a first start's catalog graph, does
      // not). A compaction that fails fails no write. The error is kept (compactionError);
      // another try waits until the journal has grown by a quarter.
      this.#compactionQueued = true;
      const run = this.#queue.then(async () => {
        this.#compactionQueued = false;
        if (this.#journalBytes - this.#journalBase > this.#opts.compactAfterBytes) await this.#compactNow();
      });
      this.#queue = run.catch(() => undefined);
    }
  }

  #shouldRetryCompaction(): boolean {
    const failed = this.#compactionError;
    return !failed || this.#journalBytes > failed.journalBytes + this.#opts.compactAfterBytes / 4;
  }

  /** Write a fresh snapshot and start an empty journal. */
  compact(): Promise<void> {
    const run = this.#queue.then(() => this.#compactNow());
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #compactNow(): Promise<void> {
    if (!this.dir || !this.#manifest || !this.#journal) return;
    const gen = this.#manifest.generation + 1;
    const snapshot = `snapshot-${String(gen).padStart(8, '0')}.nq`;
    const journal = `journal-${String(gen).padStart(8, '0')}.log`;
    let sums: SnapshotSums;
    try {
      if (this.#snapshotWriter) {
        sums = await this.#snapshotWriter(join(this.dir, snapshot), this.#seq);
      } else {
        sums = await writeSnapshotFile(join(this.dir, snapshot), Buffer.from(this.rdf.dump({ format: RDF_FORMATS.nquads }), 'utf8'));
      }
      await writeDurably(join(this.dir, journal), '');
    } catch (e) {
      // Nothing names the new files yet: the old snapshot and journal stay in use.
      this.#compactionError = { error: e as Error, journalBytes: this.#journalBytes };
      await rm(join(this.dir, snapshot), { force: true }).catch(() => undefined);
      throw new Error(`compaction failed (${(e as Error).message}); the store keeps its previous snapshot and journal`);
    }
    this.#compactionError = null;
    const next: Manifest = { version: 1, generation: gen, seq: this.#seq, snapshot, journal, snapshotSums: sums };
    await writeDurably(join(this.dir, MANIFEST), JSON.stringify(next, null, 2));
    const old = this.#manifest;
    await this.#journal.close();
    this.#journal = await open(join(this.dir, journal), 'a+');
    this.#journalBytes = 0;
    this.#journalBase = 0;
    if (this.#journalHash) this.#journalHash = createHash('sha256');
    this.#manifest = next;
    for (const f of [old.snapshot, old.journal]) if (f) await rm(join(this.dir, f), { force: true });
  }

  /**
   * Save a memory image of the store as its files now hold it (MANIFEST + journal), so that the
   * next open adopts it instead of parsing (DurableOptions.images). Runs in the write queue (after
   * any compaction waiting there); a no-op without images, or when that state is saved already.
   * Never fails: a failure is logged in `imageLog`.
   */
  saveImage(): Promise<void> {
    // The copy is taken in the write queue (it must match the files); the file is written after,
    // while writes go on.
    const run = this.#queue.then(async (): Promise<{ keys: string[]; image: WasmImage } | undefined> => {
      if (!this.#images || !this.#manifest || !this.#journalHash || this.#failed || this.#closed) return;
      if (this.rdf.sizeBound < this.#images.minQuads) return;
      // The first write into an empty store, when no image of it existed (a first start's catalog
      // graph, for the next fresh data directory): the same copy serves both keys.
      const first = this.#wantImage?.seq === this.#seq ? this.#wantImage.key : null;
      if (this.#wantImage && this.#wantImage.seq !== this.#seq) this.#wantImage = null;
      const key = stateKey(this.#manifest, this.#journalHash.copy().digest('hex'));
      const keys = [];
      if (key !== this.#imageKey && !(await this.#images.has(key))) keys.push(key);
      this.#imageKey = key;
      if (first) {
        this.#wantImage = null;
        if (!(await this.#images.has(first))) keys.push(first);
      }
      if (keys.length === 0) return;
      const taken = this.memoryImage();
      return taken ? { keys, image: taken.image } : undefined;
    });
    this.#queue = run.catch(() => undefined);
    return run.then(async (r) => {
      for (const k of r?.keys ?? []) await this.#writeImage(k, r!.image);
    }).catch(() => undefined);
  }

  #writeImage(key: string, image: WasmImage): Promise<void> {
    const images = this.#images;
    if (!images || image.quads < images.minQuads) return Promise.resolve();
    const t0 = performance.now();
    const run = this.#saving.then(() => images.write(key, image)).then(
      () => this.#logImage({ code: 'saved', key, ms: performance.now() - t0 }),
      (e: Error) => this.#logImage({ code: 'save-failed', key, reason: e.message }),
    );
    this.#saving = run;
    return run;
  }

  async close(): Promise<void> {
    await this.#queue;
    // The next start adopts the state this one leaves (when images are kept), instead of parsing it.
    if (this.#images && !this.#failed && !this.#closed) await this.saveImage();
    await this.#saving;
    this.#closed = true;
    releaseKeeper(this.rdf);
    if (this.#journal) {
      await this.#journal.close();
      this.#journal = null;
    }
    if (this.dir && !this.#readOnly) await releaseLock(this.dir);
  }
}

async function writeDurably(path: string, data: string | Buffer): Promise<void> {
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  await syncDir(path.slice(0, path.lastIndexOf('/')) || '.');
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function readManifest(dir: string): Promise<Manifest> {
  const path = join(dir, MANIFEST);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    const entries = (await readdir(dir)).filter((f) => f !== LOCK && !f.endsWith('.tmp'));
    if (entries.length > 0) {
      throw new StoreCorruptError(`${dir} holds files (${entries.slice(0, 5).join(', ')}) but no ${MANIFEST}; it is not an Assay data directory or it was damaged. Point --data at an empty or Assay directory.`);
    }
    const fresh: Manifest = { version: 1, generation: 0, snapshot: null, journal: 'journal-00000000.log' };
    await writeDurably(path, JSON.stringify(fresh, null, 2));
    return fresh;
  }
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (e) {
    throw new StoreCorruptError(`${path} is not valid JSON (${(e as Error).message}); restore it from a backup`);
  }
  const mm = m as Partial<Manifest>;
  if (mm.version !== 1 || typeof mm.journal !== 'string' || typeof mm.generation !== 'number') {
    throw new StoreCorruptError(`${path} is not a version-1 Assay manifest; restore it from a backup`);
  }
  return mm as Manifest;
}

/**
 * Why the bytes from `at` to the end are not a valid record: `torn` when they are what an
 * append cut short leaves (a prefix of a record: the marker's first bytes, or a header whose
 * length runs past the end with a payload that does not check), else damage to a write that
 * was acknowledged.
 */
function classifyTail(buf: Buffer, at: number): { torn: boolean; reason: string } {
  const rest = buf.subarray(at);
  const magic = Buffer.alloc(4);
  magic.writeUInt32BE(MAGIC, 0);
  if (rest.every((b) => b === 0)) return { torn: true, reason: 'zero-filled tail' };
  if (rest.length < HEADER) {
    const n = Math.min(4, rest.length);
    return rest.subarray(0, n).equals(magic.subarray(0, n))
      ? { torn: true, reason: 'incomplete header' }
      : { torn: false, reason: 'the record marker is damaged' };
  }
  if (rest.readUInt32BE(0) !== MAGIC) return { torn: false, reason: 'the record marker is damaged' };
  const len = rest.readUInt32BE(4);
  if (HEADER + len > rest.length) {
    // A length damaged upwards would look torn too; unless the payload that is there checks.
    return crc32(rest.subarray(HEADER)) === rest.readUInt32BE(8)
      ? { torn: false, reason: 'the record length is damaged (its payload is complete and checks)' }
      : { torn: true, reason: 'incomplete record' };
  }
  return { torn: false, reason: 'a record of complete length fails its checksum' };
}

async function readJournal(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw e;
  }
}

/** The length of a journal's first record (header included) from its first HEADER bytes; 0 when it has none. */
function firstRecordBytes(head: Buffer | null, journalBytes: number): number {
  if (!head || head.length < HEADER) return 0;
  return Math.min(journalBytes, HEADER + head.readUInt32BE(4));
}

/** Records in a journal known to hold only complete, valid records (one an image was saved from). */
function countRecords(buf: Buffer): number {
  let n = 0;
  for (let at = 0; at + HEADER <= buf.length; n++) at += HEADER + buf.readUInt32BE(at + 4);
  return n;
}

/**
 * Make the untouched `rdf` the store in the image under `key`, if there is one and this thread
 * can adopt it. The outcome says what happened; the store is left untouched unless adopted.
 */
async function adoptImage(rdf: RdfStore, images: ImageCache, key: string, maxQuads = Infinity): Promise<{ outcome: ImageOutcome; adopted?: WasmImage }> {
  if (!RdfStore.canAdoptImage() || !rdf.untouched) {
    return { outcome: { code: 'unusable', reason: 'this thread used oxigraph before the store was loaded, so an image cannot be adopted' } };
  }
  let image: WasmImage | null;
  try {
    image = await images.read(key);
  } catch (e) {
    return { outcome: { code: 'refused', key, reason: (e as Error).message } };
  }
  if (!image) return { outcome: { code: 'none', key } };
  // Past the ceiling: not adopted, so the write is refused as it would be without an image.
  if (image.quads > maxQuads) return { outcome: { code: 'unusable', reason: `the image holds ${image.quads} quads, more than the store accepts (${maxQuads})` } };
  try {
    rdf.adoptImage(image);
  } catch (e) {
    return { outcome: { code: 'refused', key, reason: (e as Error).message } };
  }
  return { outcome: { code: 'adopted', key, ms: 0 }, adopted: image };
}

function replayJournal(path: string, buf: Buffer, rdf: RdfStore): {
  replayed: number; goodBytes: number; tornTail?: RecoveryReport['tornTail']; unreplayable?: RecoveryReport['unreplayable'];
} {
  const fix = (at: number) => `Restore the data directory from a backup; or, to give up the writes from this record on, cut the journal there (truncate -s ${at} ${path}) and start again.`;
  let at = 0;
  let replayed = 0;
  while (at < buf.length) {
    const len = validRecordAt(buf, at);
    if (len === undefined) {
      // Anything valid after this point means the damage is in the middle, not a torn append.
      for (let probe = at + 1; probe + HEADER <= buf.length; probe++) {
        if (buf.readUInt32BE(probe) === MAGIC && validRecordAt(buf, probe) !== undefined) {
          throw new StoreCorruptError(
            `${path}: the journal record at byte ${at} is damaged but valid records follow at byte ${probe}; ` +
            `loading past it would lose acknowledged writes. ${fix(at)}`);
        }
      }
      const tail = classifyTail(buf, at);
      if (!tail.torn) {
        throw new StoreCorruptError(`${path}: the last journal record, at byte ${at}, is damaged (${tail.reason}); it holds a write that was acknowledged, so start-up stops rather than drop it. ${fix(at)}`);
      }
      return { replayed, goodBytes: at, tornTail: { offset: at, bytes: buf.length - at, reason: tail.reason } };
    }
    const payload = buf.subarray(at + HEADER, at + HEADER + len).toString('utf8');
    let decoded: { op: WriteOp; legacy: boolean } | undefined;
    try {
      decoded = decodeRecord(payload);
      applyToMemory(rdf, decoded.op, { replay: !decoded.legacy });
    } catch (e) {
      const last = at + HEADER + len === buf.length;
      if (decoded?.legacy && last) {
        // Journaled before it was applied, by an older Assay: one that failed (or whose
        // process died while it ran) was never acknowledged. Oxigraph ops are all-or-nothing.
        return { replayed, goodBytes: at, unreplayable: { offset: at, bytes: buf.length - at, kind: decoded.op.kind, reason: (e as Error).message } };
      }
      throw new StoreCorruptError(`${path}: the journal record at byte ${at} passed its checksum but cannot be replayed (${(e as Error).message}); ${fix(at)}`);
    }
    replayed++;
    at += HEADER + len;
  }
  return { replayed, goodBytes: at };
}

async function acquireLock(dir: string): Promise<void> {
  const path = join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(owner) && owner > 0 && (owner === process.pid || isAlive(owner))) {
        throw new StoreLockedError(`${dir} is in use by process ${owner} (another \`assay\` is running on it). Stop it, or pass a different --data directory.`);
      }
      // Stale lock from a process that died: take it over.
      await rm(path, { force: true });
    }
  }
  throw new StoreLockedError(`could not lock ${dir}; remove ${path} if no Assay process is running`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function releaseLock(dir: string): Promise<void> {
  const path = join(dir, LOCK);
  const owner = (await readFile(path, 'utf8').catch(() => '')).trim();
  if (owner === String(process.pid)) await rm(path, { force: true });
}

/** Size in bytes of the files in a data directory (for status output). */
export async function dataDirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const f of await readdir(dir)) total += (await stat(join(dir, f))).size;
  return total;
}
