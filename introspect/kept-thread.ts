/**
 * A keeper that folds in a thread of its own: the KeptStore of kept.ts runs in a worker thread,
 * which folds each write as it arrives, while the store's own thread goes on (oxigraph's load of
 * the same text, for one). A graph's first introspection then waits only for what the thread has
 * not folded yet, and for a copy of the columns, instead of parsing every queued write itself.
 *
 * Contract (the Keeper interface of kept.ts, with these differences)
 * - Telling a write posts its text to the thread (a copy; O(length), no parse). The bound
 *   `maxPendingChars` applies to text posted and not yet folded: past it every graph is forgotten
 *   (the thread drops what it has not folded) and graphs are read from the store when next asked.
 * - Reads (`interned`, `stats`, `mode`, `generation`) are synchronous round trips: the calling
 *   thread waits (Atomics.wait) until the thread has folded every write told before and posted
 *   the reply, which `interned` gives as copies of the columns moved across (not shared). A graph
 *   read again with no write told since is given the same copy (held until the next write, so a
 *   graph just read costs its columns twice: here and in the thread).
 * - `adopt` posts the triples read from the store (their terms as strings) to the thread.
 * - A thread that fails, exits or does not answer within `replyTimeoutMs` is let go: the keeper
 *   goes on in this thread as a KeptStore in `asked` mode (graphs read from the store once, then
 *   kept). A fault here never fails a write (src/void/kept.ts noteWrite catches what is thrown).
 * - The thread is unref'd (it never keeps a process alive); `close()` ends it.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { InternedTriples } from './intern.ts';
import {
  fromExported, KeptStore, type ClearWhich, type Keeper, type KeptExport, type KeptLimits, type KeptStats,
} from './kept.ts';

/** What the keeper thread is told, in order. */
export type KeeperRequest =
  | { op: 'load'; epoch: number; data: string | Uint8Array; format: 'n-triples' | 'n-quads'; graph: string; chars: number }
  | { op: 'delta'; epoch: number; step: 'insert' | 'delete'; nquads: string; chars: number }
  | { op: 'clear'; graph: string }
  | { op: 'clearWhich'; which: ClearWhich }
  | { op: 'unknown'; graph?: string }
  | { op: 'adopt'; graph: string; n: number; s: Int32Array; p: Int32Array; o: Int32Array; terms: string[]; preds: string[] }
  | { op: 'interned'; id: number; graph: string }
  | { op: 'stats'; id: number };

export type KeeperReply =
  | { id: number; ok: true; kind: 'interned'; triples: KeptExport | null; generation: number; mode: 'all' | 'asked' }
  | { id: number; ok: true; kind: 'stats'; stats: KeptStats; generation: number; mode: 'all' | 'asked'; busyMs: number }
  | { id: number; ok: false; message: string };

/** Shared cells: [0] reply flag, [1] characters posted and not yet folded, [2] epoch (moves on each forget). */
export const FLAG = 0;
export const BACKLOG = 1;
export const EPOCH = 2;

export interface ThreadedKeeperOptions {
  /** How long a read waits for the thread (it may have a large write to fold first). */
  replyTimeoutMs?: number;
  /** The thread's module (tests give one that fails); kept-worker.ts by default. */
  workerUrl?: URL;
}

// Compiled (dist/): the worker's own module. From the TypeScript sources: through the bootstrap.
const BOOTSTRAP = import.meta.url.endsWith('.js') ? new URL('./kept-worker.js', import.meta.url) : new URL('./kept-worker-bootstrap.js', import.meta.url);

export class ThreadedKeeper implements Keeper {
  readonly limits: KeptLimits;
  readonly #cells = new Int32Array(new SharedArrayBuffer(12));
  readonly #timeoutMs: number;
  #worker: Worker | null;
  #port: MessagePort | null;
  /** Where the keeper went on after its thread was let go. */
  #fallback: KeptStore | null = null;
  #nextId = 1;
  /** Each graph's columns as last read, while nothing was told since (a read again takes them as they are). */
  readonly #lastRead = new Map<string, KeptExport | null>();
  /** The last generation the thread reported; the fallback's count from past it. */
  #generation = 0;

  constructor(limits: KeptLimits, options: ThreadedKeeperOptions = {}) {
    this.limits = limits;
    this.#timeoutMs = options.replyTimeoutMs ?? 120_000;
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(options.workerUrl ?? BOOTSTRAP, {
      // The thread folds right away: its own queue never holds more than the write at hand.
      workerData: { limits: { ...limits, maxPendingChars: Number.POSITIVE_INFINITY }, cells: this.#cells, port: port2 },
      transferList: [port2],
    });
    worker.unref();
    worker.on('error', () => this.#letGo());
    worker.on('exit', () => this.#letGo());
    this.#worker = worker;
    this.#port = port1;
  }

  /** Milliseconds the thread has spent on what it was told so far (0 once let go). */
  threadBusyMs(): number {
    const r = this.#fallback ? null : this.#ask({ op: 'stats', id: 0 });
    return r && r.kind === 'stats' ? r.busyMs : 0;
  }

  /** Whether writes still go to the thread (false once it was let go). */
  get threaded(): boolean {
    return this.#port !== null;
  }

  get mode(): 'all' | 'asked' {
    const r = this.#fallback ? null : this.#ask({ op: 'stats', id: 0 });
    return r ? r.mode : this.#fallback!.mode;
  }

  get generation(): number {
    const r = this.#fallback ? null : this.#ask({ op: 'stats', id: 0 });
    // The fallback read nothing the thread folded: its generations come after any the thread reported.
    return r ? r.generation : this.#generation + 1 + this.#fallback!.generation;
  }

  load(data: string | Uint8Array, format: 'n-triples' | 'n-quads', graph = ''): void {
    if (this.#fallback) return this.#fallback.load(data, format, graph);
    if (!this.#room(data.length)) return;
    // A view into a larger buffer would be copied whole: copy just the bytes it shows.
    const own = typeof data === 'string' || (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) ? data : data.slice();
    this.#post({ op: 'load', epoch: Atomics.load(this.#cells, EPOCH), data: own, format, graph, chars: data.length });
  }

  delta(step: 'insert' | 'delete', nquads: string): void {
    if (this.#fallback) return this.#fallback.delta(step, nquads);
    if (!this.#room(nquads.length)) return;
    this.#post({ op: 'delta', epoch: Atomics.load(this.#cells, EPOCH), step, nquads, chars: nquads.length });
  }

  clear(graph: string): void {
    if (this.#fallback) return this.#fallback.clear(graph);
    this.#post({ op: 'clear', graph });
  }

  clearWhich(which: ClearWhich): void {
    if (this.#fallback) return this.#fallback.clearWhich(which);
    this.#post({ op: 'clearWhich', which });
  }

  unknown(graph?: string): void {
    if (this.#fallback) return this.#fallback.unknown(graph);
    if (graph === undefined) this.#forgetAll();
    else this.#post({ op: 'unknown', graph });
  }

  interned(graph: string): InternedTriples | null {
    if (this.#fallback) return this.#fallback.interned(graph);
    let triples = this.#lastRead.get(graph);
    if (triples === undefined) {
      const r = this.#ask({ op: 'interned', id: 0, graph });
      if (!r) return this.#fallback!.interned(graph);
      if (r.kind !== 'interned') throw new Error('keeper thread answered out of turn');
      triples = r.triples;
      this.#lastRead.set(graph, triples);
    }
    return triples ? fromExported(triples) : null;
  }

  adopt(graph: string, triples: InternedTriples): void {
    if (this.#fallback) return this.#fallback.adopt(graph, triples);
    if (triples.n > this.limits.maxTriples) return;
    const terms = new Array<string>(triples.termCount);
    for (let t = 0; t < triples.termCount; t++) terms[t] = triples.term(t);
    this.#post({ op: 'adopt', graph, n: triples.n, s: triples.s.slice(0, triples.n), p: triples.p.slice(0, triples.n), o: triples.o.slice(0, triples.n), terms, preds: [...triples.preds] });
  }

  stats(): KeptStats {
    if (this.#fallback) return this.#fallback.stats();
    const r = this.#ask({ op: 'stats', id: 0 });
    if (!r) return this.#fallback!.stats();
    if (r.kind !== 'stats') throw new Error('keeper thread answered out of turn');
    return r.stats;
  }

  close(): void {
    this.#letGo();
    this.#fallback!.close();
  }

  /** Room for `chars` more characters of unfolded text; else everything is forgotten (false). */
  #room(chars: number): boolean {
    if (Atomics.load(this.#cells, BACKLOG) + chars <= this.limits.maxPendingChars) return true;
    this.#forgetAll();
    return false;
  }

  #forgetAll(): void {
    // The thread drops writes posted before this epoch that it has not folded yet.
    Atomics.add(this.#cells, EPOCH, 1);
    this.#post({ op: 'unknown' });
  }

  #post(req: KeeperRequest): void {
    const port = this.#port;
    if (!port) return;
    this.#lastRead.clear();
    if (req.op === 'load' || req.op === 'delta') Atomics.add(this.#cells, BACKLOG, req.chars);
    // The adopted columns are copies made for the thread: moved, not copied again.
    const transfer = req.op === 'adopt' ? [req.s.buffer, req.p.buffer, req.o.buffer] as ArrayBuffer[] : [];
    try {
      port.postMessage(req, transfer);
    } catch {
      this.#letGo();
    }
  }

  /** One synchronous round trip; null when the thread was let go (the fallback answers then). */
  #ask(req: Extract<KeeperRequest, { id: number }>): Extract<KeeperReply, { ok: true }> | null {
    const port = this.#port;
    if (!port) return null;
    const id = this.#nextId++;
    Atomics.store(this.#cells, FLAG, 0);
    port.postMessage({ ...req, id });
    const deadline = Date.now() + this.#timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) {
        this.#letGo();
        return null;
      }
      Atomics.wait(this.#cells, FLAG, 0, Math.min(left, 1000));
      let m = receiveMessageOnPort(port);
      while (m && (m.message as KeeperReply).id !== id) m = receiveMessageOnPort(port);
      if (!m) {
        Atomics.store(this.#cells, FLAG, 0);
        continue;
      }
      const r = m.message as KeeperReply;
      if (!r.ok) {
        this.#letGo();
        return null;
      }
      this.#generation = r.generation;
      return r;
    }
  }

  /** The thread failed or is gone: go on here, keeping graphs from their next read. */
  #letGo(): void {
    if (!this.#port && this.#fallback) return;
    const worker = this.#worker;
    this.#worker = null;
    this.#port?.close();
    this.#port = null;
    this.#lastRead.clear();
    this.#fallback ??= new KeptStore('asked', this.limits);
    void worker?.terminate();
  }
}
