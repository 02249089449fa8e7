import { describe, expect, it } from 'vitest';
import { modelReranker } from '../../src/discover/rerank.ts';
import type { Candidate, Card } from '../../src/discover/index.ts';
import type { ModelClient } from '../../src/llm/types.ts';
import { parseIntent } from '../../src/understand/intent.ts';

const intent = (() => { const r = parseIntent({ question: 'What was Apple revenue?', shape: 'point', entity: 'Apple', entity_status: 'resolved', attribute: 'revenue' }); if (!r.ok) throw new Error(); return r.intent; })();
const cand = (id: string, rank: number): Candidate => ({ rank, score: 10 - rank, coverage: 1, matched: [], card: { id, kind: 'measure', key: id, publisherId: 'p', title: id, description: '', questions: '', source: '', operations: [] } as Card });
const scripted = (answers: string[]): ModelClient & { calls: number } => {
  const c = { calls: 0, modelFor: () => 'cheap', complete: async () => ({ text: answers[Math.min(c.calls++, answers.length - 1)]!, model: 'cheap' }) };
  return c;
};

describe('model re-rank', () => {
  const cands = [cand('a', 1), cand('b', 2), cand('c', 3)];
  it('reorders the survivors and keeps the ones it left out after them', async () => {
    const r = await modelReranker(scripted(['{"ranking":["c","a"]}'])).rerank(intent, cands);
    expect(r.map((c) => c.card.id)).toEqual(['c', 'a', 'b']);
  });
  it('retries once on an invalid answer, then keeps the prefilter order', async () => {
    const m = scripted(['not json', '{"ranking":["zzz"]}']);
    const r = await modelReranker(m).rerank(intent, cands);
    expect(r.map((c) => c.card.id)).toEqual(['a', 'b', 'c']);
    expect(m.calls).toBe(2);
  });
});
