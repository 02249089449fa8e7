/**
 * Queries sent ahead to a busy worker (pool.ts #prefetch): each answer reaches the request that
 * asked it, and one sent ahead of a runaway is taken back and answered elsewhere, long before the
 * runaway is stopped. Outcomes and order of completion are asserted, never latencies.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { QueryJob } from '../../../src/server/sparql/evaluate.ts';
import { QueryPool } from '../../../src/server/sparql/pool.ts';
import { makeApp, type TestApp } from './helpers.ts';

const TIMEOUT_MS = 1500;
const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';

function job(text: string): QueryJob {
  return {
    kind: 'query', text, defaultGraphs: [], namedGraphs: [], accept: 'application/sparql-results+json', maxRows: 1000,
    truncationLink: 'urn:truncated', checkDatasetGraphs: true, baseIri: 'http://assay.test/sparql', localBase: 'http://assay.test/', allowedRemoteHosts: [],
  };
}
const cheap = (i: number) => `SELECT ?v WHERE { <http://assay.test/n${i}> ?p ?v }`;

describe('queries sent ahead to busy workers', () => {
  let c: TestApp;
  let pool: QueryPool;
  beforeAll(async () => {
    c = await makeApp({ timeoutMs: TIMEOUT_MS, workers: 2 });
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(`<http://assay.test/n${i}> <http://assay.test/p${i % 7}> "${i}" .`);
    await c.store.apply({ kind: 'load', data: lines.join('\n'), format: 'application/n-triples', graph: 'http://assay.test/graph/bulk' });
    pool = c.app.queryPool as QueryPool;
  });
  afterAll(async () => {
    await c.close();
  });

  test('many concurrent queries from one client each get their own answer', async () => {
    const before = pool.sentAhead.sent;
    // Sent in one tick: both workers the client may take are busy at once, so the rest queue or go ahead.
    // (each may wait its turn for up to 30 s: on a loaded 2-core machine 60 queries can take longer than the runaway limit below)
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => pool.run(job(cheap(i)), 30_000, 'sparql.timeoutMs', { client: 'one' })));
    outcomes.forEach((o, i) => {
      expect(o.reply.ok).toBe(true);
      const body = JSON.parse((o.reply as { body: string }).body) as { results: { bindings: { v: { value: string } }[] } };
      expect(body.results.bindings.map((b) => b.v.value)).toEqual([String(i)]);
    });
    expect(pool.sentAhead.sent).toBeGreaterThan(before);
  });

  test('a query sent ahead of a runaway is taken back and answered before the runaway is stopped', async () => {
    await pool.ready(); // every replica loaded: two workers and the spare
    const { takenBack } = pool.sentAhead;
    let cheapAt = 0;
    let runawayAt = 0;
    // One tick: the runaway and a cheap query take the two workers; the last free one is kept from
    // this client, so the second cheap query is sent ahead, to the first busy worker: the runaway's.
    const runaway = pool.run(job(RUNAWAY), TIMEOUT_MS, 'sparql.timeoutMs', { client: 'two' }).then(
      () => { throw new Error('the runaway was not stopped'); },
      (e: Error) => { runawayAt = performance.now(); return e; });
    const first = pool.run(job(cheap(1)), TIMEOUT_MS, 'sparql.timeoutMs', { client: 'two' });
    const second = pool.run(job(cheap(2)), TIMEOUT_MS, 'sparql.timeoutMs', { client: 'two' }).then((o) => { cheapAt = performance.now(); return o; });
    const [stopped, , answered] = await Promise.all([runaway, first, second]);
    expect(stopped.message).toContain(`${TIMEOUT_MS} ms`);
    expect(answered.reply.ok).toBe(true);
    // whether the second query went ahead to the runaway's worker (and was taken back) or to the
    // cheap one's depends on which worker each job reached first; either way it must not wait for
    // the runaway (with take-back disabled, the first route answers it only after the 503)
    expect(pool.sentAhead.takenBack).toBeGreaterThanOrEqual(takenBack);
    expect(cheapAt).toBeLessThan(runawayAt);
  });
});
