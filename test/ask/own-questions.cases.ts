/**
 * Questions about Treasury, Census, CDC PLACES, SEC EDGAR and NSF written for Assay's own testing
 * (not from any published benchmark), in the phrasings people type: Title Case measure words,
 * "US debt", relative dates, lower-case names, abbreviations. Every expected figure is read here
 * from the recorded publisher response on disk (fixtures/publishers/, parsed with plain JSON/CSV
 * readers, never Assay's connectors). An expectation is an answer (the figures that must be
 * published graded verified, and figures that must not appear — another measure's value for the
 * same date), a refusal (optionally with its boundary), or a clarification. A question the snapshot
 * cannot answer as asked must be refused; answering another question is never right.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

const DIR = new URL('../../fixtures/publishers/', import.meta.url);
const json = (rel: string) => JSON.parse(readFileSync(new URL(rel, DIR), 'utf8')) as unknown;
/** The body of a cassette, by cassette file (relative to fixtures/publishers/). */
function body(cassette: string): string {
  const c = json(cassette) as { response: { bodyFile: string } };
  const dir = cassette.slice(0, cassette.lastIndexOf('/') + 1);
  return readFileSync(new URL(dir + c.response.bodyFile, DIR), 'utf8');
}

/** A day's Debt to the Penny field, from the recorded year's response. */
export function penny(date: string, field: 'tot_pub_debt_out_amt' | 'debt_held_public_amt' | 'intragov_hold_amt'): number {
  const b = JSON.parse(body(`treasury-fiscal-data/debt-to-penny-range.DebtPenny_20200307_20250306.${date.slice(0, 4)}.cassette.json`)) as { data: Array<Record<string, string>> };
  const row = b.data.find((d) => d.record_date === date);
  if (!row) throw new Error(`no Debt to the Penny record dated ${date}`);
  return Number(row[field]);
}

/** A county's crude (or age-adjusted) prevalence in the PLACES wide county file (2022 release). */
export function places(fips: string, measure: string, kind: 'Crude' | 'Adj' = 'Crude'): number {
  const rows = parse(body('cdc-places/all-counties-wide.PLACES__County_Data__GIS_Friendly_Format___2022_release.cassette.json'), { columns: true, bom: true }) as Array<Record<string, string>>;
  const row = rows.find((r) => r.CountyFIPS === fips);
  if (!row) throw new Error(`no county ${fips} in the PLACES file`);
  return Number(row[`${measure}_${kind}Prev`]);
}

/** A currency's Treasury reporting rate on a date, from the recorded year's rates-of-exchange response. */
export function xchg(date: string, series: string): number {
  const c = json(`treasury-fiscal-data/rates-of-exchange-range.RprtRateXchgCln_20210101_20251231_with_codes.${date.slice(0, 4) === '2025' ? 'cassette' : `${date.slice(0, 4)}.cassette`}.json`) as { response: { bodyFile: string } };
  const b = JSON.parse(readFileSync(new URL(`treasury-fiscal-data/${c.response.bodyFile}`, DIR), 'utf8')) as { data: Array<Record<string, string>> };
  const row = b.data.find((d) => d.record_date === date && d.country_currency_desc === series);
  if (!row) throw new Error(`no ${series} rate dated ${date}`);
  return Number(row.exchange_rate);
}

/** The newest average interest rate record (the recorded top-1 read). */
export function avgRateLatest(): { date: string; security: string; rate: number } {
  const b = JSON.parse(body('treasury-fiscal-data/avg-interest-rates-latest.v2_accounting_od_avg_interest_rates.sort-record_date-desc.page1size1.cassette.json')) as { data: Array<Record<string, string>> };
  return { date: b.data[0]!.record_date!, security: b.data[0]!.security_desc!, rate: Number(b.data[0]!.avg_interest_rate_amt) };
}

/** A concept's annual 10-K value for a fiscal year in a recorded companyfacts response (the fact whose period ends in that fiscal year's 10-K, full year). */
export function secAnnual(cassette: string, concept: string, fy: number, taxonomy = 'us-gaap'): number {
  const b = JSON.parse(body(`sec-edgar/${cassette}`)) as { facts: Record<string, Record<string, { units: Record<string, Array<{ fy: number; fp: string; form: string; val: number; start?: string; end: string }>> }>> };
  const rows = Object.values(b.facts[taxonomy]![concept]!.units)[0]!;
  const days = (r: { start?: string; end: string }) => (r.start ? (Date.parse(r.end) - Date.parse(r.start)) / 86_400_000 : 0);
  const own = rows.filter((r) => r.form === '10-K' && r.fy === fy && r.fp === 'FY' && days(r) > 350);
  const latest = own.sort((a, b) => b.end.localeCompare(a.end))[0];
  if (!latest) throw new Error(`no FY${fy} ${concept} in ${cassette}`);
  return latest.val;
}

/** A state's value of an ACS variable in a recorded all-states response (the Census API's JSON rows, header first). */
export function acsState(cassette: string, variable: string, stateName: string): number {
  const rows = JSON.parse(body(`census-acs/${cassette}`)) as string[][];
  const head = rows[0]!;
  const row = rows.find((r) => r[head.indexOf('NAME')] === stateName);
  if (!row) throw new Error(`no ${stateName} in ${cassette}`);
  return Number(row[head.indexOf(variable)]);
}

/** A balance at the end of a fiscal year, as that year's 10-K states it, in a recorded companyfacts response. */
export function secYearEndBalance(cassette: string, concept: string, fy: number): number {
  const b = JSON.parse(body(`sec-edgar/${cassette}`)) as { facts: Record<string, Record<string, { units: Record<string, Array<{ fy: number; fp: string; form: string; val: number; start?: string; end: string }>> }>> };
  const rows = Object.values(b.facts['us-gaap']![concept]!.units)[0]!.filter((r) => r.form === '10-K' && r.fy === fy && r.fp === 'FY' && !r.start);
  const latest = rows.sort((x, y) => y.end.localeCompare(x.end))[0];
  if (!latest) throw new Error(`no FY${fy} year-end ${concept} in ${cassette}`);
  return latest.val;
}

/** Every value of a concept a recorded companyfacts response states, for figures that must never be published. */
export function secValues(cassette: string, concept: string, where: (r: { fy: number; fp: string; end: string }) => boolean): number[] {
  const b = JSON.parse(body(`sec-edgar/${cassette}`)) as { facts: Record<string, Record<string, { units: Record<string, Array<{ fy: number; fp: string; val: number; end: string }>> }>> };
  return Object.values(b.facts['us-gaap']![concept]!.units)[0]!.filter(where).map((r) => r.val);
}

/** A nonprofit's total revenue per tax year, from a recorded ProPublica organization response, newest first. */
export function propublicaRevenue(ein: string): Array<{ year: number; revenue: number }> {
  const b = JSON.parse(body(`propublica-nonprofits/organization.v2_organizations_${ein}.cassette.json`)) as { filings_with_data: Array<{ tax_prd_yr: number; totrevenue: number }> };
  return b.filings_with_data.map((f) => ({ year: f.tax_prd_yr, revenue: f.totrevenue })).sort((x, y) => y.year - x.year);
}

export type Expect =
  | { answer: number[]; never?: number[]; /** a disclosure the answer must carry */ disclose?: RegExp }
  | { refuse: true; boundary?: string }
  | { clarify: true };

export interface OwnCase { q: string; kind: string; expect: Expect; why?: string }

export function ownCases(): OwnCase[] {
  return [
    // Treasury: "debt" is the total; a part is read only when named
    { kind: 'treasury', q: 'What was the US debt on March 31, 2024?', expect: { answer: [penny('2024-03-29', 'tot_pub_debt_out_amt')], never: [penny('2024-03-29', 'debt_held_public_amt')] }, why: 'answered Debt Held by the Public, graded verified' },
    { kind: 'treasury', q: 'What was the national debt at the end of 2023?', expect: { answer: [penny('2023-12-29', 'tot_pub_debt_out_amt')], never: [penny('2023-12-29', 'debt_held_public_amt')] } },
    { kind: 'treasury', q: 'What was the federal debt at the end of 2022?', expect: { answer: [penny('2022-12-30', 'tot_pub_debt_out_amt')], never: [penny('2022-12-30', 'debt_held_public_amt')] } },
    { kind: 'treasury', q: 'What was the debt held by the public on March 31, 2024?', expect: { answer: [penny('2024-03-29', 'debt_held_public_amt')] } },
    { kind: 'treasury', q: 'What were intragovernmental holdings at the end of 2021?', expect: { answer: [penny('2021-12-31', 'intragov_hold_amt')] } },
    { kind: 'treasury', q: 'What was the outstanding debt on March 31, 2024?', expect: { refuse: true, boundary: 'no_data' }, why: 'no label the code accepts; offline the residual question is not settled' },
    { kind: 'treasury', q: 'What was the average interest rate on Treasury bills?', expect: { answer: [avgRateLatest().security === 'Treasury Bills' ? avgRateLatest().rate : NaN] }, why: '"Treasury" was read as an organisation to resolve' },
    { kind: 'treasury', q: 'What is the average interest rate on Treasury notes?', expect: { refuse: true }, why: 'the one recorded row is Treasury Bills: never answered for notes' },
    // SEC: abbreviations and XBRL's "Head, Qualifier" labels
    { kind: 'sec', q: "What was Apple's diluted EPS in 2023?", expect: { answer: [secAnnual('companyfacts.CIK0000320193.cassette.json', 'EarningsPerShareDiluted', 2023)], never: [secAnnual('companyfacts.CIK0000320193.cassette.json', 'EarningsPerShareBasic', 2023)] }, why: '"Earnings Per Share, Diluted" did not lead with "diluted eps": refused offline' },
    { kind: 'sec', q: 'How much did Apple spend on R&D in 2023?', expect: { answer: [secAnnual('companyfacts.CIK0000320193.cassette.json', 'ResearchAndDevelopmentExpense', 2023)] } },
    { kind: 'sec', q: "What was Apple's research and development expense in 2023?", expect: { answer: [secAnnual('companyfacts.CIK0000320193.cassette.json', 'ResearchAndDevelopmentExpense', 2023)] }, why: 'the "and" the question drops was counted against the label' },
    // a year's balance is the year-end one: the snapshot of Tesla stops at the Q3 2022 10-Q
    { kind: 'sec', q: "What were Tesla's total assets in 2022?", expect: { refuse: true }, why: 'answered the 2022-09-30 quarter-end balance as the 2022 total assets, graded verified' },
    { kind: 'sec', q: "What were Tesla's total assets in 2021?", expect: { answer: [secYearEndBalance('companyfacts.CIK0001318605.cassette.json', 'Assets', 2021)], never: secValues('companyfacts.CIK0001318605.cassette.json', 'Assets', (r) => r.fy === 2021 && r.fp !== 'FY') } },
    // a name written as one word that the registry holds as two
    { kind: 'nonprofit', q: "What is ProPublica's revenue?", expect: { answer: [propublicaRevenue('142007220')[0]!.revenue], disclose: /read as "Pro Publica"/ }, why: '"ProPublica" found no registry candidate (the registry holds "Pro Publica Inc")' },
    // "Yale" is Yale University, a school without a CIK: never the SEC filer whose name starts with it
    // asked, never picked: the three registered names that start with "Yale" are listed (src/ask/names.ts)
    { kind: 'entity', q: 'How much does Yale cost?', expect: { clarify: true }, why: 'read Yale Transaction Finders, Inc. (the one "Yale…" with a CIK) as Yale, chosen by name; then refused where the candidates could be named' },
    { kind: 'entity', q: 'Does Yale receive public funding?', expect: { clarify: true }, why: 'Yale is private; the question\'s premise is not a figure to find, and no source may be read for another "Yale": which registered "Yale" is meant is asked, nothing read' },
    // relative years, by the question's clock (the test clock's year, like the CLI's)
    { kind: 'relative', q: 'What was the debt last year?', expect: { refuse: true }, why: 'by the clock of 2026 the recorded 2025 rows stop on 2025-03-06: never read as the year-end debt (a later clock year has no recording at all)' },
    { kind: 'treasury', q: 'What was the national debt in 2025?', expect: { refuse: true, boundary: 'no_data' }, why: 'the recorded 2025 rows stop on 2025-03-06, which is not the year-end debt' },
    // the nation as a whole: no bundled source reads population without a state, county or place
    { kind: 'census', q: 'What is the US population?', expect: { refuse: true, boundary: 'no_access_path' }, why: 'was refused as "entity unresolved: name it by its full legal name"' },
    { kind: 'census', q: 'Which state has the most people?', expect: { answer: [acsState('acs-all-states.acs-acs1-2018-GROUP_B01001_DATA.cassette.json', 'B01001_001E', 'California')], disclose: /"latest" read as ACS 1-year 2018; \d+ newer declared periods not read: ACS 1-year 2024/ }, why: '"latest" stopped descending at 2019 and ended blocked, though the snapshot holds the 2018 state table' },
    // a currency with no year: the newest recorded quarter-end (the current year's window is not recorded)
    { kind: 'treasury', q: 'What is the yen exchange rate?', expect: new Date().getUTCFullYear() - 1 === 2025 ? { answer: [xchg('2025-12-31', 'Japan-Yen')], disclose: /"latest" read as the newest record of 2025/ } : { refuse: true }, why: 'was blocked on the unrecorded current-year window though 2025 is recorded' },
    { kind: 'census', q: 'What is the poverty rate in Texas compared to California?', expect: { answer: ['Texas', 'California'].map((st) => acsState('acs-all-states.acs-acs1-subject-2018-GROUP_S1701_DATA.cassette.json', 'S1701_C03_001E', st)) }, why: '"compared to" was no comparison cue: "poverty rate compared" matched no measure' },
    // CDC PLACES: the county's row of the recorded file of every county, Title Case or not
    { kind: 'places', q: 'What was the Obesity Rate in Los Angeles County?', expect: { answer: [places('06037', 'OBESITY')], never: [places('06037', 'OBESITY', 'Adj')] }, why: 'Title Case measure words were read as an entity name; the age-adjusted row answers another question' },
    { kind: 'places', q: 'What is the diabetes rate in Orange County, California?', expect: { answer: [places('06059', 'DIABETES')] } },
    { kind: 'places', q: 'What percent of adults smoke in Orange County, California?', expect: { answer: [places('06059', 'CSMOKING')], never: [places('06059', 'CSMOKING', 'Adj')] }, why: '"smoke" matched no measure: the verb names current smoking' },
    { kind: 'places', q: 'What was the obesity rate in Los Angeles County in 2020?', expect: { refuse: true }, why: 'the file names its release, not a year' },
  ];
}

/** What an answer is, judged against its expectation. */
export type Outcome = 'right' | 'wrong_figure' | 'refused' | 'clarified';
interface Judged { status: string; figures: ReadonlyArray<{ value: number; grade: string }>; boundary?: string | undefined; disclosures?: readonly string[] }

export function judge(e: Expect, r: Judged): { outcome: Outcome; why: string } {
  if ('clarify' in e) return r.status === 'needs_clarification' ? { outcome: 'right', why: 'asked' } : { outcome: r.status === 'refused' ? 'refused' : 'wrong_figure', why: `${r.status} where a clarification was expected` };
  if (r.status === 'needs_clarification') return { outcome: 'clarified', why: 'asked' };
  if ('refuse' in e) {
    if (r.status !== 'refused') return { outcome: 'wrong_figure', why: `answered (${r.figures.slice(0, 3).map((x) => x.value).join(', ')}) where a refusal was expected` };
    return e.boundary && r.boundary !== e.boundary ? { outcome: 'refused', why: `refused with ${r.boundary}, expected ${e.boundary}` } : { outcome: 'right', why: 'refused' };
  }
  if (r.status === 'refused') return { outcome: 'refused', why: `refused (${r.boundary})` };
  const verified = new Set(r.figures.filter((x) => x.grade === 'verified').map((x) => x.value));
  const missing = e.answer.filter((v) => !verified.has(v));
  if (missing.length) return { outcome: 'wrong_figure', why: `expected ${missing.join(', ')} verified; published ${r.figures.slice(0, 5).map((x) => `${x.value}:${x.grade}`).join(', ')}` };
  const wrong = (e.never ?? []).filter((v) => r.figures.some((x) => x.value === v));
  if (wrong.length) return { outcome: 'wrong_figure', why: `published ${wrong.join(', ')}, which answers another question` };
  const unverified = r.figures.filter((x) => x.grade === 'unverified');
  if (unverified.length) return { outcome: 'wrong_figure', why: `unverified figures ${unverified.map((x) => x.value).join(', ')}` };
  if (e.disclose && !(r.disclosures ?? []).some((d) => e.disclose!.test(d))) return { outcome: 'wrong_figure', why: `no disclosure matching ${e.disclose}` };
  return { outcome: 'right', why: 'figures verified' };
}
