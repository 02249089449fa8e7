/**
 * Questions that name no entity (national aggregates) or name a code the publisher defines (a
 * currency row, a Grants.gov opportunity id), end to end on the offline cassettes. Every value is
 * pinned to the publisher data it was read from (the Debt to the Penny and Rates of Exchange CSV
 * downloads in ../shared/publisher-samples/treasury-fiscal-data, checked by hand), cited to the
 * response (URL, retrieval time, content hash = the cassette's bodySha256); beyond the recordings
 * every question is a typed refusal.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { readFileSync } from 'node:fs';
import { codeFromText, leadsWith, matchSeries } from '../../src/execute/unkeyed.ts';
import { connectorRuntime } from '../../src/connectors/runtime.ts';
import { fixedModel, testServices } from './services.ts';

const PENNY = 'https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v2/accounting/od/debt_to_penny';
const XCHG = 'https://api.fiscaldata.treasury.gov/services/api/fiscal_service/v1/accounting/od/rates_of_exchange';
/** bodySha256 of the cassettes read (fixtures/publishers/treasury-fiscal-data/*.cassette.json). */
const SHA = {
  pennyLatest: '346523f06db595ac73454ff564005d025c50fb848b360f34bf92bd9385b037e4',
  penny2024: '78266ab4d3a8bf49fc17169988e8ca2c34346236d0aa5e0dd60a8356aec452e7',
  xchg2024: '66d43423cb32afa318b2e82dfcdd5a3aeb8a70d4e827ffbe35406fe64d8a8ce1',
  xchg2025: '12aba462ac59fd3f7f7478445beaf6cf90d9a7ca4a09377c1cdae5ac7ad3f427',
};

/** A day's record of the recorded 2024 Debt to the Penny response, read from its body file (not through Assay's connector). */
function pennyRecord(date: string): { tot_pub_debt_out_amt: number; debt_held_public_amt: number } {
  const dir = new URL('../../fixtures/publishers/treasury-fiscal-data/', import.meta.url);
  const cassette = JSON.parse(readFileSync(new URL('debt-to-penny-range.DebtPenny_20200307_20250306.2024.cassette.json', dir), 'utf8')) as { response: { bodyFile: string } };
  const body = JSON.parse(readFileSync(new URL(cassette.response.bodyFile, dir), 'utf8')) as { data: Array<Record<string, string>> };
  const row = body.data.find((d) => d.record_date === date);
  if (!row) throw new Error(`no Debt to the Penny record dated ${date} in the 2024 recording`);
  return { tot_pub_debt_out_amt: Number(row.tot_pub_debt_out_amt), debt_held_public_amt: Number(row.debt_held_public_amt) };
}

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const values = (r: Awaited<ReturnType<typeof ask>>) => r.evidence.map((e) => [e.period, e.value]);

describe('national aggregates: read at the dataset scope, no entity resolution', () => {
  it('latest total public debt outstanding = the newest record (2026-10-01), from the ordered top-1 read', async () => {
    const r = await ask(services, { question: 'What is the latest total public debt outstanding?' });
    expect(r.status).toBe('answered');
    expect(values(r)).toEqual([['2026-10-01', 40260641972390.03]]);
    const e = r.evidence[0]!;
    expect(e.entity).toBe('United States federal government');
    expect(e.entity_key).toBe('scope=treasury-fiscal-data/debt-to-the-penny');
    expect(e.measure).toBe('treasury-fiscal-data/debt_to_penny/tot_pub_debt_out_amt');
    // the answer's sentence says the date once ("on 2026-10-01"); the disclosures say it no more, nor name operations
    expect(r.text).toBe("United States federal government's Total Public Debt Outstanding on 2026-10-01 was $40,260,641,972,390.03, according to Treasury Fiscal Data.");
    expect(r.qualification!.disclosures).toEqual([
      'the latest record only (sorted by record_date descending, page size 1)',
      'no entity named: the figure is for the United States federal government, the only scope Treasury Fiscal Data publishes it for',
      "No cross-check available for United States federal government's Total Public Debt Outstanding for 2026-10-01: Treasury Fiscal Data debt-to-penny-range is not yet read as a cross-check.",
    ]);
    expect(r.citations).toEqual([expect.objectContaining({ url: `${PENNY}?sort=-record_date&page[size]=1`, content_hash: SHA.pennyLatest })]);
    expect(r.figures.map((f) => [f.value, f.grade])).toEqual([[40260641972390.03, 'verified']]);
  });

  it('debt held by the public "right now" is the same newest record', async () => {
    const r = await ask(services, { question: 'How much debt is held by the public right now?' });
    expect(r.status).toBe('answered');
    expect(values(r)).toEqual([['2026-10-01', 32433790394253.86]]);
  });

  it('a date with no record: the last record before it, said plainly with the next one (2024-03-31 → 2024-03-29)', async () => {
    const r = await ask(services, { question: 'What was the total public debt outstanding on March 31, 2024?' });
    expect(r.status).toBe('answered');
    expect(values(r)).toEqual([['2024-03-29', 34586533479349.88]]);
    expect(r.qualification!.disclosures).toContain('the publisher has no record dated 2024-03-31; the value is the last record before it, dated 2024-03-29 (the next record is dated 2024-04-01)');
    const c = r.citations[0]!;
    expect(c.url).toBe(`${PENNY}?filter=record_date:gte:2024-01-01,record_date:lte:2024-12-31&sort=-record_date&page[size]=10000`);
    expect(c.content_hash).toBe(SHA.penny2024);
    expect(c.retrieved_at).toMatch(/^2025-03-08/);
  });

  it('a date that has its own record is read exactly, without a disclosure of substitution', async () => {
    const r = await ask(services, { question: 'What was the total public debt outstanding on January 3, 2024?' });
    expect(values(r)).toEqual([['2024-01-03', 33994219872567.85]]);
    expect(r.qualification!.disclosures.join('\n')).not.toContain('no record dated');
  });

  it('a date before the first record of its year is refused, naming the nearest later record (never substituted)', async () => {
    const r = await ask(services, { question: 'What was the total public debt outstanding on January 1, 2024?' });
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('no_data');
    expect(r.refusal!.reason).toContain('the nearest later record is dated 2024-01-02');
  });

  it('"outstanding debt" is not the publisher label nor a name the catalog gives it: offline it stays a residual question; a judging model settles it', async () => {
    const q = 'What was the outstanding debt on March 31, 2024?';
    const offline = await ask(services, { question: q });
    expect(offline.status).toBe('refused');
    expect(offline.refusal!.boundary).toBe('no_data');
    expect(offline.refusal!.reason).toContain('does "Total Public Debt Outstanding" mean "outstanding debt"?');
    const judged = await ask(await testServices({ model: fixedModel('The outstanding debt was $34,586,533,479,349.88 on 2024-03-29.') }), { question: q });
    expect(judged.status).toBe('answered');
    expect(values(judged)).toEqual([['2024-03-29', 34586533479349.88]]);
  }, 120_000);

  // "debt" asked of the debt dataset is its total; "debt held by the public" is a part of it and was
  // once answered (graded verified) for "What was the US debt on March 31, 2024?"
  it.each([
    'What was the US debt on March 31, 2024?',
    'What was the national debt on March 31, 2024?',
    'What was the federal debt on March 31, 2024?',
  ])('%s = total public debt outstanding (the catalog\'s altLabels), never a part of it', async (q) => {
    const r = await ask(services, { question: q });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => e.measure)).toEqual(['treasury-fiscal-data/debt_to_penny/tot_pub_debt_out_amt']);
    expect(values(r)).toEqual([['2024-03-29', pennyRecord('2024-03-29').tot_pub_debt_out_amt]]);
    expect(r.figures.map((f) => f.value)).not.toContain(pennyRecord('2024-03-29').debt_held_public_amt);
  }, 120_000);

  it('a part asked by name is still that part: "debt held by the public" reads debt_held_public_amt', async () => {
    const r = await ask(services, { question: 'What was the debt held by the public on March 31, 2024?' });
    expect(values(r)).toEqual([['2024-03-29', pennyRecord('2024-03-29').debt_held_public_amt]]);
  }, 60_000);

  it('a federal fiscal year is read at its last record on or before 30 September (FY2023 → 2023-09-29)', async () => {
    const r = await ask(services, { question: 'What was the total public debt outstanding in fiscal year 2023?' });
    expect(values(r)).toEqual([['2023-09-29', 33167334044723.16]]);
    expect(r.qualification!.disclosures).toContain('federal fiscal year 2023 (ends 30 September 2023) read as its last record, dated 2023-09-29');
  });

  it('a yearly timeseries reads each year\'s last record, one request per year', async () => {
    const r = await ask(services, { question: 'Show the total public debt outstanding each year from 2021 to 2024.' });
    expect(r.status).toBe('answered');
    expect(values(r)).toEqual([
      ['2021-12-31', 29617214856051.75], ['2022-12-30', 31419689421557.9], ['2023-12-29', 34001493655565.48], ['2024-12-31', 36218605311689.91],
    ]);
    // one reading per year, said once with each year's date; one cassette note; one cross-check note for the four figures
    const d = r.qualification!.disclosures;
    expect(d).toContain('2021 read as its last record, dated 2021-12-31; likewise for 2022 (2022-12-30), 2023 (2023-12-29), 2024 (2024-12-31)');
    expect(d.filter((x) => /DERIVED cassette/.test(x))).toHaveLength(1);
    expect(d.filter((x) => /DERIVED cassette/.test(x))[0]).toMatch(/the 2021 rows of .*; likewise for 2022, 2023, 2024$/);
    expect(d).toContain('No cross-check available for any of the 4 figures: no other source in the catalog publishes this measure.');
    // cents stay cents: 36218605311689.91 − 29617214856051.75, with no binary-float tail
    expect(r.figures.map((f) => [f.text, f.value, f.grade])).toContainEqual(['$6,601,390,455,638.16', 6601390455638.16, 'derived']);
    expect(new Set(r.citations.map((c) => c.url)).size).toBe(4);
  });

  it('"since 2020" = the 2020 year-end record and the newest record', async () => {
    const r = await ask(services, { question: 'How has the total public debt outstanding changed since 2020?' });
    expect(r.status).toBe('answered');
    expect(values(r)).toEqual([['2020-12-31', 27747797947667.77], ['2026-10-01', 40260641972390.03]]);
    // the 2020 cassette starts where the download starts (2020-03-09): TRIMMED, and said so
    expect(r.qualification!.disclosures.join('\n')).toMatch(/TRIMMED/);
  });

  it('years beyond the recordings end as a typed operational block naming the missing request', async () => {
    const r = await ask(services, { question: 'Show the total public debt outstanding each year from 2015 to 2024.' });
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('operationally_blocked');
    expect(r.refusal!.reason).toContain('record_date:gte:2015-01-01,record_date:lte:2015-12-31');
  });

  it('average interest rate in 2022: discovered (catalog title), then blocked — no 2022 recording', async () => {
    const r = await ask(services, { question: 'What was the average interest rate on Treasury securities in 2022?' });
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('operationally_blocked');
    expect(r.refusal!.reason).toContain('avg_interest_rates?filter=record_date:gte:2022-01-01');
  });
});

describe('publisher-defined codes: bound from the question, not the organisation registry', () => {
  it('euro, third quarter of 2025 = the Euro Zone-Euro row of 2025-09-30', async () => {
    const r = await ask(services, { question: 'What was the euro exchange rate in the third quarter of 2025?' });
    expect(r.status).toBe('answered');
    expect(values(r)).toEqual([['2025-09-30', 0.852]]);
    expect(r.evidence[0]!.entity_key).toBe('country_currency=Euro Zone-Euro');
    expect(r.evidence[0]!.unit).toBe('foreign currency units per USD');
    expect(r.citations[0]).toMatchObject({ url: `${XCHG}?filter=record_date:gte:2025-01-01,record_date:lte:2025-12-31&page[size]=10000`, content_hash: SHA.xchg2025 });
    expect(r.qualification!.disclosures).toContain('"euro" bound to the publisher\'s own country currency "Euro Zone-Euro", not through the organisation registry');
  });

  it('the other euro rows of the date are disclosed, with the one whose value differs (2025-03-31: Cross Border-Euro 0.92)', async () => {
    const r = await ask(services, { question: 'What was the euro exchange rate in the first quarter of 2025?' });
    expect(values(r)).toEqual([['2025-03-31', 0.924]]);
    const d = r.qualification!.disclosures.find((x) => x.startsWith('"euro" also matches'))!;
    expect(d).toContain('23 other published rows dated 2025-03-31');
    expect(d).toContain('one reports a different value (Cross Border-Euro 0.92)');
  });

  it('a currency timeseries reads each year-end row', async () => {
    const r = await ask(services, { question: 'How has the euro exchange rate changed from 2021 to 2024?' });
    expect(r.status).toBe('answered');
    expect(values(r)).toEqual([['2021-12-31', 0.882], ['2022-12-31', 0.936], ['2023-12-31', 0.905], ['2024-12-31', 0.961]]);
    // one currency's own rate over time is one unit: its change is derived (0.961 − 0.882, to the operands' places), the percent to 0.1
    expect(r.text.split('\n').pop()).toBe('Change from 2021-12-31 to 2024-12-31: 0.079 foreign currency units per USD (9.0%).');
    expect(r.figures.filter((f) => f.grade === 'derived').map((f) => [f.text, f.value])).toEqual([['0.079', 0.079], ['9.0%', 9]]);
  });

  it('"Mexican peso" binds Mexico-Peso alone (20.704 at the end of 2024)', async () => {
    const r = await ask(services, { question: 'What was the Mexican peso exchange rate at the end of 2024?' });
    expect(r.status).toBe('answered');
    expect(values(r)).toEqual([['2024-12-31', 20.704]]);
    expect(r.citations[0]!.content_hash).toBe(SHA.xchg2024);
  });

  it('"peso" alone matches eight countries with different rates: a typed refusal listing them all, even when asked to clarify', async () => {
    for (const mode of ['answer', 'ask'] as const) {
      const r = await ask(services, { question: 'What was the peso exchange rate at the end of 2024?', on_ambiguity: mode });
      expect(r.status, mode).toBe('refused');
      expect(r.refusal, mode).toMatchObject({ boundary: 'entity_unresolved', code: 'ambiguous_key' });
      expect(r.refusal!.reason).toBe('"peso" matches 8 published rows dated 2024-12-31 with different values: Argentina-Peso 1052.5; Chile-Peso 992.6; Colombia-Peso 4402.49; Cuba-Peso 24; Mexico-Peso 20.704; Philippines-Peso 58.025; Uruguay-Peso 43.66; Dominican Republic-Peso 60.71');
    }
  });

  it('"krone" matches Denmark and Norway: asked with on_ambiguity=ask, answered on resume', async () => {
    const q = 'What was the krone exchange rate at the end of 2024?';
    const c = await ask(services, { question: q, on_ambiguity: 'ask' });
    expect(c.status).toBe('needs_clarification');
    expect(c.clarification!.options.map((o) => o.label)).toEqual(['Denmark-Krone', 'Norway-Krone']);
    const resumed = await ask(services, { resume: { run: c.run_id, option: 2 } });
    expect(resumed.status).toBe('answered');
    expect(values(resumed)).toEqual([['2024-12-31', 11.322]]);
    expect(resumed.evidence[0]!.entity_key).toBe('country_currency=Norway-Krone');
    // the code chosen is the publisher's own: said once, not '"Norway-Krone" bound to … "Norway-Krone"'
    expect(resumed.qualification!.disclosures).toContain('read by the publisher\'s own country currency "Norway-Krone", not through the organisation registry');
    expect(resumed.text).toBe("Norway-Krone's Treasury reporting rate of exchange on 2024-12-31 was 11.322 foreign currency units per USD, according to Treasury Fiscal Data.");
  });

  it('a comparison of two currencies reads each code concurrently (euro 0.961, yen 156.85 at the end of 2024)', async () => {
    const r = await ask(services, { question: 'Compare the euro and Japanese yen exchange rates at the end of 2024' });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.entity_key, e.period, e.value])).toEqual([['country_currency=Euro Zone-Euro', '2024-12-31', 0.961], ['country_currency=Japan-Yen', '2024-12-31', 156.85]]);
    // each rate is in its own currency's units: nothing is subtracted or ranked, and a dated period is written once
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['0.961', 'verified'], ['156.85', 'verified']]);
    expect(r.text).toContain("each currency's own units, so they are not subtracted or ranked");
    expect(r.text).not.toMatch(/higher value|ending 2024-12-31/);
  });

  it('a drafted difference of two currencies\' rates is not rebuilt as corroborated', async () => {
    const drafting = await testServices({ model: fixedModel('The euro was at 0.961 [E1] and the yen at 156.85 [E2]; the yen was higher by 155.889.') });
    const r = await ask(drafting, { question: 'Compare the euro and Japanese yen exchange rates at the end of 2024' });
    expect(r.figures.find((f) => f.text === '155.889')?.grade).toBe('unverified');
  }, 120_000);

  it('the latest euro rate: the current year\'s window is not recorded, so the year before\'s newest record, said (a typed block when that is not recorded either)', async () => {
    const r = await ask(services, { question: 'What is the exchange rate for the euro?' });
    const before = new Date().getUTCFullYear() - 1;
    expect(r.attempts[0]!.disposition).toBe('errored'); // the current year's window: not in the offline snapshot
    if (before >= 2021 && before <= 2025) {
      expect(r.status).toBe('answered');
      expect(r.evidence.map((e) => e.period_end)).toEqual([`${before}-12-31`]);
      expect(r.qualification!.disclosures).toContain(`"latest" read as the newest record of ${before}: the ${before + 1} window was not read or holds no record of it`);
    } else {
      expect(r.status).toBe('refused');
      expect(r.refusal!.boundary).toBe('operationally_blocked');
      expect(r.refusal!.reason).toContain('rates_of_exchange?filter=record_date:gte:');
    }
  });

  it('a Grants.gov opportunity id is bound from the question; the snapshot has no recording of that opportunity, so it is blocked', async () => {
    for (const q of ['How much total funding is estimated for opportunity 350123?', 'What is the award ceiling of Grants.gov opportunity 362478?']) {
      const r = await ask(services, { question: q });
      expect(r.status, q).toBe('refused');
      expect(r.refusal!.boundary, q).toBe('operationally_blocked');
      expect(r.refusal!.reason, q).toContain('no recording of this Grants.gov request');
      expect(r.attempts.length, q).toBe(1);
    }
  });
});

/**
 * No real Grants.gov response exists in the samples: this stub is SYNTHETIC (made up for the test, in
 * the fetchOpportunity shape seen in other projects' captures) and only exercises the binding and the
 * checks. It answers every fetchOpportunity with opportunity 350123.
 */
const SYNTHETIC_OPPORTUNITY = JSON.stringify({
  errorcode: 0, msg: 'Webservice Succeeds',
  data: { id: 350123, opportunityNumber: 'SYNTHETIC-0001', opportunityTitle: 'SYNTHETIC opportunity (test stub, not Grants.gov data)', synopsis: { postingDate: 'Jan 02, 2026 12:00:00 AM EST', awardCeiling: '500000', awardFloor: 'none', estimatedFunding: '2000000', synopsisDesc: 'SYNTHETIC' } },
});

describe('a Grants.gov opportunity id bound through the declared parameter (SYNTHETIC stub, live mode)', () => {
  let stubbed: AskServices;
  const sent: string[] = [];
  beforeAll(async () => {
    const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
      const u = String(url instanceof Request ? url.url : url);
      if (!u.startsWith('https://api.grants.gov/')) throw new TypeError(`no network in tests: ${u}`);
      sent.push(String(init?.body ?? ''));
      return new Response(SYNTHETIC_OPPORTUNITY, { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    stubbed = await testServices({ runtime: await connectorRuntime({ mode: 'live', fetch: fetchImpl }), model: fixedModel('Estimated total program funding is $2,000,000.') });
  }, 120_000);

  it('the id in the question is the argument sent, and the record carrying it is admitted', async () => {
    const r = await ask(stubbed, { question: 'How much total funding is estimated for opportunity 350123?' });
    expect(JSON.parse(sent[sent.length - 1]!)).toEqual({ opportunityId: 350123 });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.measure, e.value, e.entity_key])).toEqual([['grants-gov/synopsis/estimatedFunding', 2000000, 'opportunity_id=350123']]);
    expect(r.evidence[0]!.period).toBe('2026-01-02');
  });

  it('a response about another opportunity is rejected, not admitted', async () => {
    const r = await ask(stubbed, { question: 'What is the award ceiling of Grants.gov opportunity 362478?' });
    expect(JSON.parse(sent[sent.length - 1]!)).toEqual({ opportunityId: 362478 });
    expect(r.status).toBe('refused');
    expect(r.refusal!.reason).toContain('does not carry opportunity id 362478');
  });
});

describe('binding helpers', () => {
  it('codeFromText finds the id a declared parameter names', () => {
    expect(codeFromText('What is the award ceiling of Grants.gov opportunity 362478?', 'opportunity_id')).toBe('362478');
    expect(codeFromText('opportunity id #350123', 'opportunity_id')).toBe('350123');
    expect(codeFromText('the opportunity to grow in 2024', 'opportunity_id')).toBeUndefined();
  });
  it('matchSeries prefers the row the words cover best and keeps every row they match', () => {
    const rows = ['Euro Zone-Euro', 'Cyprus-Euro', 'Cross Border-Euro', 'Japan-Yen', 'Mexico-Peso', 'Chile-Peso'];
    expect(matchSeries('euro', rows)).toEqual({ best: ['Euro Zone-Euro'], all: ['Euro Zone-Euro', 'Cyprus-Euro', 'Cross Border-Euro'] });
    expect(matchSeries('Japanese yen', rows).best).toEqual(['Japan-Yen']);
    expect(matchSeries('peso', rows).best).toEqual(['Mexico-Peso', 'Chile-Peso']);
    expect(matchSeries('pound', rows)).toEqual({ best: [], all: [] });
  });
});

describe('a label that does not plainly say what was asked', () => {
  it('"outstanding debt" offline is refused with what would settle it, not "no data for this period"', async () => {
    const services = await testServices();
    const r = await ask(services, { question: 'What was the outstanding debt on March 31, 2024?' });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'no_data', code: 'residual' });
    expect(r.refusal!.answerable_if).toMatch(/configured model to settle whether the publisher's label means "outstanding debt"/);
    // the same read in the publisher's words is answered (record of 2024-03-29, the last before the date)
    const plain = await ask(services, { question: 'What was the total public debt outstanding on March 31, 2024?' });
    expect(plain.evidence.map((e) => e.value)).toEqual([34586533479349.88]);
    // its cross-check note names what is missing in plain terms
    expect(plain.qualification!.disclosures.join(' ')).not.toMatch(/keyed reads implemented/);
  }, 120_000);

  it.each([
    ['Debt Held by the Public', 'debt', false],
    ['Debt Held by the Public', 'debt held by the public', true],
    ['Total Public Debt Outstanding', 'public debt', true],
    ['Average Interest Rate Amount', 'average interest rate', true],
    ['Rate of Exchange', 'rate', true],
    ['Exchange Rate', 'exchange rate', true],
    ['Intragovernmental Holdings', 'holdings', false],
  ] as const)('the label "%s" answers "%s": %s', (label, asked, ok) => {
    expect(leadsWith(label, asked)).toBe(ok);
  });
});

describe('a rate asked is a share, not a currency price', () => {
  it('"What is the US unemployment rate?" never reads the rates of exchange (its refusal named them)', async () => {
    const r = await ask(services, { question: 'What is the US unemployment rate?' });
    expect(r.status).toBe('refused');
    expect(r.figures).toEqual([]);
    expect(r.attempts.filter((a) => a.operation.startsWith('rates-of-exchange'))).toEqual([]);
    expect(r.refusal!.reason).not.toMatch(/rates_of_exchange|exchange/);
  }, 60_000);
});
