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
