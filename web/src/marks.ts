/**
 * Where each graded figure sits in an answer's text. Figures are listed in the order they appear
 * (the grader reads the text left to right), so each is looked for after the previous one; a
 * figure whose text is not found there is left out of the marks (it is still in the figure list).
 */
import type { Figure } from './types.ts';

export type Segment = { kind: 'text'; text: string } | { kind: 'figure'; text: string; figure: Figure; index: number };

export function segments(text: string, figures: readonly Figure[]): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  figures.forEach((figure, index) => {
    if (!figure.text) return;
    const found = text.indexOf(figure.text, at);
    if (found < 0) return;
    if (found > at) out.push({ kind: 'text', text: text.slice(at, found) });
    out.push({ kind: 'figure', text: figure.text, figure, index });
    at = found + figure.text.length;
  });
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}
