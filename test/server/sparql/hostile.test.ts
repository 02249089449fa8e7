/**
 * A runaway query is stopped at the time limit while a cheap query sent at the same moment
 * still answers, and afterwards the endpoint (its replica rebuilt) answers correctly.
 * Assertions are on outcomes (statuses, answers, order of completion); the latencies are
 * printed for the record, never asserted.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CANARY_CLIENT, KASEI, bindings, canary, makeApp, seedKasei, select, type TestApp } from './helpers.ts';

const TIMEOUT_MS = 1500;
/** ~27 billion combinations over 3,000 triples: minutes of work if nothing stops it. */
const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
const NESTED_OPTIONALS = `SELECT * WHERE { ?a ?b ?c ${Array.from({ length: 6 }, (_, i) => `OPTIONAL { ?x${i} ?y${i} ?z${i} `).join('')}${'} '.repeat(6)}}`;
const CHEAP = `SELECT ?t WHERE { <${KASEI}data2.rdf> <http://purl.org/dc/terms/title> ?t }`;

async function seedBulk(c: TestApp): Promise<void> {
  await seedKasei(c.store);
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) lines.push(`<http://assay.test/n${i}> <http://assay.test/p${i % 7}> "${i}" .`);
  await c.store.apply({ kind: 'load', data: lines.join('\n'), format: 'application/n-triples', graph: 'http://assay.test/graph/bulk' });
}

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number; doneAt: number }> {
  const t0 = performance.now();
  const value = await f();
  const doneAt = performance.now();
  return { value, ms: doneAt - t0, doneAt };
}

describe('hostile queries (two workers)', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await makeApp({ timeoutMs: TIMEOUT_MS, workers: 2 });
    await seedBulk(c);
  });
  afterAll(async () => {
    await c.close();
  });

  test.each([['cross product', RUNAWAY], ['nested OPTIONALs', NESTED_OPTIONALS]])('a %s is stopped at the limit while a cheap query answers', async (_name, hostile) => {
    await canary(c.app); // both workers are up
    const ticks = { n: 0 };
    const ticker = setInterval(() => ticks.n++, 20);
    try {
      const slow = timed(() => select(c.app, hostile));
      await new Promise((r) => setTimeout(r, 100)); // the hostile query is running
      // Another client: the pool keeps the last free worker from a client already running a job.
      const fast = await timed(() => c.app.inject({ method: 'GET', url: `/sparql?query=${encodeURIComponent(CHEAP)}`, remoteAddress: CANARY_CLIENT }));
      const stopped = await slow;
      console.log(`[hostile] ${_name}: cheap query ${fast.ms.toFixed(1)} ms (status ${fast.value.statusCode}); hostile query stopped after ${stopped.ms.toFixed(0)} ms (status ${stopped.value.statusCode}); event-loop ticks meanwhile: ${ticks.n}`);
      expect(fast.value.statusCode).toBe(200);
      expect(bindings(fast.value.body).map((b) => b.t!.value)).toEqual(['Document 2']);
      expect(stopped.value.statusCode).toBe(503);
      const err = JSON.parse(stopped.value.body);
      expect(err.error).toBe('timeout');
      expect(err.message).toContain(`${TIMEOUT_MS} ms`);
      // Outcome, not timing: the cheap answer arrived while the hostile query was still running.
      expect(fast.doneAt).toBeLessThan(stopped.doneAt);
      expect(ticks.n).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
    expect(await canary(c.app)).toEqual(['Document 1']);
  });
});

describe('hostile queries (one worker: the replica must be rebuilt)', () => {
  test('after the only worker is killed, a fresh replica answers, including writes made before and after', async () => {
    const c = await makeApp({ timeoutMs: TIMEOUT_MS, workers: 1 });
    try {
      await seedBulk(c);
      expect(await canary(c.app)).toEqual(['Document 1']);
      const stopped = await select(c.app, RUNAWAY);
      expect([stopped.statusCode, JSON.parse(stopped.body).error]).toEqual([503, 'timeout']);
      await c.store.apply({ kind: 'load', data: '<http://assay.test/late> <http://assay.test/p> "after the kill" .', format: 'application/n-triples', graph: 'http://assay.test/graph/late' });
      expect(await canary(c.app)).toEqual(['Document 1']);
      // The client whose query was stopped waits for the replacement (it may not take the last worker).
      await c.app.queryPool.ready();
      const late = await select(c.app, 'SELECT ?o WHERE { <http://assay.test/late> ?p ?o }');
      expect(bindings(late.body).map((b) => b.o!.value)).toEqual(['after the kill']);
      const count = await select(c.app, 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://assay.test/graph/bulk> { ?s ?p ?o } }');
      expect(bindings(count.body)[0]!.n!.value).toBe('3000');
    } finally {
      await c.close();
    }
  });

  test('a query queued behind a runaway one gets an answer or a clear 503, never a hang', async () => {
    const c = await makeApp({ timeoutMs: TIMEOUT_MS, workers: 1 });
    try {
      await seedBulk(c);
      const [slow, queued] = await Promise.all([select(c.app, RUNAWAY), (async () => {
        await new Promise((r) => setTimeout(r, 50));
        return select(c.app, CHEAP);
      })()]);
      expect(slow.statusCode).toBe(503);
      // The queued query waits for the replacement worker, which answers it within its own limit.
      expect([200, 503]).toContain(queued.statusCode);
      if (queued.statusCode === 503) expect(JSON.parse(queued.body).error).toBe('busy');
      else expect(bindings(queued.body).map((b) => b.t!.value)).toEqual(['Document 2']);
      console.log(`[hostile] queued behind runaway with one worker: status ${queued.statusCode}`);
    } finally {
      await c.close();
    }
  });
});
