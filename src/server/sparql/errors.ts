/**
 * The SPARQL endpoint's error catalogue: every refusal the endpoint can give, with its HTTP
 * status, what it means and what the client should do. `SparqlError` carries a code from
 * this table; the route turns it into a JSON body `{ error, message, fix }`.
 *
 * The statuses follow the SPARQL 1.1 Protocol (400 for malformed requests, 405/415 for the
 * wrong method or media type) and HTTP (406, 413, 414). 5xx is only ever 503 (the query hit
 * its time limit, the engine was restarted, or every worker is busy), 501 (a remote
 * operation an operator allowed, but which Assay does not perform) or 507 (the store is near
 * its ceiling, or its disk refused a write).
 */

export const SPARQL_ERRORS = {
  'missing-operation': { status: 400, fix: 'send a `query` (GET or POST) or an `update` (POST) parameter, or GET /sparql with no parameters for the service description' },
  'query-and-update': { status: 400, fix: 'send either `query` or `update`, not both' },
  'repeated-parameter': { status: 400, fix: 'send exactly one `query` or `update` parameter' },
  'bad-encoding': { status: 400, fix: 'percent-encode the parameters as UTF-8 (RFC 3986) and send the body as UTF-8' },
  'query-too-large': { status: 400, fix: 'shorten the query, or ask the operator to raise sparql.maxQueryBytes' },
  'too-deeply-nested': { status: 400, fix: 'flatten the query (fewer nested groups, sub-queries or parentheses), or ask the operator to raise sparql.maxNesting' },
  'expression-too-large': { status: 400, fix: 'shorten the expression (e.g. a long chain of || as one VALUES block), or ask the operator to raise limits.sparql.maxExpressionTerms' },
  'syntax-error': { status: 400, fix: 'fix the query text at the position the parser names' },
  'dataset-conflict': { status: 400, fix: 'give the update dataset either with using-graph-uri/using-named-graph-uri or with USING/WITH in the update, not both' },
  'query-failed': { status: 400, fix: 'the store rejected the query after it parsed; correct it as the message says' },
  'update-failed': { status: 400, fix: 'the store rejected the update; correct it as the message says' },
  'update-too-large': { status: 400, fix: 'split the update into smaller ones (each changing fewer quads), or ask the operator to raise sparql.maxUpdateQuads' },
  'unauthorized': { status: 401, fix: 'send the operator-issued token as `Authorization: Bearer <token>`' },
  'updates-disabled': { status: 403, fix: 'this endpoint is read-only; an operator enables updates by setting sparql.updateToken (ASSAY_UPDATE_TOKEN)' },
  'remote-not-allowed': { status: 403, fix: 'SERVICE, LOAD and FROM of remote graphs are refused unless an operator lists the host in sparql.allowedRemoteHosts (ASSAY_SPARQL_REMOTE_HOSTS); query the remote endpoint directly instead' },
  'method-not-allowed': { status: 405, fix: 'use GET or POST for queries and POST for updates' },
  'not-acceptable': { status: 406, fix: 'accept one of the media types listed in the message (or */*)' },
  'body-too-large': { status: 413, fix: 'send a smaller request body, or ask the operator to raise sparql.maxBodyBytes' },
  'url-too-long': { status: 414, fix: 'POST the query as application/sparql-query instead of putting it in the URL' },
  'unsupported-media-type': { status: 415, fix: 'POST with Content-Type application/sparql-query, application/sparql-update or application/x-www-form-urlencoded, in UTF-8' },
  'store-full': { status: 507, fix: 'the store is near its ceiling: reads keep working; an operator frees space (run retention: limits.runs, or clear graphs) or moves to a scale-out store' },
  'store-unwritable': { status: 507, fix: 'the data directory refused a write (the message names the fault): reads keep working; an operator frees space or makes the directory writable, then restarts Assay; send the update again after that' },
  'rate-limited': { status: 429, fix: 'wait the number of seconds in Retry-After; an operator sets the share with limits.rateLimit.sparqlPerMinute (ASSAY_RATE_SPARQL_PER_MINUTE)' },
  'remote-not-supported': { status: 501, fix: 'the host is allowed, but Assay does not fetch remote data inside a query; query the remote endpoint directly, or load its data with `assay load`' },
  'timeout': { status: 503, fix: 'the query ran past sparql.timeoutMs and was stopped; make it more selective (add constraints or a LIMIT), or ask the operator to raise the limit' },
  'busy': { status: 503, fix: 'every query worker is occupied; retry after the number of seconds in Retry-After' },
  'engine-fault': { status: 503, fix: 'the query engine failed on this request and was restarted with the data intact; retry, and report the query if it fails again' },
  'store-unavailable': { status: 503, fix: 'the SPARQL store behind this gateway did not answer or failed; retry after the number of seconds in Retry-After, and an operator should check the store (--store / ASSAY_STORE_URL)' },
} as const satisfies Record<string, { status: number; fix: string }>;

export type SparqlErrorCode = keyof typeof SPARQL_ERRORS;

export class SparqlError extends Error {
  readonly code: SparqlErrorCode;
  readonly status: number;
  /** Extra response headers (Allow, Retry-After, WWW-Authenticate). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: SparqlErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'SparqlError';
    this.code = code;
    this.status = SPARQL_ERRORS[code].status;
    this.headers = headers;
  }

  toJSON(): { error: SparqlErrorCode; message: string; fix: string } {
    return { error: this.code, message: this.message, fix: SPARQL_ERRORS[this.code].fix };
  }
}

/** A plain, cloneable form of an error, for crossing the worker boundary. */
export interface ErrorReply {
  ok: false;
  code: SparqlErrorCode;
  message: string;
  headers?: Record<string, string>;
}

export function toReply(e: SparqlError): ErrorReply {
  return { ok: false, code: e.code, message: e.message, headers: { ...e.headers } };
}

export function fromReply(r: ErrorReply): SparqlError {
  return new SparqlError(r.code, r.message, r.headers ?? {});
}
