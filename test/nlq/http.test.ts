/** `POST /nlq` and the TEXT2SPARQL contract at `GET /text2sparql`. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../server/sparql/helpers.ts';

let t: TestApp;
afterEach(async () => t?.close());
const DATASET = 'http://example.org/graph/swapi';

async function withSwapi(): Promise<TestApp> {
  const app = await makeApp();
  await app.store.apply({ kind: 'load', data: readFileSync('fixtures/nlq/swapi/swapi-dataset.ttl', 'utf8'), format: 'text/turtle', graph: DATASET, baseIri: 'http://example.org/' });
  return app;
}

describe('GET /text2sparql', () => {
  it('answers {dataset, question, query} with a query over the dataset as its default graph', async () => {
    t = await withSwapi();
    const question = 'How many films are there?';
    const res = await t.app.inject({ url: `/text2sparql?question=${encodeURIComponent(question)}&dataset=${encodeURIComponent(DATASET)}` });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { dataset: string; question: string; query: string };
    expect(body).toMatchObject({ dataset: DATASET, question });
    expect(body.query).toMatch(/^SELECT \(COUNT\(DISTINCT \?x\) AS \?count\)/);
    expect(body.query).not.toMatch(/\bFROM\b|\bGRAPH\b/);
    // The organisers run it against the dataset as the default graph: so does the endpoint.
    const run = await t.app.inject({ url: `/sparql?query=${encodeURIComponent(body.query)}&default-graph-uri=${encodeURIComponent(DATASET)}`, headers: { accept: 'application/sparql-results+json' } });
    expect((run.json() as { results: { bindings: { count: { value: string } }[] } }).results.bindings[0]!.count.value).toBe('7');
  });

  it('an unknown dataset is 404 with a message; missing parameters are 400; a question beyond the generator gives an empty query and the reason', async () => {
    t = await withSwapi();
    const unknown = await t.app.inject({ url: `/text2sparql?question=x&dataset=${encodeURIComponent('http://example.org/graph/none')}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'unknown-dataset', message: 'no dataset <http://example.org/graph/none> is loaded here' });
    expect((await t.app.inject({ url: '/text2sparql?question=x' })).statusCode).toBe(400);
    const beyond = await t.app.inject({ url: `/text2sparql?question=${encodeURIComponent('What is the median height of Wookiees?')}&dataset=${encodeURIComponent(DATASET)}` });
    expect(beyond.statusCode).toBe(200);
    expect(beyond.json()).toMatchObject({ query: '', assay: { status: 'not_answered', reason: { code: 'beyond' } } });
  });
});

describe('POST /nlq', () => {
  it('returns rows in the unverified generated-query lane, with the transcript, citations and qualification', async () => {
    t = await withSwapi();
    const res = await t.app.inject({ method: 'POST', url: '/nlq', payload: { question: 'Who directed The Empire Strikes Back?', graph: DATASET } });
    expect(res.statusCode).toBe(200);
    const b = res.json() as Record<string, any>;
    expect(b).toMatchObject({ status: 'answered', lane: 'generated-query', verified: false, repairs: 0 });
    expect(b.result.rows[0].v.value).toBe('Irvin Kershner');
    expect(b.transcript[0].outcome_text).toBe('1 row');
    expect(b.citations.footnotes).toEqual(['no source recorded for 1 binding: <https://swapi.co/resource/film/2>']);
    expect(b.qualification.statement).toMatch(/asserted assurance, not a calibrated probability/);
  });

  it('bad bodies are 400 naming the field; an empty graph is 404', async () => {
    t = await withSwapi();
    const bad = await t.app.inject({ method: 'POST', url: '/nlq', payload: { q: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/question/);
    const none = await t.app.inject({ method: 'POST', url: '/nlq', payload: { question: 'How many films are there?', graph: 'http://example.org/graph/none' } });
    expect(none.statusCode).toBe(404);
  });
});
