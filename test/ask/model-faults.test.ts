/**
 * A model that fails is an outcome of the question, not a crash: every model call (understanding,
 * drafting) that fails in transport, answers something that is not a chat completion, or is stopped
 * by the deadline or the caller, ends the question as a typed refusal that says what failed and
 * what to do, and the run is recorded like any other (it was a 500 "bug in Assay", with no run).
 * The one exception is the drafting model failing after the evidence is admitted and graded: its
 * job is only the wording, so the plain rendering is given with a disclosure saying why.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { openAiClient } from '../../src/llm/openai-backend.ts';
import { ModelCallAborted, ModelTransportError, type ModelClient } from '../../src/llm/types.ts';
import { BASE, testServices } from './services.ts';

const Q = "What was Apple's total revenue in 2023?";

/** A model whose every call (or every call of one role) fails in transport. */
const failing = (role?: string): ModelClient => ({
  modelFor: () => 'down-model',
  async complete(req) {
    if (role && req.role !== role) return { text: JSON.stringify({ answers: true, reason: 'scripted' }), model: 'down-model' };
    throw new ModelTransportError('model call (classify, down-model) to http://127.0.0.1:9/v1 failed: Connection error. Check ASSAY_LLM_URL, ASSAY_LLM_MODEL and ASSAY_LLM_KEY.');
  },
});

/** An OpenAI-compatible endpoint on loopback that accepts every call and never answers. */
let hangingServer: Server;
let hanging: ModelClient;
beforeAll(async () => {
  hangingServer = createServer(() => { /* never answers */ });
  await new Promise<void>((r) => hangingServer.listen(0, '127.0.0.1', r));
  hanging = openAiClient({ baseURL: `http://127.0.0.1:${(hangingServer.address() as AddressInfo).port}/v1`, models: { classify: 'hung-model', rerank: 'hung-model', synthesise: 'hung-model' }, timeoutMs: 60_000 }, { maxRetries: 0 });
});
afterAll(() => { hangingServer.closeAllConnections(); return new Promise<void>((r) => hangingServer.close(() => r())); });

const runGraphSize = (s: AskServices, runId: string) => s.store.rdf.graphSize(`${BASE}graph/runs/${runId}`);

describe('a failing model ends the question as a refusal that says so', () => {
  let base: AskServices;
  beforeAll(async () => { base = await testServices(); }, 120_000);

  it('understanding: a transport failure → operationally_blocked (model_unavailable), naming the endpoint and the settings', async () => {
    const s = { ...base, model: failing() };
    const r = await ask(s, { question: Q, interpreter: 'model' });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'operationally_blocked', code: 'model_unavailable' });
    expect(r.refusal!.reason).toContain('http://127.0.0.1:9/v1');
    expect(r.refusal!.answerable_if).toContain('ASSAY_LLM_URL');
    expect(r.figures).toEqual([]);
    expect(runGraphSize(s, r.run_id)).toBeGreaterThan(0);
  });

  it('understanding: the deadline passing while the model hangs → operationally_blocked (deadline), saying it waited on the model', async () => {
    const s = { ...base, model: hanging };
    const r = await ask(s, { question: Q, interpreter: 'model', timeoutMs: 200 });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'operationally_blocked', code: 'deadline' });
    expect(r.refusal!.reason).toContain('passed before the model (classify, hung-model) answered');
    expect(r.refusal!.answerable_if).toContain('longer deadline');
    expect(runGraphSize(s, r.run_id)).toBeGreaterThan(0);
  });

  it('understanding: the caller cancelling while the model works → cancelled', async () => {
    const caller = new AbortController();
    const p = ask({ ...base, model: hanging }, { question: Q, interpreter: 'model' }, { signal: caller.signal });
    setTimeout(() => caller.abort(new Error('the client disconnected')), 20);
    const r = await p;
    expect(r.refusal).toMatchObject({ boundary: 'cancelled', code: 'cancelled' });
    expect(r.refusal!.reason).toContain('the client disconnected');
  });

  it('drafting: a transport failure after the evidence was admitted → answered in the plain rendering, saying the model did not word it', async () => {
    // a judge that says no to every residual question, so the measure read is the one the offline default reads
    const s = { ...base, model: { ...failing('synthesise'), async complete(req) { if (req.role !== 'synthesise') return { text: JSON.stringify({ answers: false, reason: 'scripted' }), model: 'down-model' }; return failing().complete(req); } } as ModelClient };
    const r = await ask(s, { question: Q });
    expect(r.status).toBe('answered');
    expect(r.rendering).toBe('plain');
    expect(r.text).toMatch(/383,285,000,000|383\.3 billion/);
    expect(r.figures.every((f) => f.grade === 'verified')).toBe(true);
    expect(r.qualification!.disclosures).toContain('the model that words answers (down-model) did not answer, so the answer is in the plain rendering; the figures and citations are the same');
    expect(s.store.rdf.graphSize(`${BASE}graph/evidence`)).toBeGreaterThan(0);
    expect(runGraphSize(s, r.run_id)).toBeGreaterThan(0);
  });

  it('drafting: a model that drafts nothing → the plain rendering, saying so', async () => {
    const empty: ModelClient = { modelFor: () => 'mute-model', async complete(req) { return { text: req.role === 'synthesise' ? '   ' : JSON.stringify({ answers: true, reason: 'scripted' }), model: 'mute-model' }; } };
    const r = await ask({ ...base, model: empty }, { question: Q });
    expect(r.status).toBe('answered');
    expect(r.rendering).toBe('plain');
    expect(r.figures.length).toBeGreaterThan(0);
    expect(r.qualification!.disclosures.join(' ')).toMatch(/\(mute-model\) drafted nothing, so the answer is in the plain rendering/);
  });

  it('drafting: the deadline passing while the drafting model hangs still ends the question (deadline), not a fallback', async () => {
    const calls: string[] = [];
    const slowDraft: ModelClient = {
      modelFor: () => 'slow-model',
      complete(req) {
        calls.push(req.role);
        if (req.role !== 'synthesise') return Promise.resolve({ text: JSON.stringify({ answers: true, reason: 'scripted' }), model: 'slow-model' });
        return new Promise((_, reject) => req.signal?.addEventListener('abort', () => reject(new ModelCallAborted('synthesise', 'slow-model', req.signal?.reason)), { once: true }));
      },
    };
    const r = await ask({ ...base, model: slowDraft }, { question: Q, timeoutMs: 1500 });
    expect(calls).toContain('synthesise');
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'operationally_blocked', code: 'deadline' });
  });
});

describe('the OpenAI-compatible backend against an endpoint that is not one', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><head><title>Sign in</title></head><body>Sign in</body></html>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('an HTML page with status 200 is a transport failure naming the page and the setting, not a TypeError', async () => {
    const c = openAiClient({ baseURL: url, models: { classify: 'm', rerank: 'm', synthesise: 'm' }, timeoutMs: 5_000 }, { maxRetries: 0 });
    const e = await c.complete({ role: 'classify', messages: [{ role: 'user', content: 'hello' }] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ModelTransportError);
    expect((e as Error).message).toContain('an HTML page ("Sign in"), not a chat completion');
    expect((e as Error).message).toContain('ASSAY_LLM_URL');
  });
});

describe('the OpenAI-compatible backend against an endpoint whose answer never ends', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"x","choices":[');
      const t = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(t));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => { server.closeAllConnections(); return new Promise<void>((r) => server.close(() => r())); });

  it('a 200 whose body keeps trickling is stopped by ASSAY_LLM_TIMEOUT_MS, not only by the question deadline', async () => {
    const c = openAiClient({ baseURL: url, models: { classify: 'm', rerank: 'm', synthesise: 'm' }, timeoutMs: 300 }, { maxRetries: 0 });
    const e = await c.complete({ role: 'classify', messages: [{ role: 'user', content: 'hello' }] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ModelTransportError);
    expect((e as Error).message).toMatch(/did not finish within 300 ms \(ASSAY_LLM_TIMEOUT_MS = 300 ms per attempt\): the endpoint answered but its body did not end/);
  }, 20_000);
});
