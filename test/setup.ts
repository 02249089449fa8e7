// Tests never reach the network. Any attempt to use the global fetch fails loudly;
// code under test must take an injected fetch (a cassette replayer or a fake).
const realFetch = globalThis.fetch;
globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const u = new URL(url);
  if (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]' || u.hostname === '::1') {
    return realFetch(input, init);
  }
  throw new Error(`test tried to reach the network: ${url}. Inject a fetch or add a cassette instead.`);
}) as typeof fetch;
