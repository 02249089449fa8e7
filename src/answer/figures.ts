/**
 * Figure extraction and grading, by code only (no model, no similarity): every number in the text
 * is found and graded against the fact sheet.
 *   verified     — equals an admitted value exactly (after the written scale word); when an
 *                  independent cross-check reproduced that value the figure names it
 *                  (`corroboratedBy`), but the grade stays verified: a primary value stands behind it
 *   derived      — equals a value computed by code beside it (D…), or an admitted value rounded to
 *                  the precision written; the arithmetic and operands are published. A dimensionless
 *                  value (a share published as a fraction of 1) written as a percent is it × 100
 *                  exactly (0.9759 → 97.59%); a difference of such values, in percentage points
 *   corroborated — no admitted or declared value stands behind it, but code reproduces it a second
 *                  way: (a) rebuilt from admitted values by one of a small bounded set of arithmetic
 *                  forms (difference, sum, ratio, percent change, average) at the written precision —
 *                  the arithmetic and operands are published beside it; or (b) a value two
 *                  independent recorded reads agree on that is not the admitted primary. Agreement,
 *                  not primary provenance: acceptable in strict mode, and the qualification says so
 *   conflict     — tied to a fact by a marker ([E1]) whose value differs, or equal to a value only a
 *                  disagreeing cross-check read (both values shown), or a fraction of 1 written as that
 *                  many percent (0.9759 published, "0.9759%" written: a hundredfold misreading)
 *   unverified   — found nowhere trusted
 * Exempt (not listed, not graded): renderer list numbering; numbers the sheet lists as not
 * measurements (period labels, years, dates, identifiers). Numbers in a follow-up section are
 * graded (guarded) but not listed. A number followed by "[note: …]" keeps its grade and carries the
 * model's note as a disclosure; an unverified figure with a note does not block strict mode.
 */
import { entityRelativeUnit, percentRestates, timesHundred, type FactSheet, type Fact } from './factsheet.ts';

/** A recorded second read: the cross-check activity and the publisher response it used. */
export interface CorroborationRef { check: string; response: string | null; source: string; operation: string; url: string | null; note?: string }

/** A value recorded reads hold that is not an admitted primary value. */
export interface SecondValue {
  value: number;
  /** Independent recorded reads holding it (two or more agree: corroborated; one disagreeing read: conflict). */
  refs: CorroborationRef[];
  /** The admitted fact (E…) the reads were checked against. */
  fact: string;
  /** What the reads say, in words. */
  detail: string;
}

/** What the cross-checks found, for grading: agreeing reads per fact, and values only second reads hold. */
export interface SecondPaths {
  agreements: ReadonlyMap<string, readonly CorroborationRef[]>;
  values: ReadonlyMap<number, SecondValue>;
}
export const NO_SECOND_PATHS: SecondPaths = { agreements: new Map(), values: new Map() };

export type Grade = 'verified' | 'derived' | 'corroborated' | 'conflict' | 'unverified';

export interface Figure {
  text: string;
  value: number;
  unit: string | null;
  grade: Grade;
  /** Fact ids (E…) behind the figure. */
  facts: string[];
  /** Published beside derived and corroborated figures. */
  arithmetic?: string;
  /** Recorded second reads that reproduced the value (verified figures whose fact a cross-check agreed with; corroborated (b)). */
  corroboratedBy?: CorroborationRef[];
  note?: string;
  /** Character offset in the text. */
  at: number;
  /** In a follow-up suggestion: guarded, not listed. */
  followUp: boolean;
}

export interface Grading { figures: Figure[]; guarded: Figure[]; exempt: Array<{ text: string; why: string }> }

const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, bn: 1e9, b: 1e9, trillion: 1e12, t: 1e12 };
const NUMBER = /(?<![\w.\-/])(-|−)?(\$)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(%|percentage points?\b|percent\b|thousand\b|million\b|billion\b|trillion\b|bn\b|mn\b|[kmbt]\b))?(?:\s*\[(E\d+|D\d+)\])?(?:\s*\[note:\s*([^\]]+)\])?/gi;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

export function gradeText(text: string, sheet: FactSheet, secondPaths: SecondPaths = NO_SECOND_PATHS): Grading {
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
    const unit = word === '%' || word === 'percent' ? '%' : word?.startsWith('percentage point') ? 'pp' : dollar ? 'USD' : null;
    const scale = word && SCALE[word] ? SCALE[word]! : 1;
    const value = raw * scale;
    const written = whole.replace(/\s*\[(E|D)\d+\]/, '').replace(/\s*\[note:[^\]]*\]/, '').trim();
    if (!dollar && !scaleWord && nonMeasure.has(digits)) { exempt.push({ text: written, why: nonMeasure.get(digits)! }); continue; }
    const fig: Figure = { text: written, value, unit, grade: 'unverified', facts: [], at, followUp: followAt >= 0 && at > followAt, ...(note ? { note: note.trim() } : {}) };
    grade(fig, sheet, marker, frac ? frac.length - 1 : 0, scale, secondPaths);
    // a number the sheet lists as not a measurement, as written ("over $100 million", the question's own threshold), unless a value equals it
    if (fig.grade !== 'verified' && nonMeasure.has(written)) { exempt.push({ text: written, why: nonMeasure.get(written)! }); continue; }
    push(fig);
  }
  return { figures, guarded, exempt };

  function push(f: Figure) { (f.followUp ? guarded : figures).push(f); }
}

function grade(fig: Figure, sheet: FactSheet, marker: string | undefined, decimals: number, scale: number, secondPaths: SecondPaths): void {
  const v = fig.value;
  const facts = sheet.facts.map((f) => ({ id: f.id, value: f.evidence.value, unit: f.evidence.unit }));
  const derived = sheet.derived;
  if (marker) {
    const tied = facts.find((f) => f.id === marker) ?? derived.find((d) => d.id === marker);
    if (tied) {
      const target = tied.value;
      // a fraction tied by its marker may be written as its percent (0.9759 [E1] as 97.59% [E1])
      const asPct = (fig.unit === '%' || fig.unit === 'pp') && percentRestates(tied.unit) && scale === 1 ? Number(timesHundred(target)) : undefined;
      const same = (t: number) => t === v || Math.abs(t) === Math.abs(v) || roundsTo(t, v, decimals, scale);
      if (same(target) || (asPct !== undefined && same(asPct))) {
        // fall through to the ordinary grading below, which finds the same value
      } else {
        fig.grade = 'conflict'; fig.facts = [marker];
        fig.arithmetic = `${marker} is ${target}; the text says ${v}`;
        return;
      }
    }
  }
  const exact = facts.filter((f) => f.value === v || (f.value === -v && v !== 0));
  // a fraction of 1 written with a percent sign is a hundredfold misreading (0.9759 published, "0.9759%" written), never its value
  if (fig.unit === '%' && exact.length > 0 && exact.every((f) => percentRestates(f.unit))) {
    fig.grade = 'conflict'; fig.facts = exact.map((f) => f.id);
    fig.arithmetic = `${exact[0]!.id} is ${exact[0]!.value} in ${exact[0]!.unit}, which is ${timesHundred(exact[0]!.value)}%; the text says ${v}%`;
    return;
  }
  if (exact.length > 0) {
    fig.grade = 'verified'; fig.facts = exact.map((f) => f.id);
    const refs = exact.flatMap((f) => secondPaths.agreements.get(f.id) ?? []);
    if (refs.length) fig.corroboratedBy = refs;
    return;
  }
  const d = derived.find((x) => !(fig.unit === '%' && percentRestates(x.unit)) && (x.value === v || Math.abs(x.value) === Math.abs(v) || roundsTo(x.value, v, decimals, scale)));
  if (d) { fig.grade = 'derived'; fig.facts = d.operands; fig.arithmetic = `${d.id} ${d.label}: ${d.arithmetic}`; return; }
  const pct = asPercent(fig, sheet, decimals, scale);
  if (pct) { fig.grade = 'derived'; fig.facts = pct.operands; fig.arithmetic = pct.arithmetic; return; }
  const rounded = facts.filter((f) => !(fig.unit === '%' && percentRestates(f.unit)) && roundsTo(f.value, v, decimals, scale));
  if (rounded.length > 0) {
    fig.grade = 'derived'; fig.facts = rounded.map((f) => f.id);
    fig.arithmetic = `${rounded[0]!.id} = ${rounded[0]!.value} rounded to ${decimals} decimal place${decimals === 1 ? '' : 's'}${scale > 1 ? ` of ${scaleName(scale)}` : ''}`;
    return;
  }
  // (b) values recorded second reads hold: two or more agreeing reads corroborate; a lone disagreeing read conflicts
  const second = secondPaths.values.get(v) ?? secondPaths.values.get(-v);
  if (second) {
    fig.facts = [second.fact]; fig.corroboratedBy = second.refs;
    if (second.refs.length >= 2) {
      const caveat = second.refs.find((r) => r.note)?.note;
      fig.grade = 'corroborated'; fig.arithmetic = `${second.detail}; agreement between recorded reads, not the admitted primary value${caveat ? `; independence not established: a second path ${caveat}` : ''}`;
    }
    else { fig.grade = 'conflict'; fig.arithmetic = second.detail; }
    return;
  }
  // (a) rebuilt from admitted values by a bounded set of arithmetic forms, at the written precision
  const rebuilt = rebuild(v, fig.unit, sheet.facts, decimals, scale);
  if (rebuilt) { fig.grade = 'corroborated'; fig.facts = rebuilt.operands; fig.arithmetic = `recomputed by code: ${rebuilt.arithmetic}; agrees with the written figure at its precision (agreement, not a published value)`; return; }
  fig.grade = 'unverified';
}

interface Rebuilt { arithmetic: string; operands: string[] }

/**
 * A percent written for a dimensionless value (a share published as a fraction of 1: 0.9759 is
 * 97.59%), or percentage points written for a difference of such values: the value × 100, shifted
 * exactly in decimal digits (timesHundred), equal to the written figure or to it at its precision.
 * A percent never restates a difference (a change of fractions is in points), nor points a value.
 */
function asPercent(fig: Figure, sheet: FactSheet, decimals: number, scale: number): Rebuilt | undefined {
  if (scale !== 1 || (fig.unit !== '%' && fig.unit !== 'pp')) return undefined;
  const pool = fig.unit === '%'
    ? [...sheet.facts.map((f) => ({ id: f.id, value: f.evidence.value, unit: f.evidence.unit, operands: [f.id] })), ...sheet.derived.filter((d) => !d.difference)]
    : sheet.derived.filter((d) => d.difference);
  for (const c of pool) {
    if (!percentRestates(c.unit)) continue;
    const exact = timesHundred(c.value);
    const equal = Math.abs(Number(exact)) === Math.abs(fig.value);
    if (!equal && !roundsTo(Number(exact), fig.value, decimals, 1)) continue;
    const what = c.unit === 'fraction' ? 'published as a fraction of 1' : `in ${c.unit}`;
    return { operands: c.operands, arithmetic: `${c.id} = ${c.value} (${what}) × 100 = ${exact} ${fig.unit === 'pp' ? 'percentage points' : 'percent'}${equal ? '' : `, rounded to ${decimals} decimal place${decimals === 1 ? '' : 's'}`}` };
  }
  return undefined;
}

/**
 * The bounded arithmetic forms a written figure is rebuilt from: over two admitted values of the
 * same unit (in either order) the difference, sum, ratio, percent change and average; over all of
 * them of one unit the sum and the average. Percent forms match only a figure written with %, a
 * ratio only a unitless figure written with decimals; a difference, sum or average any other figure. The rebuilt value must equal the written one at the written precision (an unscaled integer
 * exactly).
 */
export function rebuild(written: number, unit: string | null, facts: readonly Fact[], decimals: number, scale: number): Rebuilt | undefined {
  const groups = new Map<string, Fact[]>();
  for (const f of facts) {
    // an entity-relative unit (each currency's own units per USD) only combines within one entity
    const k = `${f.evidence.unit}|${f.evidence.currency ?? ''}${entityRelativeUnit(f.evidence.unit) ? `|${f.evidence.entity.key}` : ''}`;
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  const at = (exact: number) => (scale === 1 && decimals === 0 ? Math.abs(exact) === Math.abs(written) : roundsTo(exact, written, decimals, scale));
  const fmt = (x: number) => (Number.isInteger(x) ? String(x) : String(Math.round(x * 1e6) / 1e6));
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const sameUnit = unit !== '%';
    const forms: Array<[number, string, string[]]> = [];
    for (const a of group) for (const b of group) {
      if (a === b) continue;
      const [x, y] = [a.evidence.value, b.evidence.value];
      if (sameUnit) {
        forms.push([x - y, `${a.id} − ${b.id} = ${fmt(x)} − ${fmt(y)} = ${fmt(x - y)}`, [a.id, b.id]]);
        if (a.id < b.id) forms.push([x + y, `${a.id} + ${b.id} = ${fmt(x)} + ${fmt(y)} = ${fmt(x + y)}`, [a.id, b.id]]);
      }
      if (unit === null && decimals > 0 && y !== 0) forms.push([x / y, `${a.id} / ${b.id} = ${fmt(x)} / ${fmt(y)} = ${fmt(x / y)}`, [a.id, b.id]]);
      if (unit === '%' && y !== 0) forms.push([((x - y) / y) * 100, `(${a.id} − ${b.id}) / ${b.id} × 100 = (${fmt(x)} − ${fmt(y)}) / ${fmt(y)} × 100 = ${fmt(((x - y) / y) * 100)}`, [a.id, b.id]]);
    }
    if (sameUnit && group.length > 2) {
      const ids = group.map((f) => f.id);
      const sum = group.reduce((t, f) => t + f.evidence.value, 0);
      forms.push([sum, `${ids.join(' + ')} = ${fmt(sum)}`, ids]);
      forms.push([sum / group.length, `(${ids.join(' + ')}) / ${group.length} = ${fmt(sum / group.length)}`, ids]);
    } else if (sameUnit && group.length === 2) {
      const [a, b] = group as [Fact, Fact];
      const avg = (a.evidence.value + b.evidence.value) / 2;
      forms.push([avg, `(${a.id} + ${b.id}) / 2 = ${fmt(avg)}`, [a.id, b.id]]);
    }
    // the form whose sign matches the written figure first ("rose by $X" is later − earlier)
    const hit = forms.find(([x]) => Number.isFinite(x) && at(x) && Math.sign(x) === Math.sign(written)) ?? forms.find(([x]) => Number.isFinite(x) && at(x));
    if (hit) return { arithmetic: `${hit[1]}${decimals > 0 || scale > 1 ? `, rounded to ${decimals} decimal place${decimals === 1 ? '' : 's'}${scale > 1 ? ` of ${scaleName(scale)}` : ''}` : ''}`, operands: hit[2] };
  }
  return undefined;
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
