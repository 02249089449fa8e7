/**
 * The thread behind ThreadedKeeper (kept-thread.ts): one KeptStore, told each write in order and
 * folding it at once; reads are answered on the port, then the waiting thread is woken.
 * A write that fails to fold makes the store forget everything (graphs are then read from the
 * store when asked), never this thread fail.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { exportBuffers, KeptStore, type KeptLimits } from './kept.ts';
import { BACKLOG, EPOCH, FLAG, type KeeperReply, type KeeperRequest } from './kept-thread.ts';

const { limits, cells, port } = workerData as { limits: KeptLimits; cells: Int32Array; port: MessagePort };
const keeper = new KeptStore('all', limits);
/** Time spent on what this thread was told (its figure for the benchmarks). */
let busyMs = 0;

port.on('message', (req: KeeperRequest) => {
  const t = performance.now();
  try {
    handle(req);
  } catch (e) {
    if ('id' in req) answer({ id: req.id, ok: false, message: (e as Error).message }, []);
    else keeper.unknown();
  } finally {
    busyMs += performance.now() - t;
  }
});

function handle(req: KeeperRequest): void {
  switch (req.op) {
    case 'load':
    case 'delta':
      try {
        // Posted before the keeper forgot everything: dropped, as the queue was.
        if (req.epoch !== Atomics.load(cells, EPOCH)) return;
        if (req.op === 'load') keeper.load(req.data, req.format, req.graph);
        else keeper.delta(req.step, req.nquads);
        keeper.foldNow();
      } finally {
        Atomics.sub(cells, BACKLOG, req.chars);
      }
      return;
    case 'clear':
      keeper.clear(req.graph);
      return;
    case 'clearWhich':
      keeper.clearWhich(req.which);
      return;
    case 'unknown':
      keeper.unknown(req.graph);
      return;
    case 'adopt': {
      const terms = req.terms;
      keeper.adopt(req.graph, {
        n: req.n, s: req.s, p: req.p, o: req.o, termCount: terms.length, term: (id) => terms[id]!, preds: req.preds,
        // adopt reads only the terms, triples and predicates
        kind: new Uint8Array(0), sampleHash: new Uint32Array(0), datatype: new Int32Array(0), datatypes: [],
      });
      return;
    }
    case 'interned': {
      const triples = keeper.exported(req.graph);
      answer({ id: req.id, ok: true, kind: 'interned', triples, generation: keeper.generation, mode: keeper.mode }, triples ? exportBuffers(triples) : []);
      return;
    }
    case 'stats': {
      const t0 = performance.now();
      keeper.foldNow();
      answer({ id: req.id, ok: true, kind: 'stats', stats: keeper.stats(), generation: keeper.generation, mode: keeper.mode, busyMs: busyMs + performance.now() - t0 }, []);
    }
  }
}

function answer(r: KeeperReply, transfer: ArrayBuffer[]): void {
  port.postMessage(r, transfer);
  Atomics.store(cells, FLAG, 1);
  Atomics.notify(cells, FLAG);
}
