/**
 * The model path end to end: an OpenAI-compatible stub server on loopback behind the `openai`
 * package, a recording wrapper, and replay of the fixture recorded from it (what CI scores).
 * The stub answers from the gold queries (test/nlq/stub-model.ts): this checks the mechanism, not
 * any model's accuracy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStub, type Stub } from '../llm/stub-server.ts';
import { goldModel } from './stub-model.ts';
import { fixture, SWAPI, VOC, type Fixture } from './helpers.ts';
import {
  askGraph, completerGenerator, DEFAULT_NLQ_CONFIG, loadCases, loadReplay, modelCompleter, recordingCompleter, replayCompleter,
  ReplayMissError, reportTable, runEval, type CaseSet,
} from '../../src/nlq/index.ts';

let f: Fixture;
let stub: Stub;
let set: CaseSet;
beforeAll(async () => {
  set = await loadCases('fixtures/nlq/cases/swapi.jsonl');
  stub = await startStub(goldModel(set.cases, VOC));
  f = await fixture();
}, 60_000);
afterAll(async () => { await f?.close(); await stub?.close(); });

describe('an OpenAI-compatible model through the openai package', () => {
  it('sends the grounded prompt, takes the fenced query, repairs a broken one and records every turn', async () => {
    const rec = recordingCompleter(modelCompleter({ baseURL: stub.url, model: 'stub-gold', timeoutMs: 5000 }, { maxRetries: 0 }));
    const q = set.cases[0]!; // every third case first gets a syntax error
    const o = await askGraph(q.question, SWAPI, f.deps(completerGenerator(rec)));
    expect(o.status).toBe('answered');
    expect(o.repairs).toBe(1);
    expect(o.transcript.map((t) => t.outcome.kind)).toEqual(['invalid', 'rows']);
    const sent = stub.requests.at(-1)!;
    expect(sent.model).toBe('stub-gold');
    expect(sent.messages[0]!.content).toContain('Schema card:');
    expect(sent.messages[0]!.content).toContain('"Luke Skywalker" →');
    expect(rec.recordings.map((r) => r.prompt)).toEqual(o.transcript.map((t) => t.prompt));
  });

  it('a transport failure is a generator error naming the endpoint, never a guess', async () => {
    const down = await startStub(() => ({ status: 500 }));
    try {
      const o = await askGraph('How many films are there?', SWAPI, f.deps(completerGenerator(modelCompleter({ baseURL: down.url, model: 'm', timeoutMs: 2000 }, { maxRetries: 0 }))));
      expect(o.status).toBe('not_answered');
      expect(o.transcript[0]!.outcome).toMatchObject({ kind: 'generator-error', message: expect.stringContaining(down.url) });
    } finally {
      await down.close();
    }
  });
});

describe('replay of the recorded fixture', () => {
  it('scores the four cells offline: grounding pays, repairs are counted', async () => {
    const recordings = await loadReplay('fixtures/nlq/replay/swapi-stub.json');
    const replay = completerGenerator(replayCompleter(recordings, 'replay:swapi-stub'));
    const report = await runEval(set, SWAPI, () => f.deps(replay), DEFAULT_NLQ_CONFIG);
    const cell = (mode: string, grounded: boolean) => report.cells.find((c) => c.mode === mode && c.grounded === grounded)!;
    expect(report.goldFailures).toEqual([]);
    // Every prompt the loop builds today is in the fixture: a stale fixture fails here, not as a quiet 0.
    expect(report.replayMisses).toEqual([]);
    expect(cell('end-to-end', true).macroF1).toBe(1);
    expect(cell('end-to-end', true).repairs).toBeGreaterThan(0);
    expect(cell('end-to-end', false).macroF1).toBeLessThan(cell('end-to-end', true).macroF1);
    expect(cell('oracle', true).macroF1).toBe(1);
  }, 120_000);

  it('a prompt that drifted since recording fails loudly, naming the recorded questions', async () => {
    const replay = completerGenerator(replayCompleter(await loadReplay('fixtures/nlq/replay/swapi-stub.json')));
    await expect(askGraph('A question nobody recorded?', SWAPI, f.deps(replay), { ...DEFAULT_NLQ_CONFIG, maxRepairRounds: 0 }))
      .resolves.toMatchObject({ status: 'not_answered', transcript: [{ outcome: { kind: 'generator-error', message: expect.stringMatching(/no recorded completion .*What is the height of Luke Skywalker/) } }] });
    expect(ReplayMissError).toBeDefined();
  });

  it('a fixture whose prompts drifted is reported by the harness as replay misses naming the changed line, not scored', async () => {
    const recordings = await loadReplay('fixtures/nlq/replay/swapi-stub.json');
    const one: CaseSet = { ...set, cases: set.cases.slice(1, 2) };
    // The graph "grew" since recording: the schema card's first line no longer matches.
    const stale = recordings.map((r) => ({ ...r, prompt: r.prompt.replace(/^Graph: (\d+) triples/m, (_, n: string) => `Graph: ${Number(n) - 1} triples`) }));
    const report = await runEval(one, SWAPI, () => f.deps(completerGenerator(replayCompleter(stale, 'replay:stale'))), DEFAULT_NLQ_CONFIG);
    const grounded = report.cells.find((c) => c.mode === 'end-to-end' && c.grounded)!;
    expect(grounded.cases[0]!.failure).toBe('replay-miss');
    expect(report.replayMisses).toEqual([expect.objectContaining({ cell: 'end-to-end grounded', id: one.cases[0]!.id, message: expect.stringMatching(/differs from line \d+: it was "Graph: \d+ triples.*it is now "Graph: \d+ triples/) })]);
    expect(reportTable(report)).toMatch(/NOT A SCORE: 1 prompt had no recorded completion/);
  }, 60_000);
});
