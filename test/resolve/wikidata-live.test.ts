/**
 * The live registry path (Comunica → HttpClient → Wikidata's endpoint), driven by a fake endpoint
 * that answers with a SYNTHETIC SPARQL JSON result written here — not Wikidata data.
 */
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.ts';
import { callContext } from '../../src/http/context.ts';
import { resolveContext, resolveName } from '../../src/resolve/registry.ts';
import { wikidataRegistry } from '../../src/resolve/wikidata.ts';

const WD = 'http://www.wikidata.org/entity/';
const WDT = 'http://www.wikidata.org/prop/direct/';
const row = (item: string, p: string, v: string, uri = false) => ({ item: { type: 'uri', value: `${WD}${item}` }, p: { type: 'uri', value: p }, v: uri ? { type: 'uri', value: v } : { type: 'literal', value: v } });
const SYNTHETIC = {
  head: { vars: ['item', 'p', 'v'] },
  results: { bindings: [
    row('Q900001', 'http://www.w3.org/2000/01/rdf-schema#label', 'Synthetic Corp'),
    row('Q900001', `${WDT}P5531`, '320193'),           // Wikidata spells some CIKs unpadded
    row('Q900001', `${WDT}P1297`, '94-2404110'),       // and EINs with a hyphen
    row('Q900001', `${WDT}P249`, 'SYN'),
  ] },
};

describe('identity registry: live path through Comunica (SYNTHETIC endpoint)', () => {
  it('sends the query through the HttpClient (User-Agent required) and normalises identifiers', async () => {
    const seen: Array<{ url: string; ua?: string; body?: string }> = [];
    const fetchImpl = (async (url: string, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      seen.push({ url, ua: headers['user-agent'], body: init?.body === undefined ? undefined : String(init.body) });
      return new Response(JSON.stringify(SYNTHETIC), { status: 200, headers: { 'content-type': 'application/sparql-results+json' } });
    }) as unknown as typeof fetch;
    const http = new HttpClient({ mode: 'live', fetch: fetchImpl, userAgent: 'Assay-test ops@example.org' });
    const ctx = callContext({ timeoutMs: 20_000 });
    const registry = wikidataRegistry(http, ctx);
    const [c] = await resolveName(registry, 'Synthetic Corp', {}, resolveContext());
    expect(c).toMatchObject({ id: 'Q900001', qid: 'Q900001', from: 'wikidata', identifiers: { qid: ['Q900001'], cik: ['0000320193'], ein: ['942404110'], ticker: ['SYN'] } });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.url.startsWith('https://query.wikidata.org/sparql') && s.ua === 'Assay-test ops@example.org')).toBe(true);
  });

  it('without a User-Agent contact the live registry is operationally blocked before any request', async () => {
    let calls = 0;
    const fetchImpl = (async () => { calls++; return new Response('{}'); }) as unknown as typeof fetch;
    const registry = wikidataRegistry(new HttpClient({ mode: 'live', fetch: fetchImpl }), callContext({ timeoutMs: 20_000 }));
    await expect(resolveName(registry, 'Apple', {}, resolveContext())).rejects.toThrow(/User-Agent/);
    expect(calls).toBe(0);
  });
});
