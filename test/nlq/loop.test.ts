/**
 * The loop over a real worker pool: the offline generator on the question forms it recognises,
 * repair rounds on a model that first returns broken SPARQL, the dictionary repair, budget trips,
 * citations from provenance and weakest-link qualification.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askGraph, DEFAULT_NLQ_CONFIG, resolutionRate, type NlqConfig, type NlqOutcome } from '../../src/nlq/index.ts';
import { fence, fixture, scripted, PROV_GRAPH, RES, SWAPI, VOC, type Fixture } from './helpers.ts';

let f: Fixture;
beforeAll(async () => { f = await fixture(); }, 60_000);
afterAll(async () => f?.close());

const values = (o: NlqOutcome): string[] => {
  if (o.status !== 'answered') throw new Error(`not answered: ${JSON.stringify(o.reason)}`);
  return o.result.kind === 'ask' ? [String(o.result.value)] : o.result.rows.map((r) => Object.values(r).map((t) => t!.value).join(' ')).sort();
};

describe('the offline generator, on a graph it was not written for', () => {
  it.each([
    ['What is the height of Luke Skywalker?', ['172']],
    ['Who directed The Empire Strikes Back?', ['Irvin Kershner']],
    ['How many films are there?', ['7']],
    ['Is Tatooine the homeworld of Luke Skywalker?', ['true']],
    ['Is Chewbacca a droid?', ['false']],
    ['Which starships did Han Solo pilot?', [`${RES}starship/10`, `${RES}starship/22`]],
    ['Which planet has the largest population?', [`${RES}planet/9`]],
  ])('%s', async (q, expected) => {
    expect(values(await askGraph(q, SWAPI, f.deps()))).toEqual(expected);
  });

  it('labels rows as the unverified generated-query lane', async () => {
    const o = await askGraph('How many planets are there?', SWAPI, f.deps());
    expect(o).toMatchObject({ status: 'answered', lane: 'generated-query', verified: false, repairs: 0, generator: 'offline' });
  });

  it('says plainly when a question is beyond it, with the candidates of an ambiguous name', async () => {
    const amb = await askGraph('What is the homeworld of Skywalker?', SWAPI, f.deps());
    expect(amb.status).toBe('not_answered');
    if (amb.status === 'not_answered' && amb.reason.code === 'beyond' && amb.reason.beyond.code === 'ambiguous-entity') {
      expect(amb.reason.beyond.candidates.map((c) => c.label).sort()).toEqual(['Anakin Skywalker', 'Luke Skywalker', 'Shmi Skywalker']);
    } else throw new Error(`expected an ambiguity, got ${JSON.stringify(amb)}`);
    const median = await askGraph('What is the median height of Wookiees?', SWAPI, f.deps());
    expect(median.status === 'not_answered' && median.reason).toEqual({ code: 'beyond', beyond: { code: 'unrecognised-form' } });
    const avg = await askGraph('What is the average height of Wookiees?', SWAPI, f.deps());
    expect(avg.status === 'answered' && avg.sparql).toMatch(/AVG\(\?v\)/);
  });

  it('an unknown graph is said to be unknown', async () => {
    const o = await askGraph('How many films are there?', 'http://example.org/graph/none', f.deps());
    expect(o.status === 'not_answered' && o.reason).toEqual({ code: 'unknown-graph', graph: 'http://example.org/graph/none' });
  });
});

describe('repair rounds', () => {
  const good = `SELECT ?h WHERE { <${RES}human/1> <${VOC}height> ?h }`;

  it('repairs a parse error, recording each round in the transcript', async () => {
    const model = scripted(fence('SELECT ?h WHERE { <x> ?h'), fence(good));
    const o = await askGraph('What is the height of Luke Skywalker?', SWAPI, f.deps(model));
    expect(values(o)).toEqual(['172']);
    expect(o.repairs).toBe(1);
    expect(o.transcript.map((t) => t.outcome.kind)).toEqual(['invalid', 'rows']);
    expect(o.transcript[0]!.sparql).toBe('SELECT ?h WHERE { <x> ?h');
    expect(model.prompts[1]).toContain('Your previous query:');
    expect(model.prompts[1]).toContain('The query does not parse');
  });

  it('turns an IRI the graph does not hold into a did-you-mean repair', async () => {
    const model = scripted(fence(`SELECT ?h WHERE { <${RES}human/1> <${VOC}heigth> ?h }`), fence(good));
    const o = await askGraph('What is the height of Luke Skywalker?', SWAPI, f.deps(model));
    expect(values(o)).toEqual(['172']);
    expect(model.prompts[1]).toContain(`did you mean <${VOC}height>`);
  });

  it('refuses a mutating or remote query and repairs it; gives up after the configured rounds', async () => {
    const model = scripted(fence(`DELETE WHERE { ?s ?p ?o }`), fence(`SELECT * WHERE { SERVICE <http://evil.example/> { ?s ?p ?o } }`), 'I cannot write SPARQL.');
    const o = await askGraph('What is the height of Luke Skywalker?', SWAPI, f.deps(model), { ...DEFAULT_NLQ_CONFIG, maxRepairRounds: 2 });
    expect(o.status).toBe('not_answered');
    expect(o.transcript.map((t) => t.outcome.kind)).toEqual(['invalid', 'invalid', 'no-sparql']);
    expect(o.status === 'not_answered' && o.reason).toMatchObject({ code: 'exhausted', rounds: 3 });
    // The store is untouched.
    expect(values(await askGraph('How many films are there?', SWAPI, f.deps()))).toEqual(['7']);
  });
});

describe('budgets', () => {
  it('a result past the row budget is a repair signal, not a silent cut', async () => {
    const model = scripted(fence(`SELECT ?c WHERE { ?c a <${VOC}Character> }`), fence(`SELECT (COUNT(?c) AS ?n) WHERE { ?c a <${VOC}Character> }`));
    const o = await askGraph('How many characters are there?', SWAPI, f.deps(model), { ...DEFAULT_NLQ_CONFIG, maxRows: 5 });
    expect(o.transcript.map((t) => t.outcome)).toEqual([{ kind: 'row-budget', maxRows: 5 }, { kind: 'rows', rows: 1 }]);
    expect(values(o)).toEqual(['87']);
  });

  it('a query past the time budget is stopped in its worker and reported', async () => {
    const heavy = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
    const o = await askGraph('How many triples are there?', SWAPI, f.deps(scripted(fence(heavy))), { ...DEFAULT_NLQ_CONFIG, timeoutMs: 300, maxRepairRounds: 0, checkDictionary: false });
    expect(o.status).toBe('not_answered');
    expect(o.transcript[0]!.outcome).toMatchObject({ kind: 'exec-error', code: 'timeout' });
    // The pool replaced the worker; the next question runs.
    await f.pool.ready();
    expect(values(await askGraph('How many films are there?', SWAPI, f.deps()))).toEqual(['7']);
  }, 30_000);
});

describe('citations and qualification from provenance', () => {
  const depthOf = (who: string) => `SELECT ?f ?d WHERE { ?f <http://www.w3.org/2000/01/rdf-schema#label> ?l ; <http://example.org/prov-test/depth> ?d FILTER(?l IN (${who})) }`;

  it('cites only sources the graph holds (resolution 1.0) and says "no source recorded" otherwise', async () => {
    const o = await askGraph('Depths at piers one to four?', PROV_GRAPH, f.deps(scripted(fence(depthOf('"Water depth at pier one", "Water depth at pier two", "Water depth at pier three", "Water depth at pier four"')))));
    if (o.status !== 'answered') throw new Error(JSON.stringify(o));
    const c = o.citations!;
    expect(c.citations.map((x) => [x.subject.split('/').at(-1), x.via, x.source.split('/').at(-1)]).sort()).toEqual([
      ['f1', 'prov:wasDerivedFrom', 'report1'], ['f2', 'dcterms:source', 'report2'], ['f3', 'prov:used', 'response1'],
    ]);
    expect(c.citations.find((x) => x.via === 'prov:used')).toMatchObject({ url: 'https://tides.example.org/api/station/7', retrievedAt: '2026-01-05T10:00:00Z' });
    expect(c.noSourceRecorded).toEqual(['http://example.org/prov-test/f4']);
    expect(await resolutionRate(f.runner, PROV_GRAPH, c.citations, { timeoutMs: 5000, maxRows: 10 })).toBe(1);
    // Weakest link: the unsourced f4 sets the rung; the lowest confidence (0.6) the band.
    expect(o.qualification).toMatchObject({ assurance: 'missing', band: 'medium', minConfidence: 0.6, unprovenanced: 1, supporting: 4, abstain: false, assertedNotCalibrated: true });
  });

  it('the weakest asserted assurance sets the hedge; an extra weak binding can only lower it', async () => {
    const strong = await askGraph('Depth at pier one?', PROV_GRAPH, f.deps(scripted(fence(depthOf('"Water depth at pier one"')))));
    const mixed = await askGraph('Depth at piers one and two?', PROV_GRAPH, f.deps(scripted(fence(depthOf('"Water depth at pier one", "Water depth at pier two"')))));
    expect(strong.status === 'answered' && strong.qualification).toMatchObject({ assurance: 'proven', band: 'high' });
    expect(mixed.status === 'answered' && mixed.qualification).toMatchObject({ assurance: 'conjectured', band: 'medium' });
  });

  it('abstains below a configured confidence floor', async () => {
    const cfg: NlqConfig = { ...DEFAULT_NLQ_CONFIG, qualify: { ...DEFAULT_NLQ_CONFIG.qualify, minConfidence: 0.8 } };
    const o = await askGraph('Depth at pier two?', PROV_GRAPH, f.deps(scripted(fence(depthOf('"Water depth at pier two"')))), cfg);
    expect(o.status === 'not_answered' && o.reason).toEqual({ code: 'abstained', why: 'confidence-below-floor' });
    const ok = await askGraph('Depth at pier one?', PROV_GRAPH, f.deps(scripted(fence(depthOf('"Water depth at pier one"')))), cfg);
    expect(ok.status).toBe('answered');
  });
});
