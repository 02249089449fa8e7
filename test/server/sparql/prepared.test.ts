import { describe, expect, it } from 'vitest';
import { RdfStore } from '../../../src/rdf/store.ts';
import { PreparedQueries, runJob, type QueryJob } from '../../../src/server/sparql/evaluate.ts';

const store = new RdfStore();
store.load('<http://x/a> <http://x/p> "1" .\n<http://x/b> <http://x/p> "2" .\n<http://x/c> <http://x/p> "3" .\n', { format: 'application/n-triples', graph: 'http://assay.test/graph/g' });

function job(text: string, maxRows = 10): QueryJob {
  return {
    kind: 'query', text, defaultGraphs: [], namedGraphs: [], accept: 'application/sparql-results+json', maxRows,
    truncationLink: 'https://w3id.org/assay/ns#truncated', baseIri: 'http://assay.test/sparql', localBase: 'http://assay.test/', allowedRemoteHosts: [],
  };
}

describe('the prepared-query memo', () => {
  it('gives the same answers from the memo as from a fresh parse, and is keyed by the row cap', () => {
    const memo = new PreparedQueries();
    const q = 'SELECT ?o WHERE { ?s <http://x/p> ?o } ORDER BY ?o';
    const fresh = runJob(store, job(q));
    const first = runJob(store, job(q), memo);
    const second = runJob(store, job(q), memo);
    expect(memo.size).toBe(1);
    expect(first).toEqual(fresh);
    expect(second).toEqual(fresh);
    // A different cap is a different rewrite: it must not reuse the first one's LIMIT.
    const capped = runJob(store, job(q, 2), memo);
    expect(memo.size).toBe(2);
    expect(capped).toMatchObject({ ok: true, truncated: true, count: 2 });
  });

  it('still checks data-dependent policy on a memo hit', () => {
    const memo = new PreparedQueries();
    const q = 'SELECT * FROM <http://elsewhere.example/g> WHERE { ?s ?p ?o }';
    expect(runJob(store, job(q), memo)).toMatchObject({ ok: false });
    expect(runJob(store, job(q), memo)).toMatchObject({ ok: false });
  });

  it('forgets the least recently used entry past its capacity', () => {
    const memo = new PreparedQueries(2);
    runJob(store, job('ASK { ?s ?p "1" }'), memo);
    runJob(store, job('ASK { ?s ?p "2" }'), memo);
    runJob(store, job('ASK { ?s ?p "1" }'), memo); // touch "1"
    runJob(store, job('ASK { ?s ?p "3" }'), memo); // evicts "2"
    expect(memo.size).toBe(2);
  });
});
