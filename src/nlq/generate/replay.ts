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
  /** The question of the prompt that had no recording. */
  readonly question: string;
  constructor(message: string, question: string) {
    super(message);
    this.question = question;
  }
}

const questionOf = (prompt: string): string | undefined => /^Question: (.*)$/m.exec(prompt)?.[1];

const clip = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s);

/**
 * Where a prompt departs from the recorded prompt of the same question and kind (first or repair
 * round), so a miss says what drifted ("line 10 was … and is now …") rather than only that it did.
 */
function driftFrom(prompt: string, recordings: readonly Recording[]): string | undefined {
  const q = questionOf(prompt);
  const repair = prompt.includes('\nIt failed: ');
  const same = recordings.find((r) => questionOf(r.prompt) === q && r.prompt.includes('\nIt failed: ') === repair);
  if (!same) return undefined;
  const now = prompt.split('\n');
  const was = same.prompt.split('\n');
  for (let i = 0; i < Math.max(now.length, was.length); i++) {
    if (now[i] !== was[i]) return `the recorded prompt for this question differs from line ${i + 1}: it was ${clip(was[i] ?? '(end of prompt)')}, it is now ${clip(now[i] ?? '(end of prompt)')}`;
  }
  return undefined;
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
        const asked = questionOf(prompt) ?? '(no question line)';
        const known = [...new Set(recordings.map((r) => questionOf(r.prompt)).filter(Boolean))].slice(0, 12);
        const drift = driftFrom(prompt, recordings);
        throw new ReplayMissError(`no recorded completion for this prompt (question "${asked}")${drift ? `; ${drift}` : `; no recording asks it${prompt.includes('\nIt failed: ') ? ' in a repair round' : ''}; the recordings hold: ${known.map((q) => `"${q}"`).join(', ') || 'nothing'}`}. The prompt, the graph or the configuration changed since recording: re-record the fixture (ASSAY_NLQ_RECORD=<file> against a model, or npx tsx test/nlq/record-replay.mts <cases.jsonl> <fixture.json> for a stub fixture)`, asked);
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
