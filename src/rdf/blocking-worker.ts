/**
 * The worker behind BlockingSparql (blocking-http.ts): runs each request with an ordinary async
 * SparqlHttp client, posts the reply on the port, then wakes the waiting thread.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { SparqlHttp, RemoteStoreError, type RemoteEndpoints } from './sparql-http.ts';
import type { BlockingReply, BlockingRequest } from './blocking-http.ts';

const { endpoints, flag, port } = workerData as { endpoints: RemoteEndpoints; flag: Int32Array; port: MessagePort };
const http = new SparqlHttp(endpoints);

port.on('message', (req: BlockingRequest) => {
  http.query(req.text, req.call).then(
    (reply) => answer({ id: req.id, ok: true, reply }),
    (e: Error) => answer({
      id: req.id, ok: false,
      error: { name: e.name, message: e.message, ...(e instanceof RemoteStoreError ? { code: e.code, ...(e.status ? { status: e.status } : {}) } : {}) },
    }),
  );
});

function answer(r: BlockingReply): void {
  port.postMessage(r);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}
