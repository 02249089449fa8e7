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

/**
 * The kind of each term as it is written (IRI, literal with or without a language tag, integer by
 * sign, list by its members' kinds): a query that parsed once is well-formed for every other
 * value of the same kinds, because `write` escapes every value the same way. Null when a value
 * has a control character (which `write` may let through): such a query is always parsed.
 */
function kinds(terms: ReadonlyArray<SparqlTerm | SparqlTerm[] | number>): string | null {
  let out = '';
  const one = (t: SparqlTerm): boolean => {
    if (t.termType === 'NamedNode') {
      if (/[\u0000-\u0020]/.test(t.value)) return false;
      out += 'i';
    } else {
      if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(t.value)) return false;
      out += t.language && /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/.test(t.language) ? 'L' : 'l';
    }
    return true;
  };
  for (const t of terms) {
    if (typeof t === 'number') out += t < 0 ? '-' : 'n';
    else if (Array.isArray(t)) {
      out += '[';
      for (const x of t) if (!one(x)) return null;
      out += ']';
    } else if (!one(t)) return null;
    out += ',';
  }
  return out;
}

/** Per template (its strings are one object per call site), the term kinds it parsed with: a pure memo of the check below. */
const wellFormed = new WeakMap<TemplateStringsArray, Set<string>>();

export function sparql(strings: TemplateStringsArray, ...terms: Array<SparqlTerm | SparqlTerm[] | number>): string {
  let out = strings[0]!;
  terms.forEach((t, i) => {
    if (typeof t === 'number' && !Number.isInteger(t)) throw new Error(`only integers can be written into SPARQL as numbers, not ${t}`);
    out += (typeof t === 'number' ? String(t) : Array.isArray(t) ? t.map(write).join(' ') : write(t)) + strings[i + 1]!;
  });
  const signature = kinds(terms);
  if (signature !== null && wellFormed.get(strings)?.has(signature)) return out;
  new sparqljs.Parser().parse(out); // throws on anything that is not a well-formed query
  if (signature !== null) {
    const seen = wellFormed.get(strings) ?? new Set<string>();
    if (seen.size < 64) seen.add(signature);
    wellFormed.set(strings, seen);
  }
  return out;
}

/** Escapes a text for use inside a SPARQL REGEX pattern (XPath regex syntax). */
export function regexEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}
