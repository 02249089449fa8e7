import { describe, expect, it } from 'vitest';
import type { Candidate, Card, OperationRef } from '../../src/discover/index.ts';
import { byPriority, plan } from '../../src/plan/index.ts';
import { planToQuads } from '../../src/plan/rdf.ts';
import { parseIntent, type Intent } from '../../src/understand/intent.ts';
import { RdfStore } from '../../src/rdf/store.ts';
import { ASSAY } from '../../src/rdf/vocab.ts';

function intent(v: Record<string, unknown>): Intent {
  const r = parseIntent(v);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.intent;
}
function op(pub: string, id: string, kind: OperationRef['kind'], complete = true, grain = 'one thing'): OperationRef {
  return { key: `${pub}/${id}`, publisherId: pub, operationId: id, kind, accepts: [], grain, complete, coverageOf: complete ? 'everything' : 'matches only', title: id };
}
function cand(rank: number, key: string, ops: OperationRef[], score = 10): Candidate {
  const card: Card = { id: `m:${key}`, kind: 'measure', key, publisherId: key.split('/')[0]!, title: key, description: '', questions: '', source: '', operations: ops };
  return { rank, card, score, coverage: 1, matched: [] };
}

const point = intent({ question: "What was Apple's revenue in 2023?", shape: 'point', entity: 'Apple', entity_status: 'resolved', attribute: 'revenue' });
const ranking = intent({ question: 'Which nonprofit has the highest revenue?', shape: 'ranking', attribute: 'revenue', quantifier: 'exhaustive' });

describe('planner', () => {
  it('gives every candidate a verdict and a reason, and picks exact over composed', () => {
    const p = plan(point, [
      cand(1, 'a/scan/rev', [op('a', 'scan', 'population_scan')]),
      cand(2, 'b/facts/rev', [op('b', 'facts', 'keyed_read')]),
      cand(3, 'c/search/rev', [op('c', 'find', 'search', false)]),
    ]);
    expect(p.verdict).toBe('exact');
    expect(p.selected?.candidateKey).toBe('b/facts/rev');
    expect(p.assessments.map((a) => [a.candidateKey, a.verdict])).toEqual([['b/facts/rev', 'exact'], ['a/scan/rev', 'composed'], ['c/search/rev', 'infeasible']]);
    for (const a of p.assessments) expect(a.reason.length).toBeGreaterThan(10);
  });

  it('names every source of the best verdict when there are several, never claiming one the executor may not bind', () => {
    const two = plan(point, [cand(1, 'irs/efile/rev', [op('irs', 'efile', 'keyed_read')]), cand(2, 'sec/facts/rev', [op('sec', 'facts', 'keyed_read')])]);
    expect(two.reason).toBe('exact: 2 candidate operations from 2 sources answer a point question directly (irs, sec); which one is read depends on how the entity binds to each (the attempts name it)');
    const one = plan(point, [cand(1, 'sec/facts/rev', [op('sec', 'facts', 'keyed_read')])]);
    expect(one.reason).toBe('exact: sec/facts is a keyed read, which answers a point question directly');
  });

  it('prefers complete coverage over declared partial coverage, then discovery order', () => {
    const a = { candidateKey: 'x', kind: 'measure' as const, publisherId: 'x', title: 'x', reason: '', verdict: 'composed' as const };
    const sorted = [{ ...a, candidateKey: 'partial', complete: false, discoveryRank: 1 }, { ...a, candidateKey: 'late', complete: true, discoveryRank: 3 }, { ...a, candidateKey: 'early', complete: true, discoveryRank: 2 }].sort(byPriority);
    expect(sorted.map((s) => s.candidateKey)).toEqual(['early', 'late', 'partial']);
  });

  it('refuses a ranking over keyed reads and search, naming the missing operation — a successful plan', () => {
    const p = plan(ranking, [cand(1, 'np/org/rev', [op('np', 'org', 'keyed_read')]), cand(2, 'np/search/rev', [op('np', 'search', 'search', false)])]);
    expect(p.verdict).toBe('infeasible');
    expect(p.reason).toMatch(/no source exposes an entity-grain population scan or an ordered top-N for "revenue"/);
    expect(p.assessments).toHaveLength(2);
    expect(p.assessments.every((a) => a.verdict === 'infeasible')).toBe(true);
  });

  it('never ranks a search as a population, nor a partial scan', () => {
    const p = plan(ranking, [cand(1, 'x/scan/rev', [op('x', 'scan', 'population_scan', false)])]);
    expect(p.verdict).toBe('infeasible');
    expect(p.assessments[0]!.reason).toMatch(/partial coverage/);
  });

  it('checks grain: a county ranking cannot use a state-level scan', () => {
    const i = intent({ question: 'Which counties have the highest poverty rate?', shape: 'ranking', attribute: 'poverty rate', geography: { level: 'county', within: null } });
    const p = plan(i, [cand(1, 'acs/pov', [op('acs', 'all-states', 'population_scan', true, 'one state')])]);
    expect(p.verdict).toBe('infeasible');
    expect(p.assessments[0]!.reason).toMatch(/not county-level/);
  });

  it('reads grant direction: reverse needs reverse edges', () => {
    const rev = intent({ question: 'Who funds Stanford?', shape: 'grant_graph', entity: 'Stanford', entity_status: 'resolved', direction: 'reverse', attribute: 'grants' });
    const fwd = { ...rev, direction: 'forward' as const };
    const c = [cand(1, 'irs/grants', [op('irs', 'schedule-i', 'edges_forward')])];
    expect(plan(rev, c).verdict).toBe('infeasible');
    expect(plan(rev, c).reason).toMatch(/reverse grant edges/);
    expect(plan(fwd, c).verdict).toBe('exact');
  });

  it('is infeasible with a reason when nothing matches at all', () => {
    const p = plan(point, []);
    expect(p).toMatchObject({ verdict: 'infeasible', considered: 0 });
    expect(p.reason).toMatch(/no published measure or operation matches "revenue"/);
  });

  it('records the plan as RDF in the run graph, queryable with SPARQL', () => {
    const p = plan(point, [cand(1, 'sec-edgar/us-gaap/Revenues', [op('sec-edgar', 'companyfacts', 'keyed_read')])]);
    const quads = planToQuads(p, { planIri: 'http://ex.org/run/1/plan', runGraph: 'http://ex.org/graph/runs/1', baseIri: 'http://ex.org/' });
    const store = new RdfStore();
    store.add(quads);
    const rows = store.select(`PREFIX assay: <${ASSAY.ns}>
      SELECT ?verdict ?via ?cand WHERE { GRAPH <http://ex.org/graph/runs/1> { ?p a assay:Plan ; assay:verdict ?verdict ; assay:selected ?s . ?s assay:viaAccessPath ?via ; assay:candidate ?cand } }`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.get('verdict')!.value).toBe('exact');
    expect(rows[0]!.get('via')!.value).toBe('http://ex.org/source/sec-edgar/op/companyfacts');
    expect(rows[0]!.get('cand')!.value).toBe('http://ex.org/measure/sec-edgar/us-gaap/Revenues');
    const refused = planToQuads(plan(ranking, []), { planIri: 'http://ex.org/run/2/plan', runGraph: 'http://ex.org/graph/runs/2', baseIri: 'http://ex.org/' });
    expect(refused.some((q) => q.predicate.value === ASSAY.missingOperation)).toBe(true);
  });

  it('a run graph keeps the selected, the tried and the first 40 assessments, and counts them all', () => {
    const many = Array.from({ length: 500 }, (_, i) => cand(i + 1, `sec-edgar/us-gaap/Concept${i + 1}`, [op('sec-edgar', 'companyfacts', 'keyed_read')]));
    const p = plan(point, many);
    expect(p.assessments).toHaveLength(500);
    const quads = planToQuads(p, { planIri: 'http://ex.org/run/3/plan', runGraph: 'http://ex.org/graph/runs/3', baseIri: 'http://ex.org/', tried: new Set(['sec-edgar/us-gaap/Concept300']) });
    const nodes = new Set(quads.filter((q) => q.predicate.value === ASSAY.assessment).map((q) => q.object.value));
    expect(nodes.size).toBe(41);
    expect(nodes.has('http://ex.org/run/3/plan/assessment/300')).toBe(true);
    expect(quads.find((q) => q.predicate.value === ASSAY.assessmentCount)!.object.value).toBe('500');
  });
});
