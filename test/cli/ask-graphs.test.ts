/**
 * `assay ask` hands a question about Assay's own graphs to the NL→SPARQL loop (issue 13): the runs
 * and evidence of a real data directory, after a real offline ask wrote them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeQuestion, withoutSelfReference } from '../../src/nlq/route.ts';
import { assay } from './run-assay.ts';

describe('assay ask on a question about Assay\'s graphs', () => {
  const data = mkdtempSync(join(tmpdir(), 'assay-ask-graphs-'));
  beforeAll(async () => {
    const first = await assay('ask', "What was Apple's total revenue in 2023?", '--data', data, '--quiet');
    expect(first.code).toBe(0);
  }, 180_000);
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  it('"Assay" names the graph asked, not something in it', () => {
    expect(withoutSelfReference('How many attempts did Assay make?')).toBe('How many attempts did make?');
    expect(withoutSelfReference("Which sources did Assay's runs cite?")).toBe('Which sources did runs cite?');
    expect(routeQuestion('How many runs has Assay recorded?')).toMatchObject({ route: 'graph', role: 'runs' });
    expect(routeQuestion("What was Apple's total revenue in 2023?")).toEqual({ route: 'publishers' });
  });

  it('counts the runs and attempts the data directory holds, over its own SPARQL, labelled unverified', async () => {
    const runs = await assay('ask', 'How many runs has Assay recorded?', '--data', data, '--json');
    expect(runs.code).toBe(0);
    const r = JSON.parse(runs.stdout);
    expect(r.routed).toEqual({ to: 'nlq', role: 'runs', cue: 'run' });
    expect(r.verified).toBe(false);
    expect(r.result.rows[0].count.value).toBe('1');
    // the same count the store gives for the class, asked directly
    const attempts = await assay('ask', 'How many attempts did Assay make?', '--data', data, '--json');
    const direct = await assay('sparql', '--data', data, '--format', 'json', 'SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE { GRAPH ?g { ?a a <https://w3id.org/assay/ns#Attempt> } }');
    expect(JSON.parse(attempts.stdout).result.rows[0].count.value).toBe(JSON.parse(direct.stdout).results.bindings[0].n.value);
  }, 180_000);

  it('a question the offline generator cannot answer exits 3 and says why, with the route on stderr', async () => {
    const r = await assay('ask', 'Which publishers did Assay cite for Apple?', '--data', data);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/route .*the evidence Assay admitted.*NL→SPARQL loop/);
    expect(r.stdout).toMatch(/Not answered: /);
  }, 180_000);
});
