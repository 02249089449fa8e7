import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diff, facets, fromJson, loadSidecar, mine, saveSidecar, sidecarPathFor, sourceFromFile, sourceFromText, syntaxOf, toJson } from '../index.ts';
import { EX, PEOPLE, PREFIXES, turtle } from './graphs.ts';

describe('sidecar', () => {
  it('round-trips through a file', async () => {
    const ix = mine(turtle(PEOPLE));
    const dir = await mkdtemp(join(tmpdir(), 'introspect-'));
    const path = sidecarPathFor(join(dir, 'people.ttl'));
    expect(path).toMatch(/people\.ttl\.introspect\.json$/);
    await saveSidecar(ix, path);
    expect(await loadSidecar(path)).toEqual(ix);
  });

  it.each([
    ['not JSON', '{"format": "assay-intro', /not valid JSON/],
    ['another format', '{"format": "other/1"}', /format is "other\/1"/],
    ['a truncated result', JSON.stringify({ ...JSON.parse(toJson(mine(turtle(PEOPLE)))), classes: 3 }), /"classes" must be an array/],
  ])('refuses %s with a clear error', async (_n, text, message) => {
    expect(() => fromJson(text)).toThrow(message);
    const dir = await mkdtemp(join(tmpdir(), 'introspect-'));
    await writeFile(join(dir, 'bad.json'), text);
    await expect(loadSidecar(join(dir, 'bad.json'))).rejects.toMatchObject({ code: 'bad-sidecar' });
  });
});

describe('schema diff', () => {
  it('lists added, removed and changed classes and predicates sorted by IRI', () => {
    const base = mine(turtle(PEOPLE));
    const next = mine(turtle(`${PEOPLE}\nex:zed a ex:Robot ; ex:serial "7" .\nex:erin a ex:Person ; ex:name "Erin" .`.replace('ex:alice a ex:Person ; ex:name "Alice" ; ex:knows ex:bob ;', 'ex:alice a ex:Person ; ex:name "Alice" ;')));
    const d = diff(base, next);
    expect(d.triplesBase).toBe(19);
    expect(d.triplesNext).toBe(22);
    expect(d.addedClasses).toEqual([{ iri: `${EX}Robot`, base: 0, next: 1 }]);
    expect(d.changedClasses).toEqual([{ iri: `${EX}Person`, base: 4, next: 5 }]);
    expect(d.removedPredicates).toEqual([{ iri: `${EX}knows`, base: 1, next: 0 }]);
    expect(d.addedPredicates.map((e) => e.iri)).toEqual([`${EX}serial`]);
    expect(d.changedPredicates.map((e) => e.iri)).toEqual([`${EX}name`, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type']);
  });
});

describe('facets', () => {
  const SHOP = `${PREFIXES}
ex:p1 a ex:Product ; ex:color "red" ; ex:price "10"^^xsd:integer ; ex:maker ex:m1 .
ex:p2 a ex:Product ; ex:color "red" ; ex:price "20"^^xsd:integer ; ex:maker ex:m1 .
ex:p3 a ex:Product ; ex:color "blue" ; ex:price "110"^^xsd:decimal ; ex:maker ex:m2 .
ex:p4 a ex:Product, ex:Sale ; ex:color "red" ; ex:price "n/a"^^xsd:integer .
ex:m1 a ex:Maker ; ex:color "red" .
`;
  it('counts types, predicates and values of the candidates, most frequent first', () => {
    const r = facets(turtle(SHOP), { class: `${EX}Product`, constraints: [{ predicate: `${EX}color`, value: '"red"' }], topK: 1 });
    expect(r.candidates).toBe(3);
    expect(r.types).toEqual([{ value: `${EX}Product`, count: 3 }]);
    expect(r.predicates.slice(0, 3)).toEqual([{ value: `${EX}color`, count: 3 }, { value: `${EX}price`, count: 3 },
      { value: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', count: 3 }]);
    const maker = r.values.find((v) => v.predicate === `${EX}maker`)!;
    expect(maker).toEqual({ predicate: `${EX}maker`, values: [{ value: `<${EX}m1>`, count: 2 }], elided: 0 });
  });

  it('gives numeric min, max, count and ten equal-width buckets, skipping ill-formed numbers', () => {
    const r = facets(turtle(SHOP), { class: `${EX}Product`, predicates: [`${EX}price`] });
    expect(r.numeric).toHaveLength(1);
    const n = r.numeric[0]!;
    expect([n.min, n.max, n.count]).toEqual([10, 110, 3]);
    expect(n.buckets).toHaveLength(10);
    expect(n.buckets.map((b) => b.count)).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(n.buckets[0]).toEqual({ lo: 10, hi: 20, count: 1 });
    expect(r.values[0]!.values).toHaveLength(4);
  });

  it('refuses a constraint value that is not an N-Triples term', () => {
    expect(() => facets(turtle(SHOP), { constraints: [{ predicate: `${EX}color`, value: 'red' }] })).toThrow(/N-Triples term/);
  });
});

describe('bad input', () => {
  it('names an unknown format', () => {
    expect(() => syntaxOf('data.csv')).toThrow(/cannot tell the RDF syntax of "data.csv"/);
  });
  it('says where a file stopped being RDF', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'introspect-'));
    await writeFile(join(dir, 'x.ttl'), 'this is not turtle at all\n');
    await expect(sourceFromFile(join(dir, 'x.ttl'))).rejects.toMatchObject({ code: 'not-rdf', message: expect.stringContaining('is not valid turtle') });
    await expect(sourceFromFile(join(dir, 'missing.ttl'))).rejects.toMatchObject({ code: 'not-rdf', message: expect.stringContaining('no such file') });
  });
  it('refuses nonsense options', () => {
    expect(() => mine(sourceFromText(PEOPLE, 'turtle'), { maxClasses: -1 })).toThrow(/maxClasses must be a non-negative integer/);
  });
});
