/** `assay nlq` and `assay eval nlq` as a user runs them. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

describe('assay eval nlq on a replay fixture', () => {
  it('a fixture with no completion for a prompt exits 4 and names the case, never printing the table as a score', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-nlq-stale-'));
    const swapiCase = readFileSync('fixtures/nlq/cases/swapi.jsonl', 'utf8').split('\n').find((l) => l.includes('"id": "sw-02"') || l.includes('"id":"sw-02"'))!;
    writeFileSync(join(dir, 'one.jsonl'), `${JSON.stringify({ meta: { graph: 'http://example.org/graph/swapi', load: resolve(SWAPI) } })}\n${swapiCase}\n`);
    writeFileSync(join(dir, 'stale.json'), JSON.stringify({ format: 'assay-nlq-replay/1', recordings: [] }));
    const r = await assay('eval', 'nlq', join(dir, 'one.jsonl'), '--generator', `replay:${join(dir, 'stale.json')}`, '--out', join(dir, 'out.json'));
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/NOT A SCORE: 2 prompts had no recorded completion \(cases sw-02\)/);
    expect(r.stderr).toMatch(/2 prompts had no recorded completion in replay:stale\.json.*case sw-02, end-to-end grounded.*re-record/s);
  }, 90_000);
});
