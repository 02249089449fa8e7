/** `assay nlq` and `assay eval nlq` as a user runs them. */
import { describe, expect, it } from 'vitest';
import { assay } from '../cli/run-assay.ts';

const SWAPI = 'fixtures/nlq/swapi/swapi-dataset.ttl';

// Concurrent: each test runs its own child processes over the SWAPI file, which none of them writes, so they overlap.
describe.concurrent('assay nlq', () => {
  it('prints the rows, the lane label, the query, sources and qualification; --sparql prints only the query', async () => {
    const r = await assay('nlq', 'Who directed Return of the Jedi?', '--load', SWAPI);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Richard Marquand');
    expect(r.stdout).toContain('generated-query lane');
    expect(r.stdout).toContain('no source recorded for 1 binding');
    expect(r.stdout).toContain('not a calibrated probability');
    const q = await assay('nlq', 'How many films are there?', '--load', SWAPI, '--sparql');
    expect(q.stdout.trim()).toMatch(/^SELECT \(COUNT\(DISTINCT \?x\) AS \?count\) WHERE/);
  }, 90_000);

  it('a question beyond the offline generator exits 3 and says why', async () => {
    const r = await assay('nlq', 'What is the homeworld of Skywalker?', '--load', SWAPI);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/"Skywalker" names several things in this graph: .*Luke Skywalker/);
  }, 90_000);

  it('bad input is a message, not a stack trace', async () => {
    const r = await assay('eval', 'nlq');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give the case file/);
    const g = await assay('nlq', 'x', '--graph', 'not an iri', '--load', SWAPI);
    expect(g.stderr).toMatch(/--graph must be an absolute IRI/);
  }, 90_000);
});
