/**
 * The residual semantic check by a model: asked only when every structural check passed and the
 * structural verdict marked a question code could not settle (does this label mean what was
 * asked?). Its answer can only reject (see adjudicate.ts). Invalid output or a failed call is
 * treated as "not established", which rejects — a model failure degrades into a refusal, never
 * into an admitted number.
 */
import { z } from 'zod';
import type { ModelClient } from '../llm/types.ts';
import type { SemanticJudge } from './adjudicate.ts';

const answerSchema = z.object({ answers: z.boolean(), reason: z.string() }).strict();

export function modelJudge(model: ModelClient, onUsage?: (u: { model: string; promptTokens?: number; completionTokens?: number }) => void): SemanticJudge {
  return {
    async judge(question, residual, signal) {
      try {
        const r = await model.complete({
          role: 'classify', signal,
          messages: [
            { role: 'system', content: 'You check whether a published measure answers a question. Answer JSON {"answers": boolean, "reason": string}. Say false unless the measure is what the question asks for.' },
            { role: 'user', content: `Question: ${question}\nCheck: ${residual}` },
          ],
          jsonSchema: { name: 'semantic_check', schema: z.toJSONSchema(answerSchema) as Record<string, unknown> },
        });
        onUsage?.({ model: r.model, ...(r.usage ?? {}) });
        const parsed = answerSchema.safeParse(JSON.parse(r.text));
        return parsed.success ? parsed.data : { answers: false, reason: `the model's answer was not valid (${parsed.error.issues[0]?.message}); not established` };
      } catch (e) {
        if (signal.aborted) throw e;
        return { answers: false, reason: `the semantic check failed (${(e as Error).message}); not established` };
      }
    },
  };
}
