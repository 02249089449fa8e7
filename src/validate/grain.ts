/**
 * Period grain: a quarter asked is a quarter read; an annual value never answers a quarter, nor
 * a quarter (or any part of a year) a year.
 *
 * Input: the grain the intent asks (`grainAsked(intent)`: day, month, quarter, year, or null) with
 * the quarter and year named, and a candidate record's period as a connector states it (start,
 * end, instant, basis, fiscal year and period, SEC calendar frame). Output: `{ ok: true }` or a
 * typed refusal — `grain_mismatch` (this record is at another grain: it names the grain read) or
 * `grain_unavailable` (none of the records a source returned is at the grain asked: it names the
 * grains the source has, so the refusal can say "the source publishes annual values only").
 *
 * A balance (an instant) is at every grain: the value at the end of the quarter answers "in Q3";
 * whether its date is the right one is the period check's business, not this rule's. Which
 * quarter a quarterly record is follows the basis asked: fiscal (the filer's fiscal year and
 * period), calendar (SEC's calendar frame, else the dates), or unspecified (either, and the
 * result says which reading matched).
 */
import type { Grain } from '../understand/intent.ts';
import type { Period as RecordPeriod } from '../connectors/records.ts';

/** The grain of a record's period, by its length (or the publisher's own fiscal-period label). */
export type ReadGrain = 'instant' | 'day' | 'month' | 'quarter' | 'half' | 'nine_months' | 'year' | 'multi_year';

export interface GrainAsked {
  grain: Grain | null;
  year?: number | null;
  quarter?: number | null;
  basis?: 'fiscal' | 'calendar' | 'unspecified';
}

export type GrainCheck =
  | { ok: true; read: ReadGrain | null; quarterReading?: 'fiscal' | 'calendar' }
  | { ok: false; code: 'grain_mismatch'; asked: Grain; read: ReadGrain; period: string }
  | { ok: false; code: 'quarter_mismatch'; asked: { year: number; quarter: number; basis: string }; period: string };

export type GrainAvailability =
  | { ok: true }
  | { ok: false; code: 'grain_unavailable'; asked: Grain; available: ReadGrain[] };

const DAY = 86_400_000;

/** The grain of a record's period; null when the record states too little to tell. */
export function readGrain(p: RecordPeriod): ReadGrain | null {
  if (p.instant) return 'instant';
  if (p.start && p.end) {
    const days = Math.round((Date.parse(p.end) - Date.parse(p.start)) / DAY) + 1;
    if (!Number.isFinite(days) || days <= 0) return null;
    if (days <= 1) return 'day';
    if (days <= 35) return 'month';
    if (days <= 105) return 'quarter';
    if (days <= 200) return 'half';
    if (days <= 290) return 'nine_months';
    if (days <= 380) return 'year';
    return 'multi_year';
  }
  // a stated fiscal period without dates (SEC fp): FY is a year, Q1–Q4 a quarter, H1/H2 a half
  if (p.fiscalPeriod === 'FY') return 'year';
  if (/^Q[1-4]$/.test(p.fiscalPeriod ?? '')) return 'quarter';
  if (/^H[12]$/.test(p.fiscalPeriod ?? '')) return 'half';
  return null;
}

/** Read grains that can answer each grain asked (an instant answers all: its date is checked elsewhere). */
const ANSWERS: Readonly<Record<Grain, ReadonlySet<ReadGrain>>> = {
  day: new Set(['instant', 'day']),
  month: new Set(['instant', 'day', 'month']),
  quarter: new Set(['instant', 'quarter']),
  // a survey vintage spanning several years answers a year with a disclosure (the period check words it)
  year: new Set(['instant', 'year', 'multi_year']),
};

const spell = (p: RecordPeriod) => p.label ?? `${p.start ? `${p.start}…` : ''}${p.end ?? ''}${p.fiscalPeriod ? ` (${p.fiscalPeriod}${p.fiscalYear ? ` ${p.fiscalYear}` : ''})` : ''}`;

/** Whether one record is at the grain asked, and for a quarter, the quarter asked. */
export function checkGrain(asked: GrainAsked, p: RecordPeriod): GrainCheck {
  const read = readGrain(p);
  if (asked.grain === null || read === null) return { ok: true, read };
  if (!ANSWERS[asked.grain].has(read)) return { ok: false, code: 'grain_mismatch', asked: asked.grain, read, period: spell(p) };
  if (asked.grain !== 'quarter' || read !== 'quarter' || !asked.quarter || !asked.year) return { ok: true, read };
  const basis = asked.basis ?? 'unspecified';
  const fiscal = p.fiscalYear === asked.year && p.fiscalPeriod === `Q${asked.quarter}`;
  const calendar = p.frame === `CY${asked.year}Q${asked.quarter}` || (!!p.end && calendarQuarterOf(p.end, p.start) === `${asked.year}Q${asked.quarter}`);
  if (basis !== 'calendar' && fiscal) return { ok: true, read, quarterReading: 'fiscal' };
  if (basis !== 'fiscal' && calendar) return { ok: true, read, quarterReading: 'calendar' };
  return { ok: false, code: 'quarter_mismatch', asked: { year: asked.year, quarter: asked.quarter, basis }, period: spell(p) };
}

/** The calendar quarter a quarter-long period falls in (by its midpoint), as 2023Q3. */
function calendarQuarterOf(end: string, start?: string): string | undefined {
  const e = Date.parse(end);
  const s = start ? Date.parse(start) : e;
  if (!Number.isFinite(e) || !Number.isFinite(s)) return undefined;
  const mid = new Date((e + s) / 2);
  return `${mid.getUTCFullYear()}Q${Math.floor(mid.getUTCMonth() / 3) + 1}`;
}

/** The grains a source's records are at, in a stable order (for a refusal that names them). */
export function grainsIn(periods: readonly RecordPeriod[]): ReadGrain[] {
  const order: ReadGrain[] = ['instant', 'day', 'month', 'quarter', 'half', 'nine_months', 'year', 'multi_year'];
  const seen = new Set(periods.map(readGrain).filter((g): g is ReadGrain => g !== null));
  return order.filter((g) => seen.has(g));
}

/**
 * Whether any record a source returned is at the grain asked: when none is, the refusal names the
 * grains the source has ("quarter asked; the source has year"), never an annual value in its place.
 */
export function checkGrainAvailable(asked: Grain | null, periods: readonly RecordPeriod[]): GrainAvailability {
  if (asked === null || periods.length === 0) return { ok: true };
  const available = grainsIn(periods);
  if (available.length === 0 || available.some((g) => ANSWERS[asked].has(g))) return { ok: true };
  return { ok: false, code: 'grain_unavailable', asked, available };
}
