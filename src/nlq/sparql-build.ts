/**
 * SPARQL built by code, as sparqljs syntax trees (never by pasting strings): terms are RDF/JS
 * terms, literals are escaped by the generator, so a label from a question never becomes syntax.
 */
import sparqljs from 'sparqljs';
import type { Expression, Grouping, Ordering, Pattern, Query, Triple, Variable, VariableExpression } from 'sparqljs';
import { DataFactory } from 'n3';

const { Generator } = sparqljs;
const { namedNode, variable, literal } = DataFactory;

export const iri = (value: string) => namedNode(value);
export const v = (name: string) => variable(name);
export const num = (n: number) => literal(String(n), namedNode(Number.isInteger(n) ? 'http://www.w3.org/2001/XMLSchema#integer' : 'http://www.w3.org/2001/XMLSchema#decimal'));
export const str = (s: string) => literal(s);
export const bool = (b: boolean) => literal(String(b), namedNode('http://www.w3.org/2001/XMLSchema#boolean'));

type T = ReturnType<typeof iri> | ReturnType<typeof v> | ReturnType<typeof literal>;

export function triple(s: T, p: T, o: T): Triple {
  return { subject: s, predicate: p, object: o } as unknown as Triple;
}

export function bgp(...triples: Triple[]): Pattern {
  return { type: 'bgp', triples } as Pattern;
}

export function union(...groups: Pattern[][]): Pattern {
  return { type: 'union', patterns: groups.map((patterns) => ({ type: 'group', patterns })) } as unknown as Pattern;
}

export function filter(expression: Expression): Pattern {
  return { type: 'filter', expression } as Pattern;
}

export function op(operator: string, ...args: unknown[]): Expression {
  return { type: 'operation', operator, args } as unknown as Expression;
}

/** CONTAINS(LCASE(STR(?x)), "text") — a case-insensitive substring test on any term. */
export function containsText(x: ReturnType<typeof v>, text: string): Expression {
  return op('contains', op('lcase', op('str', x)), str(text.toLowerCase()));
}

/** COUNT(DISTINCT ?x) as an expression (for HAVING). */
export function countExpr(x: Variable): Expression {
  return { type: 'aggregate', aggregation: 'count', distinct: true, expression: x } as unknown as Expression;
}

export function countAs(x: Variable, alias: string, distinct = true): VariableExpression {
  return { expression: { type: 'aggregate', aggregation: 'count', distinct, expression: x }, variable: v(alias) } as unknown as VariableExpression;
}

/** (AVG|SUM|MIN|MAX)(?x) AS ?alias */
export function aggregateAs(aggregation: 'avg' | 'sum' | 'min' | 'max', x: Variable, alias: string): VariableExpression {
  return { expression: { type: 'aggregate', aggregation, distinct: false, expression: x }, variable: v(alias) } as unknown as VariableExpression;
}

/** REGEX(STR(?x), "(^|[^letters])word([^letters]|$)", "i") — the word as a whole word (hyphenated compounds are other words). */
export function containsWord(x: ReturnType<typeof v>, word: string): Expression {
  const escaped = word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return op('regex', op('str', x), str(`(^|[^\\p{L}\\p{N}-])${escaped}([^\\p{L}\\p{N}-]|$)`), str('i'));
}

/** LCASE(STR(?x)) = "value" — a categorical value matched whole. */
export function equalsText(x: ReturnType<typeof v>, value: string): Expression {
  return op('=', op('lcase', op('str', x)), str(value.toLowerCase()));
}

export interface SelectSpec {
  variables: (Variable | VariableExpression)[];
  where: Pattern[];
  distinct?: boolean;
  group?: Variable[];
  having?: Expression[];
  order?: { expression: Variable; descending: boolean }[];
  limit?: number;
}

export function select(spec: SelectSpec): Query {
  return {
    type: 'query', queryType: 'SELECT', prefixes: {},
    variables: spec.variables, where: spec.where,
    ...(spec.distinct ? { distinct: true } : {}),
    ...(spec.group ? { group: spec.group.map((expression) => ({ expression }) as Grouping) } : {}),
    ...(spec.having ? { having: spec.having } : {}),
    ...(spec.order ? { order: spec.order as Ordering[] } : {}),
    ...(spec.limit !== undefined ? { limit: spec.limit } : {}),
  } as unknown as Query;
}

/** A sub-select as a group pattern. */
export function subquery(q: Query): Pattern {
  return { type: 'group', patterns: [q] } as unknown as Pattern;
}

export function ask(where: Pattern[]): Query {
  return { type: 'query', queryType: 'ASK', prefixes: {}, where } as unknown as Query;
}

export function toText(q: Query): string {
  return new Generator().stringify(q);
}
