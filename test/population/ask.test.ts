// Population questions end to end on the offline default (offline interpreter, bundled cassettes,
// plain renderer): every expected value computed here from the recorded publisher bodies.
import { beforeAll, describe, expect, it, vi } from 'vitest';

// whole populations (3,000 counties, 13,000 organizations) are parsed per question: slow on a shared machine, not timed
vi.setConfig({ testTimeout: 180_000 });
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import type { AskResult } from '../../src/ask/types.ts';
import type { ProgressEvent } from '../../src/execute/progress.ts';
import { testServices } from '../ask/services.ts';
import { CASSETTES, censusRows, csvRows, isSentinel, midranks, pearson } from './helpers.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const q = (question: string, events?: ProgressEvent[]) => ask(services, { question }, events ? { onProgress: (e) => events.push(e) } : {});
const values = (r: AskResult) => (r.table?.rows ?? []).map((row) => row.find((c) => c.column === 'value')?.value);
const keys = (r: AskResult) => (r.table?.rows ?? []).map((row) => row.find((c) => c.column === 'key')?.value);
const grades = (r: AskResult) => new Set(r.figures.map((f) => f.grade));

function answeredAndGraded(r: AskResult) {
  expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
  expect(r.figures.length).toBeGreaterThan(0);
  for (const f of r.figures) expect(['verified', 'derived'], `${f.text} ${f.grade}`).toContain(f.grade);
  // every value cell cites admitted evidence that is in the answer
  const iris = new Set(r.evidence.map((e) => e.iri));
  // (or a row of the population graph materialized once for its vintage)
  for (const row of r.table?.rows ?? []) for (const c of row) if (c.grade === 'verified' && c.evidence) expect(iris.has(c.evidence) || /\/graph\/population\//.test(c.evidence)).toBe(true);
  expect(r.citations.length).toBeGreaterThan(0);
}

describe('population questions (offline default)', () => {
  it('the ten states with the largest population in 2018', async () => {
    const events: ProgressEvent[] = [];
    const r = await q('What are the ten most populous states in 2018?', events);
    answeredAndGraded(r);
    const expected = censusRows(CASSETTES.states2018('B01001')).filter((x) => x.state !== '11' && x.state !== '72').sort((a, b) => Number(b.B01001_001E) - Number(a.B01001_001E)).slice(0, 10);
    expect(keys(r)).toEqual(expected.map((x) => x.state));
    expect(values(r)).toEqual(expected.map((x) => Number(x.B01001_001E)));
    expect(r.figures.filter((f) => f.grade === 'verified').map((f) => f.value)).toEqual(expect.arrayContaining(expected.map((x) => Number(x.B01001_001E))));
    expect(r.populations![0]).toMatchObject({ operation: 'census-acs/acs-all-states', declared: 52, read: 52, members: 50, usable: 50, verdict: 'complete', period: 'ACS 1-year 2018' });
    expect(r.qualification!.disclosures.join(' ')).toMatch(/District of Columbia/);
    // progress: rows declared, read, excluded and the verdict
    const pop = events.find((e) => e.by === 'population' && e.data && 'population' in e.data)!;
    expect(pop.data).toMatchObject({ population: { declared: 52, read: 52, usable: 50, verdict: 'complete' } });
    // the ranks are list numbering, not figures
    expect(r.figures.some((f) => f.text === '1.')).toBe(false);
  });

  it('the state with the highest median household income in 2018', async () => {
    const r = await q('Which state had the highest median household income in 2018?');
    answeredAndGraded(r);
    const top = censusRows(CASSETTES.states2018('B19013')).filter((x) => x.state !== '11' && x.state !== '72').sort((a, b) => Number(b.B19013_001E) - Number(a.B19013_001E))[0]!;
    expect(keys(r)[0]).toBe(top.state);
    expect(r.text).toContain(top.NAME!);
    expect(r.figures.find((f) => f.value === Number(top.B19013_001E))?.grade).toBe('verified');
  });

  it('the county with the highest obesity prevalence (PLACES 2022)', async () => {
    const r = await q('Which county has the highest obesity prevalence?');
    answeredAndGraded(r);
    const rows = csvRows('cdc-places', CASSETTES.places2022).filter((x) => x.OBESITY_CrudePrev !== '');
    const max = Math.max(...rows.map((x) => Number(x.OBESITY_CrudePrev)));
    expect(values(r)[0]).toBe(max);
    expect(keys(r)[0]).toBe(rows.find((x) => Number(x.OBESITY_CrudePrev) === max)!.CountyFIPS);
    expect(r.populations![0]).toMatchObject({ operation: 'cdc-places/all-counties-wide', period: 'PLACES 2022 release', verdict: 'complete' });
  });

  it('the five Texas counties with the most people (ACS 5-year 2021)', async () => {
    const r = await q('What are the five Texas counties with the most people in 2021?');
    answeredAndGraded(r);
    const tx = censusRows(CASSETTES.counties2021).filter((x) => x.state === '48').sort((a, b) => Number(b.B01003_001E) - Number(a.B01003_001E)).slice(0, 5);
    expect(keys(r)).toEqual(tx.map((x) => `48${x.county}`));
    expect(values(r)).toEqual(tx.map((x) => Number(x.B01003_001E)));
    expect(r.populations![0]).toMatchObject({ scope: '48', members: censusRows(CASSETTES.counties2021).filter((x) => x.state === '48').length });
  });

  it('the number of private foundations in DC: a derived count over the whole extract', async () => {
    const r = await q('How many private foundations are there in DC?');
    answeredAndGraded(r);
    const n = csvRows('irs-eo-bmf', CASSETTES.bmf('dc')).filter((x) => ['02', '03', '04'].includes(x.FOUNDATION!)).length;
    const f = r.figures.find((x) => x.value === n)!;
    expect(f.grade).toBe('derived');
    expect(f.arithmetic).toMatch(/count of members/);
  });

  it('a count of members finds the population of those members whatever the place is called: "the District of Columbia" as "DC"', async () => {
    // The IRS extract's card carries none of the question's words but the place's; a count of
    // organizations is served by it because its rows are organizations, not because "DC" matched.
    const rows = csvRows('irs-eo-bmf', CASSETTES.bmf('dc'));
    for (const [question, codes] of [
      ['How many private foundations are there in the District of Columbia?', ['02', '03', '04']],
      ['How many churches are there in the District of Columbia?', ['10']],
    ] as const) {
      const r = await q(question);
      answeredAndGraded(r);
      const n = rows.filter((x) => (codes as readonly string[]).includes(x.FOUNDATION!)).length;
      expect(r.figures.find((x) => x.value === n)?.grade, question).toBe('derived');
    }
  });

  it('Rhode Island organizations with revenue over $100 million: every match, the count derived', async () => {
    const r = await q('Which Rhode Island organizations have revenue over $100 million?');
    answeredAndGraded(r);
    const expected = csvRows('irs-eo-bmf', CASSETTES.bmf('ri')).filter((x) => x.REVENUE_AMT !== '' && Number(x.REVENUE_AMT) > 100e6).sort((a, b) => Number(b.REVENUE_AMT) - Number(a.REVENUE_AMT));
    expect(keys(r)).toEqual(expected.map((x) => x.EIN));
    expect(r.figures.find((x) => x.value === expected.length)?.grade).toBe('derived');
    expect(r.table!.derived).toEqual([expect.objectContaining({ op: 'count', value: expected.length })]);
    // the population read's completeness and the result table are in the run graph, for SPARQL
    const rows = services.store.rdf.select(`PREFIX assay: <https://w3id.org/assay/ns#> PREFIX csvw: <http://www.w3.org/ns/csvw#>
      SELECT ?declared ?usable ?code ?n ?verdict (COUNT(DISTINCT ?row) AS ?shown) WHERE { GRAPH <http://assay.test/graph/runs/${r.run_id}> {
        ?a a assay:PopulationRead ; assay:rowsDeclared ?declared ; assay:rowsUsable ?usable ; assay:completeness ?verdict ; assay:exclusion ?x .
        ?x assay:exclusionCode ?code ; assay:rowsExcluded ?n .
        ?t a csvw:Table ; csvw:row ?row } } GROUP BY ?declared ?usable ?code ?n ?verdict`);
    const all = csvRows('irs-eo-bmf', CASSETTES.bmf('ri'));
    expect(rows.map((b) => [b.get('declared')!.value, b.get('usable')!.value, b.get('code')!.value, b.get('n')!.value, b.get('verdict')!.value, b.get('shown')!.value])).toEqual([
      [String(all.length), String(all.filter((x) => x.REVENUE_AMT !== '').length), 'value_missing', String(all.filter((x) => x.REVENUE_AMT === '').length), 'complete', String(expected.length)],
    ]);
  });

  it.each([
    'How many nonprofits in Rhode Island have revenue above 1 million dollars?',
    'How many Rhode Island organizations have revenue over $1 million?',
  ])('"%s": a count of the members passing the threshold, never of every member', async (question) => {
    const r = await q(question);
    answeredAndGraded(r);
    const all = csvRows('irs-eo-bmf', CASSETTES.bmf('ri'));
    const expected = all.filter((x) => x.REVENUE_AMT !== '' && Number(x.REVENUE_AMT) > 1e6).length;
    expect(r.intent).toMatchObject({ shape: 'filtered_subset', threshold: { op: '>', value: 1e6, unit: 'USD' } });
    expect(r.table!.derived).toEqual([expect.objectContaining({ op: 'count', value: expected })]);
    // the count of every organization in the extract is not the answer
    expect(r.figures.some((f) => f.value === all.length)).toBe(false);
  });

  it('a threshold in people over counties: the count of counties with more than a million people (ACS 5-year 2021)', async () => {
    const r = await q('How many counties have more than a million people?');
    answeredAndGraded(r);
    const expected = censusRows(CASSETTES.counties2021).filter((x) => x.state !== '72' && Number(x.B01003_001E) > 1e6);
    expect(r.table!.derived).toEqual([expect.objectContaining({ op: 'count', value: expected.length })]);
  });

  it('the correlation of county median household income (ACS 2021) with obesity prevalence (PLACES 2022), with n', async () => {
    const r = await q('Is county median household income in 2021 associated with obesity prevalence?');
    answeredAndGraded(r);
    const inc = new Map(censusRows(CASSETTES.counties2021).filter((x) => x.state !== '72' && !isSentinel(Number(x.B19013_001E))).map((x) => [`${x.state}${x.county}`, Number(x.B19013_001E)]));
    const ob = new Map(csvRows('cdc-places', CASSETTES.places2022).filter((x) => x.OBESITY_CrudePrev !== '').map((x) => [x.CountyFIPS!, Number(x.OBESITY_CrudePrev)]));
    const pairs = [...inc].filter(([k]) => ob.has(k)).map(([k, v]) => [v, ob.get(k)!] as const);
    const rr = pearson(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
    const rho = pearson(midranks(pairs.map((p) => p[0])), midranks(pairs.map((p) => p[1])));
    const derived = Object.fromEntries(r.table!.derived.map((d) => [d.op, d]));
    expect(derived.count!.value).toBe(pairs.length);
    expect(derived.pearson!.value).toBe(Number(rr.toFixed(3)));
    expect(derived.spearman!.value).toBe(Number(rho.toFixed(3)));
    expect(r.text).toContain(pairs.length.toLocaleString('en-US'));
    expect(r.qualification!.disclosures.join(' ')).toMatch(/ecological fallacy/);
    expect(r.qualification!.disclosures.join(' ')).toMatch(/spatial autocorrelation/);
    expect(r.table!.rows).toHaveLength(pairs.length);
    // both series are population graphs in the store (materialized once per vintage), read back over SPARQL:
    // every row an observation with the publisher's value, the graph derived from the publisher response
    const back = services.store.rdf.select(`PREFIX assay: <https://w3id.org/assay/ns#> PREFIX qb: <http://purl.org/linked-data/cube#> PREFIX prov: <http://www.w3.org/ns/prov#>
      SELECT ?g ?op (COUNT(?o) AS ?rows) (SAMPLE(?src) AS ?from) WHERE { GRAPH ?g { ?g a qb:DataSet ; assay:operation ?op ; prov:wasDerivedFrom ?src . ?o qb:dataSet ?g } } GROUP BY ?g ?op ORDER BY ?op`);
    const byOp = new Map(back.map((b) => [b.get('op')!.value, Number(b.get('rows')!.value)]));
    expect(byOp.get('census-acs/acs-all-counties')).toBe(censusRows(CASSETTES.counties2021).length);
    expect(byOp.get('cdc-places/all-counties-wide')).toBe(csvRows('cdc-places', CASSETTES.places2022).length);
    const cook = services.store.rdf.select(`PREFIX assay: <https://w3id.org/assay/ns#> PREFIX qb: <http://purl.org/linked-data/cube#>
      SELECT ?v WHERE { GRAPH ?g { ?g assay:operation "cdc-places/all-counties-wide" . ?o qb:dataSet ?g ; assay:rowKey "fips=17031" ; assay:value ?v } }`);
    expect(cook.map((b) => Number(b.get('v')!.value))).toEqual([ob.get('17031')]);
  });

  it('a per-capita figure: private foundations per 100,000 DC residents (the components read independently, the period difference warned)', async () => {
    const r = await ask(services, { intent: { question: 'How many private foundations per 100,000 residents are there in DC?', shape: 'ratio', attribute: 'number of private foundations per 100,000 total population', attributes: ['number of private foundations', 'total population'], geography: { level: null, within: 'DC' }, period: { text: '2018', basis: 'unspecified', year: 2018 } } });
    answeredAndGraded(r);
    const n = csvRows('irs-eo-bmf', CASSETTES.bmf('dc')).filter((x) => ['02', '03', '04'].includes(x.FOUNDATION!)).length;
    const dcPop = Number(censusRows(CASSETTES.states2018('B01001')).find((x) => x.state === '11')!.B01001_001E);
    const ratioFig = r.figures.find((f) => f.grade === 'derived' && Math.abs(f.value - Number(((n / dcPop) * 100_000).toFixed(2))) < 1e-9);
    expect(ratioFig, JSON.stringify(r.figures)).toBeDefined();
    expect(ratioFig!.arithmetic).toMatch(/× 100000/);
    expect(r.qualification!.disclosures.join(' ')).toMatch(/different periods/);
  });

  it('a topical search: relevant examples, never a count of the population', async () => {
    const r = await q('Find tribal energy development grant opportunities');
    answeredAndGraded(r);
    const hit = JSON.parse(readBody('grants-gov', 'search-opportunities')).data.oppHits[0];
    expect(keys(r)).toEqual([hit.id]);
    expect(r.text).toContain(hit.title);
    const detail = JSON.parse(readBody('grants-gov', 'fetch-opportunity')).data;
    expect(r.figures.find((f) => f.value === Number(detail.synopsis.awardCeiling))?.grade).toBe('verified');
    expect(r.qualification!.disclosures.join(' ')).toMatch(/not a population/);
    expect(r.text).not.toMatch(/there (are|is) \d/i);
  });
});

describe('population refusals', () => {
  it('a partial population: the DERIVED frames of two filers rank nothing', async () => {
    const r = await q('Which company has the highest revenue?');
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ code: 'partial_population', boundary: 'operationally_blocked' });
    expect(r.figures).toEqual([]);
  });

  it('the missing national population of charities is named', async () => {
    const r = await q('Which US charity has the largest revenue?');
    expect(r.refusal).toMatchObject({ boundary: 'no_access_path' });
    expect(['no_population', 'scope_not_covered']).toContain(r.refusal!.code);
    expect(r.refusal!.reason).toMatch(/irs-eo-bmf\/eo-bmf-state covers one state per extract/);
    expect(r.figures).toEqual([]);
  });

  it('"in the United States" over per-state extracts names the missing coverage', async () => {
    const r = await q('How many private foundations are there in the United States?');
    expect(r.refusal).toMatchObject({ boundary: 'no_access_path', code: 'scope_not_covered' });
  });

  it.each([
    ['aggregate', 'How many nonprofits in Rhode Island are there?', 'number of nonprofits'],
    ['ranking', 'Which Rhode Island nonprofits have the most revenue?', 'revenue'],
  ])('a %s whose intent carries a threshold it cannot apply refuses instead of dropping it', async (shape, question, attribute) => {
    const r = await ask(services, { intent: { question, shape, attribute, geography: { level: null, within: 'Rhode Island' }, quantifier: 'exhaustive', threshold: { op: '>', value: 1e6, unit: 'USD', text: 'above 1 million dollars' } } });
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ code: 'threshold_not_applied', boundary: 'not_understood' });
    expect(r.refusal!.reason).toContain('"above 1 million dollars"');
    expect(r.figures).toEqual([]);
  });

  it('a threshold on one measure beside another measure asked is refused, not tested against the wrong one', async () => {
    const r = await q('Which states with more than 10 million people have the highest poverty rate?');
    expect(r.status).toBe('refused');
    expect(r.refusal!.reason).toMatch(/more than 10 million people.*a count.*poverty rate.*a percentage/);
    expect(r.figures).toEqual([]);
  });

  it('too few aligned rows: the one county of DC', async () => {
    const r = await ask(services, { intent: { question: 'Is median household income associated with obesity across DC counties?', shape: 'correlation', attribute: 'median household income vs obesity prevalence', attributes: ['median household income', 'obesity prevalence'], geography: { level: 'county', within: 'District of Columbia' }, period: { text: '2021', basis: 'unspecified', year: 2021 } } });
    expect(r.refusal).toMatchObject({ code: 'too_few_aligned' });
  });

  it('a mismatched grain: states against counties', async () => {
    const r = await ask(services, { intent: { question: 'Is state median household income associated with county obesity?', shape: 'correlation', attribute: 'median household income vs obesity prevalence', attributes: ['median household income', 'obesity prevalence'], geography: { level: 'state', within: null }, period: { text: '2018', basis: 'unspecified', year: 2018 } } });
    // the planner refuses before any request: PLACES returns county rows, not state rows
    expect(r.refusal).toMatchObject({ boundary: 'no_access_path' });
    expect(r.refusal!.reason).toMatch(/obesity prevalence/);
    expect(r.attempts).toEqual([]);
  });
});

import { readFileSync, readdirSync } from 'node:fs';
function readBody(source: string, operation: string): string {
  const dir = `fixtures/publishers/${source}`;
  const c = JSON.parse(readFileSync(`${dir}/${readdirSync(dir).find((f) => f.startsWith(`${operation}.`))!}`, 'utf8'));
  return readFileSync(`${dir}/${c.response.bodyFile}`, 'utf8');
}
