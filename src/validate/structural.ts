/**
 * Structural validation: a returned record against the interpreted question, by code only.
 *
 * Checks, in order: entity (canonical key match, else name match — disclosed —, else a different
 * entity), measure (the concept asked for), sentinel (a suppressed or missing value is never a
 * number), unit and currency, period (fiscal vs calendar, period end), and polarity for status
 * questions (a false must be a false of the asked field, not a descriptive label). Every check is
 * recorded. A failed check is decisive: the record is rejected and nothing later can admit it.
 * `prune` marks failures where the record is well formed but answers a different question, so no
 * other key, period or concept of that source will help — a record about another entity than the
 * key was resolved to (a wrong concept or unit condemns only that concept). `residual` marks the one case a model may
 * look at (every check passed, but whether the measure means what was asked is not structural).
 */
import type { Observation } from '../connectors/records.ts';
import type { Grain } from '../understand/intent.ts';
import { checkGrain } from './grain.ts';
import { normaliseName } from '../resolve/registry.ts';
import { connectorRegistry, sentinelsOf } from '../connectors/registry.ts';

export interface Check { name: 'entity' | 'measure' | 'sentinel' | 'unit' | 'period' | 'polarity'; passed: boolean; detail: string }

export interface PeriodWanted {
  year: number | null;
  basis: 'fiscal' | 'calendar' | 'unspecified';
  latest: boolean;
  /** The text the question used ("2023"). */
  text: string;
  /** The quarter named (intent.period.quarter): then only that quarter's value, or a balance at its end, is read. */
  quarter?: number | null;
  /** The grain asked (`grainAsked(intent)`); a record at another grain is rejected (validate/grain.ts). */
  grain?: Grain | null;
  /** "Latest" is disclosed by the caller from the periods the catalog declares (validate/latest.ts): no warning here. */
  latestDisclosed?: boolean;
}

export interface Expectation {
  entity: { keyType: string; key: string; label: string };
  /** `<group>/<name>` of the measure bound (us-gaap/Revenues). */
  measure: string;
  /** Unit the catalog declares for the measure (USD, shares, %), when it declares one. */
  unit?: string;
  period: PeriodWanted;
  /** The question's attribute words, for the residual semantic mark. */
  attribute: string | null;
  /** Other names the catalog gives the measure (`altLabels`: "graduation rate" for the Scorecard's completion rate): they answer the words asked as its label does. */
  altLabels?: readonly string[];
}

export interface StructuralVerdict {
  passed: boolean;
  checks: Check[];
  /** Disclosures that survive into the evidence (name match, fiscal year read for a bare year…). */
  warnings: string[];
  match: 'key' | 'name';
  prune: boolean;
  /** A semantic question code could not settle; a model may reject on it, never admit. */
  residual?: string;
  reason?: string;
}

const DAY = 86_400_000;
export const isAnnual = (p: Observation['period']) => !p.instant && !!p.start && !!p.end && Math.abs((Date.parse(p.end) - Date.parse(p.start)) / DAY - 364) <= 10;

const UNIT_ALIASES: Record<string, string[]> = { USD: ['USD'], '%': ['%', 'percent'], percent: ['%', 'percent'], shares: ['shares'], count: ['count', '1'] };

/**
 * Publishers' jam values that a connector should already have turned into a marked absence; if one
 * ever arrives as a number it is still never admitted. Each connector declares its own (Census
 * -666666666 …, CDC -999); read once from the registry.
 */
const REGISTRY = connectorRegistry();
const isSentinel = (source: string, v: number) => sentinelsOf(source, REGISTRY).has(v);

export function checkObservation(rec: Observation, want: Expectation): StructuralVerdict {
  const checks: Check[] = [];
  const warnings: string[] = [];
  let prune = false;
  let match: 'key' | 'name' = 'key';
  const fail = (c: Check, pruning = false) => { checks.push(c); if (pruning) prune = true; };

  // entity: canonical key first; a name match is weaker and disclosed; anything else is someone else
  // FIPS codes sit on a record's geography (Census, CDC); CIK, EIN and UNITID on its entity
  const recKey = rec.entity?.[want.entity.keyType] ?? (want.entity.keyType === 'fips' ? rec.geography?.fips : undefined);
  const recName = rec.entity?.name ?? rec.geography?.name;
  if (recKey !== undefined && recKey === want.entity.key) {
    checks.push({ name: 'entity', passed: true, detail: `${want.entity.keyType} ${recKey} equals the resolved key of ${want.entity.label}` });
  } else if (recKey === undefined && recName && normaliseName(recName) === normaliseName(want.entity.label)) {
    match = 'name';
    checks.push({ name: 'entity', passed: true, detail: `matched by name only ("${recName}")` });
    warnings.push(`entity matched by name ("${recName}"), not by a canonical key`);
  } else {
    fail({ name: 'entity', passed: false, detail: `record is about ${recName ?? 'an unnamed entity'} (${want.entity.keyType} ${recKey ?? 'absent'}), not ${want.entity.label} (${want.entity.keyType} ${want.entity.key})` }, true);
  }

  if (rec.measure === want.measure) checks.push({ name: 'measure', passed: true, detail: `concept ${rec.measure}` });
  else fail({ name: 'measure', passed: false, detail: `record reports ${rec.measure}, the binding asked for ${want.measure}` });

  if (rec.status === 'reported' && typeof rec.value === 'number' && Number.isFinite(rec.value) && !isSentinel(rec.source, rec.value)) {
    checks.push({ name: 'sentinel', passed: true, detail: 'a reported value' });
  } else {
    fail({ name: 'sentinel', passed: false, detail: `no usable value: ${rec.status}${rec.asPublished !== undefined ? ` (published as "${rec.asPublished}")` : ''}` });
  }

  const unitOk = !want.unit || (UNIT_ALIASES[want.unit] ?? [want.unit]).includes(rec.unit) || rec.unit === want.unit;
  const currencyOk = want.unit !== 'USD' || rec.currency === 'USD';
  if (unitOk && currencyOk) checks.push({ name: 'unit', passed: true, detail: `${rec.unit}${rec.currency ? ` (${rec.currency})` : ''}` });
  else fail({ name: 'unit', passed: false, detail: `unit ${rec.unit}${rec.currency ? `/${rec.currency}` : ''}, the measure is declared in ${want.unit}` });

  const p = periodCheck(rec, want.period);
  checks.push(p.check);
  if (p.warning) warnings.push(p.warning);

  const passed = checks.every((c) => c.passed);
  const out: StructuralVerdict = { passed, checks, warnings, match, prune: !passed && prune };
  if (!passed) out.reason = checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`).join('; ');
  else if (want.attribute && rec.label && ![rec.label, ...(want.altLabels ?? [])].some((l) => headMatches(want.attribute!, l) || (rec.period.basis === 'survey' && surveyLabelCovers(want.attribute!, l, rec.unit)))) {
    out.residual = `does "${rec.label}" mean "${want.attribute}"? (its label does not lead with the words asked for)`;
  }
  return out;
}

function periodCheck(rec: Observation, want: PeriodWanted): { check: Check; warning?: string } {
  const p = rec.period;
  const label = `${p.start ?? ''}${p.start ? '…' : ''}${p.end ?? ''}`;
  if (want.latest) {
    const vintage = p.basis === 'survey' && p.label ? p.label : undefined;
    // "latest" is the newest period the publisher's response holds, which need not be recent: said, without
    // repeating the period the answer states
    if (want.latestDisclosed) return { check: { name: 'period', passed: true, detail: `latest period available, ${vintage ?? label}` } };
    return { check: { name: 'period', passed: true, detail: `latest period available, ${vintage ?? label}` }, warning: vintage ? (/^latest/i.test(vintage) ? vintage : `latest available: ${vintage}`) : '"latest" read as the newest period in the publisher\'s response' };
  }
  if (want.year === null) return { check: { name: 'period', passed: false, detail: `the question names no year the record could be checked against` } };
  // the grain first: a quarter asked is a quarter read (or a balance at its end); a part of a year never answers a year
  const grain = want.grain ?? (want.quarter ? 'quarter' : 'year');
  const g = checkGrain({ grain, year: want.year, quarter: want.quarter ?? null, basis: want.basis }, p);
  if (!g.ok) {
    return { check: { name: 'period', passed: false, detail: g.code === 'grain_mismatch' ? `a ${g.asked} asked; the record is a ${g.read.replace('_', ' ')} value (${g.period})` : `Q${g.asked.quarter} ${g.asked.year} (${g.asked.basis}) asked; the record covers ${g.period}` } };
  }
  if (grain === 'quarter' && want.quarter) return quarterCheck(p, want, g.read, g.ok ? g.quarterReading : undefined, label);
  if (p.basis === 'survey') {
    // a survey is named by its vintage, the year its period ends (ACS 5-year 2017–2021 is "2021")
    const vintage = p.end ? Number(p.end.slice(0, 4)) : undefined;
    const what = p.label ?? label;
    if (vintage !== want.year) return { check: { name: 'period', passed: false, detail: `${want.year} asked; the record is the ${what}${vintage === undefined ? ', whose year is not stated' : ''}` } };
    const oneYear = p.start?.startsWith(String(want.year)) ?? false;
    return { check: { name: 'period', passed: true, detail: `survey vintage ${want.year}: ${what}` }, ...(oneYear ? {} : { warning: `"${want.text}" read as the ${what} estimate (survey vintage ${want.year})` }) };
  }
  if (want.basis === 'calendar') {
    const frameOk = p.frame === `CY${want.year}` || (p.start === `${want.year}-01-01` && p.end === `${want.year}-12-31`);
    const exactCalendar = p.start === `${want.year}-01-01` && p.end === `${want.year}-12-31`;
    return frameOk
      ? { check: { name: 'period', passed: true, detail: `calendar ${want.year} (${label})` }, ...(exactCalendar ? {} : { warning: `calendar ${want.year} asked; the publisher assigns this value to CY${want.year} but it covers ${label}${p.fiscalYear ? ` (the filer's fiscal ${p.fiscalYear})` : ''}` }) }
      : { check: { name: 'period', passed: false, detail: `calendar ${want.year} asked; the record covers ${label}${p.fiscalYear ? ` (fiscal ${p.fiscalYear})` : ''}` } };
  }
  // a balance answers a year only at the year's end: one a quarterly filing states (fp Q1–Q3: the quarter-end
  // balance, or an earlier year-end repeated beside it) is not the year's ("Tesla's total assets in 2022" is not 2022-09-30's)
  if (p.basis === 'fiscal' && p.instant && p.fiscalYear === want.year && p.fiscalPeriod && p.fiscalPeriod !== 'FY') {
    return { check: { name: 'period', passed: false, detail: `${want.year} asked; the record is a balance at ${p.end} stated in the fiscal ${p.fiscalPeriod} ${p.fiscalYear} filing, not the balance at the end of fiscal ${want.year}` } };
  }
  if (p.basis === 'fiscal' && p.fiscalYear === want.year && (p.instant || isAnnual(p) || (p.fiscalPeriod === 'FY' && !p.start))) {
    const calendarAligned = p.end?.endsWith('-12-31');
    const warning = want.basis === 'unspecified' && !calendarAligned
      ? `"${want.text}" read as the filer's fiscal year FY${want.year} (${label}), not calendar ${want.year}`
      : undefined;
    return { check: { name: 'period', passed: true, detail: `fiscal year ${want.year}, period end ${p.end}` }, ...(warning ? { warning } : {}) };
  }
  if (p.basis !== 'fiscal' && p.end?.startsWith(String(want.year))) return { check: { name: 'period', passed: true, detail: `${p.basis} ${want.year} (${label})` } };
  return { check: { name: 'period', passed: false, detail: `${want.basis === 'fiscal' ? 'fiscal' : ''} ${want.year} asked; the record covers ${label}${p.fiscalYear ? ` (fiscal ${p.fiscalYear})` : ''}`.trim() } };
}

/** A quarter asked: a quarter-long record of that quarter, or a balance (instant) at its end. */
function quarterCheck(p: Observation['period'], want: PeriodWanted, read: string | null, reading: 'fiscal' | 'calendar' | undefined, label: string): { check: Check; warning?: string } {
  const q = `Q${want.quarter} ${want.year}`;
  if (read === 'quarter' && reading) {
    const warning = want.basis === 'unspecified' && reading === 'fiscal' ? `"${want.text}" read as the filer's fiscal ${q} (${label}), not calendar ${q}` : undefined;
    return { check: { name: 'period', passed: true, detail: `${reading} ${q} (${label})` }, ...(warning ? { warning } : {}) };
  }
  if (p.instant && p.end) {
    const fiscal = p.fiscalYear === want.year && p.fiscalPeriod === `Q${want.quarter}`;
    const month = Number(p.end.slice(5, 7));
    const calendar = Number(p.end.slice(0, 4)) === want.year && Math.ceil(month / 3) === want.quarter;
    if ((want.basis !== 'calendar' && fiscal) || (want.basis !== 'fiscal' && calendar)) return { check: { name: 'period', passed: true, detail: `balance at ${p.end}, the end of ${fiscal ? 'fiscal' : 'calendar'} ${q}` } };
    return { check: { name: 'period', passed: false, detail: `${q} asked; the balance is at ${p.end}` } };
  }
  return { check: { name: 'period', passed: false, detail: `${q} asked; the record covers ${label} and its quarter is not stated` } };
}

const FILLER = new Set(['total', 'the', 'of', 'a', 'an', 'in', 'its', 'annual', 'reported', 'and']);
/**
 * Abbreviations a question uses for a measure the publisher spells out, in general accounting usage
 * (not any publisher's field names): compared in full.
 */
const SPELLED: ReadonlyArray<[RegExp, string]> = [[/\br\s*&\s*d\b/g, ' research and development '], [/\beps\b/g, ' earnings per share '], [/\bspending\b/g, ' expense ']];
const spelled = (t: string) => SPELLED.reduce((acc, [re, full]) => acc.replace(re, full), t.toLowerCase());
/** The words of a label or of the words asked, as the label checks compare them: spelled out, filler dropped, stemmed. */
export const comparableWords = (t: string): string[] => words(t);
const words = (t: string) => spelled(t).replace(/\([^)]*\)/g, ' ').split(/[^a-z0-9]+/).filter((w) => w && !FILLER.has(w)).map(stem);
/**
 * Whether a measure's label leads with the words the question used ("Revenues" for "total revenue",
 * "Net Income (Loss) Attributable to Parent" for "net income"), so "Deferred Revenue" or "Cost of
 * Revenue" are not taken for revenue. Failing this is not a rejection: it marks the residual
 * semantic question that only a model may settle (and, with none, the record is not admitted).
 */
export function headMatches(attribute: string, label: string): boolean {
  const a = words(attribute);
  const l = words(label);
  return (a.length > 0 && a.every((w, i) => l[i] === w) && headNotExtended(a, spelled(label))) || namesEveryPart(a, label);
}

/**
 * An XBRL label "Head, Qualifier[, Qualifier]" ("Earnings Per Share, Diluted") is answered by a
 * question naming every one of its parts in any order ("diluted EPS"): each word asked is in the
 * label and each word of the label is asked, so nothing of the label narrows what was asked.
 */
function namesEveryPart(asked: readonly string[], label: string): boolean {
  if (!label.includes(',') || asked.length === 0) return false;
  const have = new Set(words(label));
  const want = new Set(asked);
  return [...want].every((w) => have.has(w)) && [...have].every((w) => want.has(w));
}

/**
 * The words asked must be the head of the label's first part, not a modifier of another noun:
 * "Debt Instrument, Unamortized Discount", "Debt Securities" (held as assets) and "Debt and
 * Equity Securities, Gain (Loss)" lead with "Debt" but measure something else. After the words
 * asked, the first part ("X, qualifier" in XBRL labels) ends, or goes on with a preposition or a
 * qualifier ("Revenue from Contract with Customer", "Net Income (Loss) Attributable to Parent"),
 * or with a coordination that names them again ("Cash and Cash Equivalents").
 */
function headNotExtended(asked: readonly string[], label: string): boolean {
  const first = label.replace(/\([^)]*\)/g, ' ').split(',')[0]!;
  const raw = first.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w && !LEAD_FILLER.has(w)).map(stem);
  let i = 0;
  // "and" inside the words asked ("Research and Development") is skipped as `words` skips it
  for (let k = 0; k < asked.length && i < raw.length; i++) if (raw[i] === asked[k]) k++; else if (raw[i] !== 'and' || k === 0) break;
  const next = raw[i];
  if (next === undefined || CONTINUES.has(next)) return true;
  if (next === 'and' || next === 'or') return raw.slice(i + 1).includes(asked[asked.length - 1]!);
  return false;
}
const LEAD_FILLER = new Set(['total', 'the', 'a', 'an', 'its', 'annual', 'reported']);
const CONTINUES = new Set(['from', 'of', 'for', 'to', 'with', 'by', 'in', 'on', 'at', 'per', 'attributable', 'available', 'excluding', 'including', 'net', 'before', 'after', 'applicable', 'allocated']);
const stem = (w: string) => w.replace(/ies$/, 'y').replace(/([^s])s$/, '$1');

/** Words that name how a percent is expressed, not what it measures ("poverty rate", "diabetes prevalence"). */
const RATE_WORDS = new Set(['rate', 'prevalence', 'percent', 'percentage', 'share', 'proportion']);
/** Words for people as a universe, stemmed as `words` stems them. */
const PEOPLE_WORDS = new Set(['people', 'person', 'population', 'resident', 'individual']);
/**
 * Survey measures (Census, CDC, Scorecard) carry descriptive labels that qualify the subject
 * ("Diagnosed diabetes among adults aged >=18 years", "Persons below poverty (percent)"), so the
 * question's words rarely lead them. Such a label still answers the question when every word asked
 * appears in it — apart from a rate word when the value is a percent, which is what a rate is.
 * SEC concepts keep the stricter leading-words test ("Deferred Revenue" is not revenue).
 */
export function surveyLabelCovers(attribute: string, label: string, unit: string): boolean {
  const percent = unit === '%' || unit === 'percent' || unit === 'ratio' || unit === 'fraction';
  const asked = words(attribute).filter((w) => !(percent && RATE_WORDS.has(w)));
  const have = new Set(words(label));
  // people named in any of their words are the same universe ("people" in poverty, "population for whom poverty status is determined")
  // (the universe is often in the label's parentheses, which `words` leaves out)
  const people = /\b(?:people|persons?|population|residents?|individuals?)\b/i.test(label);
  return asked.length > 0 && asked.every((w) => have.has(w) || (people && PEOPLE_WORDS.has(w)));
}

/** Status questions: the asked boolean field, read on its own terms. */
export function checkPolarity(value: unknown, field: string): Check {
  if (typeof value === 'boolean') return { name: 'polarity', passed: true, detail: `${field} is ${value}` };
  return { name: 'polarity', passed: false, detail: `${field} is ${JSON.stringify(value)}, not the boolean asked; a descriptive label is not an answer to a yes/no question` };
}
