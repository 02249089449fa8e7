/**
 * The main thread's side of the ask workers (worker.ts): questions run there, never on the
 * event loop that serves /sparql and /health. The host owns nothing but routing:
 * - each question goes to the ready worker with the fewest in flight, at most `concurrency`
 *   per worker; up to `maxQueue` wait (for a slot, or for the workers to load), then 503;
 * - writes a worker sends are applied to the durable store here (journaled, acknowledged) and
 *   the acknowledgment sent back; every acknowledged write is forwarded to every worker;
 * - progress events stream back per question; a client that disconnects aborts its question;
 * - a worker that dies fails its questions (503) and is replaced.
 * `ask(services, req, options)` stays the seam: the worker calls it unchanged.
 */
import { Worker } from 'node:worker_threads';
import { RDF_FORMATS } from '../../rdf/store.ts';
import { DurableStore } from '../../rdf/durable.ts';
import type { AssayStore } from '../../rdf/backend.ts';
import type { StoreConfig } from '../../config.ts';
import type { TurnRequest as AskRequest, TurnResult as AskResult } from '../../conversation/ask.ts';
import type { FromAskWorker, ToAskWorker } from './worker.ts';
import type { Seed } from '../sparql/worker.ts';

// Compiled (dist/, see scripts/build.mjs): start the compiled worker directly; from the
// TypeScript sources: through the bootstrap, which registers tsx in the new thread.
const BOOTSTRAP = import.meta.url.endsWith('.js') ? new URL('./worker.js', import.meta.url) : new URL('./worker-bootstrap.js', import.meta.url);

export class AskBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AskBusyError';
  }
}

interface Question {
  id: number;
  req: AskRequest;
  onProgress?: (e: unknown) => void;
  resolve: (r: AskResult) => void;
  reject: (e: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  dead: boolean;
  inFlight: Map<number, Question>;
}

export interface AskHostOptions {
  workers: number;
  concurrency: number;
  maxQueue: number;
  baseIri: string;
  /** With a remote store, each worker opens it itself (reads and writes go to the store directly). */
  storeConfig?: StoreConfig;
  /**
   * Seed the workers' replicas only once this settles (the gateway passes the catalog sync), so
   * that the memory image they adopt already holds it instead of each worker parsing it.
   */
  seedAfter?: Promise<unknown>;
  onReplace?: (reason: string) => void;
  /**
   * The gateway's workers (eager) warm the pipeline up before they report ready. Either way one
   * worker starts at once (readiness waits for it) and another only when a question arrives while
   * every worker has one in flight, up to `workers`: start-up and the first questions do not share
   * a machine's few cores with further workers' start-up (~2–3 s of CPU each: services, replica,
   * warm-up), and sequential use never pays for them.
   */
  eager?: boolean;
}

export class AskHost {
  readonly #store: AssayStore;
  readonly #opts: AskHostOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Question[] = [];
  readonly #unsubscribe: () => void;
  #nextId = 1;
  #closed = false;
  /** Offer memory images to new workers (off for good once one refused an image). */
  #images = true;
  /** How each worker so far was seeded (image, dir, nquads) and how long it took, oldest first (the last 100). */
  readonly seeds: { via: Seed['kind']; ms: number }[] = [];

  constructor(store: AssayStore, opts: AskHostOptions) {
    this.#store = store;
    this.#opts = opts;
    if (opts.workers > 0) this.#slots.push(this.#spawn());
    this.#unsubscribe = store.onWrite((op, seq) => {
      for (const s of this.#slots) if (!s.dead) s.worker.postMessage({ type: 'follow', op, seq } satisfies ToAskWorker);
    });
  }

  /** Every worker has loaded its replica and the ask services. */
  get isReady(): boolean {
    return !this.#closed && this.#slots.every((s) => s.ready);
  }

  /**
   * At least one worker has loaded its replica and the ask services: questions are answered (the
   * gateway's readiness). On a machine with few cores the others, still starting, would otherwise
   * delay it by their own start-up; they take questions as soon as they are ready.
   */
  get canAnswer(): boolean {
    return !this.#closed && this.#slots.some((s) => s.ready && !s.dead);
  }

  /** Questions running or waiting. */
  get load(): number {
    return this.#queue.length + this.#slots.reduce((n, s) => n + s.inFlight.size, 0);
  }

  ask(req: AskRequest, how: { signal?: AbortSignal; onProgress?: (e: unknown) => void } = {}): Promise<AskResult> {
    if (this.#closed) return Promise.reject(new AskBusyError('the gateway is shutting down'));
    if (this.#slots.length === 0) return Promise.reject(new AskBusyError('this gateway answers no questions (limits.ask.workers = 0, ASSAY_ASK_WORKERS); use its SPARQL endpoint'));
    if (this.#queue.length >= this.#opts.maxQueue) {
      return Promise.reject(new AskBusyError(`${this.#queue.length} questions are already waiting (the limit is limits.ask.maxQueue = ${this.#opts.maxQueue})`));
    }
    return new Promise<AskResult>((resolve, reject) => {
      const q: Question = { id: this.#nextId++, req, resolve, reject, ...(how.onProgress ? { onProgress: how.onProgress } : {}), ...(how.signal ? { signal: how.signal } : {}) };
      if (how.signal) {
        q.onAbort = () => {
          const at = this.#queue.indexOf(q);
          if (at !== -1) {
            this.#queue.splice(at, 1);
            reject(how.signal!.reason as Error);
            return;
          }
          for (const s of this.#slots) if (s.inFlight.has(q.id)) s.worker.postMessage({ type: 'abort', id: q.id } satisfies ToAskWorker);
        };
        if (how.signal.aborted) {
          reject(how.signal.reason as Error);
          return;
        }
        how.signal.addEventListener('abort', q.onAbort, { once: true });
      }
      this.#queue.push(q);
      const live = this.#slots.filter((s) => !s.dead);
      if (this.#slots.length < this.#opts.workers && live.every((s) => s.inFlight.size > 0)) this.#slots.push(this.#spawn());
      this.#pump();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
    for (const q of this.#queue.splice(0)) q.reject(new AskBusyError('the gateway is shutting down'));
    await Promise.all(this.#slots.map((s) => {
      s.dead = true;
      for (const q of s.inFlight.values()) q.reject(new AskBusyError('the gateway is shutting down'));
      s.inFlight.clear();
      return s.worker.terminate();
    }));
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      const slot = this.#slots.filter((s) => s.ready && !s.dead && s.inFlight.size < this.#opts.concurrency)
        .sort((a, b) => a.inFlight.size - b.inFlight.size)[0];
      if (!slot) return;
      const q = this.#queue.shift()!;
      slot.inFlight.set(q.id, q);
      slot.worker.postMessage({ type: 'ask', id: q.id, req: q.req, progress: q.onProgress !== undefined } satisfies ToAskWorker);
    }
  }

  #finish(slot: Slot, id: number): Question | undefined {
    const q = slot.inFlight.get(id);
    if (!q) return undefined;
    slot.inFlight.delete(id);
    if (q.signal && q.onAbort) q.signal.removeEventListener('abort', q.onAbort);
    this.#pump();
    return q;
  }

  #spawn(): Slot {
    const worker = new Worker(BOOTSTRAP);
    worker.unref();
    const slot: Slot = { worker, ready: false, dead: false, inFlight: new Map() };
    worker.on('message', (m: FromAskWorker) => this.#onMessage(slot, m));
    worker.on('error', (e) => this.#replace(slot, `ask worker error: ${e.message}`));
    worker.on('exit', (code) => this.#replace(slot, `ask worker exited with code ${code}`));
    const store = this.#store;
    if (store instanceof DurableStore) {
      // The gateway's workers (eager) warm the pipeline up before they report ready (worker.ts).
      worker.postMessage({ type: 'init', baseIri: this.#opts.baseIri, maxQuads: store.maxQuads, warmUp: this.#opts.eager !== false } satisfies ToAskWorker);
    } else if (this.#opts.storeConfig) {
      worker.postMessage({ type: 'init', remote: this.#opts.storeConfig, baseIri: this.#opts.baseIri } satisfies ToAskWorker);
    } else {
      throw new Error('an ask worker needs the embedded store or the remote store configuration');
    }
    return slot;
  }

  #onMessage(slot: Slot, m: FromAskWorker): void {
    if (slot.dead) return;
    switch (m.type) {
      case 'seed-wanted':
        void (this.#opts.seedAfter ?? Promise.resolve()).catch(() => undefined).then(async () => {
          // An image is taken only between writes (none applied and not yet journaled): wait a
          // little for one if the owner is writing, then read the files instead.
          const images = m.pristine && this.#images;
          for (let tries = 0; images && tries < 40 && (this.#store as DurableStore).memoryImage() === null && !slot.dead; tries++) await new Promise((r) => setTimeout(r, 25));
          if (!slot.dead) slot.worker.postMessage({ type: 'seed', seed: this.#seed(images) } satisfies ToAskWorker);
        });
        return;
      case 'image-refused':
        // Seed it from the files instead, and offer no more images.
        this.#images = false;
        this.#opts.onReplace?.(`an ask worker could not adopt a memory image (${m.reason}); ask replicas are read from the store's files from now on`);
        slot.worker.postMessage({ type: 'seed', seed: this.#seed(false) } satisfies ToAskWorker);
        return;
      case 'ready':
        if (m.via) {
          this.seeds.push({ via: m.via, ms: m.ms ?? 0 });
          if (this.seeds.length > 100) this.seeds.shift();
        }
        slot.ready = true;
        this.#pump();
        return;
      case 'failed':
        this.#replace(slot, m.message);
        return;
      case 'progress':
        slot.inFlight.get(m.id)?.onProgress?.(m.event);
        return;
      case 'result':
        this.#finish(slot, m.id)?.resolve(m.result as AskResult);
        return;
      case 'error':
        this.#finish(slot, m.id)?.reject(new Error(m.message));
        return;
      case 'write':
        // The owner journals and acknowledges; the forwarded copy reaches the worker first.
        this.#store.apply(m.op).then(
          () => { if (!slot.dead) slot.worker.postMessage({ type: 'write-ack', wid: m.wid, seq: this.#store.seq } satisfies ToAskWorker); },
          (e: Error) => { if (!slot.dead) slot.worker.postMessage({ type: 'write-failed', wid: m.wid, name: e.name, message: e.message } satisfies ToAskWorker); },
        );
        return;
    }
  }

  /** A replica for a worker: a memory image of the owner's store when one can be taken now, else its files or a dump. */
  #seed(images: boolean): Seed {
    const store = this.#store as DurableStore;
    const taken = images ? store.memoryImage() : null;
    if (taken) return { kind: 'image', image: taken.image, seq: taken.seq };
    return store.dir ? { kind: 'dir', dir: store.dir } : { kind: 'nquads', nquads: store.rdf.dump({ format: RDF_FORMATS.nquads }), seq: store.seq };
  }

  #replace(slot: Slot, reason: string): void {
    if (slot.dead) return;
    slot.dead = true;
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    for (const q of slot.inFlight.values()) q.reject(new AskBusyError(`the ask worker failed (${reason}); retry the question`));
    slot.inFlight.clear();
    if (this.#closed) return;
    this.#opts.onReplace?.(reason);
    const respawn = () => {
      if (this.#closed) return;
      const at = this.#slots.indexOf(slot);
      if (at !== -1) this.#slots[at] = this.#spawn();
    };
    // A worker that never got ready is likely to fail again: do not spin.
    if (slot.ready) respawn();
    else setTimeout(respawn, 2000).unref();
  }
}
