/**
 * A query worker: a worker_threads isolate holding its own oxigraph replica of the store.
 * Started by pool.ts through worker-bootstrap.js; killed and replaced by the pool when a job
 * runs past its deadline or the engine faults, so nothing here needs to be interruptible.
 *
 * Messages in (in order; the port preserves it):
 *   { type: 'seed', nquads }    the main store's dump; answered with 'ready' or 'failed'
 *   { type: 'write', op }       an acknowledged WriteOp to apply to the replica
 *   { type: 'job', id, job }    answered with { type: 'result', id, reply }
 * Messages out: 'ready', 'result', and 'failed' (the replica can no longer be trusted).
 */
import { parentPort } from 'node:worker_threads';
import { RdfStore, RDF_FORMATS } from '../../rdf/store.ts';
import type { WriteOp } from '../../rdf/durable.ts';
import { runJob, type Job } from './evaluate.ts';

export type ToWorker =
  | { type: 'seed'; nquads: string }
  | { type: 'write'; op: WriteOp }
  | { type: 'job'; id: number; job: Job };

export type FromWorker =
  | { type: 'ready'; quads: number }
  | { type: 'result'; id: number; reply: ReturnType<typeof runJob> }
  | { type: 'failed'; message: string };

/** Same semantics as DurableStore's in-memory apply, so the replica stays an exact copy. */
function applyWrite(rdf: RdfStore, op: WriteOp): void {
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
      const scratch = new RdfStore();
      scratch.load(op.data, { format: op.format, graph: op.graph, baseIri: op.baseIri });
      rdf.clearGraph(op.graph);
      rdf.add(scratch.match());
      return;
    }
  }
}

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('worker.ts must run as a worker thread (see pool.ts)');
  const replica = new RdfStore();
  const send = (m: FromWorker) => port.postMessage(m);
  port.on('message', (m: ToWorker) => {
    switch (m.type) {
      case 'seed':
        try {
          if (m.nquads.length > 0) replica.load(m.nquads, { format: RDF_FORMATS.nquads, lenient: true });
          send({ type: 'ready', quads: replica.size });
        } catch (e) {
          send({ type: 'failed', message: `seeding the replica failed: ${(e as Error).message}` });
        }
        return;
      case 'write':
        try {
          applyWrite(replica, m.op);
        } catch (e) {
          // The main store accepted this op, so a replica that cannot apply it has diverged.
          send({ type: 'failed', message: `the replica could not apply an acknowledged ${m.op.kind}: ${(e as Error).message}` });
        }
        return;
      case 'job':
        send({ type: 'result', id: m.id, reply: runJob(replica, m.job) });
        return;
    }
  });
}

main();
