import { describe, expect, it } from 'vitest';
import { mine } from '../mine.ts';
import { CYCLE, EX, PEOPLE, turtle } from './graphs.ts';
import { RDF, RDFS, XSD } from '../vocab.ts';

const ex = (l: string) => EX + l;

describe('mine: the people graph, profiled with every asserted type', () => {
  const ix = mine(turtle(PEOPLE));

  it('counts triples, subjects, entities and typed subjects', () => {
    expect(ix.triples).toBe(19);
    expect(ix.subjects).toBe(7);
    expect(ix.entities).toBe(7);
    expect(ix.typedSubjects).toBe(5);
    expect(ix.classCount).toBe(3);
    expect(ix.predicateCount).toBe(8);
    expect(ix.subClassEdges).toBe(1);
  });

  it('lists classes by instance count with their triples', () => {
    expect(ix.classes.map((c) => [c.iri, c.instances, c.triples])).toEqual([
      [ex('Person'), 4, 13],
      [ex('Employee'), 1, 5],
      [ex('Company'), 1, 3],
    ]);
  });

  it('gives per-class predicate usage with coverage and the class\'s own samples', () => {
    const person = ix.classes[0]!;
    expect(person.predicates.map((p) => [p.predicate, p.subjects, p.triples, p.coverage, p.maxPerSubject])).toEqual([
      [ex('name'), 4, 5, 1, 2],
      [RDF.type, 4, 5, 1, 2],
      [ex('worksFor'), 2, 2, 0.5, 1],
      [ex('knows'), 1, 1, 0.25, 1],
    ]);
    expect(person.predicates[0]!.samples).toHaveLength(3);
    const company = ix.classes.find((c) => c.iri === ex('Company'))!;
    expect(company.predicates.find((p) => p.predicate === ex('name'))!.samples).toEqual(['"ACME"']);
  });

  it('profiles predicates with observed and declared domain and range', () => {
    const worksFor = ix.predicates.find((p) => p.iri === ex('worksFor'))!;
    expect(worksFor).toMatchObject({ triples: 2, subjects: 2, objects: 1, untypedSubjects: 0, untypedObjects: 0,
      declaredDomain: [ex('Person')], declaredRange: [ex('Company')] });
    expect(worksFor.domain).toEqual([{ iri: ex('Person'), count: 2 }, { iri: ex('Employee'), count: 1 }]);
    expect(worksFor.rangeClasses).toEqual([{ iri: ex('Company'), count: 2 }]);
    const founded = ix.predicates.find((p) => p.iri === ex('founded'))!;
    expect(founded.rangeDatatypes).toEqual([{ iri: XSD.integer, count: 1 }]);
    const sub = ix.predicates.find((p) => p.iri === RDFS.subClassOf)!;
    expect(sub).toMatchObject({ untypedSubjects: 1, untypedObjects: 1 });
    expect(ix.predicates[0]!.iri).toBe(ex('name'));
  });

  it('finds the exact characteristic sets, most subjects first', () => {
    const sets = ix.characteristicSets.sets.map((c) => [c.predicates.map((p) => p.iri.replace(EX, '')), c.subjects, c.triples]);
    expect(ix.characteristicSets.total).toBe(6);
    expect(sets[0]).toEqual([['name', RDF.type], 2, 4]);
    expect(sets[1]).toEqual([['name', 'worksFor', RDF.type], 1, 5]);
    expect(sets).toContainEqual([['founded', 'name', RDF.type], 1, 3]);
    expect(sets).toContainEqual([[RDFS.domain, RDFS.range], 1, 2]);
    const carolSet = ix.characteristicSets.sets[1]!;
    expect(carolSet.predicates.map((p) => p.singleValued)).toEqual([false, true, false]);
    expect(carolSet.types).toEqual([{ iri: ex('Employee'), count: 1 }, { iri: ex('Person'), count: 1 }]);
  });

  it('caps the characteristic-set table and aggregates the tail', () => {
    const capped = mine(turtle(PEOPLE), { maxCharSets: 2 });
    expect(capped.characteristicSets.sets).toHaveLength(2);
    expect(capped.characteristicSets.elided).toEqual({ sets: 4, subjects: 4, triples: 10 });
    expect(mine(turtle(PEOPLE), { maxCharSets: 2, exactCharSets: true }).characteristicSets.exact).toHaveLength(6);
  });

  it('gives cross-class join hints', () => {
    expect(ix.joinHints.hints.map((h) => [h.from, h.predicate, h.to, h.triples])).toEqual([
      [ex('Person'), ex('worksFor'), ex('Company'), 2],
      [ex('Employee'), ex('worksFor'), ex('Company'), 1],
      [ex('Person'), ex('knows'), ex('Person'), 1],
    ]);
  });

  it('recognises well-known namespaces', () => {
    const byIri = new Map(ix.namespaces.namespaces.map((n) => [n.iri, n]));
    expect(byIri.get(EX)).toMatchObject({ predicates: 4, classes: 3, triples: 10 });
    expect(byIri.get('http://www.w3.org/1999/02/22-rdf-syntax-ns#')).toMatchObject({ prefix: 'rdf', vocabulary: 'RDF', triples: 6 });
  });

  it('does not depend on the order the source scans in', () => {
    const reversed = PEOPLE.split('\n').reverse().join('\n');
    const lines = PEOPLE.split('\n');
    const shuffled = [...lines.slice(0, 4), ...lines.slice(4).reverse()].join('\n');
    expect(mine(turtle(shuffled))).toEqual(ix);
    expect(reversed).toBeTruthy();
  });
});

describe('mine: type minimisation', () => {
  it('profiles Carol only as an Employee', () => {
    const ix = mine(turtle(PEOPLE), { minimizeTypes: true });
    expect(ix.classes.map((c) => [c.iri, c.instances])).toEqual([[ex('Person'), 3], [ex('Employee'), 1], [ex('Company'), 1]]);
    expect(ix.joinHints.hints.map((h) => [h.from, h.predicate, h.to, h.triples])).toEqual([
      [ex('Employee'), ex('worksFor'), ex('Company'), 1],
      [ex('Person'), ex('knows'), ex('Person'), 1],
      [ex('Person'), ex('worksFor'), ex('Company'), 1],
    ]);
    expect(ix.predicates.find((p) => p.iri === ex('worksFor'))!.domain).toEqual([{ iri: ex('Employee'), count: 1 }, { iri: ex('Person'), count: 1 }]);
  });

  it('tolerates a subclass cycle: classes on the cycle are equivalent, a class below it wins', () => {
    const ix = mine(turtle(CYCLE), { minimizeTypes: true });
    // x: A and B are equivalent (cycle), both kept. y: D ⊑ A, so only D. z: C and E unrelated, both kept.
    expect(ix.classes.map((c) => [c.iri.replace(EX, ''), c.instances])).toEqual([['A', 1], ['B', 1], ['D', 1], ['C', 1], ['E', 1]]);
    const hints = ix.joinHints.hints.map((h) => `${h.from.replace(EX, '')}-${h.to.replace(EX, '')}:${h.triples}`);
    expect(hints).toEqual(['A-D:1', 'B-D:1', 'D-C:1', 'D-E:1']);
    const full = mine(turtle(CYCLE));
    expect(full.classes.map((c) => [c.iri.replace(EX, ''), c.instances])).toEqual([['A', 2], ['B', 1], ['D', 1], ['C', 1], ['E', 1]]);
  });
});
