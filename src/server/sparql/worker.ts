/**
 * A query worker: a worker_threads isolate holding its own oxigraph replica of the store.
 * Started by pool.ts through worker-bootstrap.js; killed and replaced by the pool when a job
 * runs past its deadline or the engine faults, so nothing here needs to be interruptible.
 *
 * Messages in (in order; the port preserves it):
 *   { type: 'seed', seed }      the data directory to read (or, for in-memory stores, a dump);
 *                               answered with 'ready' or 'failed'
 *   { type: 'write', op, seq }  an acknowledged WriteOp to apply to the replica; writes that
 *                               arrive while the seed is read are held, and those the seed
 *                               already holds (seq ≤ the seed's) are skipped
 *   { type: 'job', id, job }    answered with { type: 'result', id, reply, seq }, where seq is
 *                               the last write the replica held when it ran the job. Besides
 *                               the endpoint's jobs (evaluate.ts): 'snapshot' (dump the replica
 *                               at exactly `atSeq` into a snapshot file, for the owner's
 *                               compaction) and 'sweep-plan' (what retention removes).
 *                               With `gate` the job was sent ahead (pool.ts #prefetch): it runs only
 *                               if this thread swaps the shared cell from that tag to 0 first; the
 *                               pool may have taken it back, and then it is skipped unanswered.
 * Messages out: 'booted' (modules loaded; a standby waits for its seed), 'ready', 'result',
 * and 'failed' (the replica can no longer be trusted).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RdfStore, RDF_FORMATS } from '../../rdf/store.ts';
import { applyToMemory as applyWrite, DurableStore, writeSnapshotFile, type SnapshotSums, type WriteOp } from '../../rdf/durable.ts';
import type { WasmImage } from '../../rdf/wasm-image.ts';
import { planSweep, type SweepPlan } from '../retention.ts';
import type { Limits } from '../../config.ts';
import { PreparedQueries, runJob, type Job, type Reply } from './evaluate.ts';

export type { SweepPlan };

/** Jobs only the pool sends (never from a request): compaction's dump and retention's plan. */
export type PoolJob =
  | Job
  | { kind: 'snapshot'; path: string; atSeq: number }
  | { kind: 'sweep-plan'; baseIri: string; policy: Limits['runs']; now: number }
  /** The replica's quads and non-empty graphs (for /health: counting walks the store). */
  | { kind: 'counts' };

export type PoolReply =
  | Reply
  | { ok: true; kind: 'snapshot'; sums: SnapshotSums }
  | { ok: true; kind: 'sweep-plan'; plan: SweepPlan }
  | { ok: true; kind: 'counts'; quads: number; graphs: number };

/**
 * Where a replica comes from: a memory image of the owner's store (copied, not parsed; see
 * src/rdf/wasm-image.ts), the data directory (read and parsed off the main thread), or a dump.
 * A thread that cannot adopt an image answers 'image-refused' and keeps the writes it holds;
 * the pool then sends it another seed.
 */
export type Seed =
  | { kind: 'dir'; dir: string }
  | { kind: 'nquads'; nquads: string; seq: number }
  | { kind: 'image'; image: WasmImage; seq: number };

export type ToWorker =
  | { type: 'seed'; seed: Seed }
  | { type: 'write'; op: WriteOp; seq: number }
  /** `gate`: the job was sent ahead (pool.ts #prefetch); it runs only if the worker claims it from the shared cell. */
  | { type: 'job'; id: number; job: PoolJob; gate?: number };

export type FromWorker =
  | { type: 'booted' }
  | { type: 'ready'; quads: number; via: Seed['kind']; ms: number }
  | { type: 'result'; id: number; reply: PoolReply; seq: number }
  | { type: 'image-refused'; reason: string }
  | { type: 'failed'; message: string };

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('worker.ts must run as a worker thread (see pool.ts)');
  const prepared = new PreparedQueries();
  // Shared with the pool: the tag of a job sent ahead, which the pool may take back until claimed here.
  const gate = (workerData as { gate?: Int32Array } | null)?.gate;
  // Created by the seed, not before: a thread that has not used oxigraph can adopt a memory image.
  let replica = null as unknown as RdfStore;
  let replicaSeq = 0;
  let held: { op: WriteOp; seq: number }[] | null = null; // non-null while seeding
  const send = (m: FromWorker) => port.postMessage(m);
  const apply = (op: WriteOp, seq: number) => {
    if (seq <= replicaSeq) return;
    try {
      applyWrite(replica, op, { replay: true });
      replicaSeq = seq;
    } catch (e) {
      // The main store accepted this op, so a replica that cannot apply it has diverged.
      send({ type: 'failed', message: `the replica could not apply an acknowledged ${op.kind}: ${(e as Error).message}` });
    }
  };
  const seedFrom = async (seed: Seed): Promise<void> => {
    if (seed.kind === 'image') {
      replica = RdfStore.fromMemoryImage(seed.image);
      replicaSeq = seed.seq;
    } else if (seed.kind === 'dir') {
      const r = await DurableStore.readReplica(seed.dir);
      replica = r.rdf;
      replicaSeq = r.seq;
    } else {
      replica = new RdfStore();
      if (seed.nquads.length > 0) replica.load(seed.nquads, { format: RDF_FORMATS.nquads, lenient: true });
      replicaSeq = seed.seq;
    }
  };
  port.on('message', (m: ToWorker) => {
    switch (m.type) {
      case 'seed':
        held ??= []; // a second seed (after an image was refused) keeps what the first one held
        {
          const t0 = performance.now();
          const { seed } = m;
          seedFrom(seed).then(() => {
            for (const w of held ?? []) apply(w.op, w.seq);
            held = null;
            send({ type: 'ready', quads: replica.size, ms: performance.now() - t0, via: seed.kind });
          }, (e: Error) => {
            if (seed.kind === 'image') send({ type: 'image-refused', reason: e.message });
            else send({ type: 'failed', message: `seeding the replica failed: ${e.message}` });
          });
        }
        return;
      case 'write':
        if (held) held.push({ op: m.op, seq: m.seq });
        else apply(m.op, m.seq);
        return;
      case 'job':
        if (m.gate !== undefined && (gate === undefined || Atomics.compareExchange(gate, 0, m.gate, 0) !== m.gate)) return; // taken back: it runs elsewhere
        if (m.job.kind === 'snapshot') {
          const { id, job } = m;
          if (job.atSeq !== replicaSeq) {
            send({ type: 'result', id, seq: replicaSeq, reply: { ok: false, code: 'engine-fault', message: `the replica holds write ${replicaSeq}, not ${job.atSeq}; it is being replaced`, poisoned: true } });
            return;
          }
          // The dump is synchronous; jobs and writes wait behind it on this thread (the owner
          // holds its write queue meanwhile, so no write arrives).
          const data = Buffer.from(replica.dump({ format: RDF_FORMATS.nquads }), 'utf8');
          writeSnapshotFile(job.path, data).then(
            (sums) => send({ type: 'result', id, seq: replicaSeq, reply: { ok: true, kind: 'snapshot', sums } }),
            (e: Error) => send({ type: 'result', id, seq: replicaSeq, reply: { ok: false, code: 'store-unavailable', message: `the snapshot could not be written: ${e.message}` } }),
          );
          return;
        }
        if (m.job.kind === 'sweep-plan') {
          send({ type: 'result', id: m.id, seq: replicaSeq, reply: { ok: true, kind: 'sweep-plan', plan: planSweep(replica, m.job.baseIri, m.job.policy, m.job.now) } });
          return;
        }
        if (m.job.kind === 'counts') {
          send({ type: 'result', id: m.id, seq: replicaSeq, reply: { ok: true, kind: 'counts', quads: replica.size, graphs: replica.graphs().length } });
          return;
        }
        if (m.job.kind === 'update' && m.job.atSeq !== replicaSeq) {
          // The owner holds its write queue while an update is computed, so this cannot happen
          // unless a forwarded write was lost: the replica cannot be trusted.
          send({ type: 'result', id: m.id, seq: replicaSeq, reply: { ok: false, code: 'engine-fault', message: `the replica holds write ${replicaSeq}, not ${m.job.atSeq}; it is being replaced`, poisoned: true } });
          return;
        }
        send({ type: 'result', id: m.id, reply: runJob(replica, m.job, prepared), seq: replicaSeq });
        return;
    }
  });
}

main();
parentPort?.postMessage({ type: 'booted' } satisfies FromWorker);
