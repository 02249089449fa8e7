/**
 * The corroborated grade and independent cross-checks.
 *
 * Grading (no I/O): a figure the drafting model wrote that is neither an admitted value nor on the
 * fact sheet is corroborated when code rebuilds it from admitted values by a bounded arithmetic
 * form at the written precision, or when two recorded second reads agree on it; otherwise it stays
 * unverified (strict mode refuses it).
 *
 * End to end (cassettes only): Apple's FY2023 revenue is cross-checked through SEC companyconcept
 * and frames — both DERIVED cassettes built from the same companyfacts response, so the agreement is
 * recorded and disclosed as not independent. A SYNTHETIC second path (built in this file, labelled
 * SYNTHETIC, never publisher data) that disagrees is disclosed with both values.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { factSheet } from '../../src/answer/factsheet.ts';
import { gradeText, strictBlockers, NO_SECOND_PATHS, type SecondPaths } from '../../src/answer/figures.ts';
import { ask } from '../../src/ask/run.ts';
import { loadAskServices, type AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import { connectorRuntime, DEFAULT_CASSETTE_DIR, REPO_ROOT, type ConnectorRuntime } from '../../src/connectors/runtime.ts';
import type { AdmittedEvidence } from '../../src/evidence/types.ts';
import { loadEvidenceShapes } from '../../src/evidence/shacl.ts';
import { calendarFrame } from '../../src/connectors/sec-edgar.ts';
import { openCassettes, type CassetteStore, type ReplayHit } from '../../src/http/cassette.ts';
import { HttpClient } from '../../src/http/client.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { factory } from '../../src/rdf/store.ts';
import { ASSAY, PROV, graphIri } from '../../src/rdf/vocab.ts';
import { BASE, fixedModel, testServices } from '../ask/services.ts';

// Values read from fixtures/publishers/sec-edgar (companyfacts CIK0000320193, frames CY2023).
const APPLE_FY2023 = 383285000000;
const ALPHABET_FY2023 = 307394000000;
const CONCEPT_URL = 'https://data.sec.gov/api/xbrl/companyconcept/CIK0000320193/us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax.json';
const FRAMES_URL = 'https://data.sec.gov/api/xbrl/frames/us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax/USD/CY2023.json';
const FACTS_URL = 'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json';
const CONCEPT_SHA = 'bd2c750667af7d79fe909aec658671d274506538c8f3337c923630d990bf2164';

const ev = (index: number, value: number, entity: string, label: string, start: string, end: string): AdmittedEvidence => ({
  index, attemptN: index, source: 'sec-edgar', operation: 'companyfacts', measure: 'sec-edgar/us-gaap/Revenues', measureLabel: 'Revenues', attribute: 'revenue',
  value, unit: 'USD', currency: 'USD', period: { label, start, end, basis: 'fiscal', fiscalYear: Number(label.slice(2)) },
  entity: { label: entity, keyType: 'cik', key: entity === 'Apple Inc.' ? '0000320193' : '0001652044', keys: {} },
  raw: { source: 'sec-edgar', method: 'GET', url: 'https://x', status: 200, sha256: 'a'.repeat(64), retrievedAt: '2026-01-01' },
  assurance: { match: 'key', planVerdict: 'exact', warnings: [] },
});
const comparison = factSheet([ev(1, APPLE_FY2023, 'Apple Inc.', 'FY2023', '2022-09-25', '2023-09-30'), ev(2, ALPHABET_FY2023, 'Alphabet Inc.', 'FY2023', '2023-01-01', '2023-12-31')]);
const series = factSheet([
  ev(1, 365817000000, 'Apple Inc.', 'FY2021', '2020-09-27', '2021-09-25'), ev(2, 394328000000, 'Apple Inc.', 'FY2022', '2021-09-26', '2022-09-24'), ev(3, APPLE_FY2023, 'Apple Inc.', 'FY2023', '2022-09-25', '2023-09-30'),
]);

describe('the corroborated grade (code rebuilds the figure a second way)', () => {
  it.each([
    // percent difference: (383,285 − 307,394) / 307,394 × 100 = 24.6888…
    ['24.7%', '(E1 − E2) / E2 × 100 = (383285000000 − 307394000000) / 307394000000 × 100'],
    // ratio 383,285 / 307,394 = 1.24688…
    ['1.25', 'E1 / E2 = 383285000000 / 307394000000'],
    // sum, exact
    ['$690,679,000,000', 'E1 + E2 = 383285000000 + 307394000000 = 690679000000'],
    // average, at the written precision
    ['$345.3 billion', '(E1 + E2) / 2 = 345339500000, rounded to 1 decimal place of billions'],
  ])('a comparison: %s is corroborated with its arithmetic', (text, arithmetic) => {
    const g = gradeText(`Apple vs Alphabet: ${text}.`, comparison);
    expect(g.figures).toHaveLength(1);
    expect(g.figures[0]).toMatchObject({ text, grade: 'corroborated' });
    expect(g.figures[0]!.arithmetic).toContain(arithmetic);
    expect(g.figures[0]!.arithmetic).toMatch(/not a published value/);
    expect(g.figures[0]!.facts.sort()).toEqual(['E1', 'E2']);
    expect(strictBlockers(g)).toEqual([]);
  });

  it('a timeseries: a year-over-year difference and percent change the sheet does not list are corroborated', () => {
    // the sheet lists only first→last (D1 = 17,468,000,000, D2 = 4.8%)
    expect(series.derived.map((d) => d.value)).toEqual([17468000000, 4.8]);
    const g = gradeText('From FY2021 to FY2022 revenue rose by $28,511,000,000 (7.8%).', series);
    expect(g.figures.map((f) => [f.text, f.grade])).toEqual([['$28,511,000,000', 'corroborated'], ['7.8%', 'corroborated']]);
    expect(g.figures[0]!.arithmetic).toContain('E2 − E1 = 394328000000 − 365817000000 = 28511000000');
    expect(g.figures[1]!.arithmetic).toContain('(E2 − E1) / E1 × 100');
  });

  it('what the sheet already states stays verified or derived, not corroborated', () => {
    const g = gradeText('$383,285,000,000 and $75,891,000,000.', comparison);
    expect(g.figures.map((f) => f.grade)).toEqual(['verified', 'derived']);
  });

  it.each(['27.3%', '$412 billion', '1.3', '12'])('a made-up number (%s) is still unverified and blocks strict mode', (text) => {
    const g = gradeText(`Apple vs Alphabet: ${text}.`, comparison);
    expect(g.figures.map((f) => f.grade)).toEqual(['unverified']);
    expect(strictBlockers(g).map((f) => f.text)).toEqual([text]);
  });

  it('an unscaled integer must be rebuilt exactly: 75891000001 is not the difference', () => {
    expect(gradeText('75891000001', comparison).figures[0]!.grade).toBe('unverified');
  });

  it('second paths: a verified figure names the agreeing cross-check; a value two second reads agree on is corroborated; a lone disagreeing read is a conflict', () => {
    const ref = (n: number, operation: string) => ({ check: `urn:check:${n}`, response: `urn:response:${n}`, source: 'sec-edgar', operation, url: `https://x/${operation}` });
    const paths: SecondPaths = {
      agreements: new Map([['E1', [ref(1, 'companyconcept')]]]),
      values: new Map([
        [390000000000, { value: 390000000000, fact: 'E1', refs: [ref(2, 'companyconcept'), ref(3, 'frames')], detail: '390000000000 is held by 2 recorded second reads' }],
        [380000000000, { value: 380000000000, fact: 'E2', refs: [ref(4, 'frames')], detail: 'E2 is 307394000000; 380000000000 is what a disagreeing cross-check read' }],
      ]),
    };
    const g = gradeText('$383,285,000,000; $390,000,000,000; $380,000,000,000.', comparison, paths);
    expect(g.figures.map((f) => [f.text, f.grade])).toEqual([['$383,285,000,000', 'verified'], ['$390,000,000,000', 'corroborated'], ['$380,000,000,000', 'conflict']]);
    expect(g.figures[0]!.corroboratedBy!.map((r) => r.check)).toEqual(['urn:check:1']);
    expect(g.figures[1]!.corroboratedBy!.map((r) => r.operation)).toEqual(['companyconcept', 'frames']);
    expect(g.figures[1]!.arithmetic).toMatch(/not the admitted primary value/);
    expect(strictBlockers(g).map((f) => f.text)).toEqual(['$380,000,000,000']);
    // without second paths the same values are unverified
    expect(gradeText('$390,000,000,000', comparison, NO_SECOND_PATHS).figures[0]!.grade).toBe('unverified');
  });

  it('calendar frames for a second path follow the period: annual by its midpoint, instants by their quarter', () => {
    expect(calendarFrame({ start: '2022-09-25', end: '2023-09-30' })).toBe('CY2023');
    expect(calendarFrame({ start: '2023-01-01', end: '2023-12-31' })).toBe('CY2023');
    expect(calendarFrame({ end: '2023-12-30' })).toBe('CY2023Q4I');
    expect(calendarFrame({ end: '2023-09-30' })).toBe('CY2023Q3I');
    // an instant goes to the nearest calendar quarter end: NVIDIA's FY2023 balance sheet (2023-01-29) is CY2022Q4I
    expect(calendarFrame({ end: '2023-01-29' })).toBe('CY2022Q4I');
    expect(calendarFrame({ end: '2024-05-10' })).toBe('CY2024Q1I');
    expect(calendarFrame({ end: '2024-05-20' })).toBe('CY2024Q2I');
    expect(calendarFrame({ start: '2023-01-01', end: '2023-06-30' })).toBeUndefined();
  });
});

/**
 * A runtime replaying the real cassettes except where `edit` rewrites a response body: every edited
 * response is marked SYNTHETIC (origin kind synthetic) — test data, never publisher data.
 */
async function syntheticRuntime(edits: Record<string, (body: any) => void>, fail: string[] = []): Promise<ConnectorRuntime> {
  const base = await connectorRuntime();
  const real = await openCassettes(DEFAULT_CASSETTE_DIR, { repoRoot: REPO_ROOT });
  const store: CassetteStore = {
    async lookup(key: string): Promise<ReplayHit | undefined> {
      if (fail.includes(key)) throw new Error('SYNTHETIC failure of the cassette store (test)');
      const hit = await real.lookup(key);
      const edit = edits[key];
      if (!hit || !edit) return hit;
      const body = JSON.parse(hit.text);
      edit(body);
      return { ...hit, text: JSON.stringify(body), location: `SYNTHETIC:${hit.location}`, origin: { kind: 'synthetic', synthetic: true, note: 'SYNTHETIC: a test edited this response body to disagree; not publisher data' } };
    },
    record: (e) => real.record(e),
    keys: () => real.keys(),
  };
  return { ...base, http: new HttpClient({ mode: 'replay', cassettes: store }) };
}
const SYNTHETIC_VALUE = 390000000000; // SYNTHETIC: not a published figure
const setConcept = (body: any) => { for (const f of body.units.USD) if (f.start === '2022-09-25' && f.end === '2023-09-30') f.val = SYNTHETIC_VALUE; };
const setFrame = (body: any) => { for (const d of body.data) if (d.cik === 320193) d.val = SYNTHETIC_VALUE; };

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);
const withRuntime = async (runtime: ConnectorRuntime, model?: ReturnType<typeof fixedModel>) =>
  loadAskServices({ store: DurableStore.inMemory(), baseIri: BASE, index: services.index, registry: services.registry, runtime, ...(model ? { model } : {}) });
const withModel = (text: string, seen: string[] = []) => loadAskServices({ store: DurableStore.inMemory(), baseIri: BASE, index: services.index, registry: services.registry, runtime: services.runtime, model: fixedModel(text, seen, false) });

async function conforms(s: AskServices): Promise<void> {
  const quads = s.store.rdf.match(null, null, null, factory.namedNode(graphIri(BASE, 'evidence')));
  const report = await (await loadEvidenceShapes()).validate(quads);
  expect(report.filter((x) => x.severity === 'Violation')).toEqual([]);
}
function citationsResolve(s: AskServices, r: AskResult): void {
  expect(r.citations.length).toBe(r.evidence.length);
  for (const c of r.citations) {
    expect(c.response).not.toBeNull();
    expect(s.store.rdf.ask(`ASK { GRAPH <${graphIri(BASE, 'evidence')}> { <${c.response}> a <${ASSAY.PublisherResponse}> ; <${ASSAY.requestUrl}> ?u ; <${ASSAY.contentHash}> "${c.content_hash}" } }`)).toBe(true);
  }
}

describe('cross-checks end to end (cassettes)', () => {
  it("Apple's FY2023 revenue: the recorded second paths agree, the figure stays verified and names them, the graph links them", async () => {
    const r = await ask(services, { question: "What was Apple's revenue in fiscal 2023?" });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.measure, e.period, e.value])).toEqual([['sec-edgar/us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax', 'FY2023', APPLE_FY2023]]);
    const e = r.evidence[0]!;
    expect(r.citations.map((c) => c.url)).toEqual([FACTS_URL]);
    citationsResolve(services, r);
    expect(r.cross_checks!.map((c) => [c.operation, c.outcome, c.value, c.url])).toEqual([
      ['companyconcept', 'agrees', APPLE_FY2023, CONCEPT_URL],
      ['frames', 'agrees', APPLE_FY2023, FRAMES_URL],
    ]);
    expect(r.cross_checks![0]!.response).toBe(`${BASE}response/${CONCEPT_SHA}`);
    // honest about independence: both second paths replay DERIVED samples built from companyfacts
    for (const c of r.cross_checks!) expect(c.shared_upstream).toMatch(/DERIVED sample/);
    const fig = r.figures.find((f) => f.value === APPLE_FY2023)!;
    expect(fig.grade).toBe('verified');
    expect(fig.evidence).toEqual([e.iri]);
    expect(fig.corroborated_by!.map((c) => [c.operation, c.url])).toEqual([['companyconcept', CONCEPT_URL], ['frames', FRAMES_URL]]);
    expect(fig.corroborated_by!.map((c) => c.check)).toEqual(r.cross_checks!.map((c) => c.iri));
    const disclosed = r.qualification!.disclosures.join('\n');
    expect(disclosed).toContain(`Cross-check agrees: SEC EDGAR companyconcept (${CONCEPT_URL})`);
    expect(disclosed).toMatch(/Independence: the second path replays a DERIVED sample/);
    // one sentence per second path, without the sample's file path
    expect(r.qualification!.disclosures).toContain(`Cross-check agrees: SEC EDGAR companyconcept (${CONCEPT_URL}) holds the same $383,285,000,000 for Apple Inc.'s Revenue from Contract with Customer, Excluding Assessed Tax for FY2023. Independence: the second path replays a DERIVED sample built from other publisher data rather than recorded, so it may agree with the primary read by construction.`);
    // PROV-O: evidence assay:corroboratedBy the cross-check, a prov:Activity that prov:used the second response
    const g = graphIri(BASE, 'evidence');
    const check = r.cross_checks![0]!.iri!;
    expect(services.store.rdf.ask(`ASK { GRAPH <${g}> { <${e.iri}> <${ASSAY.corroboratedBy}> <${check}> . <${check}> a <${PROV.Activity}> , <${ASSAY.CrossCheck}> ; <${ASSAY.crossCheckOf}> <${e.iri}> ; <${ASSAY.crossCheckOutcome}> "agrees" ; <${ASSAY.crossCheckValue}> ${APPLE_FY2023} ; <${PROV.used}> ?resp . ?resp <${ASSAY.requestUrl}> ?u ; <${ASSAY.contentHash}> "${CONCEPT_SHA}" FILTER(STR(?u) = "${CONCEPT_URL}") } }`)).toBe(true);
    // the cross-check generates no evidence, and the run graph records it and the figure's link
    expect(services.store.rdf.ask(`ASK { GRAPH <${g}> { ?x <${PROV.wasGeneratedBy}> <${check}> } }`)).toBe(false);
    const run = `${BASE}graph/runs/${r.run_id}`;
    expect(services.store.rdf.ask(`ASK { GRAPH <${run}> { <${r.run}> <${ASSAY.attempt}> <${check}> . ?fig <${ASSAY.grade}> "verified" ; <${ASSAY.corroboratedBy}> <${check}> } }`)).toBe(true);
    await conforms(services);
  }, 60_000);

  it('no recorded second path: "no cross-check available" is stated, and the answer is unaffected', async () => {
    const r = await ask(services, { question: 'Apple gross profit 2022' });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => e.value)).toEqual([170782000000]);
    expect(r.cross_checks!.every((c) => c.outcome === 'unavailable')).toBe(true);
    expect(r.cross_checks!.map((c) => c.operation).sort()).toEqual(['companyconcept', 'frames']);
    // in the reader's terms, both second paths in one sentence (the URLs stay in cross_checks[])
    expect(r.qualification!.disclosures).toContain("No cross-check available for Apple Inc.'s Gross Profit for FY2022: SEC EDGAR companyconcept and SEC EDGAR frames have no recorded response for it.");
    expect(r.cross_checks!.map((c) => c.url)).toEqual(['https://data.sec.gov/api/xbrl/companyconcept/CIK0000320193/us-gaap/GrossProfit.json', 'https://data.sec.gov/api/xbrl/frames/us-gaap/GrossProfit/USD/CY2022.json']);
    expect(r.figures.map((f) => [f.grade, f.corroborated_by])).toEqual([['verified', undefined]]);
  }, 60_000);

  it('a SYNTHETIC disagreeing second path is disclosed with both values and sources, and recorded as disputing the evidence', async () => {
    const s = await withRuntime(await syntheticRuntime({ [`GET ${CONCEPT_URL}`]: setConcept }));
    const r = await ask(s, { question: "What was Apple's revenue in fiscal 2023?" });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => e.value)).toEqual([APPLE_FY2023]); // the primary read stands
    expect(r.cross_checks!.map((c) => [c.operation, c.outcome, c.value])).toEqual([['companyconcept', 'disagrees', SYNTHETIC_VALUE], ['frames', 'agrees', APPLE_FY2023]]);
    const disclosed = r.qualification!.disclosures.join('\n');
    expect(disclosed).toContain(`Cross-check DISAGREES for Apple Inc.'s Revenue from Contract with Customer, Excluding Assessed Tax for FY2023: the answer's value is $383,285,000,000 from SEC EDGAR companyfacts (${FACTS_URL}); SEC EDGAR companyconcept (${CONCEPT_URL}) holds $390,000,000,000`);
    expect(disclosed).toMatch(/replays a SYNTHETIC response/);
    // the figure stays verified (a primary value stands behind it), corroborated only by the agreeing path
    const fig = r.figures.find((f) => f.value === APPLE_FY2023)!;
    expect(fig.grade).toBe('verified');
    expect(fig.corroborated_by!.map((c) => c.operation)).toEqual(['frames']);
    const e = r.evidence[0]!.iri;
    const g = graphIri(BASE, 'evidence');
    expect(s.store.rdf.ask(`ASK { GRAPH <${g}> { <${e}> <${ASSAY.disputedBy}> ?c . ?c <${ASSAY.crossCheckOutcome}> "disagrees" ; <${ASSAY.crossCheckValue}> ${SYNTHETIC_VALUE} ; <${PROV.used}> ?resp . ?resp <${ASSAY.requestUrl}> ?u FILTER(STR(?u) = "${CONCEPT_URL}") } }`)).toBe(true);
    citationsResolve(s, r);
    await conforms(s);
  }, 60_000);

  it('SYNTHETIC: a value two second reads agree on is corroborated when the model writes it; the disagreement is still disclosed', async () => {
    const runtime = await syntheticRuntime({ [`GET ${CONCEPT_URL}`]: setConcept, [`GET ${FRAMES_URL}`]: setFrame });
    const seen: string[] = [];
    const s = await withRuntime(runtime, fixedModel('Apple reported $383,285,000,000 [E1]; two cross-checks hold $390,000,000,000.', seen, false));
    const r = await ask(s, { question: "What was Apple's revenue in fiscal 2023?", strict: true });
    expect(r.status).toBe('answered');
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['$383,285,000,000', 'verified'], ['$390,000,000,000', 'corroborated']]);
    expect(r.figures[1]!.corroborated_by!.map((c) => c.operation)).toEqual(['companyconcept', 'frames']);
    expect(r.figures[1]!.arithmetic).toMatch(/not the admitted primary value; independence not established: a second path replays a SYNTHETIC response/);
    expect(r.qualification!.disclosures.filter((d) => d.startsWith('Cross-check DISAGREES'))).toHaveLength(2);
    expect(r.qualification!.disclosures.join('\n')).toMatch(/"\$390,000,000,000" is corroborated, not verified: .*not primary provenance/);
    // the drafting model was told the fact is disputed, not the other value
    expect(seen.join('\n')).toMatch(/\[E1\] an independent cross-check \(SEC EDGAR companyconcept\) DISAGREES/);
    expect(seen.join('\n')).not.toContain('390000000000');
  }, 60_000);

  it('a cross-check that fails is recorded as a failed attempt and otherwise ignored', async () => {
    const s = await withRuntime(await syntheticRuntime({}, [`GET ${CONCEPT_URL}`]));
    const r = await ask(s, { question: "What was Apple's revenue in fiscal 2023?" });
    expect(r.status).toBe('answered');
    expect(r.figures.map((f) => f.grade)).toEqual(['verified']);
    const failed = r.cross_checks!.find((c) => c.operation === 'companyconcept')!;
    expect(failed.outcome).toBe('failed');
    expect(failed.n).toBeGreaterThan(0);
    expect(s.store.rdf.ask(`ASK { GRAPH <${BASE}graph/runs/${r.run_id}> { <${failed.iri}> <${ASSAY.crossCheckOutcome}> "failed" ; <${ASSAY.disposition}> "errored" } }`)).toBe(true);
    expect(r.cross_checks!.find((c) => c.operation === 'frames')!.outcome).toBe('agrees');
  }, 60_000);

  it('with the model drafting a percent difference the fact sheet does not list: corroborated with its arithmetic, accepted in strict mode', async () => {
    const text = "Apple's revenue ($383,285,000,000 [E1]) was 24.7% higher than Alphabet's ($307,394,000,000 [E2]), according to SEC EDGAR.";
    const s = await withModel(text);
    const r = await ask(s, { question: 'Compare Apple and Alphabet revenue in 2023', strict: true });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => e.value)).toEqual([APPLE_FY2023, ALPHABET_FY2023]);
    expect(r.figures.map((f) => [f.text, f.grade])).toEqual([['$383,285,000,000', 'verified'], ['24.7%', 'corroborated'], ['$307,394,000,000', 'verified']]);
    const pct = r.figures[1]!;
    expect(pct.arithmetic).toContain('(E1 − E2) / E2 × 100 = (383285000000 − 307394000000) / 307394000000 × 100');
    expect(pct.evidence).toEqual(r.evidence.map((e) => e.iri));
    expect(r.qualification!.disclosures.join('\n')).toMatch(/"24\.7%" is corroborated, not verified: no admitted value states it; recomputed by code/);
    citationsResolve(s, r);
    expect(s.store.rdf.ask(`ASK { GRAPH <${BASE}graph/runs/${r.run_id}> { ?f <${ASSAY.asWritten}> "24.7%" ; <${ASSAY.grade}> "corroborated" ; <${ASSAY.arithmetic}> ?a } }`)).toBe(true);
  }, 60_000);

  it('with the model writing a made-up number: unverified, and strict mode refuses the answer', async () => {
    const s = await withModel("Apple's revenue ($383,285,000,000 [E1]) was 27.3% higher than Alphabet's.");
    const r = await ask(s, { question: 'Compare Apple and Alphabet revenue in 2023', strict: true });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'unverified_figures' });
    expect(r.refusal!.reason).toContain('"27.3%" is unverified');
  }, 60_000);
});
