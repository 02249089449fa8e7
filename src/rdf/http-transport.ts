/**
 * The remote store's HTTP transport: one request, one reply, over kept-alive connections.
 *
 * Input: a URL, method, headers, body and an AbortSignal. Output: the reply's status and headers
 * as soon as they arrive, and its body on demand. Decides nothing about SPARQL (sparql-http.ts
 * does: credentials, retries, errors).
 *
 * Why not the global fetch: Node 20's fetch (undici behind the WHATWG streams) costs 1.2–2.3 ms of
 * CPU and 2–5 ms of wall time per small request on this machine, against 0.4–0.5 ms and 0.8–1.0 ms
 * through node:http with a kept-alive agent (a trivial `ASK {}` to a local Virtuoso, 200 in a row).
 * A grant answer sends five reads at once to the store, so that was most of its client time. An
 * injected fetch (tests, a caller's own client) is still used as given: `fromFetch`.
 *
 * Errors before a reply carry the socket error as `cause` (`cause.code`: ECONNRESET, EPIPE, …), as
 * fetch's do, so the caller tells a connection the engine closed from any other failure.
 */
import http from 'node:http';
import https from 'node:https';

export interface TransportReply {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  /** The whole body as text; rejects when the connection breaks or the signal aborts before it ends. */
  text(): Promise<string>;
  /** Drop the body unread. */
  cancel(): Promise<void>;
}

export interface TransportRequest { method: string; headers: Record<string, string>; body?: string | undefined; signal: AbortSignal }

export interface Transport {
  send(url: URL, init: TransportRequest): Promise<TransportReply>;
  /** Close the idle connections (the transport stays usable: a later request opens a new one). */
  close(): void;
}

/**
 * Idle connections are closed after this long: below the engines' own keep-alive timeouts
 * (Virtuoso 10 s, Jetty/Fuseki 30 s; undici's default is the same 4 s), so a request rarely
 * meets a connection the engine has just closed — and a query that does is sent again
 * (sparql-http.ts).
 */
const IDLE_MS = 4_000;

/** node:http(s) with one kept-alive agent per protocol, owned by the transport (not module state). */
export function nodeTransport(): Transport {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
  };
  return {
    send(url, init) {
      const lib = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
      if (!lib) return Promise.reject(new Error(`not an HTTP URL: ${url.protocol}//${url.host}`));
      const headers: Record<string, string | number> = { ...init.headers };
      if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
      return new Promise<TransportReply>((resolve, reject) => {
        const req = lib.request(url, { method: init.method, headers, agent: agents[url.protocol as 'http:' | 'https:'], signal: init.signal }, (res) => {
          resolve(replyOf(res));
        });
        req.on('error', (e) => reject(Object.assign(new Error(`request failed: ${e.message}`), { cause: e })));
        req.end(init.body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function replyOf(res: http.IncomingMessage): TransportReply {
  let text: Promise<string> | undefined;
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    headers: {
      get(name) {
        const v = res.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
      },
    },
    text() {
      text ??= new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
        // a connection that closes before the body is whole: 'aborted' (then 'error' on newer Nodes)
        res.on('aborted', () => reject(new Error('the connection closed before the body was complete')));
        res.on('close', () => { if (!res.complete) reject(new Error('the connection closed before the body was complete')); });
      });
      return text;
    },
    async cancel() {
      // read and drop the rest, so the connection goes back to the pool
      res.resume();
    },
  };
}

/** A fetch-shaped function (injected by a caller) as a transport. */
export function fromFetch(fetchImpl: typeof fetch): Transport {
  return {
    async send(url, init) {
      const res = await fetchImpl(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal });
      return {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
        text: () => res.text(),
        cancel: async () => { await res.body?.cancel(); },
      };
    },
    close() {},
  };
}
