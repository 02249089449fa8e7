/**
 * Status and entity-list questions end to end on the offline default (real IRS EO BMF, SEC
 * submissions cassettes; the offline identity registry): exact publisher codes and records, a
 * `false` that survives on its own terms, a descriptive label rejected as not the boolean asked, a
 * missing record as no data (never false), list paging to the declared boundary, every record
 * cited to the response it came from, the count graded, and strict mode against an invented count.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectorRuntime } from '../../src/connectors/runtime.ts';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskRequest, ProgressEvent } from '../../src/ask/types.ts';
import { ASSAY } from '../../src/rdf/vocab.ts';
import { loadAskServices } from '../../src/ask/services.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { BASE, fixedModel, testServices } from './services.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

async function run(req: AskRequest | string, s = services) {
  const events: ProgressEvent[] = [];
  const r = await ask(s, typeof req === 'string' ? { question: req } : req, { onProgress: (e) => events.push(e) });
  return { r, events };
}

/** A caller intent (as `--intent` sends it): its attribute decides the status read, its geography the extract. */
const intent = (question: string, entity: string, attribute: string, state: string) =>
  ({ intent: { question, shape: 'status', entity, canonical_entity: entity, entity_status: 'resolved', attribute, geography: { level: 'state', within: state } } });

describe('status questions', () => {
  it('reads a true from the IRS BMF status code, cited to the DC extract', async () => {
    const { r, events } = await run('Is the American National Red Cross in DC tax-exempt?');
    expect(r.status).toBe('answered');
    expect(r.text).toBe('Yes. AMERICAN NATIONAL RED CROSS (EIN 530196605) is tax-exempt: its status is "01" (unconditional exemption), according to the IRS Exempt Organizations Business Master File.');
    expect(r.evidence).toHaveLength(1);
    expect(r.evidence[0]).toMatchObject({ value: true, unit: 'boolean', source: 'irs-eo-bmf', entity_key: 'ein=530196605', assurance: 'key_match', status: { field: 'status', code: '01', meaning: 'unconditional exemption' } });
    expect(r.figures).toEqual([]); // every number in the text is an identifier or a code, exempt by name
    expect(r.citations).toHaveLength(1);
    expect(r.citations[0]).toMatchObject({ url: 'https://www.irs.gov/pub/irs-soi/eo_dc.csv', evidence: r.evidence[0]!.iri });
    expect(r.citations[0]!.content_hash).toMatch(/^[0-9a-f]{64}$/);
    // the boolean is in the evidence graph as xsd:boolean, with the code it was read from
    const rows = services.store.rdf.select(`SELECT ?v ?code WHERE { GRAPH ?g { <${r.evidence[0]!.iri}> <${ASSAY.value}> ?v ; <${ASSAY.statusCode}> ?code } }`);
    expect(rows.map((b) => [b.get('v')!.value, (b.get('v') as { datatype?: { value: string } }).datatype?.value, b.get('code')!.value])).toEqual([['true', 'http://www.w3.org/2001/XMLSchema#boolean', '01']]);
    expect(events.map((e) => e.stage)).toEqual(expect.arrayContaining(['structure', 'plan', 'execution_plan', 'validation', 'evidence', 'answer']));
    // the state is the intent's geography (the interpreter read "in DC"), not re-read from the text
    expect(events.find((e) => e.stage === 'execution_plan')!.message).toContain('state DC, where the question places the entity');
    // ProPublica (EIN-keyed, no state needed) is tried first; it has no recording for this EIN, so the BMF answers
    expect(r.attempts.map((a) => [a.source, a.operation, a.disposition])).toEqual([['propublica-nonprofits', 'organization', 'errored'], ['irs-eo-bmf', 'eo-bmf-ein-lookup', 'accepted']]);
  });

  it('a false stands on its own terms, with the code shown (IRS subsection 04 asked as 501(c)(3))', async () => {
    const { r } = await run(intent('Is the American Association of Retired Persons in DC a 501(c)(3)?', 'American Association of Retired Persons', '501(c)(3) status', 'District of Columbia'));
    expect(r.status).toBe('answered');
    expect(r.evidence[0]).toMatchObject({ value: false, entity_key: 'ein=911825851', status: { field: 'subsection', code: '04', meaning: '501(c)(4)' } });
    expect(r.text).toBe('No. AMERICAN ASSOCIATION OF RETIRED PERSONS (EIN 911825851) is not a 501(c)(3) organization: its subsection is "04" (501(c)(4)), according to the IRS Exempt Organizations Business Master File.');
    expect(r.figures).toEqual([]);
  });

  it('the same organization reads true for the paragraph it is under', async () => {
    const { r } = await run('Is the American Association of Retired Persons in DC a 501(c)(4)?');
    expect(r.status).toBe('answered');
    expect(r.evidence[0]).toMatchObject({ value: true, status: { code: '04' } });
  });

  it('a false from an SEC filer category survives: Apple is a large accelerated filer, so not an accelerated filer', async () => {
    const yes = (await run('Is Apple a large accelerated filer?')).r;
    expect(yes.status).toBe('answered');
    expect(yes.evidence[0]).toMatchObject({ value: true, source: 'sec-edgar', entity_key: 'cik=0000320193', status: { field: 'category', code: 'Large accelerated filer' } });
    expect(yes.citations[0]!.url).toBe('https://data.sec.gov/submissions/CIK0000320193.json');
    const no = (await run('Is Apple an accelerated filer?')).r;
    expect(no.status).toBe('answered');
    expect(no.evidence[0]).toMatchObject({ value: false, status: { code: 'Large accelerated filer' } });
    expect(no.text).toMatch(/^No\. Apple Inc\. \(CIK 0000320193\) is not an accelerated filer/);
    // a label code is said once, not followed by a meaning that repeats it
    expect(yes.text).toBe('Yes. Apple Inc. (CIK 0000320193) is a large accelerated filer: its category is "Large accelerated filer", according to SEC EDGAR.');
  });

  it('a descriptive label is not the boolean asked: BMF status 25 is rejected, never coerced', async () => {
    const { r } = await run('Is the El Hibri Foundation in DC tax-exempt?');
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'no_data', code: 'polarity' });
    expect(r.refusal!.reason).toContain('status is "25" (organization terminating its private foundation status): a descriptive label, not the boolean asked');
    expect(r.evidence).toEqual([]);
    expect(r.attempts.map((a) => a.disposition)).toContain('rejected');
    expect(r.attempts.every((a) => a.disposition !== 'accepted')).toBe(true);
  });

  it('an entity without a record in the extract is no data, not false', async () => {
    const { r } = await run('Is the American Association of Retired Persons in Rhode Island a 501(c)(4)?');
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'no_data', code: 'not_found' });
    expect(r.refusal!.reason).toContain('no record of AMERICAN ASSOCIATION OF RETIRED PERSONS (ein 911825851)');
    expect(r.refusal!.reason).toContain('no data, not false');
    expect(r.evidence).toEqual([]);
  });

  it('without a state in the question, the extract is the one the registry places the organization in (DC), disclosed; ProPublica is tried first', async () => {
    // more in status-registry-state.test.ts
    const { r } = await run('Is the El Hibri Foundation tax-exempt?');
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'no_data', code: 'polarity' });
    expect(r.refusal!.reason).toContain('status is "25"');
    expect(r.attempts.map((a) => [a.source, a.operation, a.disposition])).toEqual([['propublica-nonprofits', 'organization', 'errored'], ['irs-eo-bmf', 'eo-bmf-ein-lookup', 'rejected'], ['irs-eo-bmf', 'eo-bmf-state', 'rejected']]);
    expect(r.evidence).toEqual([]);
  });

  it("the intent's attribute decides which status is read, not the question's words", async () => {
    // same question text, the caller's intent asks tax-exempt: AARP's BMF status 01 answers that
    const { r } = await run(intent('Is the American Association of Retired Persons in DC a 501(c)(3)?', 'American Association of Retired Persons', 'tax-exempt status', 'District of Columbia'));
    expect(r.status).toBe('answered');
    expect(r.evidence[0]).toMatchObject({ value: true, entity_key: 'ein=911825851', status: { field: 'status', code: '01', meaning: 'unconditional exemption' } });
  });

  it('strict mode answers a status (no figure is unverified)', async () => {
    const { r } = await run({ question: 'Is Apple a large accelerated filer?', strict: true });
    expect(r.status).toBe('answered');
  });
});

describe('entity-list questions', () => {
  it("lists Apple's 2024 filings, each a cited record, the count graded as derived", async () => {
    const { r } = await run('List the filings of Apple in 2024');
    expect(r.status).toBe('answered');
    expect(r.evidence).toHaveLength(100);
    expect(r.evidence.every((e) => e.record?.kind === 'filing' && e.period.startsWith('filingDate 2024-'))).toBe(true);
    expect(r.evidence[0]).toMatchObject({ value: null, entity_key: 'cik=0000320193', record: { key: 'accession_number=0000320193-24-000132', label: '4 filed 2024-12-18' } });
    const lines = r.text.split('\n');
    // the unread overflow page holds 1994–2015 filings, so the 2024 list is whole (disclosed once)
    expect(lines[0]).toBe('SEC EDGAR lists 100 filings dated 2024 for Apple Inc. (CIK 0000320193):');
    expect(r.text).not.toContain('Note:');
    expect(lines[1]).toBe('1. 4 filed 2024-12-18, report date 2024-12-16 (accession_number 0000320193-24-000132)');
    expect(r.text).toContain('10-K filed 2024-11-01, report date 2024-09-28');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['100', 'derived']]);
    expect(r.figures[0]!.evidence).toHaveLength(100);
    expect(r.citations).toHaveLength(100);
    expect(new Set(r.citations.map((c) => c.url))).toEqual(new Set(['https://data.sec.gov/submissions/CIK0000320193.json']));
  });

  it("Apple's whole history read from the recent page is a floor: 1005 read, 1206 more declared by filings.files, the overflow note said once", async () => {
    const { r } = await run("List Apple's SEC filings");
    expect(r.status).toBe('answered');
    if (r.status !== 'answered') return;
    expect(r.text.split('\n')[0]).toBe('SEC EDGAR lists at least 1005 filings for Apple Inc. (CIK 0000320193), and declares 1206 more on an overflow page that was not read; the 100 most recent:');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['1005', 'derived'], ['100', 'derived']]);
    const overflow = r.qualification!.disclosures.filter((d) => d.includes('CIK0000320193-submissions-001.json'));
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatch(/^the publisher's paging was not read to its end \(its response declares 1206 more filing records\)/);
  });

  it('a form filter, and a list read from partial paging says so', async () => {
    const { r } = await run('List all 10-K filings by Microsoft.');
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => e.record!.key)).toEqual([
      'accession_number=0000950170-25-100235', 'accession_number=0000950170-24-087843', 'accession_number=0000950170-23-035122',
      'accession_number=0001564590-22-026876', 'accession_number=0001564590-21-039151', 'accession_number=0001564590-20-034944',
    ]);
    expect(r.text).toContain('Note: the publisher declares further pages that could not be read');
    expect(r.qualification!.disclosures.join(' ')).toContain('CIK0000789019-submissions-001.json');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['6', 'derived']]);
  });

  it("pages Tesla's submissions to the declared end (1,000 recent + 720 on the overflow page) and lists the 100 most recent", async () => {
    const { r } = await run("Show Tesla's SEC filings.");
    expect(r.status).toBe('answered');
    expect(r.text.split('\n')[0]).toBe('SEC EDGAR lists 1720 filings for Tesla, Inc. (CIK 0001318605); the 100 most recent:');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['1720', 'derived'], ['100', 'derived']]);
    expect(r.evidence).toHaveLength(100);
    // each record cites the one response it came from, not every page the attempt read
    expect(r.citations).toHaveLength(100);
    expect(r.text).not.toContain('Note:');
  });

  it('a drafted list with an invented count grades it unverified, and strict mode refuses', async () => {
    const s = await testServices({ model: fixedModel('SEC EDGAR lists 7 filings for MICROSOFT CORP.') });
    const loose = (await run('List all 10-K filings by Microsoft.', s)).r;
    expect(loose.status).toBe('answered');
    expect(loose.figures.map((f) => [f.text, f.grade])).toEqual([['7', 'unverified']]);
    const strict = (await run({ question: 'List all 10-K filings by Microsoft.', strict: true }, s)).r;
    expect(strict.status).toBe('refused');
    expect(strict.refusal!.boundary).toBe('unverified_figures');
  }, 120_000);
});

describe('ProPublica organization records (EIN-keyed: no state needed), end to end', () => {
  // the offline registry snapshot holds the three ProPublica organizations whose cassettes are bundled
  // (fixtures/registry/build-snapshot.ts reads them from the samples)
  let pp: AskServices;
  beforeAll(async () => { pp = await loadAskServices({ store: DurableStore.inMemory(), baseIri: BASE }); }, 120_000);

  it('501(c)(3) from subsection_code 3, cited to the organization response', async () => {
    const { r } = await run('Is Pro Publica Inc a 501(c)(3)?', pp);
    expect(r.status).toBe('answered');
    expect(r.text).toBe('Yes. Pro Publica Inc (EIN 142007220) is a 501(c)(3) organization: its subsection is "03" (501(c)(3)), according to ProPublica Nonprofit Explorer.');
    expect(r.evidence[0]).toMatchObject({ value: true, source: 'propublica-nonprofits', entity_key: 'ein=142007220', assurance: 'key_match', status: { field: 'subsection', code: '03' } });
    expect(r.citations.map((c) => c.url)).toEqual(['https://projects.propublica.org/nonprofits/api/v2/organizations/142007220.json']);
    expect(r.figures).toEqual([]);
  });

  it('public charity and private foundation read from foundation_code 15: a yes, and a no on its own terms', async () => {
    const yes = (await run('Is Pro Publica Inc a public charity?', pp)).r;
    expect(yes.evidence[0]).toMatchObject({ value: true, status: { field: 'foundation', code: '15', meaning: 'publicly supported organization (170(b)(1)(A)(vi))' } });
    const no = (await run('Is Pro Publica Inc a private foundation?', pp)).r;
    expect(no.status).toBe('answered');
    expect(no.text).toBe('No. Pro Publica Inc (EIN 142007220) is not a private foundation: its foundation is "15" (publicly supported organization (170(b)(1)(A)(vi))), according to ProPublica Nonprofit Explorer.');
  });

  it('tax-exempt from exempt_organization_status_code 1; a 501(c)(4) question about a 501(c)(3) is a false', async () => {
    const ex = (await run('Is Apache Software Foundation tax-exempt?', pp)).r;
    expect(ex.evidence[0]).toMatchObject({ value: true, entity_key: 'ein=470825376', status: { field: 'status', code: '01', meaning: 'unconditional exemption' } });
    const c4 = (await run('Is Rural Action Inc a 501(c)(4)?', pp)).r;
    expect(c4.evidence[0]).toMatchObject({ value: false, entity_key: 'ein=311124220', status: { field: 'subsection', code: '03' } });
  });

  it('the RI extract answers when the question places the entity there (ProPublica has no recording for it)', async () => {
    const { r } = await run('Is the Hazen Scholarship Fund in Rhode Island a private foundation?', pp);
    expect(r.status).toBe('answered');
    expect(r.evidence[0]).toMatchObject({ value: true, source: 'irs-eo-bmf', entity_key: 'ein=020530567', status: { field: 'foundation', code: '04', meaning: 'private non-operating foundation' } });
    expect(r.citations.map((c) => c.url)).toEqual(['https://www.irs.gov/pub/irs-soi/eo_ri.csv']);
    expect(r.attempts.map((a) => [a.source, a.disposition])).toEqual([['propublica-nonprofits', 'errored'], ['irs-eo-bmf', 'accepted']]);
  });

  it('lists every return ProPublica has (12 with figures, 4 PDF-only), most recent first, the count graded', async () => {
    const { r } = await run('Show every tax return Pro Publica Inc has filed.', pp);
    expect(r.status).toBe('answered');
    expect(r.evidence).toHaveLength(16);
    expect(r.text.split('\n')[0]).toBe('ProPublica Nonprofit Explorer lists 16 returns for Pro Publica Inc (EIN 142007220):');
    expect(r.evidence.map((e) => e.record!.key)).toEqual(['202212', '202112', '202012', '201912', '201812', '201712', '201612', '201512', '201412', '201312', '201212', '201112', '201012', '200912', '200812', '200712'].map((p) => `tax_period=${p}`));
    expect(r.evidence[0]).toMatchObject({ period: 'tax period ending 2022-12-31', entity_key: 'ein=142007220' });
    // the tax period is written once, as a month, not raw and then again as the key
    expect(r.text.split('\n')[1]).toBe('1. Form 990 for the tax period 2022-12');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['16', 'derived']]);
    expect(new Set(r.citations.map((c) => c.url))).toEqual(new Set(['https://projects.propublica.org/nonprofits/api/v2/organizations/142007220.json']));
  });

  it('"Form 990 filings" of a nonprofit are its returns: the SEC filing history cannot be keyed by its EIN, ProPublica lists them', async () => {
    // the catalog declares ProPublica's rows as filings (filings_with_data / filings_without_data), so a
    // list of "filings" has both the SEC's and ProPublica's; an organization with only an EIN binds ProPublica's
    const { r } = await run('List the Form 990 filings of Pro Publica Inc.', pp);
    expect(r.status).toBe('answered');
    expect(r.attempts.map((a) => [a.source, a.operation, a.disposition])).toEqual([['propublica-nonprofits', 'organization', 'accepted']]);
    expect(r.text.split('\n')[0]).toBe('ProPublica Nonprofit Explorer lists 16 returns for Pro Publica Inc (EIN 142007220):');
    expect(r.evidence).toHaveLength(16);
    expect(r.evidence.every((e) => e.record!.kind === 'return' && e.record!.label.startsWith('Form 990 for tax period '))).toBe(true);
    expect(r.evidence.map((e) => e.record!.key)).toEqual(['202212', '202112', '202012', '201912', '201812', '201712', '201612', '201512', '201412', '201312', '201212', '201112', '201012', '200912', '200812', '200712'].map((p) => `tax_period=${p}`));
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['16', 'derived']]);
  });

  it('a year keeps the return for that tax year', async () => {
    const { r } = await run('List the tax returns of Apache Software Foundation in 2019.', pp);
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.record!.key, e.period])).toEqual([['tax_period=201904', 'tax period ending 2019-04-30']]);
  });
});

describe('entity lists beyond the recordings end as typed refusals, never invented lists', () => {
  it.each([
    ['Show NSF awards received by MIT.', 'https://api.nsf.gov/services/v1/awards.json?awardeeName=MIT&'],
    ['What NIH projects does Johns Hopkins University have?', 'https://api.reporter.nih.gov/v2/projects/search'],
    ['List federal contracts awarded to Lockheed Martin.', 'https://api.usaspending.gov/api/v2/search/spending_by_award/'],
  ])('%s → operationally_blocked naming the request with no cassette', async (q, url) => {
    const { r } = await run(q);
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('operationally_blocked');
    expect(r.refusal!.reason).toContain('not in the offline snapshot');
    expect(r.refusal!.reason).toContain(url);
    expect(r.evidence).toEqual([]);
    expect(r.attempts.length).toBeGreaterThan(0);
    expect(r.attempts.every((a) => a.disposition === 'errored')).toBe(true);
  });
});

describe('an award list end to end on a real NSF body (no cassette exists for the request, so a fake fetch serves it)', () => {
  // The body is NSF's real 2015 UCAR response (fixtures/publishers/nsf-awards/unkeyed); it answered a
  // request with other printFields, so it is never replayed as a cassette. Served here for any NSF
  // request to check what a list of amount-carrying records becomes: values graded, each cited.
  it('lists the 21 awards with their amounts verified, the count derived, disclosed as a textual name match', async () => {
    const text = await readFile('fixtures/publishers/nsf-awards/unkeyed/v1_awards.json_awardee-UCAR_2015.json', 'utf8');
    const urls: string[] = [];
    const fetchImpl = (async (u: string) => { urls.push(String(u)); return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } }); }) as unknown as typeof fetch;
    const s = await testServices({ runtime: await connectorRuntime({ mode: 'live', fetch: fetchImpl }) });
    const { r } = await run('List NSF awards made to the University Corporation for Atmospheric Research in 2015.', s);
    expect(r.status).toBe('answered');
    expect(urls).toEqual(['https://api.nsf.gov/services/v1/awards.json?awardeeName=University%20Corporation%20for%20Atmospheric%20Research&printFields=id,title,awardeeName,estimatedTotalAmt,fundsObligatedAmt,startDate,expDate&offset=1']);
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('The NSF Award Search API lists 21 awards dated 2015 for University Corporation for Atmospheric Research:');
    expect(lines[1]).toBe('1. Engineering experiences: Research on student competency, motivation and persistence in STEM for underserved youth: $608,513 (nsf_award_id 1513102)');
    expect(lines[21]).toBe('21. Support of the International Conference on Mesoscale Convective System: $13,540 (nsf_award_id 1462194)');
    expect(r.evidence).toHaveLength(21);
    expect(r.figures[0]).toMatchObject({ text: '21', grade: 'derived' });
    expect(r.figures.slice(1).every((f) => f.grade === 'verified')).toBe(true);
    expect(r.figures.slice(1).reduce((a, f) => a + f.value, 0)).toBe(8_310_024);
    expect(r.citations).toHaveLength(21);
    expect(r.qualification!.level).toBe(1); // tied to the entity by name only
    expect(r.qualification!.disclosures.join(' ')).toContain('matches names textually');
  }, 120_000);
});
