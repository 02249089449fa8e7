/**
 * A tiny closed-loop HTTP load generator for benchmarks: `clients` keep-alive connections,
 * each sending the next GET as soon as the previous answer is read, for `seconds`. Runs in a
 * worker thread so it does not share the server's event loop. With `unique`, every request's URL
 * has its `__N__` replaced by `unique` and a request counter, so no two requests are the same.
 */
import { Worker } from 'node:worker_threads';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

const SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
const { url, clients, seconds, unique } = workerData;
let sent = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
const latencies = []; let errors = 0;
const end = Date.now() + seconds * 1000;
function one() {
  return new Promise((resolve) => {
    const t0 = performance.now();
    http.get(unique === undefined ? url : url.replace('__N__', unique + '-' + (sent++)), { agent }, (res) => {
      res.resume();
      res.on('end', () => { if (res.statusCode !== 200) errors++; latencies.push(performance.now() - t0); resolve(); });
    }).on('error', () => { errors++; resolve(); });
  });
}
async function loop() { while (Date.now() < end) await one(); }
const t0 = performance.now();
Promise.all(Array.from({ length: clients }, loop)).then(() => {
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  agent.destroy();
  parentPort.postMessage({ requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) });
});
`;

export function load(url: string, clients: number, seconds: number, unique?: string): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(SOURCE, { eval: true, workerData: { url, clients, seconds, unique } });
    w.once('message', (m: LoadResult) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}
