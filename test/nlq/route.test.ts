/** Which questions go to the loop over Assay's own graphs, decided from the words alone. */
import { describe, expect, it } from 'vitest';
import { graphForRoute, isAboutAssaysGraphs, routeQuestion } from '../../src/nlq/route.ts';

describe('routing questions about Assay\'s own graphs', () => {
  it.each([
    ['Which publishers did Assay cite for Apple?', 'evidence'],
    ['How many measures does the catalog hold for Census?', 'catalog'],
    ['Which access paths does the catalog list for SEC EDGAR?', 'catalog'],
    ['How many measures does the Census Bureau have?', 'catalog'],
    ['Which runs did Assay refuse yesterday?', 'runs'],
  ])('%s → %s', (q, role) => {
    expect(routeQuestion(q)).toMatchObject({ route: 'graph', role });
  });

  it.each([
    "What was Apple's total revenue in 2023?",
    'Which states have the highest poverty rate?',
    'Who funds Stanford?',
    'How many employees does Tesla have?',
  ])('%s stays with the publishers', (q) => {
    expect(isAboutAssaysGraphs(q)).toBe(false);
  });

  it('names the catalog graph under the base; evidence and runs read every graph', () => {
    expect(graphForRoute({ route: 'graph', role: 'catalog', cue: 'catalog' }, 'http://assay.test/')).toBe('http://assay.test/graph/catalog');
    expect(graphForRoute({ route: 'graph', role: 'evidence', cue: 'cite' }, 'http://assay.test/')).toBeUndefined();
  });
});

describe('the hook for assay ask', () => {
  it('answers a catalog question over the catalog graph and leaves publisher questions alone', async () => {
    const { DurableStore } = await import('../../src/rdf/durable.ts');
    const { answerIfAboutAssaysGraphs, openNlq } = await import('../../src/nlq/index.ts');
    const store = DurableStore.inMemory();
    // SYNTHETIC: a two-measure stand-in for the catalog graph, under the catalog graph's IRI.
    await store.apply({ kind: 'load', format: 'text/turtle', graph: 'http://assay.test/graph/catalog', baseIri: 'http://assay.test/', data: `
      @prefix ns: <https://w3id.org/assay/ns#> . @prefix dct: <http://purl.org/dc/terms/> . @prefix foaf: <http://xmlns.com/foaf/0.1/> .
      <http://assay.test/publisher/census-acs> a ns:Publisher ; foaf:name "U.S. Census Bureau" .
      <http://assay.test/measure/a> a ns:Measure ; dct:publisher <http://assay.test/publisher/census-acs> .
      <http://assay.test/measure/b> a ns:Measure ; dct:publisher <http://assay.test/publisher/census-acs> .` });
    const nlq = await openNlq(store, { baseIri: 'http://assay.test/', env: {} });
    try {
      const out = await answerIfAboutAssaysGraphs('How many measures does the catalog hold for the Census Bureau?', nlq.deps, 'http://assay.test/');
      expect(out?.status === 'answered' && out.result.kind === 'select' && out.result.rows[0]!.count!.value).toBe('2');
      expect(await answerIfAboutAssaysGraphs("What was Apple's total revenue in 2023?", nlq.deps, 'http://assay.test/')).toBeUndefined();
    } finally {
      await nlq.close();
      await store.close();
    }
  }, 30_000);
});
