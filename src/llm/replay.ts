/**
 * Recorded completions: a request is keyed by a hash of its role, messages and schema; the replay
 * backend answers from recordings and fails loudly on a miss (tests never reach a model), and the
 * recording wrapper captures what a live client answered. Recordings are JSON lines
 * (`fixtures/completions/*.jsonl`), one `{key, role, model, request, text}` per line.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CompletionRequest, CompletionResult, ModelClient, ModelRole } from './types.ts';

export interface Recording { key: string; role: ModelRole; model: string; request: { messages: CompletionRequest['messages']; schema?: string }; text: string }

export function requestKey(req: CompletionRequest): string {
  const canonical = JSON.stringify({ role: req.role, messages: req.messages, schema: req.jsonSchema?.name ?? null });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

export class ReplayMissError extends Error {
  override readonly name = 'ReplayMissError';
}

export function replayClient(recordings: readonly Recording[], model = 'replay'): ModelClient {
  const byKey = new Map<string, Recording[]>();
  for (const r of recordings) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  // Several recordings under one key are answered in order (a retry sees the next one).
  const cursor = new Map<string, number>();
  return {
    modelFor: () => model,
    async complete(req) {
      const key = requestKey(req);
      const list = byKey.get(key);
      if (!list) throw new ReplayMissError(`no recorded completion for this ${req.role} request (key ${key}); record it with ASSAY_LLM_RECORD=<dir> against a live model`);
      const n = cursor.get(key) ?? 0;
      cursor.set(key, n + 1);
      const r = list[Math.min(n, list.length - 1)]!;
      return { text: r.text, model: r.model };
    },
  };
}

export async function loadRecordings(dir: string): Promise<Recording[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
  const out: Recording[] = [];
  for (const f of files) {
    for (const line of (await readFile(join(dir, f), 'utf8')).split('\n')) if (line.trim()) out.push(JSON.parse(line) as Recording);
  }
  return out;
}

/** Wraps a live client; every answer is appended to `file` (and to `sink`, for tests). */
export function recordingClient(inner: ModelClient, file: string | undefined, sink?: Recording[]): ModelClient {
  return {
    modelFor: (role) => inner.modelFor(role),
    async complete(req): Promise<CompletionResult> {
      const res = await inner.complete(req);
      const rec: Recording = { key: requestKey(req), role: req.role, model: res.model, request: { messages: req.messages, ...(req.jsonSchema ? { schema: req.jsonSchema.name } : {}) }, text: res.text };
      sink?.push(rec);
      if (file) {
        await mkdir(dirname(file), { recursive: true });
        await appendFile(file, JSON.stringify(rec) + '\n');
      }
      return res;
    },
  };
}
