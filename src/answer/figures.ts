/**
 * Figure extraction and grading, by code only (no model, no similarity): every number in the text
 * is found and graded against the fact sheet.
 *   verified     — equals an admitted value exactly (after the written scale word)
 *   derived      — equals a value computed by code beside it (D…), or an admitted value rounded to
 *                  the precision written; the arithmetic and operands are published
 *   corroborated — agrees with an independent second path that is not a primary value
 *   conflict     — tied to a fact by a marker ([E1]) whose value differs
 *   unverified   — found nowhere trusted
 * Exempt (not listed, not graded): renderer list numbering; numbers the sheet lists as not
 * measurements (period labels, years, dates, identifiers). Numbers in a follow-up section are
 * graded (guarded) but not listed. A number followed by "[note: …]" keeps its grade and carries the
 * model's note as a disclosure; an unverified figure with a note does not block strict mode.
 */
import type { FactSheet } from './factsheet.ts';

export type Grade = 'verified' | 'derived' | 'corroborated' | 'conflict' | 'unverified';

export interface Figure {
  text: string;
  value: number;
  unit: string | null;
  grade: Grade;
  /** Fact ids (E…) behind the figure. */
  facts: string[];
  /** Published beside derived figures. */
  arithmetic?: string;
  note?: string;
  /** Character offset in the text. */
  at: number;
  /** In a follow-up suggestion: guarded, not listed. */
  followUp: boolean;
}

export interface Grading { figures: Figure[]; guarded: Figure[]; exempt: Array<{ text: string; why: string }> }

const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, bn: 1e9, b: 1e9, trillion: 1e12, t: 1e12 };
const NUMBER = /(?<![\w.\-/])(-|−)?(\$)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(%|percent\b|thousand\b|million\b|billion\b|trillion\b|bn\b|mn\b|[kmbt]\b))?(?:\s*\[(E\d+|D\d+)\])?(?:\s*\[note:\s*([^\]]+)\])?/gi;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

export function gradeText(text: string, sheet: FactSheet, secondPaths: ReadonlyMap<number, string> = new Map()): Grading {
  const figures: Figure[] = [];
  const guarded: Figure[] = [];
  const exempt: Grading['exempt'] = [];
  const followAt = text.search(/^\s*(follow-?ups?|you (could|might) also ask)\b.*$/im);
  const nonMeasure = new Map(sheet.nonMeasures.map((n) => [n.text, n.what]));
  const dateSpans: Array<[number, number]> = [];
  for (const m of text.matchAll(DATE)) {
    dateSpans.push([m.index!, m.index! + m[0].length]);
    const what = nonMeasure.get(m[0]);
    if (what) exempt.push({ text: m[0], why: what });
    else push({ text: m[0], value: NaN, unit: 'date', grade: 'unverified', facts: [], at: m.index!, followUp: followAt >= 0 && m.index! > followAt });
  }
  for (const m of text.matchAll(NUMBER)) {
    const at = m.index!;
    if (dateSpans.some(([s, e]) => at >= s && at < e)) continue;
    const [whole, neg, dollar, intPart, frac, scaleWord, marker, note] = m;
    // list numbering written by a renderer: "1. " at the start of a line
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    if (/^\s*$/.test(text.slice(lineStart, at)) && /^\d+[.)]\s/.test(text.slice(at, at + whole.length + 2)) && !dollar) { exempt.push({ text: whole.trim(), why: 'list numbering' }); continue; }
    const digits = `${intPart!.replace(/,/g, '')}${frac ?? ''}`;
    const raw = Number(digits) * (neg ? -1 : 1);
    const word = scaleWord?.toLowerCase();
    const unit = word === '%' || word === 'percent' ? '%' : dollar ? 'USD' : null;
    const scale = word && SCALE[word] ? SCALE[word]! : 1;
    const value = raw * scale;
    const written = whole.replace(/\s*\[(E|D)\d+\]/, '').replace(/\s*\[note:[^\]]*\]/, '').trim();
    if (!dollar && !scaleWord && nonMeasure.has(digits)) { exempt.push({ text: written, why: nonMeasure.get(digits)! }); continue; }
    const fig: Figure = { text: written, value, unit, grade: 'unverified', facts: [], at, followUp: followAt >= 0 && at > followAt, ...(note ? { note: note.trim() } : {}) };
    grade(fig, sheet, marker, frac ? frac.length - 1 : 0, scale, secondPaths);
    push(fig);
  }
  return { figures, guarded, exempt };

  function push(f: Figure) { (f.followUp ? guarded : figures).push(f); }
}

function grade(fig: Figure, sheet: FactSheet, marker: string | undefined, decimals: number, scale: number, secondPaths: ReadonlyMap<number, string>): void {
  const v = fig.value;
  const facts = sheet.facts.map((f) => ({ id: f.id, value: f.evidence.value }));
  const derived = sheet.derived;
  if (marker) {
    const tied = facts.find((f) => f.id === marker) ?? derived.find((d) => d.id === marker);
    if (tied) {
      const target = tied.value;
      if (target === v || Math.abs(target) === Math.abs(v) || roundsTo(target, v, decimals, scale)) {
        // fall through to the ordinary grading below, which finds the same value
      } else {
        fig.grade = 'conflict'; fig.facts = [marker];
        fig.arithmetic = `${marker} is ${target}; the text says ${v}`;
        return;
      }
    }
  }
  const exact = facts.filter((f) => f.value === v || (f.value === -v && v !== 0));
  if (exact.length > 0) { fig.grade = 'verified'; fig.facts = exact.map((f) => f.id); return; }
  const d = derived.find((x) => x.value === v || Math.abs(x.value) === Math.abs(v) || roundsTo(x.value, v, decimals, scale));
  if (d) { fig.grade = 'derived'; fig.facts = d.operands; fig.arithmetic = `${d.id} ${d.label}: ${d.arithmetic}`; return; }
  const rounded = facts.filter((f) => roundsTo(f.value, v, decimals, scale));
  if (rounded.length > 0) {
    fig.grade = 'derived'; fig.facts = rounded.map((f) => f.id);
    fig.arithmetic = `${rounded[0]!.id} = ${rounded[0]!.value} rounded to ${decimals} decimal place${decimals === 1 ? '' : 's'}${scale > 1 ? ` of ${scaleName(scale)}` : ''}`;
    return;
  }
  const second = secondPaths.get(v);
  if (second) { fig.grade = 'corroborated'; fig.arithmetic = second; return; }
  fig.grade = 'unverified';
}

/** Whether `written` (with `decimals` decimals, in units of `scale`) is `exact` rounded. */
function roundsTo(exact: number, written: number, decimals: number, scale: number): boolean {
  if (scale === 1 && decimals === 0) return false; // an unscaled integer must match exactly
  const inUnits = Math.abs(exact) / scale;
  const f = 10 ** decimals;
  return Math.round(inUnits * f) / f === Math.abs(written) / scale;
}
const scaleName = (s: number) => ({ 1e3: 'thousands', 1e6: 'millions', 1e9: 'billions', 1e12: 'trillions' } as Record<number, string>)[s] ?? String(s);

/** Strict mode: an unverified or conflicting figure without the model's own note refuses the answer. */
export function strictBlockers(g: Grading): Figure[] {
  return [...g.figures, ...g.guarded].filter((f) => (f.grade === 'unverified' && !f.note) || f.grade === 'conflict');
}
