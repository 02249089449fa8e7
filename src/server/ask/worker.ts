/**
 * An ask worker: a worker_threads isolate that runs questions (`askTurn(services, req, options)`,
 * which wraps the pipeline's seam `ask(services, req, options)` with conversation turns) off the
 * event loop that serves /sparql and /health. Started by host.ts. With a remote store (config
 * store.url) the worker opens that store itself instead of following the main thread's.
 *
 * Store: the worker holds a follower replica (DurableStore.follower). Reads (citations, resume
 * state) see the replica; writes (run and evidence graphs) are sent to the main thread, which
 * owns the data directory, journals them, acknowledges them, and forwards every acknowledged
 * write to every replica in order, so a write the pipeline awaited is visible here before its
 * `apply()` resolves.
 *
 * Start-up, embedded store: the worker loads the ask services first (none of them touches
 * oxigraph), then asks for its seed ('seed-wanted', saying whether its oxigraph instance is still
 * unused). The host answers with a memory image of the owner's store when it can take one (a
 * copy, not a parse: src/rdf/wasm-image.ts), else the data directory (or a dump). Writes that
 * arrive before the seed are held; those the seed already holds are skipped.
 *
 * Messages in:  init {baseIri, maxQuads} | init {remote, baseIri} → (seed-wanted →) ready | failed;
 *               seed {seed} (after seed-wanted; answered image-refused when an image cannot be
 *               adopted, then a second seed follows);  follow {op, seq};
 *               ask {id, req, progress};  abort {id};  write-ack {wid, seq};  write-failed {wid, name, message}
 * Messages out: seed-wanted {pristine}, image-refused {reason}, ready {via, ms}, failed,
 *               progress {id, event}, result {id, result}, error {id, message}, write {wid, op}
 */
import { parentPort } from 'node:worker_threads';
import { RdfStore, RDF_FORMATS } from '../../rdf/store.ts';
import { DurableStore, type WriteOp } from '../../rdf/durable.ts';
import { askTurn, type TurnRequest as AskRequest } from '../../conversation/ask.ts';
import { loadAskServices, type AskServices } from '../../ask/services.ts';
import type { AssayStore } from '../../rdf/backend.ts';
import { RemoteStore } from '../../rdf/remote.ts';
import type { StoreConfig } from '../../config.ts';
import { modelClientFromEnv } from '../../llm/index.ts';
import type { Seed } from '../sparql/worker.ts';
import { rememberingDiscovery } from './discovery-memo.ts';

export type ToAskWorker =
  | { type: 'init'; baseIri: string; maxQuads: number; warmUp?: boolean }
  | { type: 'init'; remote: StoreConfig; baseIri: string }
  | { type: 'seed'; seed: Seed }
  | { type: 'follow'; op: WriteOp; seq: number }
  | { type: 'ask'; id: number; req: AskRequest; progress?: boolean }
  | { type: 'abort'; id: number }
  | { type: 'write-ack'; wid: number; seq: number }
  | { type: 'write-failed'; wid: number; name: string; message: string };

export type FromAskWorker =
  | { type: 'seed-wanted'; pristine: boolean }
  | { type: 'image-refused'; reason: string }
  | { type: 'ready'; via?: Seed['kind']; ms?: number }
  | { type: 'failed'; message: string }
  | { type: 'progress'; id: number; event: unknown }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string }
  | { type: 'write'; wid: number; op: WriteOp };

/**
 * The question an ask worker runs once before it reports ready, against a scratch in-memory store
 * (nothing is written to the gateway's store), so that the first question a user asks does not
 * pay for compiling the pipeline (a cold pipeline costs seconds of CPU on a busy machine). Only
 * with replayed publishers (never live traffic at start-up). It is a keyed read of a company the
 * offline snapshot records, so it runs the whole path (understand, discover, plan, read, check,
 * render); the publisher response a user's question reads is still fetched and parsed for that
 * question. ASSAY_ASK_WARMUP=off turns it off; another question replaces it.
 */
export const WARM_UP_QUESTION = "What was Tesla's total revenue in 2022?";

function warmUpQuestion(env: NodeJS.ProcessEnv = process.env): string | null {
  const v = env.ASSAY_ASK_WARMUP?.trim();
  if (v === 'off' || v === '0' || v === 'false') return null;
  return v && v !== 'on' ? v : WARM_UP_QUESTION;
}

/** Plain data only crosses the thread boundary. */
function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('ask/worker.ts must run as a worker thread (see host.ts)');
  const send = (m: FromAskWorker) => port.postMessage(m);
  let store: DurableStore | undefined;
  let remote: AssayStore | undefined;
  let services: AskServices | undefined;
  const held: { op: WriteOp; seq: number }[] = [];
  const writes = new Map<number, { resolve: (seq: number) => void; reject: (e: Error) => void }>();
  const running = new Map<number, AbortController>();
  let nextWid = 1;

  const init = async (m: Extract<ToAskWorker, { type: 'init' }>) => {
    const model = await modelClientFromEnv();
    if ('remote' in m) {
      // A remote store is shared by every gateway: the worker reads and writes it directly.
      remote = await RemoteStore.open(m.remote, { baseIri: m.baseIri });
      const loaded = await loadAskServices({ store: remote, baseIri: m.baseIri, ...(model ? { model } : {}) });
      services = { ...loaded, index: rememberingDiscovery(loaded.index) };
      send({ type: 'ready' });
      return;
    }
    // The services first: the replica is seeded afterwards, so that an image of the owner's
    // store can be adopted (it needs an oxigraph instance nothing has used yet) and holds every
    // write the owner made meanwhile (at a first start, the catalog graph).
    // (Loading reads no store: `store` is filled in below, once the replica exists.)
    const loaded = await loadAskServices({ store: undefined as unknown as AssayStore, baseIri: m.baseIri, ...(model ? { model } : {}) });
    pendingInit = { loaded: { ...loaded, index: rememberingDiscovery(loaded.index) }, maxQuads: m.maxQuads, warmUp: m.warmUp === true };
    send({ type: 'seed-wanted', pristine: RdfStore.canAdoptImage() });
  };

  let pendingInit: { loaded: AskServices; maxQuads: number; warmUp: boolean } | undefined;
  const seedFrom = async (seed: Seed): Promise<{ rdf: RdfStore; seq: number }> => {
    if (seed.kind === 'image') return { rdf: RdfStore.fromMemoryImage(seed.image), seq: seed.seq };
    if (seed.kind === 'dir') return DurableStore.readReplica(seed.dir);
    const rdf = new RdfStore();
    if (seed.nquads.length > 0) rdf.load(seed.nquads, { format: RDF_FORMATS.nquads, lenient: true });
    return { rdf, seq: seed.seq };
  };
  const seeded = (m: Extract<ToAskWorker, { type: 'seed' }>) => {
    const init = pendingInit;
    if (!init || store) return;
    const t0 = performance.now();
    seedFrom(m.seed).then(({ rdf, seq }) => {
      store = DurableStore.follower({
        rdf, seq, maxQuads: init.maxQuads,
        send: (op) => new Promise<number>((resolve, reject) => {
          const wid = nextWid++;
          writes.set(wid, { resolve, reject });
          send({ type: 'write', wid, op });
        }),
      });
      for (const w of held.splice(0)) store.follow(w.op, w.seq);
      const ready = { ...init.loaded, store };
      pendingInit = undefined;
      const seedMs = performance.now() - t0;
      const warm = init.warmUp ? warmUpQuestion() : null;
      const warmed = warm && ready.runtime.http.mode === 'replay'
        ? askTurn({ ...ready, store: DurableStore.inMemory({ maxQuads: init.maxQuads }) }, { question: warm }).then(() => undefined, () => undefined)
        : Promise.resolve();
      void warmed.then(() => {
        services = ready;
        send({ type: 'ready', via: m.seed.kind, ms: seedMs });
      });
    }, (e: Error) => {
      if (m.seed.kind === 'image') send({ type: 'image-refused', reason: e.message });
      else send({ type: 'failed', message: `the ask worker could not read its replica: ${e.message}` });
    });
  };

  port.on('message', (m: ToAskWorker) => {
    switch (m.type) {
      case 'init':
        init(m).catch((e: Error) => send({ type: 'failed', message: `the ask worker could not start: ${e.message}` }));
        return;
      case 'seed':
        seeded(m);
        return;
      case 'follow':
        if (remote) return;
        if (!store) held.push({ op: m.op, seq: m.seq });
        else {
          try {
            store.follow(m.op, m.seq);
          } catch (e) {
            send({ type: 'failed', message: `the ask worker's replica could not apply an acknowledged ${m.op.kind}: ${(e as Error).message}` });
          }
        }
        return;
      case 'write-ack':
        writes.get(m.wid)?.resolve(m.seq);
        writes.delete(m.wid);
        return;
      case 'write-failed': {
        const e = new Error(m.message);
        e.name = m.name;
        writes.get(m.wid)?.reject(e);
        writes.delete(m.wid);
        return;
      }
      case 'abort':
        running.get(m.id)?.abort(new Error('the client disconnected'));
        return;
      case 'ask': {
        const s = services;
        if (!s) {
          send({ type: 'error', id: m.id, message: 'the ask worker is not ready yet' });
          return;
        }
        const c = new AbortController();
        running.set(m.id, c);
        // Progress events cross the thread only when the caller streams them (POST /ask/stream).
        askTurn(s, m.req, { signal: c.signal, ...(m.progress !== false ? { onProgress: (event) => send({ type: 'progress', id: m.id, event: plain(event) }) } : {}) })
          .then((result) => send({ type: 'result', id: m.id, result: plain(result) }), (e: Error) => send({ type: 'error', id: m.id, message: e.message ?? String(e) }))
          .finally(() => running.delete(m.id));
        return;
      }
    }
  });
}

main();
