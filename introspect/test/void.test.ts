import { describe, expect, it } from 'vitest';
import * as ox from 'oxigraph';
import { Parser } from 'n3';
import { fromOxigraph, mine, toVoid } from '../index.ts';
import { CYCLE, PEOPLE } from './graphs.ts';
import { VOID } from '../vocab.ts';

/** Load Turtle into an oxigraph store's named graph G and mine it through the dump path. */
function setup(turtle: string) {
  const store = new ox.Store();
  store.load(turtle, { format: 'text/turtle', to_graph_name: ox.namedNode('http://g') });
  const ix = mine(fromOxigraph(store, 'http://g'));
  const count = (q: string): number => Number((store.query(q) as Map<string, ox.Term>[])[0]!.get('n')!.value);
  const voidNt = toVoid(ix, 'http://ex.org/ds');
  const voidQuads = new Parser({ format: 'N-Triples' }).parse(voidNt);
  const figure = (subject: string, p: string) => Number(voidQuads.find((q) => q.subject.value === subject && q.predicate.value === p)!.object.value);
  const partition = (link: string, key: string, iri: string) => voidQuads.find((q) => q.predicate.value === key && q.object.value === iri
    && voidQuads.some((l) => l.predicate.value === link && l.object.equals(q.subject)))!.subject.value;
  return { ix, count, figure, partition };
}

describe.each([['people', PEOPLE], ['cycle', CYCLE]])('VoID of the %s graph equals SPARQL COUNTs', (_name, turtle) => {
  const { ix, count, figure, partition } = setup(turtle);
  const G = (body: string) => `{ GRAPH <http://g> { ${body} } }`;

  it('dataset figures', () => {
    expect(figure('http://ex.org/ds', VOID.triples)).toBe(count(`SELECT (COUNT(*) AS ?n) ${G('?s ?p ?o')}`));
    expect(figure('http://ex.org/ds', VOID.distinctSubjects)).toBe(count(`SELECT (COUNT(DISTINCT ?s) AS ?n) ${G('?s ?p ?o')}`));
    expect(figure('http://ex.org/ds', VOID.entities)).toBe(count(`SELECT (COUNT(DISTINCT ?s) AS ?n) ${G('?s ?p ?o FILTER isIRI(?s)')}`));
    expect(figure('http://ex.org/ds', VOID.distinctObjects)).toBe(count(`SELECT (COUNT(DISTINCT ?o) AS ?n) ${G('?s ?p ?o')}`));
    expect(figure('http://ex.org/ds', VOID.properties)).toBe(count(`SELECT (COUNT(DISTINCT ?p) AS ?n) ${G('?s ?p ?o')}`));
    expect(figure('http://ex.org/ds', VOID.classes)).toBe(count(`SELECT (COUNT(DISTINCT ?c) AS ?n) ${G('?s a ?c FILTER isIRI(?c)')}`));
  });

  it('class partitions', () => {
    expect(ix.classes.length).toBeGreaterThan(0);
    for (const c of ix.classes) {
      const node = partition(VOID.classPartition, VOID.class, c.iri);
      expect(figure(node, VOID.entities)).toBe(count(`SELECT (COUNT(DISTINCT ?s) AS ?n) ${G(`?s a <${c.iri}>`)}`));
      expect(figure(node, VOID.triples)).toBe(count(`SELECT (COUNT(*) AS ?n) { { SELECT DISTINCT ?s ${G(`?s a <${c.iri}>`)} } ${G('?s ?p ?o')} }`));
    }
  });

  it('property partitions', () => {
    for (const p of ix.predicates) {
      const node = partition(VOID.propertyPartition, VOID.property, p.iri);
      expect(figure(node, VOID.triples)).toBe(count(`SELECT (COUNT(*) AS ?n) ${G(`?s <${p.iri}> ?o`)}`));
      expect(figure(node, VOID.distinctSubjects)).toBe(count(`SELECT (COUNT(DISTINCT ?s) AS ?n) ${G(`?s <${p.iri}> ?o`)}`));
      expect(figure(node, VOID.distinctObjects)).toBe(count(`SELECT (COUNT(DISTINCT ?o) AS ?n) ${G(`?s <${p.iri}> ?o`)}`));
    }
  });
});

describe('sources agree', () => {
  it('the oxigraph dump path, the match path and the parsed-text path mine the same profile', async () => {
    const { fromMatch, sourceFromText } = await import('../index.ts');
    const store = new ox.Store();
    store.load(PEOPLE, { format: 'text/turtle', to_graph_name: ox.namedNode('http://g') });
    const viaText = mine(sourceFromText(PEOPLE, 'turtle'));
    expect(mine(fromOxigraph(store, 'http://g'))).toEqual(viaText);
    expect(mine(fromMatch(store as never, { graph: ox.namedNode('http://g') }))).toEqual(viaText);
    expect(mine(fromOxigraph(store))).toEqual(viaText);
  });
});
