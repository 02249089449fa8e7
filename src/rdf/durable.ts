/**
 * DurableStore: the RdfStore plus a data directory that keeps every graph across restarts.
 *
 * Contract
 * - Every write is a `WriteOp`. `apply()` appends it to the journal and fsyncs before it
 *   changes memory and resolves, so a write that was acknowledged survives SIGKILL or a crash.
 * - On open: the snapshot named by MANIFEST is loaded, then the journal is replayed. A torn
 *   tail (the last record incomplete or failing its checksum, with nothing valid after it) is a
 *   write that was never acknowledged: it is cut off and reported in `recovery`. A bad record
 *   with valid records after it is corruption: open fails with a message naming the offset.
 *   Nothing is ever loaded half.
 * - Compaction writes a new snapshot + empty journal and switches MANIFEST atomically
 *   (write temp, fsync, rename, fsync directory); a crash at any point leaves the old or the
 *   new pair, never a mixture.
 * - One process owns a data directory at a time (LOCK file with the owner's pid).
 *
 * Reads go straight to `rdf` (synchronous oxigraph). Writes are serialized through a queue.
 * Non-deterministic SPARQL Update functions (NOW(), UUID(), RAND(), BNODE()) are replayed
 * from the journal as text, so after a restart they may produce different values; Assay's own
 * writes use `load`/`replaceGraph` with concrete data.
 */
import { mkdir, open, readFile, rename, rm, writeFile, readdir, stat, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import { RdfStore, RDF_FORMATS } from './store.ts';
import type { AssayStore } from './backend.ts';

export type WriteOp =
  | { kind: 'update'; sparql: string; baseIri?: string }
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
}

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
}

export class StoreCorruptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreCorruptError';
  }
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
}

/** Told of each acknowledged write with its sequence number (1, 2, … over the store's life). */
type Listener = (op: WriteOp, seq: number) => void;

function encodeRecord(op: WriteOp): Buffer {
  const payload = Buffer.from(JSON.stringify(op), 'utf8');
  const header = Buffer.alloc(HEADER);
  header.writeUInt32BE(MAGIC, 0);
  header.writeUInt32BE(payload.length, 4);
  header.writeUInt32BE(crc32(payload), 8);
  return Buffer.concat([header, payload]);
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
 * Replicas (the query workers) use the same function so they stay exact copies.
 */
export function applyToMemory(rdf: RdfStore, op: WriteOp): void {
  switch (op.kind) {
    case 'update':
      rdf.update(op.sparql, op.baseIri ? { baseIri: op.baseIri } : undefined);
      return;
    case 'load':
      rdf.load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri });
      return;
    case 'clearGraph':
      rdf.clearGraph(op.graph);
      return;
    case 'replaceGraph': {
      // Parse once into a scratch store so a syntax error leaves the old graph untouched; then
      // swap inside the engine. (Copying quads across as JS objects costs far more than a
      // second, unchecked parse.)
      new RdfStore().load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri });
      rdf.clearGraph(op.graph);
      rdf.load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri, lenient: true });
      return;
    }
  }
}

function estimateQuads(op: WriteOp): number {
  if (op.kind !== 'load' && op.kind !== 'replaceGraph') return 0;
  let lines = 0;
  for (let i = op.data.indexOf('\n'); i !== -1; i = op.data.indexOf('\n', i + 1)) lines++;
  return Math.max(lines, Math.ceil(op.data.length / 200));
}

export class DurableStore implements AssayStore {
  readonly kind = 'embedded' as const;
  readonly rdf: RdfStore;
  readonly dir: string | null;
  readonly recovery: RecoveryReport;
  readonly #opts: Required<DurableOptions>;
  #journal: FileHandle | null;
  #journalBytes: number;
  #manifest: Manifest | null;
  #queue: Promise<unknown> = Promise.resolve();
  #listeners = new Set<Listener>();
  #failed: Error | null = null;
  #closed = false;
  #seq: number;
  readonly #readOnly: boolean;

  private constructor(args: {
    rdf: RdfStore; dir: string | null; journal: FileHandle | null; journalBytes: number;
    manifest: Manifest | null; recovery: RecoveryReport; opts: DurableOptions;
  }) {
    this.#seq = (args.manifest?.seq ?? 0) + args.recovery.replayed;
    this.rdf = args.rdf;
    this.dir = args.dir;
    this.#journal = args.journal;
    this.#journalBytes = args.journalBytes;
    this.#manifest = args.manifest;
    this.recovery = args.recovery;
    this.#readOnly = args.opts.readOnly === true;
    this.#opts = {
      readOnly: this.#readOnly,
      compactAfterBytes: args.opts.compactAfterBytes ?? 64 * 1024 * 1024,
      maxQuads: args.opts.maxQuads ?? DEFAULT_MAX_QUADS,
    };
  }

  /** A store with no data directory (tests, scratch work). Writes are not persisted. */
  static inMemory(opts: DurableOptions = {}): DurableStore {
    return new DurableStore({
      rdf: new RdfStore(), dir: null, journal: null, journalBytes: 0, manifest: null,
      recovery: { snapshotQuads: 0, replayed: 0 }, opts,
    });
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
      await mkdir(dir, { recursive: true });
      await acquireLock(dir);
    }
    try {
      const manifest = await readManifest(dir);
      const rdf = new RdfStore();
      const recovery: RecoveryReport = { snapshotQuads: 0, replayed: 0 };
      if (manifest.snapshot) {
        const path = join(dir, manifest.snapshot);
        let data: Buffer;
        try {
          data = await readFile(path);
        } catch (e) {
          throw new StoreCorruptError(`${path}: the snapshot named in ${MANIFEST} cannot be read (${(e as Error).message}); restore the data directory from a backup`);
        }
        try {
          rdf.load(data, { format: RDF_FORMATS.nquads, lenient: true });
        } catch (e) {
          throw new StoreCorruptError(`${path}: the snapshot does not parse (${(e as Error).message}); restore the data directory from a backup`);
        }
        recovery.snapshot = manifest.snapshot;
        recovery.snapshotQuads = rdf.size;
      }
      const journalPath = join(dir, manifest.journal);
      const { replayed, goodBytes, tornTail } = await replayJournal(journalPath, rdf);
      recovery.replayed = replayed;
      if (tornTail) recovery.tornTail = tornTail;
      if (readOnly) {
        return new DurableStore({ rdf, dir, journal: null, journalBytes: goodBytes, manifest, recovery, opts });
      }
      const journal = await open(journalPath, 'a+');
      if (tornTail) {
        await journal.truncate(goodBytes);
        await journal.sync();
      }
      return new DurableStore({ rdf, dir, journal, journalBytes: goodBytes, manifest, recovery, opts });
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

  /** Called after each acknowledged write (e.g. to keep a query replica current). */
  onWrite(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Journal, fsync, then apply. Resolves once the write is durable and visible. */
  apply(op: WriteOp): Promise<void> {
    const run = this.#queue.then(() => this.#applyNow(op));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #applyNow(op: WriteOp): Promise<void> {
    if (this.#closed) throw new Error('the store is closed; open it again before writing');
    if (this.#readOnly) throw new Error(`the store at ${this.dir} was opened read-only; stop the process that owns it, or send the write to its endpoint`);
    if (this.#failed) throw new Error(`the store refused writes after an earlier fault: ${this.#failed.message}; restart Assay`);
    const estimate = estimateQuads(op);
    if (estimate > 0 && this.rdf.size + estimate > this.#opts.maxQuads) {
      throw new StoreCapacityError(
        `refusing to load about ${estimate} quads: the embedded store holds ${this.rdf.size} and is capped at ${this.#opts.maxQuads} ` +
        '(the WebAssembly store aborts near 13.1 M triples). Keep the graph in a scale-out SPARQL 1.1 store instead: `--store URL` or ASSAY_STORE_URL (e.g. Virtuoso; see the README\'s store section), or clear a graph first.');
    }
    if (this.#journal) {
      const before = this.#journalBytes;
      const record = encodeRecord(op);
      await this.#journal.write(record, 0, record.length, null);
      await this.#journal.datasync();
      this.#journalBytes += record.length;
      try {
        applyToMemory(this.rdf, op);
      } catch (e) {
        // The op is invalid (e.g. a syntax error): take it back out of the journal.
        try {
          await this.#journal.truncate(before);
          await this.#journal.datasync();
          this.#journalBytes = before;
        } catch (fault) {
          this.#failed = fault as Error;
        }
        throw e;
      }
    } else {
      applyToMemory(this.rdf, op);
    }
    this.#seq++;
    for (const l of this.#listeners) l(op, this.#seq);
    if (this.#journal && this.#journalBytes > this.#opts.compactAfterBytes) await this.#compactNow();
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
    await writeDurably(join(this.dir, snapshot), this.rdf.dump({ format: RDF_FORMATS.nquads }));
    await writeDurably(join(this.dir, journal), '');
    const next: Manifest = { version: 1, generation: gen, seq: this.#seq, snapshot, journal };
    await writeDurably(join(this.dir, MANIFEST), JSON.stringify(next, null, 2));
    const old = this.#manifest;
    await this.#journal.close();
    this.#journal = await open(join(this.dir, journal), 'a+');
    this.#journalBytes = 0;
    this.#manifest = next;
    for (const f of [old.snapshot, old.journal]) if (f) await rm(join(this.dir, f), { force: true });
  }

  async close(): Promise<void> {
    await this.#queue;
    this.#closed = true;
    if (this.#journal) {
      await this.#journal.close();
      this.#journal = null;
    }
    if (this.dir && !this.#readOnly) await releaseLock(this.dir);
  }
}

async function writeDurably(path: string, data: string): Promise<void> {
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

async function replayJournal(path: string, rdf: RdfStore): Promise<{
  replayed: number; goodBytes: number; tornTail?: RecoveryReport['tornTail'];
}> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { replayed: 0, goodBytes: 0 };
    throw e;
  }
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
            `loading past it would lose acknowledged writes. Restore the data directory from a backup, or move the journal aside to start from the snapshot.`);
        }
      }
      const reason = at + HEADER > buf.length ? 'incomplete header'
        : buf.readUInt32BE(at) !== MAGIC ? 'bad record marker'
          : at + HEADER + buf.readUInt32BE(at + 4) > buf.length ? 'incomplete record' : 'checksum mismatch';
      return { replayed, goodBytes: at, tornTail: { offset: at, bytes: buf.length - at, reason } };
    }
    const payload = buf.subarray(at + HEADER, at + HEADER + len).toString('utf8');
    let op: WriteOp;
    try {
      op = JSON.parse(payload) as WriteOp;
      applyToMemory(rdf, op);
    } catch (e) {
      throw new StoreCorruptError(`${path}: the journal record at byte ${at} passed its checksum but cannot be replayed (${(e as Error).message}); restore the data directory from a backup`);
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
