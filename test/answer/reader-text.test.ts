/**
 * The answer as a careful reader sees it: the sentence states each period once and in its own
 * kind (a fiscal year with its end, a balance on its date, a survey vintage by name), names the
 * publisher, prints no pseudo-unit; disclosures that repeat per period are said once with every
 * period's values; derived figures keep their operands' decimal places; the human output lists each
 * publisher response once. Values are the cassettes' (see test/ask/keyed-reads.test.ts and
 * test/ask/unkeyed.test.ts for where each was read).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeDisclosures } from '../../src/answer/disclosures.ts';
import { factSheet, formatValue, periodPhrase } from '../../src/answer/factsheet.ts';
import { renderPlain } from '../../src/answer/render.ts';
import { renderRefusal } from '../../src/answer/wording.ts';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { evidenceList, formatResult } from '../../src/cli/commands/ask.ts';
import type { AdmittedEvidence } from '../../src/evidence/types.ts';
import { testServices } from '../ask/services.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

describe('period, unit and publisher in the sentence', () => {
  it('each kind of period is written once, in its own terms', () => {
    expect(periodPhrase({ label: 'FY2019', start: '2018-09-30', end: '2019-09-28', basis: 'fiscal' })).toBe(' for FY2019 (ending 2019-09-28)');
    expect(periodPhrase({ label: '2026-10-01', end: '2026-10-01', basis: 'calendar' })).toBe(' on 2026-10-01');
    // known only by its end: a 990 tax year's revenue is a flow, so no "at the end of"
    expect(periodPhrase({ label: 'FY2020', end: '2020-12-31', basis: 'fiscal' })).toBe(' for FY2020 (ending 2020-12-31)');
    expect(periodPhrase({ label: 'ACS 1-year 2018', start: '2018-01-01', end: '2018-12-31', basis: 'survey' })).toBe(' for ACS 1-year 2018');
    expect(periodPhrase({ label: 'latest available (year varies by field)', basis: 'survey' })).toBe(', latest available (year varies by field),');
    expect(formatValue(10098052, 'count')).toBe('10,098,052');
    expect(formatValue(0.0693, 'ratio')).toBe('0.0693');
    // dollars with cents to the cent (Debt to the Penny 2022-12-30 is published as 31419689421557.90)
    expect(formatValue(31419689421557.9, 'USD', 'USD')).toBe('$31,419,689,421,557.90');
    expect(formatValue(-1.5, 'USD', 'USD')).toBe('-$1.50');
  });

  it('a survey vintage has no "ending" date; a count prints no unit; the publisher is named (Los Angeles County, 10,098,052)', async () => {
    const r = await ask(services, { question: 'What was the population of Los Angeles County in 2018?' });
    expect(r.status).toBe('answered');
    expect(r.text).toBe("Los Angeles County, California's Total population for ACS 5-year 2014–2018 (republished in CDC/ATSDR SVI 2018) was 10,098,052, according to the CDC/ATSDR Social Vulnerability Index.");
  }, 60_000);

  it("a balance-sheet value's frames cross-check is the quarter nearest its date (NVIDIA assets FY2023, 2023-01-29)", async () => {
    const r = await ask(services, { question: "Tell me NVIDIA's total assets for FY2023." });
    expect(r.status).toBe('answered');
    expect(r.text).toBe("NVIDIA CORP's Assets for FY2023 (ending 2023-01-29) was $41,182,000,000, according to SEC EDGAR.");
    // its frames second path is the calendar quarter nearest the balance-sheet date
    expect(r.cross_checks!.find((c) => c.operation === 'frames')!.url).toBe('https://data.sec.gov/api/xbrl/frames/us-gaap/Assets/USD/CY2022Q4I.json');
  }, 60_000);

  it("Scorecard's latest value is set off as such, and the source is the College Scorecard (Yale, $51,400)", async () => {
    const r = await ask(services, { question: "What is Yale's in-state tuition?" });
    expect(r.status).toBe('answered');
    expect(r.text).toBe("Yale University's In-state tuition and fees, latest available (year varies by field), is reported as $51,400, according to the College Scorecard.");
    // the period label is in the sentence, not repeated as a disclosure; the TRIMMED sample is one note; the key named as a reader knows it
    expect(r.qualification!.disclosures).not.toContain('latest available (year varies by field)');
    expect(r.qualification!.disclosures.filter((d) => /TRIMMED/.test(d))).toHaveLength(1);
    expect(r.qualification!.disclosures.filter((d) => /TRIMMED/.test(d))[0]).toMatch(/^incomplete by construction: replayed from a TRIMMED sample \(college-scorecard\/schools_id-130794_yale\.results0\.TRIMMED\.json\)/);
    expect(r.qualification!.disclosures[0]).toBe('"Yale University" chosen by name: the only one of 1 registry candidate whose name starts with the name asked and that has the identifier this read takes (IPEDS unit id)');
  }, 60_000);
});

describe('disclosures said once', () => {
  it('merges disclosures that differ only in their numbers, keeping every differing value', () => {
    expect(mergeDisclosures([
      '"2019" read as the filer\'s fiscal year FY2019 (2018-09-30…2019-09-28), not calendar 2019',
      'some other note',
      '"2020" read as the filer\'s fiscal year FY2020 (2019-09-29…2020-09-26), not calendar 2020',
      'some other note',
    ])).toEqual([
      '"2019" read as the filer\'s fiscal year FY2019 (2018-09-30…2019-09-28), not calendar 2019; likewise for 2020 (2019-09-29…2020-09-26)',
      'some other note',
    ]);
    // different words are different disclosures, whatever their numbers
    expect(mergeDisclosures(['a 1 b', 'a 2 c'])).toEqual(['a 1 b', 'a 2 c']);
  });

  it("Apple's revenue 2019–2024: one fiscal-year note, one cross-check sentence per second path, no sample paths", async () => {
    const r = await ask(services, { question: "How did Apple's revenue change from 2019 to 2024?" });
    expect(r.status).toBe('answered');
    const d = r.qualification!.disclosures;
    expect(d).toContain('"2019" read as the filer\'s fiscal year FY2019 (2018-09-30…2019-09-28), not calendar 2019; likewise for 2020 (2019-09-29…2020-09-26), 2021 (2020-09-27…2021-09-25), 2022 (2021-09-26…2022-09-24), 2023 (2022-09-25…2023-09-30), 2024 (2023-10-01…2024-09-28)');
    // the primary read is the companyconcept the plan tries first (offline, a DERIVED sample, said); companyfacts agrees on every year
    expect(d).toContain("Cross-check agrees: SEC EDGAR companyfacts (https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json) holds the same values for Apple Inc.'s Revenue from Contract with Customer, Excluding Assessed Tax for FY2019, FY2020, FY2021, FY2022, FY2023, FY2024. Independence: the second path is compared with a primary read that replays a DERIVED sample, so they may agree by construction.");
    expect(d.filter((x) => x.startsWith('Cross-check agrees'))).toHaveLength(2);
    expect(d.filter((x) => /read as the filer's fiscal year/.test(x))).toHaveLength(1);
    expect(d.filter((x) => x.startsWith('Cross-check')).join('\n')).not.toMatch(/\.DERIVED\.json/);
  }, 60_000);

  it('two states compared: one note for both figures; the ACS state read is not re-read as its own cross-check', async () => {
    const r = await ask(services, { question: 'Compare median household income in Texas and California in 2018.' });
    expect(r.status).toBe('answered');
    expect(r.text).toBe("Texas's Median household income in the past 12 months (in 2018 inflation-adjusted dollars) for ACS 1-year 2018 was $60,629, according to the Census Bureau (ACS). California's Median household income in the past 12 months (in 2018 inflation-adjusted dollars) for ACS 1-year 2018 was $75,277, according to the Census Bureau (ACS). California had the higher value, by $14,648.");
    expect(r.cross_checks!.filter((c) => c.outcome === 'failed')).toEqual([]);
    expect(r.qualification!.disclosures).toContain("No cross-check available for any of the 2 figures: the Census Bureau (ACS) acs-state is the answer's own read, not a second one; the Census Bureau (ACS) acs-county and the Census Bureau (ACS) acs-place do not read it for this entity; the Census Bureau (ACS) acs-all-counties is not yet read as a cross-check.");
  }, 60_000);
});

describe('derived figures', () => {
  const ev = (index: number, value: number, label: string): AdmittedEvidence => ({
    index, value, unit: 'USD', currency: 'USD', entity: { label: 'X', key: 'k', keyType: 'cik' }, measure: 'm', measureLabel: 'M',
    period: { label, end: label, basis: 'calendar' }, source: 's', operation: 'o', assurance: { match: 'key', planVerdict: 'exact', warnings: [] },
  } as unknown as AdmittedEvidence);

  it('a difference keeps the decimal places of its operands (cents, not a binary-float tail)', () => {
    const sheet = factSheet([ev(1, 29617214856051.75, '2021-12-31'), ev(2, 36218605311689.91, '2024-12-31')]);
    expect(sheet.derived.find((d) => d.id === 'D1')!.value).toBe(6601390455638.16);
    const rates = factSheet([{ ...ev(1, 0.882, '2021-12-31'), unit: 'EUR per USD', currency: undefined } as AdmittedEvidence, { ...ev(2, 0.961, '2024-12-31'), unit: 'EUR per USD', currency: undefined } as AdmittedEvidence]);
    expect(rates.derived.find((d) => d.id === 'D1')!.value).toBe(0.079);
  });
});

describe('human output', () => {
  it('consecutive evidence IRIs are a range; each publisher response is one source line (Apple filings: 100 records, one body)', async () => {
    expect(evidenceList(['u/e/1', 'u/e/2', 'u/e/3', 'u/e/5'])).toBe('u/e/1…3 u/e/5');
    expect(evidenceList(['u/e/6', 'u/e/1'])).toBe('u/e/6 u/e/1');
    const r = await ask(services, { question: "Show Apple's recent SEC filings." });
    expect(r.status).toBe('answered');
    const text = formatResult(r);
    const sources = text.split('\n').filter((l) => l.includes('https://data.sec.gov/submissions/CIK0000320193.json'));
    expect(sources).toHaveLength(1);
    expect(sources[0]).toContain(`evidence ${r.citations[0]!.evidence.replace(/\/1$/, '/1…100')})`);
    expect(r.citations).toHaveLength(100);
  }, 60_000);
});

describe('refusals say what is missing', () => {
  it('a relative span not read as years is not understood (not "no data"), and says what would do', async () => {
    const r = await ask(services, { question: "Show Microsoft's net income over the last five years." });
    expect(r.status).toBe('refused');
    expect(r.refusal).toEqual({
      boundary: 'not_understood',
      code: 'periods_unread',
      reason: 'the periods of the series were not read from the question: it names no years, and a relative span ("the last five years", "over time") is not resolved to years',
      answerable_if: 'the years named (for example "from 2019 to 2023"), or an intent sent with --intent',
    });
  }, 60_000);

  it('an ambiguous county names the candidates to choose from; an unknown name says which kind of entity the read takes', async () => {
    const king = await ask(services, { question: 'Compare obesity rates in King County and Wayne County.' });
    expect(king.refusal!.answerable_if).toBe('the one meant named in full: "King County, Texas" or "King County, Washington"');
    const mit = await ask(services, { question: 'Compare the admission rates of MIT and Stanford.' });
    expect(mit.refusal!.reason).toBe('cannot compare: MIT — "MIT" could not be resolved as a school: no candidate in the identity registry');
    expect(mit.refusal!.answerable_if).toBe('a school the identity registry holds, named as registered (this read is keyed by school), or an intent naming the canonical entity');
    // worded from the code and its parameters, never from the reason's words
    expect(mit.refusal).toMatchObject({ boundary: 'entity_unresolved', code: 'entity_unresolved' });
    expect(renderRefusal({ boundary: 'entity_unresolved', code: 'entity_unresolved', params: { entityType: 'organization', candidates: 0 }, detail: 'any words' }).answerable_if).toMatch(/^an organization the identity registry holds/);
    expect(renderRefusal({ boundary: 'entity_unresolved', code: 'ambiguous', params: { candidates: ['A', 'B', 'C'] }, detail: 'any words' }).answerable_if).toBe('the one meant named in full: "A", "B", or "C"');
  }, 60_000);
});

describe('comparisons say what differs between the values compared', () => {
  it('Apple and Alphabet FY2023: different published measures, fiscal years ending on different dates, both disclosed', async () => {
    const r = await ask(services, { question: 'Compare Apple and Alphabet revenue in 2023' });
    expect(r.status).toBe('answered');
    expect(r.qualification!.disclosures).toContain('the values compared are different published measures: Apple Inc., Revenue from Contract with Customer, Excluding Assessed Tax; Alphabet Inc., Revenues');
    expect(r.qualification!.disclosures).toContain('FY2023 ends on different dates: Apple Inc. 2023-09-30; Alphabet Inc. 2023-12-31');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['$383,285,000,000', 'verified'], ['$307,394,000,000', 'verified'], ['$75,891,000,000', 'derived']]);
  }, 60_000);

  it('estimates of different survey products are laid side by side, not subtracted', () => {
    // SYNTHETIC evidence objects (the Cook County 63353 is not a publisher figure): only the layout is under test
    const e = (index: number, label: string, value: number, period: string) => ({
      index, value, unit: 'USD', currency: 'USD', entity: { label, key: String(index), keyType: 'fips' }, measure: 'm', measureLabel: 'Median household income',
      period: { label: period, start: '2018-01-01', end: '2018-12-31', basis: 'survey' }, source: 'census-acs', operation: 'o', assurance: { match: 'key', planVerdict: 'exact', warnings: [] },
    } as unknown as AdmittedEvidence);
    const sheet = factSheet([e(1, 'Texas', 60629, 'ACS 1-year 2018'), e(2, 'Cook County, Illinois', 63353, 'ACS 5-year 2014–2018')]);
    expect(sheet.derived).toEqual([]);
    expect(renderPlain(sheet, { hedge: false })).toBe("Texas's Median household income for ACS 1-year 2018 was $60,629, according to the Census Bureau (ACS). Cook County, Illinois's Median household income for ACS 5-year 2014–2018 was $63,353, according to the Census Bureau (ACS). The values are estimates of different surveys or vintages, so they are not subtracted or ranked.");
    // the same product and vintage is subtracted as before
    expect(factSheet([e(1, 'Texas', 60629, 'ACS 1-year 2018'), e(2, 'California', 75277, 'ACS 1-year 2018')]).derived.map((d) => d.value)).toEqual([-14648]);
  });
});

describe('progress (stderr) claims no more than was established', () => {
  it('an agreeing cross-check that replays a DERIVED sample says it is not independent; the plan verdict is said once', async () => {
    const events: string[] = [];
    const r = await ask(services, { question: "What was Apple's profit in 2023?" }, { onProgress: (e) => events.push(`${e.stage} [${e.by}] ${e.message}`) });
    expect(r.status).toBe('answered');
    expect(events).toContain('validation [cross-check] E1 via sec-edgar/companyconcept: agrees (96995000000 vs 96995000000) — sec-edgar/companyconcept reproduced 96995000000 for the same entity, measure, unit and period (not independent: the second path replays a DERIVED sample built from other publisher data rather than recorded)');
    expect(events.filter((e) => e.startsWith('plan ')).every((e) => !/exact: exact:/.test(e))).toBe(true);
  }, 60_000);
});

describe('"latest" is said to be the newest period the response holds', () => {
  it("Tesla's net income with no year: FY2021, the newest in the DERIVED companyfacts sample, and the note says what latest meant", async () => {
    const r = await ask(services, { question: "What is Tesla's net income?" });
    expect(r.status).toBe('answered');
    expect(r.text).toBe("Tesla, Inc.'s Net Income (Loss) Attributable to Parent for FY2021 (ending 2021-12-31) was $5,519,000,000, according to SEC EDGAR.");
    // typed (validate/latest.ts): the newest period the response holds, and no other eligible source declares a newer one
    expect(r.qualification!.disclosures).toContain('latest available: FY2021, the newest period in SEC EDGAR\'s response; no other eligible source declares a newer one');
  }, 60_000);
});

describe('refusals in a reader\'s words', () => {
  it('a read missing arguments says what it needs, never the CLI flags (it read "saipe-states needs --year, --variables")', async () => {
    const d = renderRefusal({ boundary: 'no_data', code: 'missing_input', detail: 'saipe-states needs --year, --variables', params: { operation: 'saipe-states', missing: ['year', 'variables'] }, context: { attribute: 'poverty rate' } });
    expect(d.reason).toBe('saipe-states could not be asked: it needs a year and the estimate to read, and those were not bound from the question');
    expect(d.answerable_if).not.toMatch(/--/);
    const r = await ask(services, { question: 'What was the poverty rate in the United States in 2023?' });
    expect(r.status).toBe('refused');
    expect(r.refusal!.reason).not.toMatch(/--\w/);
    expect(r.text).not.toMatch(/--year|--variables/);
  }, 60_000);
});
