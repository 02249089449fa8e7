/**
 * A scripted "model" for the stub OpenAI-compatible server (test/llm/stub-server.ts): it reads the
 * question from the prompt and answers from a case set's gold queries. It is a mechanism check of
 * the model path (prompt → completion → validate → execute → repair → record → replay), not a
 * model: its scores say nothing about any real model's accuracy.
 *
 * Grounded prompts: the gold, except that every third case first gets a query with a syntax error
 * (so repair rounds are exercised and recorded). Ungrounded prompts: the gold with the graph's
 * namespace swapped for a guessed one, which the dictionary check rejects on every round.
 */
import type { Script } from '../llm/stub-server.ts';
import type { EvalCase } from '../../src/nlq/eval.ts';

export function goldModel(cases: readonly EvalCase[], namespace: string): Script {
  const byQuestion = new Map(cases.map((c, i) => [c.question, { gold: c.gold, i }]));
  return (body) => {
    const prompt = body.messages.at(-1)!.content;
    const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? '';
    const hit = byQuestion.get(question);
    if (!hit) return { content: 'I do not know.' };
    const grounded = prompt.includes('Schema card:');
    const repairing = prompt.includes('Your previous query:');
    if (!grounded) return { content: '```sparql\n' + hit.gold.split(namespace).join('http://guessed.example/ontology/') + '\n```' };
    if (hit.i % 3 === 0 && !repairing) return { content: '```sparql\n' + hit.gold.replace(/\}\s*$/, '') + '\n```' };
    return { content: 'Here it is:\n```sparql\n' + hit.gold + '\n```' };
  };
}
