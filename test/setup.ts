import http from 'node:http';
import https from 'node:https';
// Tests never reach the network. Any attempt to use the global fetch fails loudly;
// code under test must take an injected fetch (a cassette replayer or a fake).
// Test files share a worker process (vitest.config.ts: isolate false), and this file runs before
// each of them: the real fetch is kept once, on a global key, so every file gets the same one
// guard around the real fetch (not a guard around the previous file's guard), and a file that
// replaced globalThis.fetch cannot leave its replacement to the next file.
const REAL_FETCH = Symbol.for('assay.test.realFetch');
const holder = globalThis as typeof globalThis & { [REAL_FETCH]?: typeof fetch };
const realFetch = (holder[REAL_FETCH] ??= globalThis.fetch);
globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const u = new URL(url);
  if (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]' || u.hostname === '::1') {
    return realFetch(input, init);
  }
  throw new Error(`test tried to reach the network: ${url}. Inject a fetch or add a cassette instead.`);
}) as typeof fetch;

// The same guard on node:http(s), which the remote store's transport uses (src/rdf/http-transport.ts):
// loopback only. Kept once, like the real fetch, so files sharing a worker wrap the real functions once.
const REAL_NODE_HTTP = Symbol.for('assay.test.realNodeHttp');
type RequestFn = typeof http.request;
const nodeHolder = globalThis as typeof globalThis & { [REAL_NODE_HTTP]?: Array<[typeof http | typeof https, RequestFn, RequestFn]> };
nodeHolder[REAL_NODE_HTTP] ??= [http, https].map((lib) => [lib, lib.request, lib.get] as [typeof http | typeof https, RequestFn, RequestFn]);
const loopbackHost = (h: string | null | undefined) => !h || h === '127.0.0.1' || h === 'localhost' || h === '::1' || h === '[::1]';
const hostOf = (args: unknown[]): string | null | undefined => {
  const [first, second] = args;
  if (typeof first === 'string' || first instanceof URL) return new URL(first).hostname;
  const o = (first ?? second) as { hostname?: string | null; host?: string | null } | undefined;
  return o?.hostname ?? o?.host?.replace(/:\d+$/, '');
};
for (const [lib, request, get] of nodeHolder[REAL_NODE_HTTP]) {
  const guard = (real: RequestFn): RequestFn => ((...args: unknown[]) => {
    const host = hostOf(args);
    if (!loopbackHost(host)) throw new Error(`test tried to reach the network over node:http: ${String(host)}. Use a loopback server or a cassette instead.`);
    return (real as (...a: unknown[]) => ReturnType<RequestFn>)(...args);
  }) as RequestFn;
  (lib as { request: RequestFn }).request = guard(request);
  (lib as { get: RequestFn }).get = guard(get);
}

// Gateways started by tests (and the processes they spawn) keep no memory images of their stores:
// every test's data directory is new and deleted after it, so an image saved at close (~300 MB,
// src/rdf/image-file.ts) would never be read. Tests of images pass their own ImageCache.
process.env.ASSAY_STORE_IMAGES ??= 'off';
