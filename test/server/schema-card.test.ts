/** `/schema-card`: the introspect/ card served by the gateway, cached until the next write. */
import { afterEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from './sparql/helpers.ts';
import { PEOPLE } from '../../introspect/test/graphs.ts';

let t: TestApp;
afterEach(async () => t?.close());

describe('/schema-card', () => {
  it('describes one graph or all of them within the budget, and follows writes', async () => {
    t = await makeApp();
    await t.store.apply({ kind: 'replaceGraph', graph: 'http://g/people', data: PEOPLE, format: 'text/turtle' });
    const res = await t.app.inject({ url: `/schema-card?budget=700&graph=${encodeURIComponent('http://g/people')}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body.trimEnd().length).toBeLessThanOrEqual(700);
    expect(res.body).toContain('Graph: 19 triples');
    expect(res.body).toContain('ex:Person (4)');
    expect((await t.app.inject({ url: '/schema-card' })).body).toContain('Graph: 19 triples');
    await t.store.apply({ kind: 'update', sparql: 'INSERT DATA { GRAPH <http://g/people> { <http://ex.org/eve> a <http://ex.org/Person> } }' });
    expect((await t.app.inject({ url: '/schema-card?graph=http://g/people' })).body).toContain('ex:Person (5)');
  });

  it('answers bad parameters and empty graphs with a message', async () => {
    t = await makeApp();
    await t.store.apply({ kind: 'replaceGraph', graph: 'http://g/people', data: PEOPLE, format: 'text/turtle' });
    const bad = await t.app.inject({ url: '/schema-card?budget=lots' });
    expect([bad.statusCode, bad.body]).toEqual([400, 'budget must be a whole number of characters from 1 to 100000, not "lots"\n']);
    const tiny = await t.app.inject({ url: '/schema-card?budget=5' });
    expect(tiny.statusCode).toBe(400);
    expect(tiny.body).toMatch(/use at least \d+/);
    const empty = await t.app.inject({ url: '/schema-card?graph=http://g/none' });
    expect([empty.statusCode, empty.body]).toEqual([404, 'graph <http://g/none> is empty or does not exist: nothing to describe\n']);
  });
});
