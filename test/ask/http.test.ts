/** POST /ask, the NDJSON stream and GET /runs/{id}, through the gateway app. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../server/sparql/helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await makeApp(); }, 120_000);
afterAll(async () => t?.close());

describe('HTTP ask', () => {
  it('POST /ask answers with the JSON result; GET /runs/{id} serves the run graph, content-negotiated', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/ask', payload: { question: "What was Apple's total revenue in 2023?" } });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r.status).toBe('answered');
    expect(r.figures[0]).toMatchObject({ value: 383285000000, grade: 'verified' });
    expect(r.citations[0].url).toBe('https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json');
    const ttl = await t.app.inject({ url: `/runs/${r.run_id}`, headers: { accept: 'text/turtle' } });
    expect(ttl.statusCode).toBe(200);
    expect(ttl.headers['content-type']).toMatch(/text\/turtle/);
    expect(ttl.body).toContain('assay:disposition "accepted"');
    expect(ttl.body).toContain('383285000000');
    const nq = await t.app.inject({ url: `/runs/${r.run_id}`, headers: { accept: 'application/n-quads' } });
    expect(nq.body).toContain(`/graph/runs/${r.run_id}>`);
    expect((await t.app.inject({ url: '/runs/nosuchrun000' })).statusCode).toBe(404);
  }, 60_000);

  it('POST /ask/stream sends progress events as NDJSON, then the result', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/ask/stream', payload: { question: "What was Apple's profit in 2023?", on_ambiguity: 'ask' } });
    expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = res.body.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.slice(0, -1).every((l) => l.event?.stage)).toBe(true);
    expect(lines.slice(0, -1).map((l) => l.event.stage)).toEqual(expect.arrayContaining(['structure', 'measure', 'ambiguity']));
    const last = lines[lines.length - 1].result;
    expect(last.status).toBe('needs_clarification');
    const resumed = await t.app.inject({ method: 'POST', url: '/ask', payload: { resume: { run: last.run_id, option: 3 } } });
    expect(resumed.json().evidence[0]).toMatchObject({ measure: 'sec-edgar/us-gaap/GrossProfit', value: 169148000000 });
  }, 60_000);

  it('a malformed request is a 400 that says what to send', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/ask', payload: { question: 'x', resume: { run: 'abcdef', option: 1 } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/exactly one of question, intent or resume/);
  });
});
