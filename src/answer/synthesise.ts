/**
 * Drafting by the synthesis model: it sees the question and the fact sheet, nothing else (never
 * rejected attempts, raw responses or its own recollection). Its text is then graded by code like
 * any other; a figure it invents is unverified.
 */
import type { ModelClient } from '../llm/types.ts';

const SYSTEM = `You write the answer to a question from a fact sheet. Use only numbers from the fact sheet, written exactly as given (you may add the fact id in brackets after a number, e.g. "$1,000 [E1]").
Do not use any number you remember. If you must write a number that is not on the sheet, follow it with [note: what it is]. Answer in one to three sentences; name the source.`;

export async function draftWithModel(model: ModelClient, question: string, sheetText: string, signal: AbortSignal): Promise<{ text: string; model: string; usage?: { promptTokens: number; completionTokens: number } }> {
  const r = await model.complete({ role: 'synthesise', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: `${sheetText}\n\nWrite the answer to: ${question}` }], signal });
  return { text: r.text.trim(), model: r.model, ...(r.usage ? { usage: r.usage } : {}) };
}
