/**
 * Validate a generated query before it runs: parse with sparqljs, classify it read-only from its
 * syntax tree (never by searching the text), and check every predicate and class IRI against the
 * graph's dictionary. Each problem is a typed issue; the repair message is rendered from it.
 *
 * Read-only: SELECT or ASK only; no update, CONSTRUCT or DESCRIBE; no SERVICE; no FROM / FROM
 * NAMED / GRAPH (the loop fixes the dataset: the target graph is the default graph); no property
 * paths unless allowed.
 * Dictionary: an IRI the graph never uses as a predicate (or as a class) matches nothing, so it is
 * reported with did-you-mean suggestions from the same namespace. Switchable off: a class that is
 * absent can be a true empty answer.
 */
import sparqljs from 'sparqljs';
import type { Query, SparqlQuery } from 'sparqljs';
import { RDF_TYPE } from './grounding.ts';
import { localName, nameWords } from './text.ts';

const { Parser, Generator } = sparqljs;

export interface UnknownTerm { iri: string; role: 'predicate' | 'class'; suggestions: string[] }

export type ValidationIssue =
  | { code: 'parse-error'; message: string }
  | { code: 'not-read-only'; form: string }
  | { code: 'service' }
  | { code: 'property-path' }
  | { code: 'dataset-clause'; clause: 'FROM' | 'FROM NAMED' | 'GRAPH' }
  | { code: 'unknown-terms'; terms: UnknownTerm[] };

export type Validated =
  | { ok: true; ast: Query; form: 'SELECT' | 'ASK'; sparql: string }
  | { ok: false; issues: ValidationIssue[] };

export interface Dictionary { predicates: ReadonlySet<string>; classes: ReadonlySet<string> }

export interface ValidateOptions {
  /** Check predicate and class IRIs against this dictionary (undefined = no check). */
  dictionary?: Dictionary;
  allowPropertyPaths?: boolean;
  /**
   * The graph's own typing predicates (grounding.ts `typing`, Wikibase style): with them, the one
   * path that states a type is allowed even when other paths are not — instance-of followed by any
   * number of subclass-of steps (`wdt:P31/wdt:P279*`), or subclass-of steps alone (`wdt:P279*`, `+`).
   */
  typing?: { instanceOf: string; subclassOf?: string };
}

type PathNode = { type: 'path'; pathType: string; items: (PathNode | Term)[] };

/** Whether a path is the typing path of `typing` (see ValidateOptions.typing). */
export function isTypingPath(p: PathNode, typing: { instanceOf: string; subclassOf?: string } | undefined): boolean {
  if (!typing?.subclassOf) return false;
  const isIri = (x: PathNode | Term | undefined, value: string) => x !== undefined && (x as Term).termType === 'NamedNode' && (x as Term).value === value;
  const closure = (x: PathNode | Term | undefined) => x !== undefined && (x as PathNode).type === 'path' && ((x as PathNode).pathType === '*' || (x as PathNode).pathType === '+')
    && (x as PathNode).items.length === 1 && isIri((x as PathNode).items[0], typing.subclassOf!);
  if (closure(p)) return true;
  return p.pathType === '/' && p.items.length === 2 && isIri(p.items[0], typing.instanceOf) && closure(p.items[1]);
}

export function validateQuery(text: string, options: ValidateOptions = {}): Validated {
  let ast: SparqlQuery;
  try {
    ast = new Parser().parse(text);
  } catch (e) {
    return { ok: false, issues: [{ code: 'parse-error', message: firstLine((e as Error).message) }] };
  }
  if (ast.type === 'update') return { ok: false, issues: [{ code: 'not-read-only', form: 'UPDATE' }] };
  const issues: ValidationIssue[] = [];
  if (ast.queryType !== 'SELECT' && ast.queryType !== 'ASK') issues.push({ code: 'not-read-only', form: ast.queryType });
  if ((ast.from?.default.length ?? 0) > 0) issues.push({ code: 'dataset-clause', clause: 'FROM' });
  if ((ast.from?.named.length ?? 0) > 0) issues.push({ code: 'dataset-clause', clause: 'FROM NAMED' });
  const predicates = new Set<string>();
  const classes = new Set<string>();
  let service = false; let path = false; let graph = false;
  walk(ast, (node) => {
    if (node.type === 'service') service = true;
    if (node.type === 'graph') graph = true;
    if (node.type === 'query' && (node as unknown) !== ast) {
      const f = node.from as { default?: unknown[]; named?: unknown[] } | undefined;
      if ((f?.default?.length ?? 0) + (f?.named?.length ?? 0) > 0) graph = true;
    }
    const triples = node.triples as { subject: Term; predicate: Term | { type: 'path' }; object: Term }[] | undefined;
    if (Array.isArray(triples)) {
      for (const t of triples) {
        const p = t.predicate as Term & { type?: string };
        if (p.type === 'path') {
          collectPathIris(p, predicates);
          if (isTypingPath(p as unknown as PathNode, options.typing)) { if (t.object.termType === 'NamedNode') classes.add(t.object.value); } else path = true;
          continue;
        }
        if (p.termType === 'NamedNode') {
          predicates.add(p.value);
          if (p.value === RDF_TYPE && t.object.termType === 'NamedNode') classes.add(t.object.value);
        }
      }
    }
  });
  if (service) issues.push({ code: 'service' });
  if (path && !options.allowPropertyPaths) issues.push({ code: 'property-path' });
  if (graph) issues.push({ code: 'dataset-clause', clause: 'GRAPH' });
  if (issues.length === 0 && options.dictionary) {
    const unknown = unknownTerms(options.dictionary, predicates, classes);
    if (unknown.length > 0) issues.push({ code: 'unknown-terms', terms: unknown });
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, ast, form: ast.queryType as 'SELECT' | 'ASK', sparql: new Generator().stringify(ast) };
}

interface Term { termType: string; value: string }

function collectPathIris(node: unknown, into: Set<string>): void {
  walk(node, (n) => { if (n.termType === 'NamedNode' && typeof n.value === 'string') into.add(n.value); });
}

function walk(root: unknown, visit: (node: Record<string, unknown>) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) for (const c of node) stack.push(c);
    else if (node !== null && typeof node === 'object') {
      visit(node as Record<string, unknown>);
      for (const c of Object.values(node)) if (c !== null && typeof c === 'object') stack.push(c);
    }
  }
}

function firstLine(s: string): string {
  return s.split('\n').slice(0, 4).join(' ').replace(/\s+/g, ' ').trim();
}

export function unknownTerms(dict: Dictionary, predicates: Iterable<string>, classes: Iterable<string>): UnknownTerm[] {
  const out: UnknownTerm[] = [];
  for (const p of [...new Set(predicates)].sort()) if (!dict.predicates.has(p)) out.push({ iri: p, role: 'predicate', suggestions: suggest(p, dict.predicates) });
  for (const c of [...new Set(classes)].sort()) if (!dict.classes.has(c)) out.push({ iri: c, role: 'class', suggestions: suggest(c, dict.classes) });
  return out;
}

function namespace(iri: string): string {
  const m = /^(.*[#/:])[^#/:]*$/.exec(iri);
  return m ? m[1]! : iri;
}

/** Up to three known terms like `iri`: the same namespace first, ranked by local-name similarity. */
export function suggest(iri: string, known: ReadonlySet<string>, max = 3): string[] {
  const ns = namespace(iri);
  const name = localName(iri).toLowerCase();
  const words = new Set(nameWords(localName(iri)));
  const scored = [...known].map((k) => {
    const kn = localName(k).toLowerCase();
    const overlap = nameWords(localName(k)).filter((w) => words.has(w)).length;
    const d = levenshtein(name, kn) / Math.max(name.length, kn.length, 1);
    return { k, same: namespace(k) === ns, score: (1 - d) + overlap * 0.5 };
  });
  const inNs = scored.filter((s) => s.same);
  const pool = inNs.length > 0 ? inNs : scored;
  return pool.filter((s) => s.score > 0.34).sort((a, b) => b.score - a.score || (a.k < b.k ? -1 : 1)).slice(0, max).map((s) => s.k);
}

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The repair message for a set of issues (what the next round is told). */
export function repairMessage(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => {
    switch (i.code) {
      case 'parse-error': return `The query does not parse: ${i.message}. Write one syntactically valid SPARQL 1.1 SELECT or ASK query.`;
      case 'not-read-only': return `A ${i.form} is not allowed: write a SELECT or ASK query.`;
      case 'service': return 'SERVICE is not allowed: query only this graph.';
      case 'property-path': return 'Property paths are not allowed: write each step as its own triple pattern.';
      case 'dataset-clause': return `${i.clause} is not allowed: the graph is already the query's default graph; remove the ${i.clause} clause.`;
      case 'unknown-terms': return i.terms.map((t) => `The graph has no ${t.role} <${t.iri}>${t.suggestions.length ? `; did you mean ${t.suggestions.map((s) => `<${s}>`).join(' or ')}?` : '; use only the terms in the schema card.'}`).join('\n');
    }
  }).join('\n');
}
