/**
 * Optional model re-rank of the prefilter's survivors against their full cards, through the one
 * model interface (the `rerank` role, usually the cheaper model). This call may see source names:
 * it chooses among candidates the index returned, after interpretation. The model only reorders;
 * candidates it leaves out keep their prefilter order after the ones it ranked, and an invalid
 * answer (after one retry with the errors) leaves the prefilter order unchanged — a bad re-rank
 * costs a rank, never eligibility.
 */
import { z } from 'zod';
import type { ChatMessage, ModelClient } from '../llm/types.ts';
import type { Intent } from '../understand/intent.ts';
import type { Candidate, Reranker } from './index.ts';

const answerSchema = z.object({ ranking: z.array(z.string()) }).strict();

export function modelReranker(client: ModelClient, options: { maxCards?: number } = {}): Reranker {
  const maxCards = options.maxCards ?? 30;
  return {
    async rerank(intent: Intent, candidates: Candidate[], signal?: AbortSignal): Promise<Candidate[]> {
      // The survivors are the best-scored cards; the prompt carries at most maxCards full cards.
      const survivors = candidates.slice(0, maxCards);
      if (survivors.length < 2) return candidates;
      const cards = survivors.map((c) => ({ id: c.card.id, source: c.card.publisherId, title: c.card.title, description: c.card.description.slice(0, 400), questions: c.card.questions.slice(0, 300), operations: c.card.operations.map((o) => o.kind) }));
      const base: ChatMessage[] = [
        { role: 'system' as const, content: 'Rank the candidate data measures and operations by how directly each answers the question. Answer with JSON {"ranking": [card ids, best first]}. Use only ids from the list.' },
        { role: 'user' as const, content: JSON.stringify({ question: intent.question, attribute: intent.attribute, entity: intent.canonical_entity ?? intent.entity, type: intent.type, candidates: cards }) },
      ];
      let messages: ChatMessage[] = base;
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await client.complete({ role: 'rerank', messages, jsonSchema: { name: 'rerank', schema: z.toJSONSchema(answerSchema) as Record<string, unknown> }, ...(signal ? { signal } : {}) });
        const problem = check(res.text, new Set(cards.map((c) => c.id)));
        if (typeof problem !== 'string') {
          const byId = new Map(candidates.map((c) => [c.card.id, c]));
          const ranked = problem.map((id) => byId.get(id)!);
          const seen = new Set(problem);
          return [...ranked, ...candidates.filter((c) => !seen.has(c.card.id))];
        }
        messages = [...base, { role: 'assistant' as const, content: res.text }, { role: 'user' as const, content: `That answer is not valid: ${problem}. Answer again with JSON only.` }];
      }
      return candidates;
    },
  };
}

function check(text: string, ids: Set<string>): string[] | string {
  let json: unknown;
  try { json = JSON.parse(text); } catch (e) { return `not JSON (${(e as Error).message})`; }
  const r = answerSchema.safeParse(json);
  if (!r.success) return r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  const unknown = r.data.ranking.filter((id) => !ids.has(id));
  if (unknown.length) return `ids not among the candidates: ${unknown.slice(0, 5).join(', ')}`;
  return [...new Set(r.data.ranking)];
}
