/**
 * Discovery metrics over the labelled corpus: rank-1 and top-15 recall of an acceptable source
 * and of an acceptable measure/operation (a measure also counts when the question names only
 * operations and one of them serves it). Questions with no acceptable source are left out.
 */
import type { CorpusRecord } from '../understand/corpus.ts';
import type { Intent } from '../understand/intent.ts';
import type { Candidate, DiscoveryIndex } from './index.ts';

export interface Recall { rank1: number; top15: number }
export interface DiscoveryMetrics {
  questions: number;
  source: Recall;
  measure: Recall;
  msPerQuery: number;
  misses: { id: string; question: string; top: string[] }[];
}

export function acceptableMeasure(r: CorpusRecord, c: Candidate): boolean {
  if (r.acceptable_measures.includes(c.card.key) || r.acceptable_operations.includes(c.card.key)) return true;
  return r.acceptable_measures.length === 0 && c.card.kind === 'measure' && c.card.operations.some((o) => r.acceptable_operations.includes(o.key));
}

export function discoveryMetrics(index: DiscoveryIndex, corpus: CorpusRecord[], toIntent: (r: CorpusRecord) => Intent | null): DiscoveryMetrics {
  let n = 0; let s1 = 0; let s15 = 0; let m1 = 0; let m15 = 0;
  const misses: DiscoveryMetrics['misses'] = [];
  const t0 = performance.now();
  for (const r of corpus) {
    if (r.acceptable_sources.length === 0) continue;
    n++;
    const intent = toIntent(r);
    const top = intent ? index.discoverTop(intent, 15).candidates : [];
    const okS = (c: Candidate) => r.acceptable_sources.includes(c.card.publisherId);
    if (top[0] && okS(top[0])) s1++;
    if (top.some(okS)) s15++;
    if (top[0] && acceptableMeasure(r, top[0])) m1++;
    if (top.some((c) => acceptableMeasure(r, c))) m15++;
    if (!top[0] || !okS(top[0])) misses.push({ id: r.id, question: r.question, top: top.slice(0, 3).map((c) => c.card.key) });
  }
  const d = n || 1;
  return { questions: n, source: { rank1: s1 / d, top15: s15 / d }, measure: { rank1: m1 / d, top15: m15 / d }, msPerQuery: (performance.now() - t0) / d, misses };
}
