/**
 * Planner metrics: verdict accuracy over the corpus with gold intents (so planning is measured
 * apart from interpretation), per expected verdict, with every mismatch listed with its reason.
 */
import type { DiscoveryIndex } from '../discover/index.ts';
import type { CorpusRecord } from '../understand/corpus.ts';
import type { Intent } from '../understand/intent.ts';
import { planQuestion } from './index.ts';

export interface PlanMetrics {
  questions: number;
  accuracy: number;
  perVerdict: Record<string, { n: number; correct: number }>;
  confusion: Record<string, Record<string, number>>;
  mismatches: { id: string; question: string; expected: string; got: string; reason: string }[];
}

export function planMetrics(index: DiscoveryIndex, corpus: CorpusRecord[], toIntent: (r: CorpusRecord) => Intent | null): PlanMetrics {
  const perVerdict: PlanMetrics['perVerdict'] = {};
  const confusion: PlanMetrics['confusion'] = {};
  const mismatches: PlanMetrics['mismatches'] = [];
  let correct = 0;
  for (const r of corpus) {
    const intent = toIntent(r);
    const p = intent ? planQuestion(intent, index) : undefined;
    const got = p?.verdict ?? 'not understood';
    const pv = (perVerdict[r.expected_verdict] ??= { n: 0, correct: 0 });
    pv.n++;
    (confusion[r.expected_verdict] ??= {})[got] = (confusion[r.expected_verdict]![got] ?? 0) + 1;
    if (got === r.expected_verdict) { correct++; pv.correct++; } else mismatches.push({ id: r.id, question: r.question, expected: r.expected_verdict, got, reason: p?.reason ?? 'the interpreter could not tell' });
  }
  return { questions: corpus.length, accuracy: corpus.length ? correct / corpus.length : 0, perVerdict, confusion, mismatches };
}
