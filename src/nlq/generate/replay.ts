/**
 * Record and replay completions by exact prompt. Prompts are deterministic functions of the
 * graph, the question and the configuration, so a replay miss means one of them drifted: the
 * error names the recorded questions so the fixture can be re-recorded.
 *
 * Fixture format (JSON): { "format": "assay-nlq-replay/1", "recordings": [{ "prompt", "completion" }] }.
 * Several recordings of one prompt are answered in order (a repair round that repeats a prompt).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Completer } from './types.ts';

export const REPLAY_FORMAT = 'assay-nlq-replay/1';

export interface Recording { prompt: string; completion: string }
export interface ReplayFile { format: typeof REPLAY_FORMAT; recordings: Recording[] }

export class ReplayMissError extends Error {
  override readonly name = 'ReplayMissError';
}

export function replayCompleter(recordings: readonly Recording[], id = 'replay'): Completer {
  const byPrompt = new Map<string, string[]>();
  for (const r of recordings) byPrompt.set(r.prompt, [...(byPrompt.get(r.prompt) ?? []), r.completion]);
  const cursor = new Map<string, number>();
  return {
    id,
    async complete(prompt) {
      const list = byPrompt.get(prompt);
      if (!list) {
        const asked = /Question: (.*)$/m.exec(prompt)?.[1] ?? '(no question line)';
        const known = [...new Set(recordings.map((r) => /Question: (.*)$/m.exec(r.prompt)?.[1]).filter(Boolean))].slice(0, 12);
        throw new ReplayMissError(`no recorded completion for this prompt (question "${asked}"); the recordings hold: ${known.map((q) => `"${q}"`).join(', ') || 'nothing'}. The prompt, the graph or the configuration changed since recording: re-record with ASSAY_NLQ_RECORD=<file> against a model`);
      }
      const n = cursor.get(prompt) ?? 0;
      cursor.set(prompt, n + 1);
      return list[Math.min(n, list.length - 1)]!;
    },
  };
}

export async function loadReplay(path: string): Promise<Recording[]> {
  const doc = JSON.parse(await readFile(path, 'utf8')) as Partial<ReplayFile>;
  if (doc.format !== REPLAY_FORMAT || !Array.isArray(doc.recordings)) throw new Error(`${path} is not an NL→SPARQL replay fixture (expected "format": "${REPLAY_FORMAT}")`);
  return doc.recordings;
}

/** Wraps a live completer; `recordings` grows with every answer, `save` writes a replay fixture. */
export function recordingCompleter(inner: Completer): Completer & { recordings: Recording[]; save(path: string): Promise<void> } {
  const recordings: Recording[] = [];
  return {
    id: inner.id,
    recordings,
    async complete(prompt, signal) {
      const completion = await inner.complete(prompt, signal);
      recordings.push({ prompt, completion });
      return completion;
    },
    async save(path) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, JSON.stringify({ format: REPLAY_FORMAT, recordings } satisfies ReplayFile, null, 1) + '\n');
    },
  };
}
