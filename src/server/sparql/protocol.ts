/**
 * SPARQL 1.1 Protocol request decoding: HTTP method, URL, Content-Type and raw body in; the
 * one operation the client asked for out (a query, an update, or the service description),
 * or a SparqlError with the protocol's status.
 *
 * Decoding is strict on purpose: parameters are percent-decoded as UTF-8 and a bad escape or
 * an invalid byte sequence is a 400, not a silently mangled query (fastify's own query-string
 * parser is lenient, so we read the raw URL). Bodies must be UTF-8; any other charset is 415.
 */
import { SparqlError } from './errors.ts';

export type Operation =
  | { kind: 'service-description' }
  | { kind: 'query'; text: string; defaultGraphs: string[]; namedGraphs: string[] }
  | { kind: 'update'; text: string; usingGraphs: string[]; usingNamedGraphs: string[] };

export interface RawRequest {
  method: string;
  /** Path plus query string, exactly as received. */
  url: string;
  contentType: string | undefined;
  body: Buffer | undefined;
}

const FORM = 'application/x-www-form-urlencoded';
const QUERY = 'application/sparql-query';
const UPDATE = 'application/sparql-update';

type Params = Map<string, string[]>;

/** Decode `a=b&c=d` strictly (RFC 3986 percent-encoding of UTF-8, `+` as space). */
export function parseForm(text: string): Params {
  const out: Params = new Map();
  if (text === '') return out;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const key = decodeComponent(rawKey);
    const value = decodeComponent(rawValue);
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, [value]);
  }
  return out;
}

function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    const shown = s.length > 60 ? `${s.slice(0, 60)}…` : s;
    throw new SparqlError('bad-encoding', `a request parameter is not valid percent-encoded UTF-8: ${JSON.stringify(shown)}`);
  }
}

function utf8(body: Buffer | undefined): string {
  if (!body || body.length === 0) return '';
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new SparqlError('bad-encoding', 'the request body is not valid UTF-8');
  }
}

function single(params: Params, name: 'query' | 'update'): string | undefined {
  const values = params.get(name);
  if (!values) return undefined;
  if (values.length > 1) throw new SparqlError('repeated-parameter', `the request carries ${values.length} \`${name}\` parameters; the protocol allows one`);
  return values[0];
}

function mediaTypeOf(contentType: string | undefined): { type: string; charset?: string } {
  if (!contentType) return { type: '' };
  const [type, ...params] = contentType.split(';');
  let charset: string | undefined;
  for (const p of params) {
    const [k, v] = p.split('=');
    if (k?.trim().toLowerCase() === 'charset' && v !== undefined) charset = v.trim().replace(/^"|"$/g, '').toLowerCase();
  }
  return { type: (type ?? '').trim().toLowerCase(), ...(charset !== undefined ? { charset } : {}) };
}

function queryString(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? '' : url.slice(q + 1);
}

function graphs(params: Params, name: string): string[] {
  return params.get(name) ?? [];
}

/** Decide which operation an HTTP request asks for. */
export function decodeRequest(req: RawRequest): Operation {
  const urlParams = parseForm(queryString(req.url));
  if (req.method === 'GET' || req.method === 'HEAD') {
    if (urlParams.has('update')) {
      throw new SparqlError('method-not-allowed', 'SPARQL Update must be sent with POST, never GET', { Allow: 'POST' });
    }
    const text = single(urlParams, 'query');
    if (text === undefined) return { kind: 'service-description' };
    return { kind: 'query', text, defaultGraphs: graphs(urlParams, 'default-graph-uri'), namedGraphs: graphs(urlParams, 'named-graph-uri') };
  }
  if (req.method !== 'POST') {
    throw new SparqlError('method-not-allowed', `${req.method} is not a SPARQL protocol method`, { Allow: 'GET, POST, OPTIONS' });
  }
  const { type, charset } = mediaTypeOf(req.contentType);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8' && !(type === FORM && charset === 'us-ascii')) {
    throw new SparqlError('unsupported-media-type', `charset=${charset} is not supported; send the body as UTF-8`);
  }
  let params: Params;
  if (type === FORM) {
    params = parseForm(utf8(req.body));
    // As for a sparql-query body: the operation is sent once, never in both URL and body.
    for (const name of ['query', 'update'] as const) {
      if (params.has(name) && (urlParams.has('query') || urlParams.has('update'))) {
        throw new SparqlError(urlParams.has(name) ? 'repeated-parameter' : 'query-and-update',
          `the form body carries \`${name}\` and the URL also carries a \`${urlParams.has('query') ? 'query' : 'update'}\` parameter; send the operation once`);
      }
    }
    for (const [k, v] of urlParams) if (!params.has(k)) params.set(k, v);
  } else if (type === QUERY || type === UPDATE) {
    params = new Map(urlParams);
    const name = type === QUERY ? 'query' : 'update';
    if (params.has('query') || params.has('update')) {
      throw new SparqlError(params.has(name) ? 'repeated-parameter' : 'query-and-update',
        `a ${type} body was sent and the URL also carries a \`${params.has('query') ? 'query' : 'update'}\` parameter; send the operation once`);
    }
    params.set(name, [utf8(req.body)]);
  } else {
    throw new SparqlError('unsupported-media-type',
      req.contentType ? `Content-Type ${type} is not a SPARQL protocol media type` : 'the POST has no Content-Type');
  }
  const query = single(params, 'query');
  const update = single(params, 'update');
  if (query !== undefined && update !== undefined) {
    throw new SparqlError('query-and-update', 'the request carries both `query` and `update`');
  }
  if (query !== undefined) {
    return { kind: 'query', text: query, defaultGraphs: graphs(params, 'default-graph-uri'), namedGraphs: graphs(params, 'named-graph-uri') };
  }
  if (update !== undefined) {
    return { kind: 'update', text: update, usingGraphs: graphs(params, 'using-graph-uri'), usingNamedGraphs: graphs(params, 'using-named-graph-uri') };
  }
  throw new SparqlError('missing-operation', 'the POST carries neither `query` nor `update`');
}
