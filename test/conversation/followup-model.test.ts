/**
 * Follow-ups on the model path, against a stub OpenAI-compatible server on loopback: the model is
 * given the previous turn's intent as explicit context (it is in both understanding prompts), and
 * which fields were carried over is worked out by code from the two intents and the question —
 * the model is not asked. An elliptical question with no previous turn is refused before any model
 * call. End to end, a conversation whose second turn is read by the model answers from the
 * publisher's recorded response, discloses the carried fields in the answer and the progress trace,
 * and records them in the run graph.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAiClient } from '../../src/llm/openai-backend.ts';
import { understand, interpretOffline, type Intent } from '../../src/understand/index.ts';
import { askTurn } from '../../src/conversation/ask.ts';
import { loadAskServices, type AskServices } from '../../src/ask/services.ts';
import type { ProgressEvent } from '../../src/execute/progress.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { ASSAY } from '../../src/rdf/vocab.ts';
import { startStub, type ChatBody, type Stub } from '../llm/stub-server.ts';
import { testServices } from '../ask/services.ts';

const BASE = 'http://assay.test/';
const FIRST = "What was Apple's total revenue in 2023?";
const isStructure = (b: ChatBody) => b.messages[0]!.content.includes('who it is about');
const isMeasure = (b: ChatBody) => b.messages[0]!.content.includes('which quantity it asks for');
const year = (y: number) => ({ text: String(y), basis: 'unspecified', year: y, quarter: null, date: null, latest: false });
const structure = (entity: string, canonical: string) => ({ shape: 'point', entity, canonical_entity: canonical, entity_status: 'resolved', entity_candidates: [], entities: [], type: 'company', direction: null, geography: null });
const measure = (attribute: string, y: number) => ({ attribute, attributes: [], interpretations: [], period: year(y), periods: [], quantifier: null, threshold: null, order: null, limit: null });

// test/setup.ts guards fetch to loopback; passing a Request keeps the method and body through its wrapper.
const loopbackFetch = ((url: string | URL | Request, init?: RequestInit) => globalThis.fetch(new Request(url, init))) as typeof fetch;
const client = (url: string) => openAiClient({ baseURL: url, models: { classify: 'classifier-x', rerank: 'r', synthesise: 's' }, timeoutMs: 20_000 }, { maxRetries: 0, fetch: loopbackFetch });

/**
 * The stub reads the question out of the prompt: the first question → Apple, total revenue,
 * 2023; "and in 2022?" → Apple, total revenue, 2022; anything else → Microsoft, net income, 2022. A drafting call states the sheet's first figure;
 * any other call fails (500).
 */
const script = (b: ChatBody) => {
  const user = b.messages.find((m) => m.role === 'user')!.content;
  const followup = user.startsWith('Question: "and in 2022?"');
  const first = user.startsWith(`Question: ${JSON.stringify(FIRST)}`);
  if (isStructure(b)) return { content: JSON.stringify(followup || first ? structure('Apple', 'Apple Inc.') : structure('Microsoft', 'Microsoft Corporation')) };
  if (isMeasure(b)) return { content: JSON.stringify(first ? measure('total revenue', 2023) : followup ? measure('total revenue', 2022) : measure('net income', 2022)) };
  // Drafting: one sentence stating the fact sheet's first figure as written (graded by code like any draft).
  const figure = /\$[0-9][0-9,]*/.exec(user)?.[0];
  if (b.messages[0]!.content.startsWith('You write the answer') && figure) return { content: `It was ${figure} [E1], per the publisher's filing.` };
  return { status: 500 };
};

let stub: Stub;
let previous: Intent;
beforeAll(async () => {
  stub = await startStub(script);
  const u = interpretOffline(FIRST);
  if (u.status !== 'understood') throw new Error('the first question must be understood offline');
  previous = u.intent;
});
afterAll(async () => stub?.close());

describe('the model interpreter in a conversation', () => {
  it('receives the previous turn\'s intent in both prompts, and the carried fields are worked out by code', async () => {
    const before = stub.requests.length;
    const u = await understand('and in 2022?', { interpreter: 'model', model: client(stub.url), previous });
    const sent = stub.requests.slice(before);
    expect(sent).toHaveLength(2);
    for (const r of sent) {
      const user = r.messages.find((m) => m.role === 'user')!.content;
      expect(user).toContain(`This question follows another in the same conversation: ${JSON.stringify(FIRST)}`);
      expect(user).toContain(JSON.stringify(previous));
    }
    expect(u).toMatchObject({ status: 'understood', interpreter: 'model', intent: { entity: 'Apple', attribute: 'total revenue', period: { year: 2022 } } });
    if (u.status !== 'understood') return;
    expect(u.followup?.carried.map((c) => c.field)).toEqual(expect.arrayContaining(['entity', 'attribute']));
    expect(u.followup?.replaced.map((c) => c.field)).toContain('period');
    expect(u.followup?.parts).toEqual(['period']);
    // The model also set the entity's type, which the offline reading of the first question left open: said as set by this turn.
    expect(u.followup?.said).toMatch(/^Read as a follow-up to "What was Apple's total revenue in 2023\?": carried over entity "Apple", attribute "total revenue"; this turn set (?:type "company", )?period "2022"\.$/);
  });

  it('a whole question after another stands alone: nothing is said to be carried', async () => {
    const u = await understand("What was Microsoft's net income in 2022?", { interpreter: 'model', model: client(stub.url), previous });
    expect(u).toMatchObject({ status: 'understood', intent: { entity: 'Microsoft', attribute: 'net income' } });
    expect(u.status === 'understood' && u.followup).toBeFalsy();
  });

  it('with no previous turn, an elliptical question is refused before any model call', async () => {
    const before = stub.requests.length;
    const u = await understand('and in 2022?', { interpreter: 'model', model: client(stub.url), previous: null });
    expect(u).toMatchObject({ status: 'cannot_tell', code: 'no_previous_turn', interpreter: 'model' });
    expect(u.status === 'cannot_tell' && u.answerable_if).toMatch(/whole question/);
    expect(stub.requests.length).toBe(before);
  });

  it('outside a conversation the prompts carry the question alone', async () => {
    const before = stub.requests.length;
    await understand("What was Microsoft's net income in 2022?", { interpreter: 'model', model: client(stub.url) });
    for (const r of stub.requests.slice(before)) expect(r.messages.map((m) => m.content).join('\n')).not.toContain('follows another');
  });
});

describe('a conversation whose follow-up is read by the model', () => {
  let services: AskServices;
  beforeAll(async () => {
    const base = await testServices();
    services = await loadAskServices({ store: DurableStore.inMemory(), baseIri: BASE, index: base.index, registry: base.registry, runtime: base.runtime, model: client(stub.url) });
  }, 120_000);

  it('answers "and in 2022?" from the recorded response, disclosing and recording what was carried', async () => {
    const first = await askTurn(services, { question: FIRST });
    expect(first.status).toBe('answered');
    const events: ProgressEvent[] = [];
    const r = await askTurn(services, { question: 'and in 2022?', interpreter: 'model', conversation: first.conversation }, { onProgress: (e) => events.push(e) });
    expect(r.interpreter).toBe('model');
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    expect(r.evidence[0]).toMatchObject({ entity: 'Apple Inc.', period: 'FY2022', value: 394328000000 });
    expect(r.followup).toMatchObject({ from_run: first.run, parts: ['period'] });
    expect(r.rendering).toBe('model');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['$394,328,000,000', 'verified']]);
    expect(r.qualification!.disclosures[0]).toMatch(/^Read as a follow-up to "What was Apple's total revenue in 2023\?": carried over entity "Apple", attribute "total revenue"/);
    const trace = events.find((e) => e.by === 'follow-up reader (model)');
    expect(trace?.message).toBe(r.qualification!.disclosures[0]);
    const carried = services.store.rdf.match(null, null, null, null).filter((q) => q.predicate.value === ASSAY.carriedOver && q.subject.value === r.run).map((q) => q.object.value);
    expect(carried).toEqual(expect.arrayContaining(['entity', 'attribute']));
  }, 240_000);
});

describe('assay chat --interpreter model', () => {
  it('reads every turn with the model, the follow-up with the previous turn as context', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-chat-model-'));
    try {
      const before = stub.requests.length;
      const env = { ...process.env, ASSAY_LLM_URL: stub.url, ASSAY_LLM_MODEL: 'stub-model' };
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['bin/assay.js', 'chat', '--interpreter', 'model', '--data', join(dir, 'data')], { stdio: ['pipe', 'pipe', 'pipe'], env });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => { stdout += d; });
        child.stderr.on('data', (d) => { stderr += d; });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(`${FIRST}\nand in 2022?\n`);
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('$383,285,000,000');
      expect(r.stdout).toContain('$394,328,000,000');
      expect(r.stdout).toContain('disclosed: Read as a follow-up');
      expect(r.stderr).toMatch(/\[follow-up reader \(model\)\] Read as a follow-up to "What was Apple's total revenue in 2023\?": carried over entity "Apple", (?:type "company", )?attribute "total revenue"/);
      const understanding = stub.requests.slice(before).filter((b) => isStructure(b) || isMeasure(b));
      expect(understanding).toHaveLength(4); // two calls per turn
      expect(understanding.slice(2).every((b) => b.messages.some((m) => m.content.includes('This question follows another')))).toBe(true);
      expect(understanding.slice(0, 2).some((b) => b.messages.some((m) => m.content.includes('This question follows another')))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
