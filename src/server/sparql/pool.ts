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
 * Availability: a replacement takes as long as reading the store (seconds to tens of seconds
 * on a large one), so the pool keeps `spares` loaded replicas beyond `size`: when workers are
 * busy with runaways, or killed and reloading, a loaded one is still free for a cheap query.
 * The last free worker is kept for clients that have none running and caused no kill lately:
 * a client (`run`'s `client`) that already has a job running, or whose job was stopped at the
 * limit or faulted in the last `OFFENDER_MS`, cannot take it; its job waits while others' go
 * ahead. So one client never holds every worker, and a client sending runaways cannot take the
 * worker left while the ones it killed are reloading. Jobs from such recent offenders also share
 * one worker among them all: however many clients keep sending runaways, they hold at most one
 * worker at a time, and the rest serve everyone else.
 * What this cannot absorb: more concurrent runaways, from different clients, than there are
 * workers plus spares (rate limits in app.ts bound how often that can be tried).
 */
import { Worker } from 'node:worker_threads';
import type { DurableStore, WriteOp } from '../../rdf/durable.ts';
import { RDF_FORMATS } from '../../rdf/store.ts';
import { SparqlError } from './errors.ts';
import type { Job, Reply } from './evaluate.ts';
import type { FromWorker, Seed, ToWorker } from './worker.ts';

export interface PoolOptions {
  /** Number of workers (each holds a full replica). */
  size: number;
  /** Loaded replicas kept beyond `size` (default 0). */
  spares?: number;
  /** Where a (re)started worker gets its replica: the data directory, or a dump for in-memory stores. */
  seed: () => Seed;
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
  job: Job;
  timeoutMs: number;
  /** The setting that gave timeoutMs, named in the timeout message. */
  limitName: string;
  /** Who asked (e.g. the client's address), for the per-client share of the workers. */
  client?: string;
  resolve: (o: JobOutcome) => void;
  reject: (e: SparqlError) => void;
  timer?: NodeJS.Timeout;
  startedAt?: number;
}

interface Slot {
  worker: Worker;
  state: 'starting' | 'idle' | 'busy' | 'dead';
  current?: Pending;
}

// Compiled (dist/, see scripts/build.mjs): start the compiled worker directly; from the
// TypeScript sources: through the bootstrap, which registers tsx in the new thread.
const BOOTSTRAP = import.meta.url.endsWith('.js') ? new URL('./worker.js', import.meta.url) : new URL('./worker-bootstrap.js', import.meta.url);
/** How long a client whose job was stopped or faulted is kept off the last free worker. */
const OFFENDER_MS = 60_000;

/**
 * The gateway's pool over its store: replicas seeded from the data directory (or, for an
 * in-memory store, a dump), fed every acknowledged write with its sequence number until the
 * pool is closed. One per app (src/server/app.ts); /sparql and the VoID cache share it.
 */
export function startQueryPool(
  store: DurableStore,
  limits: { workers: number; maxQueue: number; spares?: number },
  onReplace?: (reason: string) => void,
): QueryPool {
  let unsubscribe = (): void => {};
  const pool = new QueryPool({
    size: limits.workers,
    spares: limits.spares ?? 0,
    maxQueue: limits.maxQueue,
    seed: () => (store.dir ? { kind: 'dir', dir: store.dir } : { kind: 'nquads', nquads: store.rdf.dump({ format: RDF_FORMATS.nquads }), seq: store.seq }),
    onReplace,
    onClose: () => unsubscribe(),
  });
  unsubscribe = store.onWrite((op, seq) => pool.forward(op, seq));
  return pool;
}

export class QueryPool {
  readonly #opts: PoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  #startupFailures = 0;
  #replacements = 0;
  /** Clients whose jobs were stopped at the limit or faulted, until when. */
  readonly #offenders = new Map<string, number>();

  constructor(opts: PoolOptions) {
    this.#opts = opts;
    for (let i = 0; i < opts.size + (opts.spares ?? 0); i++) this.#slots.push(this.#spawn(i));
  }

  /** Workers replaced since start (after timeouts or faults). */
  get replacements(): number {
    return this.#replacements;
  }

  /** Workers holding a loaded replica (idle or busy), out of `size` + `spares`. */
  get loaded(): number {
    return this.#slots.filter((s) => s.state === 'idle' || s.state === 'busy').length;
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
    if (p.client !== undefined) this.#offenders.set(p.client, Date.now() + OFFENDER_MS);
  }

  /** Resolves when every worker has its replica loaded (useful before benchmarks and tests). */
  async ready(): Promise<void> {
    while (!this.#closed && this.#slots.some((s) => s.state === 'starting')) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * Run a job under a deadline. Rejects with SparqlError busy / timeout / engine-fault.
   * `limitName` is the setting that gave the deadline, for the timeout message.
   */
  run(job: Job, timeoutMs: number, limitName = 'sparql.timeoutMs', how: { client?: string } = {}): Promise<JobOutcome> {
    if (this.#closed) return Promise.reject(new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' }));
    if (this.#queue.length >= this.#opts.maxQueue) {
      return Promise.reject(new SparqlError('busy', `${this.#queue.length} queries are already waiting for a worker`, { 'Retry-After': '1' }));
    }
    return new Promise<JobOutcome>((resolve, reject) => {
      const p: Pending = { id: this.#nextId++, job, timeoutMs, limitName, resolve, reject, ...(how.client !== undefined ? { client: how.client } : {}) };
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
    for (const slot of this.#slots) if (slot.state !== 'dead') this.#post(slot, { type: 'write', op, seq });
  }

  async close(): Promise<void> {
    if (!this.#closed) this.#opts.onClose?.();
    this.#closed = true;
    for (const p of this.#queue.splice(0)) {
      clearTimeout(p.timer);
      p.reject(new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' }));
    }
    await Promise.all(this.#slots.map((s) => {
      s.state = 'dead';
      if (s.current) {
        clearTimeout(s.current.timer);
        s.current.reject(new SparqlError('busy', 'the endpoint is shutting down', { 'Retry-After': '5' }));
        s.current = undefined;
      }
      return s.worker.terminate();
    }));
  }

  #post(slot: Slot, m: ToWorker): void {
    slot.worker.postMessage(m);
  }

  #spawn(index: number): Slot {
    const worker = new Worker(BOOTSTRAP);
    worker.unref();
    const slot: Slot = { worker, state: 'starting' };
    worker.on('message', (m: FromWorker) => this.#onMessage(slot, m));
    worker.on('error', (e) => this.#replace(index, slot, `worker error: ${e.message}`));
    worker.on('exit', (code) => this.#replace(index, slot, `worker exited with code ${code}`));
    // Seed message first: every write acknowledged after this is forwarded with its sequence
    // number, and the worker skips those its seed already holds.
    this.#post(slot, { type: 'seed', seed: this.#opts.seed() });
    return slot;
  }

  #onMessage(slot: Slot, m: FromWorker): void {
    if (slot.state === 'dead') return;
    const index = this.#slots.indexOf(slot);
    if (m.type === 'ready') {
      slot.state = 'idle';
      this.#startupFailures = 0;
      this.#pump();
    } else if (m.type === 'failed') {
      this.#replace(index, slot, m.message);
    } else if (m.type === 'result') {
      const p = slot.current;
      if (!p || p.id !== m.id) return;
      clearTimeout(p.timer);
      slot.current = undefined;
      slot.state = 'idle';
      const runMs = performance.now() - (p.startedAt ?? performance.now());
      if ('poisoned' in m.reply && m.reply.poisoned) {
        this.#offended(p);
        this.#replace(index, slot, m.reply.message);
      }
      p.resolve({ reply: m.reply, runMs, seq: m.seq });
      this.#pump();
    }
  }

  #pump(): void {
    const running = new Map<string, number>();
    let offending = 0;
    for (const s of this.#slots) {
      const c = s.current?.client;
      if (c !== undefined) running.set(c, (running.get(c) ?? 0) + 1);
      if (c !== undefined && this.#isOffender(c)) offending++;
    }
    for (let qi = 0; qi < this.#queue.length;) {
      const idle = this.#slots.filter((s) => s.state === 'idle');
      if (idle.length === 0) return;
      const p = this.#queue[qi]!;
      const offender = p.client !== undefined && this.#isOffender(p.client);
      if ((idle.length === 1 && p.client !== undefined && ((running.get(p.client) ?? 0) > 0 || offender)) || (offender && offending >= 1)) {
        qi++; // the last free worker is kept for others, and offenders share one; this job waits
        continue;
      }
      this.#queue.splice(qi, 1);
      if (p.client !== undefined) running.set(p.client, (running.get(p.client) ?? 0) + 1);
      if (offender) offending++;
      this.#start(idle[0]!, p);
    }
  }

  #start(slot: Slot, p: Pending): void {
    clearTimeout(p.timer);
    slot.state = 'busy';
    slot.current = p;
    p.startedAt = performance.now();
    const index = this.#slots.indexOf(slot);
    p.timer = setTimeout(() => {
      if (slot.current !== p) return;
      slot.current = undefined;
      const what = p.job.kind === 'void' ? 'the VoID computation' : p.job.kind === 'update' ? 'the update' : 'the query';
      this.#offended(p);
      p.reject(new SparqlError('timeout', `${what} was stopped after ${p.timeoutMs} ms (the limit is ${p.limitName} = ${p.timeoutMs})`));
      this.#replace(index, slot, `${p.job.kind} job ran past ${p.timeoutMs} ms`);
    }, p.timeoutMs);
    this.#post(slot, { type: 'job', id: p.id, job: p.job });
  }

  /** Throw a worker away and start a fresh one in its place (with backoff if starts keep failing). */
  #replace(index: number, slot: Slot, reason: string): void {
    if (slot.state === 'dead' || this.#slots[index] !== slot) return;
    const wasStarting = slot.state === 'starting';
    slot.state = 'dead';
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    if (slot.current) {
      clearTimeout(slot.current.timer);
      this.#offended(slot.current);
      slot.current.reject(new SparqlError('engine-fault', `the query worker failed (${reason}); it was replaced and the data is intact`, { 'Retry-After': '1' }));
      slot.current = undefined;
    }
    if (this.#closed) return;
    this.#replacements++;
    this.#opts.onReplace?.(reason);
    if (wasStarting) this.#startupFailures++;
    const delay = this.#startupFailures === 0 ? 0 : Math.min(5000, 100 * 2 ** this.#startupFailures);
    const restart = () => {
      if (this.#closed || this.#slots[index] !== slot) return;
      try {
        this.#slots[index] = this.#spawn(index);
      } catch (e) {
        this.#opts.onReplace?.(`could not start a query worker: ${(e as Error).message}`);
        this.#startupFailures++;
        setTimeout(restart, Math.min(5000, 100 * 2 ** this.#startupFailures)).unref();
      }
    };
    if (delay === 0) restart();
    else setTimeout(restart, delay).unref();
  }
}
