/**
 * The one error type the library throws for bad input, with a stable code per cause.
 * Callers (CLI, server) print `message` as is: it says what was wrong and what to do next.
 * Anything else thrown from introspect/ is a bug.
 */
export type IntrospectErrorCode =
  | 'unknown-format'   // cannot tell the RDF syntax of an input
  | 'not-rdf'          // the input does not parse as the RDF syntax it claims
  | 'empty-graph'      // there is nothing to describe
  | 'budget-too-small' // a card budget below the shortest useful card
  | 'bad-sidecar'      // a sidecar file that is not a mined result
  | 'bad-facet'        // a facet request that cannot be evaluated
  | 'bad-option';      // an option outside its allowed range

export const ERROR_HELP: Readonly<Record<IntrospectErrorCode, string>> = {
  'unknown-format': 'Name the syntax explicitly (turtle, ntriples, nquads, trig, rdfxml, n3) or use a known file extension.',
  'not-rdf': 'Check the file is RDF in the syntax given; the message names the line the parser stopped at.',
  'empty-graph': 'Load data into the graph, or choose another graph (named graphs are listed by the store).',
  'budget-too-small': 'Raise the budget to at least the minimum the message gives.',
  'bad-sidecar': 'Delete the sidecar and mine the dataset again; it will be rewritten.',
  'bad-facet': 'Constraints are (predicate IRI, value as an N-Triples term) pairs, e.g. <http://x/p>=<http://x/o> or <http://x/p>="text".',
  'bad-option': 'See the option list in introspect/README.md for allowed values.',
};

export class IntrospectError extends Error {
  constructor(readonly code: IntrospectErrorCode, message: string) {
    super(message);
    this.name = 'IntrospectError';
  }
}
