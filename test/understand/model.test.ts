import { afterEach, describe, expect, it } from 'vitest';
import { openAiClient } from '../../src/llm/openai-backend.ts';
import { ModelTransportError } from '../../src/llm/types.ts';
import { interpretWithModel } from '../../src/understand/model/interpret.ts';
import { startStub, type ChatBody, type Stub } from '../llm/stub-server.ts';

const Q = "What was Apple's total revenue in 2023?";
const STRUCTURE = { shape: 'point', entity: 'Apple', canonical_entity: 'Apple Inc.', entity_status: 'resolved', entity_candidates: [], entities: [], type: 'company', direction: null, geography: null };
const MEASURE = { attribute: 'total revenue', attributes: [], interpretations: [], period: { text: '2023', basis: 'unspecified', year: 2023, quarter: null, date: null, latest: false }, periods: [], quantifier: null, threshold: null, order: null, limit: null };

const isStructure = (b: ChatBody) => b.messages[0]!.content.includes('who it is about');
let stub: Stub | undefined;
afterEach(async () => { await stub?.close(); stub = undefined; });

// test/setup.ts guards fetch to loopback; passing a Request keeps the method and body through its wrapper.
const loopbackFetch = ((url: string | URL | Request, init?: RequestInit) => globalThis.fetch(new Request(url, init))) as typeof fetch;

function client(url: string) {
  return openAiClient({ baseURL: url, models: { classify: 'classifier-x', rerank: 'r', synthesise: 's' }, timeoutMs: 5000 }, { maxRetries: 0, fetch: loopbackFetch });
}

describe('model interpreter against a stub OpenAI-compatible server', () => {
  it('merges the structure and measure calls into a valid intent', async () => {
    stub = await startStub((b) => ({ content: JSON.stringify(isStructure(b) ? STRUCTURE : MEASURE) }));
    const u = await interpretWithModel(Q, client(stub.url));
    expect(u.status).toBe('understood');
    if (u.status !== 'understood') return;
    expect(u.intent).toMatchObject({ question: Q, shape: 'point', canonical_entity: 'Apple Inc.', attribute: 'total revenue' });
    expect(u.interpreter).toBe('model');
    expect(stub.requests).toHaveLength(2);
    for (const r of stub.requests) {
      expect(r.model).toBe('classifier-x');
      expect(r.response_format).toMatchObject({ type: 'json_schema' });
      expect(r.messages.at(-1)!.content).toContain(Q);
    }
  });

  it('retries once with the errors after invalid JSON, then accepts a valid answer', async () => {
    let structureCalls = 0;
    stub = await startStub((b) => {
      if (!isStructure(b)) return { content: JSON.stringify(MEASURE) };
      structureCalls++;
      return { content: structureCalls === 1 ? '{"shape": "point", "entity": ' : JSON.stringify(STRUCTURE) };
    });
    const u = await interpretWithModel(Q, client(stub.url));
    expect(u.status).toBe('understood');
    const retry = stub.requests.filter(isStructure)[1]!;
    expect(retry.messages.at(-1)!.content).toMatch(/not valid: \(root\): not JSON/);
    expect(retry.messages.at(-2)).toMatchObject({ role: 'assistant' });
  });

  it('refuses after a schema-violating answer twice, naming the violations', async () => {
    stub = await startStub((b) => ({ content: JSON.stringify(isStructure(b) ? { ...STRUCTURE, shape: 'histogram', entity_status: 'maybe' } : MEASURE) }));
    const u = await interpretWithModel(Q, client(stub.url));
    expect(u.status).toBe('cannot_tell');
    if (u.status !== 'cannot_tell') return;
    expect(u.reason).toMatch(/invalid twice.*refusing rather than guessing/);
    expect(u.issues!.map((i) => i.path)).toEqual(expect.arrayContaining(['shape', 'entity_status']));
    expect(stub.requests.filter(isStructure)).toHaveLength(2);
  });

  it('refuses a merged intent that breaks a cross-field rule (comparison with one entity)', async () => {
    stub = await startStub((b) => ({ content: JSON.stringify(isStructure(b) ? { ...STRUCTURE, shape: 'comparison', entities: ['Apple'] } : MEASURE) }));
    const u = await interpretWithModel(Q, client(stub.url));
    expect(u.status).toBe('cannot_tell');
    if (u.status === 'cannot_tell') expect(u.reason).toMatch(/merged intent.*entities/);
  });

  it('reports a transport failure as an error naming the endpoint', async () => {
    stub = await startStub(() => ({ status: 500 }));
    await expect(interpretWithModel(Q, client(stub.url))).rejects.toThrow(ModelTransportError);
    await expect(interpretWithModel(Q, client(stub.url))).rejects.toThrow(/127\.0\.0\.1.*HTTP 500/);
  });
});
