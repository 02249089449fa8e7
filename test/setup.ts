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

// Gateways started by tests (and the processes they spawn) keep no memory images of their stores:
// every test's data directory is new and deleted after it, so an image saved at close (~300 MB,
// src/rdf/image-file.ts) would never be read. Tests of images pass their own ImageCache.
process.env.ASSAY_STORE_IMAGES ??= 'off';
