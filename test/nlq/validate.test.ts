/** Validation: read-only classification from the syntax tree, and the dictionary check with did-you-mean repairs. */
import { describe, expect, it } from 'vitest';
import { repairMessage, validateQuery, type ValidationIssue } from '../../src/nlq/validate.ts';

const VOC = 'https://swapi.co/vocabulary/';
const dictionary = {
  predicates: new Set([`${VOC}height`, `${VOC}homeworld`, `${VOC}eyeColor`, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', 'http://www.w3.org/2000/01/rdf-schema#label']),
  classes: new Set([`${VOC}Character`, `${VOC}Planet`]),
};
const codes = (text: string, opts = {}) => {
  const v = validateQuery(text, opts);
  return v.ok ? [] : v.issues.map((i: ValidationIssue) => (i.code === 'dataset-clause' ? `${i.code}:${i.clause}` : i.code === 'not-read-only' ? `${i.code}:${i.form}` : i.code));
};

describe('read-only classification from the syntax tree', () => {
  it.each([
    ['SELECT ?s WHERE { ?s ?p ?o }', []],
    ['ASK { ?s ?p ?o }', []],
    ['SELECT ?s WHERE { ?s <http://x/p> "DELETE WHERE { ?s ?p ?o }" }', []], // keywords inside a literal are data, not syntax
    ['CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', ['not-read-only:CONSTRUCT']],
    ['DESCRIBE <http://x/a>', ['not-read-only:DESCRIBE']],
    ['DELETE WHERE { ?s ?p ?o }', ['not-read-only:UPDATE']],
    ['INSERT DATA { <http://x/a> <http://x/p> 1 }', ['not-read-only:UPDATE']],
    ['SELECT * WHERE { { SELECT ?s WHERE { SERVICE <http://remote/sparql> { ?s ?p ?o } } } }', ['service']],
    ['SELECT * WHERE { ?s ?p ?o FILTER EXISTS { SERVICE <http://r/> { ?s ?p ?o } } }', ['service']],
    ['SELECT * WHERE { ?s <http://x/a>/<http://x/b> ?o }', ['property-path']],
    ['SELECT * FROM <http://g/1> WHERE { ?s ?p ?o }', ['dataset-clause:FROM']],
    ['SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }', ['dataset-clause:GRAPH']],
  ])('%s → %j', (text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  it('allows property paths when configured, and reports a parse error with its position', () => {
    expect(codes('SELECT * WHERE { ?s <http://x/a>* ?o }', { allowPropertyPaths: true })).toEqual([]);
    const v = validateQuery('SELECT ?s WHERE { ?s ?p }');
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.issues[0]).toMatchObject({ code: 'parse-error', message: expect.stringMatching(/line 1/i) });
  });

  it('regenerates what it classified: the text that runs is the checked tree', () => {
    const v = validateQuery('PREFIX voc: <https://swapi.co/vocabulary/> SELECT ?h WHERE { ?c voc:height ?h } LIMIT 3');
    expect(v.ok && v.form).toBe('SELECT');
    expect(v.ok && v.sparql).toContain('LIMIT 3');
  });
});

describe('dictionary check', () => {
  it('names each predicate and class the graph does not hold, with suggestions from the same namespace', () => {
    const v = validateQuery(`PREFIX voc: <${VOC}> SELECT ?c WHERE { ?c a voc:Charcter ; voc:heigth ?h ; voc:homeworld ?p }`, { dictionary });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.issues).toEqual([{ code: 'unknown-terms', terms: [
      { iri: `${VOC}heigth`, role: 'predicate', suggestions: [`${VOC}height`] },
      { iri: `${VOC}Charcter`, role: 'class', suggestions: [`${VOC}Character`] },
    ] }]);
    const msg = repairMessage(v.issues);
    expect(msg).toContain(`The graph has no predicate <${VOC}heigth>; did you mean <${VOC}height>?`);
    expect(msg).toContain(`The graph has no class <${VOC}Charcter>; did you mean <${VOC}Character>?`);
  });

  it('passes known terms and variables, and can be switched off (an absent class may be a true empty answer)', () => {
    expect(codes(`SELECT ?c WHERE { ?c a <${VOC}Planet> ; ?p ?o }`, { dictionary })).toEqual([]);
    expect(codes(`SELECT ?c WHERE { ?c a <${VOC}Moon> }`, { dictionary })).toEqual(['unknown-terms']);
    expect(codes(`SELECT ?c WHERE { ?c a <${VOC}Moon> }`)).toEqual([]);
  });

  it('says when nothing in the namespace is close', () => {
    const v = validateQuery('SELECT ?x WHERE { ?x <http://other.example/zzqx> ?y }', { dictionary });
    expect(!v.ok && repairMessage(v.issues)).toMatch(/has no predicate <http:\/\/other.example\/zzqx>/);
  });
});
