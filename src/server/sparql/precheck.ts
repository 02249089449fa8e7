/**
 * Pre-parse guard for untrusted SPARQL text: size and nesting depth, checked by one linear
 * scan BEFORE any parser sees the text.
 *
 * Why: sparqljs has inputs on which parse time grows exponentially, and deep nesting makes
 * recursive parsers and evaluators (oxigraph's included) blow their stacks, which in
 * WebAssembly can leave the instance unusable. A bounded scan is cheap and cannot be fooled
 * into super-linear work.
 *
 * The scan skips string literals (all four quote forms, with escapes), IRI references and
 * comments, so brackets inside them do not count. It counts `(`, `{` and `[` together: any
 * mix of them nests the parser's recursion. It never rejects a query for being unbalanced;
 * the parser reports that with a better message.
 */
import { SparqlError } from './errors.ts';

export interface PrecheckLimits {
  maxQueryBytes: number;
  maxNesting: number;
  /** Most operators and list separators (`|| && = != < > + - * / ! ,`) outside strings, IRIs and comments. */
  maxExpressionTerms?: number;
}

/** Characters that cannot appear inside an IRIREF; a `<` followed by one of these is an operator. */
const NOT_IN_IRI = new Set(['<', '"', '{', '}', '|', '^', '`', '\\', ' ', '\t', '\n', '\r']);

export function precheck(text: string, limits: PrecheckLimits): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxQueryBytes) {
    throw new SparqlError('query-too-large', `the query is ${bytes} bytes; this endpoint accepts at most ${limits.maxQueryBytes}`);
  }
  const { depth, terms } = scan(text, limits.maxNesting);
  if (depth > limits.maxNesting) {
    throw new SparqlError('too-deeply-nested', `the query nests brackets/braces/parentheses deeper than ${limits.maxNesting} levels`);
  }
  // A flat chain (a FILTER of 5,000 `||` terms) has no nesting in the text but becomes a tree
  // as deep as it is long in the engine, whose recursion then faults the WebAssembly instance.
  if (limits.maxExpressionTerms !== undefined && terms > limits.maxExpressionTerms) {
    throw new SparqlError('expression-too-large', `the query has ${terms} operators and list terms; this endpoint accepts at most ${limits.maxExpressionTerms} (the limit is limits.sparql.maxExpressionTerms)`);
  }
}

const OPERATOR = new Set(['|', '&', '=', '!', '>', '+', '-', '*', '/', ',']);

/** Deepest nesting and operator count, in one linear scan. */
function scan(text: string, stopAbove: number): { depth: number; terms: number } {
  let depth = 0;
  let max = 0;
  let terms = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (c === '#') {
      while (i < n && text[i] !== '\n' && text[i] !== '\r') i++;
      continue;
    }
    if (c === '"' || c === "'") {
      i = skipString(text, i, c);
      continue;
    }
    if (c === '<') {
      const next = skipIriOrOperator(text, i);
      if (next === i + 1) terms++; // a comparison, not an IRI
      i = next;
      continue;
    }
    if (c === '(' || c === '{' || c === '[') {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > stopAbove) return { depth: max, terms };
      }
    } else if (c === ')' || c === '}' || c === ']') {
      if (depth > 0) depth--;
    } else if (OPERATOR.has(c)) {
      // `||`, `&&`, `!=`, `>=` count once.
      const pair = text[i + 1];
      if ((c === '|' && pair === '|') || (c === '&' && pair === '&') || ((c === '!' || c === '>') && pair === '=')) i++;
      terms++;
    }
    i++;
  }
  return { depth: max, terms };
}

/**
 * Deepest nesting of ( { [ outside strings, IRIs and comments. Stops early once `stopAbove`
 * is exceeded. Linear in the text length: every branch advances `i`.
 */
export function maxNesting(text: string, stopAbove = Infinity): number {
  return scan(text, stopAbove).depth;
}

/** Index just past the string literal opening at `start` (or the end of the text if unterminated). */
function skipString(text: string, start: number, quote: string): number {
  const long = text[start + 1] === quote && text[start + 2] === quote;
  let i = start + (long ? 3 : 1);
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (long) {
      if (c === quote && text[i + 1] === quote && text[i + 2] === quote) return i + 3;
    } else if (c === quote) {
      return i + 1;
    } else if (c === '\n' || c === '\r') {
      // Short strings cannot span lines: resume scanning here (the parser will complain).
      return i;
    }
    i++;
  }
  return i;
}

/** `<` starts an IRI only if a `>` closes it before any character IRIs may not contain. */
function skipIriOrOperator(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '>') return i + 1;
    if (NOT_IN_IRI.has(c)) return start + 1;
    i++;
  }
  return start + 1;
}
