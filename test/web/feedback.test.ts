/** POST /feedback and GET /feedback: stored as schema.org Reviews in the run's graph, validated, rate-limited. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeApp, bindings, select, type TestApp } from '../server/sparql/helpers.ts';
import { MAX_COMMENT } from '../../src/server/routes/feedback.ts';

let t: TestApp;
let run: string;
beforeAll(async () => {
  t = await makeApp();
  const res = await t.app.inject({ method: 'POST', url: '/ask', payload: { question: "What was Apple's total revenue in 2023?" } });
  run = res.json().run_id;
}, 120_000);
afterAll(async () => t?.close());

const post = (payload: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: '/feedback', payload: payload as object, headers });

describe('feedback', () => {
  it('is stored as RDF linked to the run, queryable over SPARQL, served with the run and listed newest first', async () => {
    const a = await post({ run, rating: 'wrong', comment: '  The fiscal year is not the calendar year I meant.  ' });
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({ run, rating: 'wrong', comment: 'The fiscal year is not the calendar year I meant.', iri: expect.stringMatching(new RegExp(`^http://assay\\.test/run/${run}/feedback/[0-9a-f-]{36}$`)) });
    const b = await post({ run, rating: 'helpful' });
    expect(b.statusCode).toBe(201);
    expect(b.json().comment).toBeNull();

    const rows = bindings((await select(t.app, `PREFIX schema: <https://schema.org/>
      SELECT ?label ?value ?body WHERE { GRAPH <http://assay.test/graph/runs/${run}> {
        ?f a schema:Review ; schema:itemReviewed <http://assay.test/run/${run}> ; schema:dateCreated ?d ;
           schema:reviewRating [ a schema:Rating ; schema:ratingValue ?value ; schema:bestRating 1 ; schema:worstRating 0 ; <http://www.w3.org/2000/01/rdf-schema#label> ?label ] .
        OPTIONAL { ?f schema:reviewBody ?body } } } ORDER BY ?label`, { accept: 'application/sparql-results+json' })).body);
    expect(rows.map((r) => [r.label!.value, r.value!.value, r.body?.value ?? null])).toEqual([['helpful', '1', null], ['wrong', '0', 'The fiscal year is not the calendar year I meant.']]);

    const list = await t.app.inject({ url: `/feedback?run=${run}` });
    expect(list.json().feedback.map((f: { rating: string }) => f.rating)).toEqual(['helpful', 'wrong']);
    const graph = await t.app.inject({ url: `/runs/${run}`, headers: { accept: 'text/turtle' } });
    expect(graph.body).toContain('schema:Review');
  });

  it('lists newest first when the earlier time falls on a whole second (the store writes it without a fraction)', async () => {
    // the store keeps "…:05.000Z" as "…:05Z", which sorts after "…:05.001Z" as text
    const whole = Math.ceil(Date.now() / 1000) * 1000 + 60_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(whole);
    try {
      expect((await post({ run, rating: 'wrong' })).statusCode).toBe(201);
      clock.mockReturnValue(whole + 1);
      expect((await post({ run, rating: 'helpful', comment: 'one millisecond later' })).statusCode).toBe(201);
    } finally {
      clock.mockRestore();
    }
    const list = (await t.app.inject({ url: `/feedback?run=${run}` })).json().feedback as Array<{ rating: string; comment: string | null; created: string }>;
    const mine = list.filter((f) => Date.parse(f.created) >= whole);
    expect(mine.map((f) => f.comment)).toEqual(['one millisecond later', null]);
  });

  it.each([
    [{ run: 'nosuchrun000', rating: 'helpful' }, 404, /no run nosuchrun000/],
    [{ rating: 'helpful' }, 400, /run: /],
    [{ run: 'x', rating: 'helpful' }, 400, /a run id is the "run_id"/],
    [{ run: 'abcdef', rating: 'meh' }, 400, /rating: /],
    [{ run: 'abcdef', rating: 'helpful', stars: 5 }, 400, /stars/],
  ])('%j → %i', async (body, status, message) => {
    const res = await post(body);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(message);
  });

  it('an oversized comment is 413, saying the limit; an oversized body too', async () => {
    const long = await post({ run, rating: 'wrong', comment: 'x'.repeat(MAX_COMMENT + 1) });
    expect(long.statusCode).toBe(413);
    expect(long.json().message).toMatch(`at most ${MAX_COMMENT}`);
    const huge = await post({ run, rating: 'wrong', comment: 'x'.repeat(40_000) });
    expect(huge.statusCode).toBe(413);
  });

  it('is rate-limited per client address: 429 with Retry-After', async () => {
    const codes: number[] = [];
    // Every injected request comes from one address; the limit (20 a minute) counts all of them, valid or not.
    for (let i = 0; i < 22; i++) codes.push((await post({ run: 'x', rating: 'helpful' })).statusCode);
    const first429 = codes.indexOf(429);
    expect(first429).toBeGreaterThan(-1);
    expect(codes.slice(0, first429).every((c) => c === 400)).toBe(true);
    expect(codes.slice(first429).every((c) => c === 429)).toBe(true);
    const limited = await post({ run, rating: 'helpful' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().message).toMatch(/rate limit/i);
  });
});
