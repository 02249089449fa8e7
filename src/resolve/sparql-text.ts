/**
 * Writing SPARQL with values that came from a user: a tagged template that accepts only RDF terms
 * (IRIs and literals, escaped here) or integers between its fixed parts, then parses the result with sparqljs so
 * a malformed query fails here, not at the endpoint. A label typed by a user can never become syntax.
 */
import sparqljs from 'sparqljs';

export type SparqlTerm = { termType: 'NamedNode'; value: string } | { termType: 'Literal'; value: string; language?: string };

export const iri = (value: string): SparqlTerm => {
  if (/[\s<>"{}|^`\\]/.test(value)) throw new Error(`not an IRI that can be written in SPARQL: ${value}`);
  return { termType: 'NamedNode', value };
};
export const lit = (value: string, language?: string): SparqlTerm => ({ termType: 'Literal', value, ...(language ? { language } : {}) });

function write(t: SparqlTerm): string {
  if (t.termType === 'NamedNode') return `<${iri(t.value).value}>`;
  const body = t.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return `"${body}"${t.language && /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/.test(t.language) ? `@${t.language}` : ''}`;
}

export function sparql(strings: TemplateStringsArray, ...terms: Array<SparqlTerm | SparqlTerm[] | number>): string {
  let out = strings[0]!;
  terms.forEach((t, i) => {
    if (typeof t === 'number' && !Number.isInteger(t)) throw new Error(`only integers can be written into SPARQL as numbers, not ${t}`);
    out += (typeof t === 'number' ? String(t) : Array.isArray(t) ? t.map(write).join(' ') : write(t)) + strings[i + 1]!;
  });
  new sparqljs.Parser().parse(out); // throws on anything that is not a well-formed query
  return out;
}

/** Escapes a text for use inside a SPARQL REGEX pattern (XPath regex syntax). */
export function regexEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}
