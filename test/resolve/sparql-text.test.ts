import { describe, expect, it } from 'vitest';
import { iri, lit, sparql } from '../../src/resolve/sparql-text.ts';

// One call site per template, as in the code that builds queries (the memo is keyed by it).
const limited = (n: number) => sparql`SELECT * WHERE { ?s ?p ?o } LIMIT ${n}`;
const about = (t: ReturnType<typeof iri>) => sparql`SELECT ?o WHERE { ${t} ?p ?o }`;
const tagged = (t: ReturnType<typeof lit>) => sparql`SELECT ?s WHERE { ?s ?p ${t} }`;

describe('sparql`…` (terms written safely, the query parse-checked)', () => {
  it('writes each value into the template and returns the same text on every call', () => {
    expect(about(iri('http://example.org/a'))).toBe('SELECT ?o WHERE { <http://example.org/a> ?p ?o }');
    expect(about(iri('http://example.org/b'))).toBe('SELECT ?o WHERE { <http://example.org/b> ?p ?o }');
    expect(tagged(lit('say "hi"\n', 'en'))).toBe('SELECT ?s WHERE { ?s ?p "say \\"hi\\"\\n"@en }');
    expect(tagged(lit('plain'))).toBe('SELECT ?s WHERE { ?s ?p "plain" }');
  });

  it('still refuses a malformed query after the same template parsed with other kinds of values', () => {
    expect(limited(5)).toMatch(/LIMIT 5$/);
    expect(limited(7)).toMatch(/LIMIT 7$/);
    // A negative integer is another kind of term: checked afresh, and LIMIT -1 is not SPARQL.
    expect(() => limited(-1)).toThrow();
    expect(() => limited(-1)).toThrow();
  });

  it('refuses values that cannot be written, whatever parsed before', () => {
    expect(() => about(iri('http://example.org/a b'))).toThrow(/not an IRI/);
    expect(() => limited(1.5)).toThrow(/only integers/);
  });
});
