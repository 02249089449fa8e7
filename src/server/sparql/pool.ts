/**
 * The query sandbox: a small pool of worker threads, each holding a replica of the store,
 * that runs untrusted SPARQL where it can be stopped and thrown away.
 *
 * Why: oxigraph's JS query is synchronous WebAssembly with no timeout; run on the main thread
 * a heavy query stalls every request, and a trap can corrupt the instance (and the data) for
 * the whole isolate. Here each job has a deadline; past it, or on any engine fault, the worker
 * is terminated and a fresh one reads the data directory (snapshot + journal) on its own
 * thread. The main store is never touched by untrusted text, so nothing acknowledged is lost.
 *
 * Consistency: every acknowledged write carries a sequence number. A replica reads the
 * directory's acknowledged state (which says which writes it holds), then applies the
 * forwarded writes it does not hold yet, in order, through the same port as its jobs, so a
 * query dispatched after a write was acknowledged sees it.
 *
 * Limits: a job waits at most `timeoutMs` for a free worker (then 503 busy) and runs at most
 * `timeoutMs` (then 503 timeout); at most `maxQueue` jobs wait. A replacement costs the main
 * thread nothing: the new worker reads the files itself. (A store with no data directory, as
 * in tests, is seeded from a dump taken on the main thread.)
 *
 * Off the owner's thread too: compaction's snapshot dump (`snapshot`, the replica at the
 * owner's sequence writes the file) and retention's planning (`sweepPlan`), both of which
 * take seconds on a large store.
 *
 * Availability: a replacement takes as long as starting a thread (about a second: module
 * loading) plus reading the store (seconds to tens of seconds on a large one), so:
 * - the pool keeps `spares` loaded replicas beyond `size`: when workers are busy with
 *   runaways, or killed and reloading, a loaded one is still free for a cheap query;
 * - it keeps one *standby* thread started but empty, so a replacement only reads the store;
 * - a worker whose job has run past LONG_MS no longer counts towards `size + spares`: the pool
 *   starts a surge worker in its place (at most `surge` at a time), and retires surge workers
 *   once idle workers are plentiful again. So concurrent runaways from more distinct clients
 *   than `size + spares` cost a cheap query at most one replica load, not the runaway limit;
 * - queued jobs of clients whose last job finished quickly go before those of unknown
 *   clients, and those before recent offenders'.
 * The last free worker is kept for clients that have none running and caused no kill lately:
 * a client (`run`'s `client`) that already has a job running, or whose job was stopped at the
 * limit or faulted in the last `OFFENDER_MS`, cannot take it; its job waits while others' go
 * ahead. So one client never holds every worker, and a client sending runaways cannot take the
 * worker left while the ones it killed are reloading. Jobs from such recent offenders also share
 * one worker among them all: however many clients keep sending runaways, they hold at most one
 * worker at a time, and the rest serve everyone else.
 * Handoff: while every worker a job may take is busy, a query may be sent ahead to a worker
 * running a query (one at most per worker), so that worker starts it the moment it finishes,
 * without sleeping between the two and without waiting for this thread to hand it over
 * (`#prefetch`). It has not started until the worker claims it through a shared cell, so this
 * thread can take it back: when the query ahead of it has run PATIENCE_MS (another worker may be
 * free sooner), when that worker is killed or faults, or when it holds the worker past LONG_MS.
 * A query sent ahead is timed from when the one before it returned; offenders' jobs, jobs behind
 * an offender's, and anything but queries (updates, dumps, VoID) are never sent ahead.
 * What this cannot absorb: more concurrent runaways, from different clients, than workers plus
 * spares plus surge (rate limits in app.ts bound how often that can be tried), and on a store
 * whose replica takes longer than a second to load, a cheap query can wait that long when the
 * first wave of runaways takes every loaded worker.
 */
import { Worker } from 'node:worker_threads';
import type { DurableStore, SnapshotSums, WriteOp } from '../../rdf/durable.ts';
import { heapBytes } from '../../rdf/wasm-image.ts';
import { RDF_FORMATS } from '../../rdf/store.ts';
import { SparqlError, fromReply } from './errors.ts';
import type { Job, Reply } from './evaluate.ts';
import type { FromWorker, PoolJob, PoolReply, Seed, SweepPlan, ToWorker } from './worker.ts';

export interface PoolOptions {
  /** Number of workers (each holds a full replica). */
  size: number;
  /** Loaded replicas kept beyond `size` (default 0). */
  spares?: number;
  /** Most extra workers started while others are held by long jobs (default 0). */
  surge?: number;
  /** Keep one started, empty thread ready to become a replacement (default: when spares or surge > 0). */
  standby?: boolean;
  /**
   * Where a (re)started worker gets its replica: a memory image of the owner's store when
   * `images` is not false and one can be taken now, else the data directory, or a dump for
   * in-memory stores.
   */
  seed: (how: { images: boolean }) => Seed;
  /** Offer memory images to new workers (default true; off for good once a worker refuses one). */
  images?: boolean;
  /** Is copying the owner's heap cheaper than every replica parsing this write? (see forward) */
  copyCheaper?: (op: WriteOp) => boolean;
  /**
   * Seed the first replicas only once this settles (the gateway passes its catalog sync): until
   * then the threads start and load their modules, and jobs wait. Without it, a first start would
   * seed every worker with the empty store and then retire them all for the catalog graph.
   */
  seedAfter?: Promise<unknown>;
  /** Jobs allowed to wait for a worker before new ones get 503 busy. */
  maxQueue: number;
  /** Told when a worker is replaced (for logs). */
  onReplace?: (reason: string) => void;
  /** Called once by close() (e.g. to stop forwarding writes). */
  onClose?: () => void;
}

export interface JobOutcome {
  reply: Reply;
  /** Milliseconds the job ran in its worker. */
  runMs: number;
  /** The last acknowledged write (DurableStore.seq) the replica held when it ran the job. */
  seq: number;
}

interface Pending {
  id: number;
  job: PoolJob;
  timeoutMs: number;
  /** The setting that gave timeoutMs, named in the timeout message. */
  limitName: string;
  /** Who asked (e.g. the client's address), for the per-client share of the workers. */
  client?: string;
  resolve: (o: { reply: PoolReply; runMs: number; seq: number }) => void;
  reject: (e: SparqlError) => void;
  timer?: NodeJS.Timeout;
  startedAt?: number;
}

interface Slot {
  worker: Worker;
  /** blank: started, holds no replica (the standby); starting: reading its replica. */
  state: 'blank' | 'starting' | 'idle' | 'busy' | 'dead';
  current?: Pending;
  /** The thread has loaded its modules (a blank slot can be seeded at once). */
  booted: boolean;
  /** A query sent ahead, queued in the worker behind `current` (see #prefetch), and its tag in `gate`. */
  next?: Pending;
  nextTag?: number;
  /**
   * One Int32 shared with the worker: the tag of the job sent ahead until the worker claims it
   * or this thread takes it back (whichever swaps it to 0 first wins); 0 otherwise.
   */
  gate: Int32Array;
}

// Compiled (dist/, see scripts/build.mjs): start the compiled worker directly; from the
// TypeScript sources: through the bootstrap, which registers tsx in the new thread.
const BOOTSTRAP = import.meta.url.endsWith('.js') ? new URL('./worker.js', import.meta.url) : new URL('./worker-bootstrap.js', import.meta.url);
/** How long a client whose job was stopped or faulted is kept off the last free worker. */
const OFFENDER_MS = 60_000;
/** A job running longer than this holds its worker as a runaway would: a surge worker may start in its place. */
const LONG_MS = 250;
/** A query sent ahead is taken back once the one before it has run this long (ms): another worker may free up first. */
const PATIENCE_MS = 5;
/** Clients remembered as quick (their last job finished within LONG_MS); the oldest are forgotten first. */
const QUICK_CLIENTS = 10_000;
/** How long a snapshot dump may wait for and hold a worker. */
const SNAPSHOT_TIMEOUT_MS = 15 * 60_000;

/** Writes below this many bytes of RDF text are always forwarded. */
export const LARGE_WRITE_BYTES = 1 << 20;
/**
 * Parsing N-Triples into oxigraph runs at tens of MB/s per core; copying memory at GB/s: a write
 * is re-seeded when its text times this is at least the owner's heap (and every replica saves
 * the parse, the owner's thread pays one copy).
 */
export const PARSE_VS_COPY = 50;

function writeBytes(op: WriteOp): number {
  switch (op.kind) {
    case 'load':
    case 'replaceGraph':
      return op.data.length;
    case 'delta':
      return op.steps.reduce((n, st) => n + ('nquads' in st ? st.nquads.length : 0), 0);
    default:
      return 0;
  }
}

/**
 * The gateway's pool over its store: replicas seeded from the data directory (or, for an
 * in-memory store, a dump), fed every acknowledged write with its sequence number until the
 * pool is closed. One per app (src/server/app.ts); /sparql and the VoID cache share it. With a
 * data directory, the store's compaction dumps its snapshot in a worker (`snapshot`).
 */
export function startQueryPool(
  store: DurableStore,
  limits: { workers: number; maxQueue: number; spares?: number; surge?: number },
  onReplace?: (reason: string) => void,
  seedAfter?: Promise<unknown>,
): QueryPool {
  let unsubscribe = (): void => {};
  let cached: ReturnType<DurableStore['memoryImage']> = null;
  const pool = new QueryPool({
    size: limits.workers,
    spares: limits.spares ?? 0,
    surge: limits.surge ?? 0,
    maxQueue: limits.maxQueue,
    ...(seedAfter ? { seedAfter } : {}),
    seed: ({ images }) => {
      // One image serves every worker seeded at the same write (start-up seeds several at once);
      // it is dropped right after, so the gateway does not hold a copy of its heap.
      if (images) {
        if (cached?.seq !== store.seq) {
          const taken = store.memoryImage();
          cached = taken;
          if (taken) setTimeout(() => { if (cached === taken) cached = null; }, 1_000).unref();
        }
        if (cached) return { kind: 'image', image: cached.image, seq: cached.seq };
      }
      return store.dir ? { kind: 'dir', dir: store.dir } : { kind: 'nquads', nquads: store.rdf.dump({ format: RDF_FORMATS.nquads }), seq: store.seq };
    },
    copyCheaper: (op) => {
      const bytes = writeBytes(op);
      return bytes >= LARGE_WRITE_BYTES && bytes * PARSE_VS_COPY >= heapBytes();
    },
    onReplace,
    onClose: () => {
      unsubscribe();
      if (store.dir) store.setSnapshotWriter(null);
    },
  });
  unsubscribe = store.onWrite((op, seq) => pool.forward(op, seq));
  if (store.dir) store.setSnapshotWriter((path, seq) => pool.snapshot(path, seq));
  return pool;
}

export class QueryPool {
  readonly #opts: PoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  #startupFailures = 0;
  #restartTimer: NodeJS.Timeout | undefined;
  #replacements = 0;
  #surges = 0;
  #reseeds = 0;
  #images: boolean;
  /** How each replica was seeded, and the time the worker took for it. */
  readonly #seeds: { via: Seed['kind']; ms: number }[] = [];
  /** Clients whose jobs were stopped at the limit or faulted, until when. */
  readonly #offenders = new Map<string, number>();
  /** Clients whose last job finished within LONG_MS (insertion order = age). */
  readonly #quick = new Set<string>();
  #longTimer: NodeJS.Timeout | undefined;

  constructor(opts: PoolOptions) {
    this.#opts = opts;
    this.#images = opts.images ?? true;
    this.#gated = opts.seedAfter !== undefined;
    for (let i = 0; i < opts.size + (opts.spares ?? 0); i++) this.#slots.push(this.#spawn(!this.#gated));
    this.#ensure();
    opts.seedAfter?.catch(() => undefined).then(() => {
      this.#gated = false;
      this.#ensure();
      this.#pump();
    });
  }

  /** Replicas are not seeded yet (PoolOptions.seedAfter). */
  #gated = false;

  get #standby(): boolean {
    return this.#opts.standby ?? ((this.#opts.spares ?? 0) > 0 || (this.#opts.surge ?? 0) > 0);
  }

  /** Workers replaced since start (after timeouts or faults). */
  get replacements(): number {
    return this.#replacements;
  }

  /** How each replica so far was seeded (image, dir, nquads) and how long the worker took, oldest first (the last 100). */
  get seeds(): readonly { via: Seed['kind']; ms: number }[] {
    return this.#seeds;
  }

  /** Surge workers started since start (while others were held by long jobs). */
  get surges(): number {
    return this.#surges;
  }

  /** Workers holding a loaded replica (idle or busy). */
  get loaded(): number {
    return this.#slots.filter((s) => s.state === 'idle' || s.state === 'busy').length;
  }

  /** Thread counts by state, for health output and benchmarks. */
  get counts(): { loaded: number; starting: number; standby: number } {
    return { loaded: this.loaded, starting: this.#slots.filter((s) => s.state === 'starting').length, standby: this.#slots.filter((s) => s.state === 'blank').length };
  }

  /** True once at least `size` workers have loaded their replicas (readiness). */
  get isReady(): boolean {
    return !this.#closed && this.loaded >= this.#opts.size;
  }

  #isOffender(client: string): boolean {
    const until = this.#offenders.get(client);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.#offenders.delete(client);
    return false;
  }

  #offended(p: Pending): void {
    if (p.client === undefined) return;
    this.#offenders.set(p.client, Date.now() + OFFENDER_MS);
    this.#quick.delete(p.client);
  }

  /** Resolves when every worker has its replica loaded (useful before benchmarks and tests). */
  async ready(): Promise<void> {
    while (!this.#closed && (this.#gated || this.#slots.some((s) => s.state === 'starting' || (s.state === 'blank' && !s.booted)))) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * Run a job under a deadline. Rejects with SparqlError busy / timeout / engine-fault.
   * `limitName` is the setting that gave the deadline, for the timeout message.
   */
  run(job: Job, timeoutMs: number, limitName = 'sparql.timeoutMs', how: { client?: string } = {}): Promise<JobOutcome> {
    return this.#run(job, timeoutMs, limitName, how) as Promise<JobOutcome>;
  }

  /**
   * Dump the store as it is at write `seq` into the snapshot file `path`, in a worker whose
   * replica holds exactly that write (the owner holds its write queue meanwhile), and return
   * the file's checksums. DurableStore's SnapshotWriter.
   */
  async snapshot(path: string, seq: number): Promise<SnapshotSums> {
    const { reply } = await this.#run({ kind: 'snapshot', path, atSeq: seq }, SNAPSHOT_TIMEOUT_MS, 'the snapshot dump limit');
    if (!reply.ok) throw fromReply(reply);
    if (reply.kind !== 'snapshot') throw new Error(`the query worker answered a snapshot job with a ${reply.kind} result; this is a bug in Assay`);
    return reply.sums;
  }

  /** Work out, against a replica, what retention removes (src/server/retention.ts planSweep). */
  async sweepPlan(job: Omit<Extract<PoolJob, { kind: 'sweep-plan' }>, 'kind'>, timeoutMs: number): Promise<{ plan: SweepPlan; seq: number }> {
    const { reply, seq } = await this.#run({ kind: 'sweep-plan', ...job }, timeoutMs, 'the retention planning limit');
    if (!reply.ok) throw fromReply(reply);
    if (reply.kind !== 'sweep-plan') throw new Error(`the query worker answered a retention job with a ${reply.kind} result; this is a bug in Assay`);
    return { plan: reply.plan, seq };
  }

  /** The store's quads and non-empty graphs, counted by a replica, and the write it held then. */
  async storeCounts(timeoutMs: number): Promise<{ quads: number; graphs: number; seq: number }> {
    const { reply, seq } = await this.#run({ kind: 'counts' }, timeoutMs, 'the count limit');
    if (!reply.ok) throw fromReply(reply);
    if (reply.kind !== 'counts') throw new Error(`the query worker answered a count with a ${reply.kind} result; this is a bug in Assay`);
    return { quads: reply.quads, graphs: reply.graphs, seq };
  }

  #run(job: PoolJob, timeoutMs: number, limitName: string, how: { client?: string } = {}): Promise<{ reply: PoolReply; runMs: number; seq: number }> {
    if (this.#closed) return Promise.reject(new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' }));
    if (this.#queue.length >= this.#opts.maxQueue) {
      return Promise.reject(new SparqlError('busy', `${this.#queue.length} queries are already waiting for a worker`, { 'Retry-After': '1' }));
    }
    return new Promise((resolve, reject) => {
      const p: Pending = { id: this.#nextId++, job, timeoutMs, limitName, resolve, reject, ...(how.client !== undefined ? { client: how.client } : {}) };
      // Nothing waiting: the job goes straight to a free worker if the rules let it take one
      // (the same as #dispatch for a queue of one), without arming a timer for the wait.
      if (this.#queue.length === 0 && !this.#gated) {
        this.#queue.push(p);
        this.#dispatch();
        if (this.#queue.length === 0) {
          this.#ensure();
          return;
        }
        this.#queue.pop();
      }
      p.timer = setTimeout(() => {
        const at = this.#queue.indexOf(p);
        if (at !== -1) {
          this.#queue.splice(at, 1);
          reject(new SparqlError('busy', `no query worker became free within ${timeoutMs} ms`, { 'Retry-After': '1' }));
        }
      }, timeoutMs);
      this.#queue.push(p);
      this.#pump();
    });
  }

  /** Send an acknowledged write to every replica (DurableStore.onWrite listener). */
  forward(op: WriteOp, seq: number): void {
    // A write large enough that copying the owner's heap is cheaper than parsing it in every
    // replica (the catalog graph at a first start): workers not running a job are retired and
    // new ones adopt an image that already holds it. A busy worker gets the write as usual.
    const reseed = this.#images && !this.#closed && this.#opts.copyCheaper?.(op) === true;
    let retired = 0;
    for (const slot of this.#slots) {
      if (slot.state === 'dead' || slot.state === 'blank') continue;
      if (reseed && slot.state !== 'busy') {
        slot.state = 'dead';
        slot.worker.removeAllListeners('exit');
        void slot.worker.terminate();
        retired++;
        continue;
      }
      this.#post(slot, { type: 'write', op, seq });
    }
    if (retired > 0) {
      this.#reseeds += retired;
      this.#ensure();
    }
  }

  /** Queries sent ahead to a busy worker (#prefetch), and those of them taken back before they ran. */
  get sentAhead(): { sent: number; takenBack: number } {
    return { sent: this.#sentAhead, takenBack: this.#takenBack };
  }

  #sentAhead = 0;
  #takenBack = 0;

  /** Workers retired by a large write and started again from a memory image that holds it. */
  get reseeds(): number {
    return this.#reseeds;
  }

  async close(): Promise<void> {
    if (!this.#closed) this.#opts.onClose?.();
    this.#closed = true;
    clearTimeout(this.#longTimer);
    clearTimeout(this.#restartTimer);
    clearTimeout(this.#patienceTimer);
    for (const p of this.#queue.splice(0)) {
      clearTimeout(p.timer);
      p.reject(new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' }));
    }
    await Promise.all(this.#slots.map((s) => {
      s.state = 'dead';
      for (const p of [s.current, s.next]) {
        if (!p) continue;
        clearTimeout(p.timer);
        p.reject(new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' }));
      }
      s.current = undefined;
      s.next = undefined;
      return s.worker.terminate();
    }));
  }

  #post(slot: Slot, m: ToWorker): void {
    slot.worker.postMessage(m);
  }

  /** Start a thread: seeded at once (a worker), or blank (the standby). */
  #spawn(seeded: boolean): Slot {
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(BOOTSTRAP, { workerData: { gate } });
    worker.unref();
    const slot: Slot = { worker, state: seeded ? 'starting' : 'blank', booted: false, gate };
    worker.on('message', (m: FromWorker) => this.#onMessage(slot, m));
    worker.on('error', (e) => this.#replace(slot, `worker error: ${e.message}`));
    worker.on('exit', (code) => this.#replace(slot, `worker exited with code ${code}`));
    if (seeded) this.#seed(slot);
    return slot;
  }

  #seed(slot: Slot): void {
    slot.state = 'starting';
    // Seed message first: every write acknowledged after this is forwarded with its sequence
    // number, and the worker skips those its seed already holds.
    this.#post(slot, { type: 'seed', seed: this.#opts.seed({ images: this.#images }) });
  }

  /** Jobs running past LONG_MS: their workers count as held, as a runaway's would. */
  #held(now = performance.now()): number {
    return this.#slots.filter((s) => s.state === 'busy' && s.current?.startedAt !== undefined && now - s.current.startedAt >= LONG_MS).length;
  }

  /**
   * Keep `size + spares` workers that are not held by long jobs (up to `surge` more threads for
   * that), one standby thread, and no more: idle workers beyond the need are retired.
   */
  #ensure(): void {
    if (this.#closed || this.#gated) return;
    const base = this.#opts.size + (this.#opts.spares ?? 0);
    const want = base + Math.min(this.#opts.surge ?? 0, this.#held());
    // Counted in one pass: this runs after every job, and the steady state changes nothing.
    let live = 0;
    let blank = false;
    let dead = false;
    for (const s of this.#slots) {
      if (s.state === 'starting' || s.state === 'idle' || s.state === 'busy') live++;
      else if (s.state === 'blank') blank = true;
      else dead = true;
    }
    const backingOff = this.#restartTimer !== undefined;
    while (!backingOff && live < want) {
      const surge = live >= base;
      const blankSlot = this.#slots.find((s) => s.state === 'blank');
      try {
        if (blankSlot) this.#seed(blankSlot);
        else this.#slots.push(this.#spawn(true));
      } catch (e) {
        this.#startFailed(`could not start a query worker: ${(e as Error).message}`);
        break;
      }
      live++;
      if (blankSlot && !this.#slots.some((s) => s.state === 'blank')) blank = false;
      if (surge) this.#surges++;
    }
    for (let extra = live - want; extra > 0; extra--) {
      // Retire idle workers beyond the need, but keep `spares` idle ones at least.
      const idle = this.#slots.filter((s) => s.state === 'idle');
      if (idle.length <= Math.max(1, this.#opts.spares ?? 0)) break;
      const slot = idle[idle.length - 1]!;
      slot.state = 'dead';
      slot.worker.removeAllListeners('exit');
      void slot.worker.terminate();
      dead = true;
    }
    if (dead) for (let i = this.#slots.length - 1; i >= 0; i--) if (this.#slots[i]!.state === 'dead') this.#slots.splice(i, 1);
    if (this.#standby && !backingOff && !blank) {
      try {
        this.#slots.push(this.#spawn(false));
      } catch (e) {
        this.#startFailed(`could not start a query worker: ${(e as Error).message}`);
      }
    }
    // While a job runs, look again once it passes LONG_MS (it may then hold its worker). A timer
    // already due no later than that is kept: firing early only runs this again, which re-arms.
    if ((this.#opts.surge ?? 0) === 0) return;
    const now = performance.now();
    let soonest = Infinity;
    for (const s of this.#slots) {
      const at = s.state === 'busy' ? s.current?.startedAt : undefined;
      if (at !== undefined && now - at < LONG_MS) soonest = Math.min(soonest, LONG_MS - (now - at));
    }
    if (soonest === Infinity) return;
    const due = now + Math.max(1, soonest) + 1;
    if (this.#longTimer !== undefined && this.#longDue <= due) return;
    clearTimeout(this.#longTimer);
    this.#longDue = due;
    this.#longTimer = setTimeout(() => {
      this.#longTimer = undefined;
      this.#takeBackStale();
      this.#ensure();
      this.#pump();
    }, due - now);
    this.#longTimer.unref();
  }

  #longDue = 0;

  #startFailed(reason: string): void {
    this.#opts.onReplace?.(reason);
    this.#startupFailures++;
    if (this.#restartTimer) return;
    this.#restartTimer = setTimeout(() => {
      this.#restartTimer = undefined;
      this.#ensure();
    }, Math.min(5000, 100 * 2 ** this.#startupFailures));
    this.#restartTimer.unref();
  }

  #onMessage(slot: Slot, m: FromWorker): void {
    if (slot.state === 'dead') return;
    if (m.type === 'booted') {
      slot.booted = true;
    } else if (m.type === 'image-refused') {
      // Seed it from the files instead (it keeps the writes it holds), and offer no more images.
      this.#images = false;
      this.#opts.onReplace?.(`a query worker could not adopt a memory image (${m.reason}); replicas are read from the store's files from now on`);
      if (slot.state === 'starting') this.#post(slot, { type: 'seed', seed: this.#opts.seed({ images: false }) });
    } else if (m.type === 'ready') {
      this.#seeds.push({ via: m.via, ms: m.ms });
      if (this.#seeds.length > 100) this.#seeds.shift();
      slot.state = 'idle';
      this.#startupFailures = 0;
      this.#pump();
    } else if (m.type === 'failed') {
      this.#replace(slot, m.message);
    } else if (m.type === 'result') {
      const p = slot.current;
      if (!p || p.id !== m.id) return;
      clearTimeout(p.timer);
      slot.current = undefined;
      slot.state = 'idle';
      const runMs = performance.now() - (p.startedAt ?? performance.now());
      const poisoned = 'poisoned' in m.reply && m.reply.poisoned;
      if (poisoned) {
        this.#offended(p);
        this.#replace(slot, (m.reply as { message: string }).message);
      } else if (slot.next) {
        // The worker goes straight on to the query sent ahead: it runs from now.
        const next = slot.next;
        slot.next = undefined;
        this.#running(slot, next);
      }
      if (!poisoned && p.client !== undefined) {
        this.#quick.delete(p.client);
        if (runMs < LONG_MS) {
          this.#quick.add(p.client);
          if (this.#quick.size > QUICK_CLIENTS) this.#quick.delete(this.#quick.values().next().value!);
        }
      }
      p.resolve({ reply: m.reply, runMs, seq: m.seq });
      this.#takeBackStale();
      this.#pump();
    }
  }

  /** Take back queries sent ahead of jobs that have run PATIENCE_MS (or `after`): to the front of the queue. */
  #takeBackStale(after = PATIENCE_MS, now = performance.now()): void {
    for (const s of this.#slots) {
      const p = s.next;
      if (!p || s.current?.startedAt === undefined || now - s.current.startedAt < after) continue;
      // If the worker has already claimed it, it is running (its predecessor's result is on its way).
      if (Atomics.compareExchange(s.gate, 0, s.nextTag!, 0) !== s.nextTag) continue;
      s.next = undefined;
      this.#takenBack++;
      this.#requeue(p);
    }
  }

  /** Put a job that was sent ahead but never ran back at the front of the queue, with its wait limit. */
  #requeue(p: Pending): void {
    p.timer = setTimeout(() => {
      const at = this.#queue.indexOf(p);
      if (at !== -1) {
        this.#queue.splice(at, 1);
        p.reject(new SparqlError('busy', `no query worker became free within ${p.timeoutMs} ms`, { 'Retry-After': '1' }));
      }
    }, p.timeoutMs);
    this.#queue.unshift(p);
  }

  /** 0: a client whose last job was quick; 1: unknown (or Assay's own jobs); 2: a recent offender. */
  #rank(p: Pending): number {
    if (p.client === undefined) return 1;
    if (this.#isOffender(p.client)) return 2;
    return this.#quick.has(p.client) ? 0 : 1;
  }

  #pump(): void {
    if (this.#queue.length > 0) this.#dispatch();
    this.#ensure();
  }

  /** Start queued jobs on idle workers, by rank, keeping the last free worker as #pump's rules say. */
  #dispatch(): void {
    const idle: Slot[] = [];
    const running = new Map<string, number>();
    let offending = 0;
    for (const s of this.#slots) {
      if (s.state === 'idle') idle.push(s);
      for (const c of [s.current?.client, s.next?.client]) {
        if (c === undefined) continue;
        running.set(c, (running.get(c) ?? 0) + 1);
        if (this.#isOffender(c)) offending++;
      }
    }
    // Stable order by rank: quick clients first, then unknown, then offenders; FIFO within.
    let order = this.#queue;
    const ranks = this.#queue.map((p) => this.#rank(p));
    if (ranks.some((r) => r !== ranks[0])) {
      order = this.#queue.map((p, i) => ({ p, i, r: ranks[i]! })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.p);
    }
    const started = new Set<Pending>();
    for (const p of order) {
      if (idle.length === 0) break;
      const offender = p.client !== undefined && this.#isOffender(p.client);
      if ((idle.length === 1 && p.client !== undefined && ((running.get(p.client) ?? 0) > 0 || offender)) || (offender && offending >= 1)) {
        continue; // the last free worker is kept for others, and offenders share one; this job waits
      }
      started.add(p);
      if (p.client !== undefined) running.set(p.client, (running.get(p.client) ?? 0) + 1);
      if (offender) offending++;
      this.#start(idle.shift()!, p);
    }
    // What no free worker took: queries may be sent ahead to workers running a quick query.
    if (started.size < order.length) {
      const now = performance.now();
      for (const p of order) {
        if (started.has(p) || p.job.kind !== 'query' || (p.client !== undefined && this.#isOffender(p.client))) continue;
        // A worker that has not yet claimed the job it was sent before (gate not 0) gets no other.
        const host = this.#slots.find((s) => s.state === 'busy' && s.next === undefined && Atomics.load(s.gate, 0) === 0 && s.current?.job.kind === 'query'
          && s.current.startedAt !== undefined && now - s.current.startedAt < PATIENCE_MS
          && !(s.current.client !== undefined && this.#isOffender(s.current.client)));
        if (!host) break;
        started.add(p);
        this.#prefetch(host, p);
      }
    }
    if (started.size === 0) return;
    let kept = 0;
    for (const p of this.#queue) if (!started.has(p)) this.#queue[kept++] = p;
    this.#queue.length = kept;
  }

  #start(slot: Slot, p: Pending): void {
    clearTimeout(p.timer);
    this.#running(slot, p);
    this.#post(slot, { type: 'job', id: p.id, job: p.job });
  }

  /** Send a query ahead to a busy worker; it is not running until the worker claims it (slot.gate). */
  #prefetch(slot: Slot, p: Pending): void {
    clearTimeout(p.timer);
    p.timer = undefined;
    // A fresh tag each time: a job taken back and sent ahead to the same worker again must not
    // be claimable through the message that was taken back (that one is still in the port).
    const tag = this.#nextTag = (this.#nextTag % 0x7fff_ffff) + 1;
    slot.next = p;
    slot.nextTag = tag;
    this.#sentAhead++;
    Atomics.store(slot.gate, 0, tag);
    this.#post(slot, { type: 'job', id: p.id, job: p.job, gate: tag });
    this.#armPatience();
  }

  /** Results arriving take back stale queries sent ahead (#onMessage); this does it when none arrive (every worker held). */
  #armPatience(): void {
    if (this.#patienceTimer !== undefined || this.#closed) return;
    this.#patienceTimer = setTimeout(() => {
      this.#patienceTimer = undefined;
      this.#takeBackStale();
      this.#pump();
      if (this.#slots.some((s) => s.next !== undefined)) this.#armPatience();
    }, PATIENCE_MS);
    this.#patienceTimer.unref();
  }

  #patienceTimer: NodeJS.Timeout | undefined;
  /** The last tag put in a gate (positive, never 0: 0 means nothing waits there). */
  #nextTag = 0;

  /** `p` runs on `slot` from now, under its time limit. */
  #running(slot: Slot, p: Pending): void {
    slot.state = 'busy';
    slot.current = p;
    p.startedAt = performance.now();
    p.timer = setTimeout(() => {
      if (slot.current !== p) return;
      slot.current = undefined;
      const what = p.job.kind === 'void' ? 'the VoID computation' : p.job.kind === 'update' ? 'the update' : p.job.kind === 'snapshot' ? 'the snapshot dump' : 'the query';
      this.#offended(p);
      p.reject(new SparqlError('timeout', `${what} was stopped after ${p.timeoutMs} ms (the limit is ${p.limitName} = ${p.timeoutMs})`));
      this.#replace(slot, `${p.job.kind} job ran past ${p.timeoutMs} ms`);
    }, p.timeoutMs);
  }

  /** Throw a worker away; #ensure starts what is missing (with backoff if starts keep failing). */
  #replace(slot: Slot, reason: string): void {
    if (slot.state === 'dead' || !this.#slots.includes(slot)) return;
    const wasStarting = slot.state === 'starting' || slot.state === 'blank';
    slot.state = 'dead';
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    if (slot.next) {
      // It never ran where it is trusted (the worker is gone): it runs elsewhere.
      const next = slot.next;
      slot.next = undefined;
      if (!this.#closed) this.#requeue(next);
      else next.reject(new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' }));
    }
    if (slot.current) {
      clearTimeout(slot.current.timer);
      this.#offended(slot.current);
      slot.current.reject(new SparqlError('engine-fault', `the query worker failed (${reason}); it was replaced and the data is intact`, { 'Retry-After': '1' }));
      slot.current = undefined;
    }
    if (this.#closed) return;
    this.#replacements++;
    if (wasStarting) this.#startFailed(reason);
    else this.#opts.onReplace?.(reason);
    this.#ensure();
    this.#pump();
  }
}
