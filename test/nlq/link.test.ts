/** Linking against the graph's own labels: verbatim full label, n-grams, ambiguity, partial matches, classes, relations. */
import { describe, expect, it } from 'vitest';
import { mine, parseQuads, sourceFromText } from '../../introspect/index.ts';
import { Linker, type LabelEntry } from '../../src/nlq/link.ts';
import { LABEL_PREDICATES, RDF_TYPE } from '../../src/nlq/grounding.ts';

// SYNTHETIC graph for linking tests.
const TTL = `
@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
ex:t1 a ex:Topic ; skos:prefLabel "ZK/MPC claim + circuit discipline" .
ex:t2 a ex:Topic ; skos:prefLabel "Merge discipline" .
ex:t3 a ex:Topic ; skos:prefLabel "Circuit design" .
ex:p1 a ex:Person ; rdfs:label "Ada Lovelace" ; ex:birthDate "1815-12-10" ; ex:worksOn ex:t3 .
ex:p2 a ex:Person ; rdfs:label "Ada Byron" ; ex:birthDate "1815-12-10" .
ex:p3 a ex:Person ; rdfs:label "Grace Hopper" ; ex:heightCm 160 .
ex:ships a ex:Vessel ; rdfs:label "Harbour Master" .
ex:Vessel rdfs:label "Sailing vessel" .
`;

function linker(): Linker {
  const quads = parseQuads(TTL, 'turtle');
  const labels: LabelEntry[] = [];
  const types = new Map<string, string[]>();
  const predicates = new Set<string>();
  const classes = new Set<string>();
  for (const q of quads) {
    predicates.add(q.predicate.value);
    if ((LABEL_PREDICATES as readonly string[]).includes(q.predicate.value)) labels.push({ iri: q.subject.value, label: q.object.value, via: q.predicate.value });
    if (q.predicate.value === RDF_TYPE) { classes.add(q.object.value); types.set(q.subject.value, [...(types.get(q.subject.value) ?? []), q.object.value]); }
  }
  return Linker.build({ labels, types, ix: mine(sourceFromText(TTL, 'turtle')), classes, predicates });
}

describe('entity linking', () => {
  const l = linker();

  it('binds a question that IS a whole label exactly, punctuation kept, case and spaces normalised', () => {
    const r = l.link('zk/mpc   CLAIM + circuit discipline');
    expect(r.verbatim).toBe(true);
    expect(r.entities.map((e) => [e.iri, e.exact])).toEqual([['http://ex.org/t1', true]]);
    expect(r.ambiguous).toEqual([]);
  });

  it('links the longest n-gram equal to a label inside a question', () => {
    const r = l.link('When was Ada Lovelace born?');
    expect(r.entities.map((e) => [e.mention, e.iri, e.exact])).toEqual([['Ada Lovelace', 'http://ex.org/p1', true]]);
    expect(r.relations[0]?.iri).toBe('http://ex.org/birthDate');
  });

  it('reports an ambiguous mention with its candidates instead of guessing', () => {
    const r = l.link('When was Ada born?');
    expect(r.entities).toEqual([]);
    expect(r.ambiguous.map((a) => [a.mention, a.candidates.map((c) => c.iri).sort()])).toEqual([['Ada', ['http://ex.org/p1', 'http://ex.org/p2']]]);
  });

  it('a word inside several labels links the one it covers best (a tie stays ambiguous, as "Ada" above)', () => {
    expect(l.link('Who works on Discipline?').entities.map((e) => [e.iri, e.exact])).toEqual([['http://ex.org/t2', false]]);
    expect(l.link('Which topics mention Circuit?').entities.map((e) => e.iri)).toEqual(['http://ex.org/t3']);
  });

  it('partial matches take the best-covered label, and need a name-like word', () => {
    expect(l.link('How tall is Hopper?').entities.map((e) => [e.iri, e.exact])).toEqual([['http://ex.org/p3', false]]);
    expect(l.link('how tall is hopper?').entities).toEqual([]);
  });

  it('links classes by local name or label, plural-insensitive, and relations by shared stems', () => {
    const r = l.link('Which persons work on Circuit design?');
    expect(r.classes.map((c) => c.iri)).toEqual(['http://ex.org/Person']);
    expect(r.entities.map((e) => e.iri)).toEqual(['http://ex.org/t3']);
    expect(r.relations[0]?.iri).toBe('http://ex.org/worksOn');
    expect(l.link('List the sailing vessels').classes.map((c) => c.iri)).toEqual(['http://ex.org/Vessel']);
    expect(l.link('Who is the tallest person?').relations[0]?.iri).toBe('http://ex.org/heightCm');
  });
});
