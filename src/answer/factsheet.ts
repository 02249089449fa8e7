/**
 * The fact sheet: written by code from admitted evidence only, the sole material a drafting model
 * sees besides the question. Every number on it states its origin: a measured value names its
 * evidence (E1…), a computed one its arithmetic and operands (D1…), and numbers that are not
 * measurements (period labels, years, dates, identifiers) are listed as such.
 */
import type { AdmittedEvidence } from '../evidence/types.ts';

export interface Fact { id: string; evidence: AdmittedEvidence }
export interface Derived {
  id: string; value: number; unit: string; currency?: string; arithmetic: string; operands: string[]; label: string;
  /** A difference of two values of the unit (a change, one minus the other): of fractions it is percentage points, not a percent. */
  difference?: true;
}
export interface NonMeasure { text: string; what: string }

export interface FactSheet {
  facts: Fact[];
  derived: Derived[];
  nonMeasures: NonMeasure[];
  /** How the evidence is laid out: one value, a comparison by entity, a series by period. */
  layout: 'point' | 'comparison' | 'timeseries' | 'status' | 'list';
}

export function factSheet(evidence: readonly AdmittedEvidence[]): FactSheet {
  const facts = evidence.map((e, i) => ({ id: `E${i + 1}`, evidence: e }));
  const entities = new Set(evidence.map((e) => e.entity.key));
  const periods = new Set(evidence.map((e) => e.period.label));
  // The answer's layout follows the evidence, not the classified shape.
  const layout: FactSheet['layout'] = evidence.length <= 1 ? 'point' : entities.size > 1 ? 'comparison' : periods.size > 1 ? 'timeseries' : 'point';
  const derived: Derived[] = [];
  const sameUnit = evidence.every((e) => e.unit === evidence[0]?.unit && e.currency === evidence[0]?.currency);
  // one unit spelled the same for every row can still mean a different unit per entity (an exchange
  // rate is in each currency's own units per USD): across entities such values are not subtracted
  // survey estimates of different products or vintages (ACS 1-year 2018 beside ACS 5-year 2014–2018)
  // measure different things: they are laid side by side, not subtracted
  const mixedSurveys = layout === 'comparison' && evidence.some((e) => e.period.basis === 'survey') && new Set(evidence.map((e) => e.period.label)).size > 1;
  const comparable = sameUnit && !mixedSurveys && !(layout === 'comparison' && evidence.some((e) => entityRelativeUnit(e.unit)));
  // a difference is exact to the places its operands are published to (cents stay cents: no binary-float tail)
  const places = (v: number) => (String(v).split('.')[1] ?? '').length;
  const minus = (a: number, b: number) => Number((a - b).toFixed(Math.min(20, Math.max(places(a), places(b)))));
  if (comparable && facts.length >= 2) {
    const unit = evidence[0]!.unit; const currency = evidence[0]!.currency;
    if (layout === 'comparison' && facts.length === 2) {
      const [a, b] = facts as [Fact, Fact];
      derived.push({ id: 'D1', value: minus(a.evidence.value, b.evidence.value), unit, ...(currency ? { currency } : {}), difference: true, arithmetic: `${a.id} − ${b.id} = ${a.evidence.value} − ${b.evidence.value}`, operands: [a.id, b.id], label: `difference, ${a.evidence.entity.label} minus ${b.evidence.entity.label}` });
    }
    if (layout === 'timeseries') {
      const sorted = [...facts].sort((x, y) => (x.evidence.period.end ?? '').localeCompare(y.evidence.period.end ?? ''));
      const first = sorted[0]!; const last = sorted[sorted.length - 1]!;
      const change = minus(last.evidence.value, first.evidence.value);
      derived.push({ id: 'D1', value: change, unit, ...(currency ? { currency } : {}), difference: true, arithmetic: `${last.id} − ${first.id} = ${last.evidence.value} − ${first.evidence.value}`, operands: [last.id, first.id], label: `change from ${first.evidence.period.label} to ${last.evidence.period.label}` });
      if (first.evidence.value !== 0) {
        const pct = Math.round((change / first.evidence.value) * 1000) / 10;
        derived.push({ id: 'D2', value: pct, unit: '%', arithmetic: `(${last.id} − ${first.id}) / ${first.id} × 100, rounded to 0.1 = ${pct}`, operands: [last.id, first.id], label: `percent change from ${first.evidence.period.label} to ${last.evidence.period.label}` });
      }
    }
  }
  const nonMeasures: NonMeasure[] = [];
  const addNon = (text: string | undefined, what: string) => { if (text && !nonMeasures.some((n) => n.text === text)) nonMeasures.push({ text, what }); };
  for (const e of evidence) {
    addNon(e.period.label, 'period label');
    if (e.period.fiscalYear !== undefined) addNon(String(e.period.fiscalYear), 'fiscal year');
    addNon(e.period.start, 'period start date'); addNon(e.period.end, 'period end date');
    if (e.period.end) addNon(e.period.end.slice(0, 4), 'calendar year of the period end');
    if (e.period.start) addNon(e.period.start.slice(0, 4), 'calendar year of the period start');
    addNon(e.entity.key, `${e.entity.keyType} of ${e.entity.label}`);
    // numbers inside a period or measure name name things (ACS 5-year, Form 990, 2018 dollars); they are not measurements
    for (const t of [e.period.label, e.measureLabel]) for (const m of (t ?? '').matchAll(/(?<![\d.])\d+(?:\.\d+)?(?![\d.])/g)) addNon(m[0], `part of the name "${t}"`);
  }
  return { facts, derived, nonMeasures, layout };
}

/** Units whose meaning depends on the row's own entity ("foreign currency units per USD"). */
export function entityRelativeUnit(unit: string): boolean {
  return /\bforeign currency\b/i.test(unit);
}

/** "FY2023 (ending 2023-09-30)"; a period that is a single date is written once. */
export function periodText(p: { label: string; end?: string }): string {
  return p.end && p.end !== p.label ? `${p.label} (ending ${p.end})` : p.label;
}

/**
 * The period as the answer's sentence says it, each date once: a fiscal year with its end ("for
 * FY2019 (ending 2019-09-28)"), a balance at a date ("on 2026-10-01", "at the end of FY2023
 * (2023-01-29)"), a survey vintage by its name alone ("for ACS 1-year 2018": its calendar end is no
 * date of measurement), a latest-available value set off as such.
 */
export function periodPhrase(p: { label: string; start?: string; end?: string; basis?: string }): string {
  if (/^latest\b/i.test(p.label)) return `, ${p.label},`;
  if (p.basis === 'survey') return ` for ${p.label}`;
  // a dated record is on its date; a period known only by its end may be a flow (a 990's tax year) or
  // a balance, so it keeps "for … (ending …)", which is true of both
  if (p.end && !p.start && p.end === p.label) return ` on ${p.end}`;
  return ` for ${periodText(p)}`;
}

export function formatValue(v: number, unit: string, currency?: string): string {
  // a share published as a fraction of 1 is read as a percent, with the value exactly as published beside it
  if (unit === FRACTION) return `${timesHundred(v)}% (published as the fraction ${String(v)})`;
  const digits = Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumFractionDigits: 6 });
  if (currency === 'USD' && unit === 'USD') {
    // dollars with cents are written to the cent ($31,419,689,421,557.90, not .9)
    const d = Number.isInteger(v) ? digits : v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });
    return v < 0 ? `-$${d.slice(1)}` : `$${d}`;
  }
  if (unit === '%') return `${digits}%`;
  // a count is a number of things, not a unit to print after it
  if (unit === 'count' || unit === '1' || unit === 'pure' || unit === 'ratio') return digits;
  return `${digits} ${unit}`;
}

/** A difference of two values (`Derived.difference`): of fractions it is written in percentage points beside the published difference. */
export function formatDifference(v: number, unit: string, currency?: string): string {
  return unit === FRACTION ? `${timesHundred(v)} percentage points (the fractions differ by ${String(v)})` : formatValue(v, unit, currency);
}

/** The unit of a share published as a fraction of 1 (0.9759 for 97.59%), declared so by a measure card. */
export const FRACTION = 'fraction';
/** Dimensionless units whose value × 100 is the same quantity as a percent: a fraction, a ratio, XBRL `pure`. */
export const percentRestates = (unit: string): boolean => unit === FRACTION || unit === 'ratio' || unit === 'pure';

/**
 * v × 100 as decimal digits, shifted from v's own shortest decimal form (0.9759 → "97.59",
 * 0.0693 → "6.93", 1 → "100"): exact, with no binary-float tail (0.9759 * 100 is 97.59000000000001).
 */
export function timesHundred(v: number): string {
  const [mantissa, exp = '0'] = String(Math.abs(v)).split('e');
  const [int, frac = ''] = mantissa!.split('.');
  let digits = `${int}${frac}`;
  let point = int!.length + Number(exp) + 2;
  if (point <= 0) { digits = '0'.repeat(1 - point) + digits; point = 1; }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(point).replace(/0+$/, '');
  return `${v < 0 ? '-' : ''}${whole}${rest ? `.${rest}` : ''}`;
}

/** The sheet as text, for the drafting prompt (with what cross-checks found, when they ran). */
export function factSheetText(sheet: FactSheet, question: string, crossCheckLines: readonly string[] = []): string {
  const lines = [`Question: ${question}`, '', 'Facts (admitted evidence; every value is exact as published):'];
  for (const f of sheet.facts) {
    const e = f.evidence;
    lines.push(`[${f.id}] ${e.entity.label} — ${e.measureLabel} (${e.measure}) — ${e.period.label}${e.period.end ? ` (period ends ${e.period.end})` : ''} — ${formatValue(e.value, e.unit, e.currency)} — source: ${e.source} ${e.operation}${e.assurance.warnings.length ? ` — note: ${e.assurance.warnings.join('; ')}` : ''}`);
  }
  if (sheet.derived.length) {
    lines.push('', 'Computed by code from the facts (arithmetic shown):');
    for (const d of sheet.derived) lines.push(`[${d.id}] ${d.label}: ${(d.difference ? formatDifference : formatValue)(d.value, d.unit, d.currency)} = ${d.arithmetic}`);
  }
  if (crossCheckLines.length) lines.push('', 'Cross-checks (the same measure read a second way, compared by code):', ...crossCheckLines);
  if (sheet.nonMeasures.length) {
    lines.push('', 'Numbers that are not measurements: ' + sheet.nonMeasures.map((n) => `${n.text} (${n.what})`).join('; '));
  }
  return lines.join('\n');
}
