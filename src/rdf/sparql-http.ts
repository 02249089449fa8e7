/**
 * A client for one SPARQL 1.1 store over the standard protocols: Query and Update (SPARQL 1.1
 * Protocol, form-encoded POST) and the Graph Store HTTP Protocol (`?graph=IRI`).
 *
 * Contract
 * - Every call has a deadline (`timeoutMs`, or the caller's signal) and fails with a
 *   RemoteStoreError whose code says which kind of failure it was and whose message names the
 *   method, the URL and what to do next. Credentials are never put in a message.
 * - Credentials: Basic or Digest (RFC 7616), answered when the server challenges (401); a Digest
 *   challenge is reused for later requests to the same origin with a counted nonce, and renewed
 *   when the server rejects it.
 * - A result the engine cut at its own row limit (Virtuoso's `X-SPARQL-MaxRows`) is an error,
 *   never a silently short answer.
 * The store backend (remote.ts) and the proxied endpoint (src/server/sparql/remote.ts) use it;
 * the blocking reader runs the same class in a worker thread (blocking-http.ts).
 */
import { digestAuthorization, parseDigestChallenge, type DigestChallenge } from './digest-auth.ts';
import { fromFetch, nodeTransport, type Transport, type TransportReply } from './http-transport.ts';


/** Socket errors of a connection that closed under a request: nothing was answered. */
const RESET = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

/** Bodies past this many characters are sent under a fresh challenge (see #send). */
const LARGE_BODY = 64 * 1024;
export interface RemoteEndpoints {
  /** SPARQL 1.1 Query endpoint. */
  queryUrl: string;
  /** SPARQL 1.1 Update endpoint (often the query URL, or an authenticated twin of it). */
  updateUrl: string;
  /** Graph Store HTTP Protocol endpoint; loads fall back to INSERT DATA without one. */
  graphStoreUrl?: string;
  user?: string;
  password?: string;
  /** Deadline for one request, milliseconds. */
  timeoutMs: number;
}

export type RemoteErrorCode = 'unreachable' | 'timeout' | 'unauthorized' | 'refused' | 'failed' | 'truncated';

export class RemoteStoreError extends Error {
  constructor(readonly code: RemoteErrorCode, message: string, readonly status?: number) {
    super(message);
    this.name = 'RemoteStoreError';
  }
}

export interface HttpReply {
  status: number;
  contentType: string;
  body: string;
}

export interface QueryCall {
  accept: string;
  defaultGraphs?: readonly string[];
  namedGraphs?: readonly string[];
  signal?: AbortSignal;
  timeoutMs?: number;
}

type Fetch = typeof globalThis.fetch;

export class SparqlHttp {
  readonly endpoints: Readonly<RemoteEndpoints>;
  readonly #transport: Transport;
  /** Last Digest challenge per origin, with the number of times its nonce was used. */
  readonly #digest = new Map<string, { challenge: DigestChallenge; nc: number }>();
  readonly #basic = new Set<string>();

  constructor(endpoints: RemoteEndpoints, fetchImpl?: Fetch) {
    this.endpoints = Object.freeze({ ...endpoints });
    // node:http over kept-alive connections unless the caller injects a fetch (http-transport.ts:
    // the global fetch costs a small read several times its round trip)
    this.#transport = fetchImpl ? fromFetch(fetchImpl) : nodeTransport();
  }

  /** Close the kept-alive connections (a later request opens a new one). */
  close(): void {
    this.#transport.close();
  }

  /** Run a query; the reply body is whatever the engine sent in the negotiated `accept` type. */
  async query(text: string, call: QueryCall): Promise<HttpReply> {
    const form = new URLSearchParams({ query: text });
    for (const g of call.defaultGraphs ?? []) form.append('default-graph-uri', g);
    for (const g of call.namedGraphs ?? []) form.append('named-graph-uri', g);
    const reply = await this.#send('POST', this.endpoints.queryUrl, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: call.accept },
      body: form.toString(),
    }, { ...call, idempotent: true });
    return reply;
  }

  async update(text: string, call: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    await this.#send('POST', this.endpoints.updateUrl, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' },
      body: new URLSearchParams({ update: text }).toString(),
    }, call);
  }

  /** Graph Store Protocol: POST (add) or PUT (replace) RDF into one named graph. */
  async graphStore(method: 'POST' | 'PUT', graph: string, body: string, contentType: string, call: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<void> {
    const base = this.endpoints.graphStoreUrl;
    if (!base) throw new Error('no Graph Store Protocol endpoint is configured (store.graphStoreUrl); this is a bug in the caller');
    const url = new URL(base);
    url.searchParams.set('graph', graph);
    await this.#send(method, url.href, { headers: { 'content-type': contentType, accept: '*/*' }, body }, call);
  }

  async #send(method: string, url: string, init: { headers: Record<string, string>; body?: string }, call: { signal?: AbortSignal; timeoutMs?: number; idempotent?: boolean }): Promise<HttpReply> {
    const timeoutMs = call.timeoutMs ?? this.endpoints.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const target = new URL(url);
    const where = `${method} ${target.origin}${target.pathname}`;
    let resets = 0;
    let challenged = false;
    // An engine that refuses a request's credentials answers 401 and closes the connection before
    // reading the body: a large body then fails with EPIPE instead of the 401. So a large body is
    // sent under a challenge fetched just before it, by a request without a body.
    if ((init.body?.length ?? 0) > LARGE_BODY && this.#hasCredentials()) await this.#freshChallenge(target, signal);
    for (;;) {
      const headers: Record<string, string> = { ...init.headers };
      const auth = this.#authorization(method, target);
      if (auth) headers.authorization = auth;
      let res: TransportReply;
      try {
        res = await this.#transport.send(target, { method, headers, body: init.body, signal });
      } catch (e) {
        if (timeout.aborted) throw new RemoteStoreError('timeout', `${where} gave no answer within ${timeoutMs} ms (store.timeoutMs); the store is overloaded or the request is too heavy`);
        if (call.signal?.aborted) throw call.signal.reason instanceof Error ? call.signal.reason : new Error(String(call.signal.reason));
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        // a kept-alive connection the engine had closed (a reset before any answer): a query is sent
        // once more on a fresh connection; an update is not (whether it was applied is unknown)
        const code = cause?.code ?? '';
        if (resets++ === 0) {
          if (call.idempotent && RESET.has(code)) continue;
          // EPIPE: the engine stopped reading before the body was whole, so it applied nothing
          if (code === 'EPIPE') {
            if (this.#hasCredentials()) await this.#freshChallenge(target, signal);
            continue;
          }
        }
        throw new RemoteStoreError('unreachable', `${where} failed (${cause?.code ?? cause?.message ?? (e as Error).message}); is the store running at that address? Check --store / ASSAY_STORE_URL`);
      }
      if (res.status === 401 && !challenged && (challenged = true) && this.#challenged(target, res.headers.get('www-authenticate'))) {
        await res.cancel();
        continue;
      }
      let body: string;
      try {
        body = await res.text();
      } catch (e) {
        if (timeout.aborted) throw new RemoteStoreError('timeout', `${where} did not finish sending its answer within ${timeoutMs} ms (store.timeoutMs)`);
        throw new RemoteStoreError('failed', `${where}: the answer was cut off (${(e as Error).message})`);
      }
      if (res.status === 401 || res.status === 403) {
        const why = this.endpoints.user === undefined ? 'no credentials are configured' : `the credentials for user "${this.endpoints.user}" were not accepted`;
        throw new RemoteStoreError('unauthorized', `${where} answered ${res.status}: ${why}; set ASSAY_STORE_USER and ASSAY_STORE_PASSWORD to an account allowed to ${method === 'POST' && init.body?.startsWith('update=') ? 'update' : 'use'} this store`, res.status);
      }
      const location = res.status >= 300 && res.status <= 399 ? res.headers.get('location') : null;
      if (location !== null) {
        // not followed: a store's credentials and updates go only to the address configured for it
        const to = new URL(location, target).href;
        throw new RemoteStoreError('refused', `${where} answered ${res.status}, redirecting to ${to}; Assay does not follow a store's redirects (its credentials and updates go only to the address configured), so set --store / ASSAY_STORE_URL (and the update URL) to that address`, res.status);
      }
      if (res.status < 200 || res.status > 299) {
        const code: RemoteErrorCode = res.status >= 500 ? 'failed' : 'refused';
        throw new RemoteStoreError(code, `${where} answered ${res.status} ${res.statusText}: ${excerpt(body)}`, res.status);
      }
      const maxRows = res.headers.get('x-sparql-maxrows');
      if (maxRows !== null) {
        throw new RemoteStoreError('truncated', `${where}: the store cut the result at its own row limit (${maxRows} rows, X-SPARQL-MaxRows); raise the engine's result limit (Virtuoso: [SPARQL] ResultSetMaxRows) above Assay's sparql.maxRows`);
      }
      return { status: res.status, contentType: (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(), body };
    }
  }

  #hasCredentials(): boolean { return this.endpoints.user !== undefined && this.endpoints.password !== undefined; }

  /** Asks the engine for a new challenge with a request that has no body (and no effect). */
  async #freshChallenge(target: URL, signal: AbortSignal): Promise<void> {
    this.#digest.delete(target.origin);
    try {
      const res = await this.#transport.send(target, { method: 'OPTIONS', headers: {}, signal });
      await res.cancel();
      if (res.status === 401) this.#challenged(target, res.headers.get('www-authenticate'));
    } catch {
      // the request itself will say what is wrong
    }
  }

  #authorization(method: string, target: URL): string | undefined {
    const { user, password } = this.endpoints;
    if (user === undefined || password === undefined) return undefined;
    const d = this.#digest.get(target.origin);
    if (d) {
      d.nc++;
      return digestAuthorization(d.challenge, { method, uri: target.pathname + target.search, user, password, nc: d.nc });
    }
    if (this.#basic.has(target.origin)) return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    return undefined;
  }

  /** Remember a challenge we can answer; true when a retry with credentials makes sense. */
  #challenged(target: URL, header: string | null): boolean {
    if (this.endpoints.user === undefined || this.endpoints.password === undefined) return false;
    const digest = parseDigestChallenge(header);
    if (digest) {
      this.#digest.set(target.origin, { challenge: digest, nc: 0 });
      return true;
    }
    if (header && /\bBasic\b/i.test(header) && !this.#basic.has(target.origin)) {
      this.#basic.add(target.origin);
      return true;
    }
    return false;
  }
}

/** The start of an engine's error body, as one line (engines answer in HTML, text or JSON). */
function excerpt(body: string): string {
  const text = body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > 400 ? `${text.slice(0, 400)}…` : text || '(empty body)';
}
