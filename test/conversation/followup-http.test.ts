/**
 * Conversations over HTTP on the offline default: a point question, then a year change, an entity
 * change, a measure change and a comparison, each answered with the carried-over fields disclosed;
 * a follow-up with no previous turn refused as not understood; the conversation survives a
 * restart because it lives in the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { build } from '../../src/server/app.ts';
import { loadConfig } from '../../src/config.ts';
import { DurableStore } from '../../src/rdf/durable.ts';

const BASE = 'http://assay.test/';
let dir: string;
let store: DurableStore;
let app: FastifyInstance;

async function start() {
  store = await DurableStore.open(join(dir, 'data'));
  app = await build({ config: loadConfig({ dataDir: join(dir, 'data'), baseIri: BASE }, {}), store });
}
async function stop() { await app?.close(); await store?.close(); }

beforeAll(async () => { dir = mkdtempSync(join(tmpdir(), 'assay-conv-')); await start(); }, 60_000);
afterAll(async () => { await stop(); rmSync(dir, { recursive: true, force: true }); });

const ask = async (payload: Record<string, unknown>) => {
  const res = await app.inject({ method: 'POST', url: '/ask', payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const carried = (r: { followup?: { carried: Array<{ field: string }> } }) => r.followup?.carried.map((c) => c.field) ?? [];

describe('follow-up questions', () => {
  let conversation: string;
  let first: { run: string; run_id: string };

  it('a first question starts a conversation', async () => {
    const r = await ask({ question: "What was Apple's total revenue in 2023?" });
    expect(r.status).toBe('answered');
    expect(r.conversation).toMatch(/^[0-9a-f]{16}$/);
    expect(r.followup).toBeUndefined();
    conversation = r.conversation;
    first = r;
  }, 120_000);

  it('"and in 2022?" changes the year and carries the entity and the measure, said in the answer', async () => {
    const r = await ask({ question: 'and in 2022?', conversation });
    expect(r.status).toBe('answered');
    expect(r.conversation).toBe(conversation);
    expect(r.evidence[0]).toMatchObject({ entity: 'Apple Inc.', period: 'FY2022', value: 394328000000 });
    expect(r.followup).toMatchObject({ from_run: first.run, parts: ['period'], replaced: [{ field: 'period' }] });
    expect(carried(r)).toEqual(expect.arrayContaining(['entity', 'attribute']));
    expect(r.qualification.disclosures[0]).toBe(`Read as a follow-up to "What was Apple's total revenue in 2023?": carried over entity "Apple", attribute "total revenue"; this turn set period "2022".`);
  }, 120_000);

  it('"what about Alphabet?" changes the entity and keeps the measure and year of the turn before', async () => {
    const r = await ask({ question: 'what about Alphabet?', conversation });
    expect(r.status).toBe('answered');
    expect(r.evidence[0]).toMatchObject({ entity: 'Alphabet Inc.', period: 'FY2022' });
    expect(r.followup.parts).toEqual(['entity']);
    expect(carried(r)).toEqual(expect.arrayContaining(['attribute', 'period']));
  }, 120_000);

  it('"and its net income?" changes the measure and keeps the entity and the year', async () => {
    const start = await ask({ question: "What was Apple's total revenue in 2023?" });
    const r = await ask({ question: 'and its net income?', conversation: start.conversation });
    expect(r.status).toBe('answered');
    expect(r.evidence[0]).toMatchObject({ entity: 'Apple Inc.', measure: 'sec-edgar/us-gaap/NetIncomeLoss', period: 'FY2023', value: 96995000000 });
    expect(r.followup.parts).toEqual(['measure']);
    expect(carried(r)).toEqual(expect.arrayContaining(['entity', 'period']));
    expect(r.qualification.disclosures[0]).toMatch(/^Read as a follow-up .*carried over entity "Apple", period "2023"; this turn set attribute "net income"/);

    const cmp = await ask({ question: 'compare that with Alphabet', conversation: start.conversation });
    expect(cmp.status).toBe('answered');
    expect(cmp.intent).toMatchObject({ shape: 'comparison', entities: ['Apple', 'Alphabet'], attribute: 'net income' });
    expect(cmp.evidence.map((e: { entity: string }) => e.entity).sort()).toEqual(['Alphabet Inc.', 'Apple Inc.']);
  }, 180_000);

  it('the progress trace says what was carried, as the follow-up reader decided it', async () => {
    const res = await app.inject({ method: 'POST', url: '/ask/stream', payload: { question: 'and in 2021?', conversation } });
    const lines = res.body.trim().split('\n').map((l) => JSON.parse(l));
    const first = lines[0].event;
    expect(first).toMatchObject({ stage: 'structure', by: 'follow-up reader (offline)' });
    expect(first.message).toMatch(/^Read as a follow-up to "what about Alphabet\?": carried over entity "Alphabet"/);
    expect(lines[lines.length - 1].result.evidence[0]).toMatchObject({ entity: 'Alphabet Inc.', period: 'FY2021' });
  }, 120_000);

  it('a follow-up with no previous turn is refused as not understood, saying why', async () => {
    for (const question of ['and in 2022?', 'what about Microsoft?', 'compare that with Alphabet']) {
      const r = await ask({ question });
      expect(r.status, question).toBe('refused');
      expect(r.refusal).toMatchObject({ boundary: 'not_understood' });
      expect(r.refusal.reason).toMatch(/follow-up .* no previous turn/);
      expect(r.refusal.answerable_if).toMatch(/whole question/);
      const graph = await app.inject({ url: `/runs/${r.run_id}`, headers: { accept: 'text/turtle' } });
      expect(graph.statusCode).toBe(200); // recorded like any refusal
    }
  });

  it('the conversation lives in the store: it is in the runs graphs and survives a restart', async () => {
    const q = await app.inject({ url: `/sparql?query=${encodeURIComponent(`SELECT ?run ?field WHERE { ?run <http://purl.org/dc/terms/isPartOf> <${BASE}conversation/${conversation}> . OPTIONAL { ?run <https://w3id.org/assay/ns#carriedOver> ?field } }`)}`, headers: { accept: 'application/sparql-results+json' } });
    const rows = q.json().results.bindings as Array<{ run: { value: string }; field?: { value: string } }>;
    expect(new Set(rows.map((r) => r.run.value)).size).toBe(4);
    expect(rows.filter((r) => r.run.value === first.run).every((r) => !r.field)).toBe(true);
    await stop();
    await start();
    const r = await ask({ question: 'and in 2020?', conversation });
    expect(r.evidence[0]).toMatchObject({ entity: 'Alphabet Inc.', period: 'FY2020' });
  }, 120_000);

  it('the model interpreter asked of a gateway with no model is a 400 saying what to do', async () => {
    const res = await app.inject({ method: 'POST', url: '/ask', payload: { question: 'and in 2022?', conversation, interpreter: 'model' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/interpreter "model" asked, but this gateway has no model configured.*"interpreter": "offline".*ASSAY_LLM_URL/);
    const bad = await app.inject({ method: 'POST', url: '/ask', payload: { question: 'and in 2022?', interpreter: 'oracle' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/interpreter/);
  });

  it('a malformed conversation id is a 400 saying what to send', async () => {
    const res = await app.inject({ method: 'POST', url: '/ask', payload: { question: 'and in 2022?', conversation: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/conversation: a conversation id is the "conversation" of an earlier ask result/);
  });
});
