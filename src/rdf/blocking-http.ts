/**
 * Blocking SPARQL queries: the remote store's synchronous read facade (RemoteStore.rdf) runs
 * its queries through this, so Assay's own small reads (a run graph, a citation chain, resume
 * state) keep the synchronous shape the embedded store gives them.
 *
 * How: one worker thread owns an ordinary async SparqlHttp client (same auth, deadlines and
 * errors). A call posts the request to it and parks the calling thread on Atomics.wait until the
 * worker has posted the reply and flipped a shared flag; the reply is then taken off the port
 * with receiveMessageOnPort. The caller's thread is blocked for exactly one round trip, bounded
 * by the request deadline (the worker enforces it; the wait adds a margin for the worker's own
 * start). Never use this for untrusted or heavy queries: /sparql goes through the async path.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { RemoteStoreError, type HttpReply, type QueryCall, type RemoteEndpoints, type RemoteErrorCode } from './sparql-http.ts';

export type BlockingRequest = { id: number; text: string; call: Omit<QueryCall, 'signal'> };
export type BlockingReply =
  | { id: number; ok: true; reply: HttpReply }
  | { id: number; ok: false; error: { name: string; code?: RemoteErrorCode; status?: number; message: string } };

// Compiled (dist/): the worker's own module, as the SPARQL and ask pools do (no freshness check per
// start). From the TypeScript sources: through the bootstrap (compiled worker when dist/ is fresh).
const BOOTSTRAP = import.meta.url.endsWith('.js') ? new URL('./blocking-worker.js', import.meta.url) : new URL('./blocking-worker-bootstrap.js', import.meta.url);
/** Room for the worker thread to start (it loads the TypeScript runtime) on the first call. */
const START_MARGIN_MS = 20_000;

export class BlockingSparql {
  readonly #endpoints: RemoteEndpoints;
  #worker: Worker | undefined;
  #port: MessagePort | undefined;
  readonly #flag = new Int32Array(new SharedArrayBuffer(4));
  #nextId = 1;
  #started = false;

  constructor(endpoints: RemoteEndpoints) {
    this.#endpoints = endpoints;
  }

  query(text: string, call: Omit<QueryCall, 'signal'>): HttpReply {
    const port = this.#ensure();
    const id = this.#nextId++;
    const timeoutMs = call.timeoutMs ?? this.#endpoints.timeoutMs;
    Atomics.store(this.#flag, 0, 0);
    port.postMessage({ id, text, call } satisfies BlockingRequest);
    const deadline = Date.now() + timeoutMs + (this.#started ? 2_000 : START_MARGIN_MS);
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) {
        // The worker is stuck (it enforces the request deadline itself): start over with a fresh one.
        this.close();
        throw new RemoteStoreError('timeout', `a blocking read from ${this.#endpoints.queryUrl} got no answer within ${timeoutMs} ms (store.timeoutMs)`);
      }
      Atomics.wait(this.#flag, 0, 0, left);
      let m = receiveMessageOnPort(port);
      while (m && (m.message as BlockingReply).id !== id) m = receiveMessageOnPort(port);
      if (!m) {
        Atomics.store(this.#flag, 0, 0);
        continue;
      }
      this.#started = true;
      const r = m.message as BlockingReply;
      if (r.ok) return r.reply;
      if (r.error.name === 'RemoteStoreError' && r.error.code) throw new RemoteStoreError(r.error.code, r.error.message, r.error.status);
      throw new Error(r.error.message);
    }
  }

  close(): void {
    void this.#worker?.terminate();
    this.#port?.close();
    this.#worker = undefined;
    this.#port = undefined;
    this.#started = false;
  }

  #ensure(): MessagePort {
    if (this.#port) return this.#port;
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(BOOTSTRAP, { workerData: { endpoints: this.#endpoints, flag: this.#flag, port: port2 }, transferList: [port2] });
    worker.unref();
    worker.on('error', () => this.close());
    this.#worker = worker;
    this.#port = port1;
    return port1;
  }
}
