import { describe, expect, it } from 'vitest';
import { recordingClient, replayClient, ReplayMissError, type Recording } from '../../src/llm/replay.ts';
import { modelConfigFromEnv } from '../../src/llm/config.ts';
import type { ModelClient } from '../../src/llm/types.ts';

const live: ModelClient = { modelFor: () => 'live-model', complete: async (r) => ({ text: `answer to ${r.messages.at(-1)!.content}`, model: 'live-model' }) };

describe('record and replay', () => {
  it('replays exactly what was recorded, keyed by role + messages + schema, and fails loudly on a miss', async () => {
    const sink: Recording[] = [];
    const rec = recordingClient(live, undefined, sink);
    const req = { role: 'classify' as const, messages: [{ role: 'user' as const, content: 'q1' }], jsonSchema: { name: 's', schema: {} } };
    expect((await rec.complete(req)).text).toBe('answer to q1');
    const replay = replayClient(sink);
    expect((await replay.complete(req)).text).toBe('answer to q1');
    await expect(replay.complete({ ...req, role: 'rerank' })).rejects.toThrow(ReplayMissError);
    await expect(replay.complete({ ...req, messages: [{ role: 'user', content: 'q2' }] })).rejects.toThrow(/no recorded completion/);
  });
});

describe('model configuration', () => {
  it('is absent when nothing is configured, per role when it is', () => {
    expect(modelConfigFromEnv({})).toBeUndefined();
    const c = modelConfigFromEnv({ ASSAY_LLM_URL: 'http://127.0.0.1:1/v1', ASSAY_LLM_MODEL: 'small', ASSAY_LLM_MODEL_CLASSIFY: 'big' });
    expect(c?.models).toEqual({ classify: 'big', rerank: 'small', synthesise: 'small' });
    expect(c?.apiKey).toBeUndefined();
    expect(() => modelConfigFromEnv({ ASSAY_LLM_URL: 'http://x/v1' })).toThrow(/ASSAY_LLM_MODEL/);
  });
});
