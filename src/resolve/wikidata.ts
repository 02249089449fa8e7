/**
 * The live identity registry: the candidate query (registry.ts) sent to Wikidata's SPARQL endpoint
 * through Comunica, whose every HTTP request goes through Assay's HttpClient — so Wikidata gets the
 * declared User-Agent, pacing, deadline and cancellation, and requests can be recorded as cassettes.
 */
import type { HttpClient, RequestPolicy } from '../http/client.ts';
import type { CallContext } from '../http/context.ts';
import { bundlesFromRows, candidateQuery, type IdentityRegistry } from './registry.ts';

export const WIKIDATA_SPARQL = 'https://query.wikidata.org/sparql';

/** A fetch for Comunica that routes through the HttpClient under the given context. */
export function clientFetch(http: HttpClient, policy: RequestPolicy, ctx: CallContext): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => { headers[k] = v; });
    const method = (init?.method ?? 'GET').toUpperCase() === 'POST' ? 'POST' : 'GET';
    const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
    const raw = await http.request({ method, url, headers, ...(body !== undefined ? { body } : {}) }, policy, ctx);
    return new Response(raw.text, { status: raw.status, headers: { 'content-type': raw.contentType } });
  }) as typeof fetch;
}

export function wikidataRegistry(http: HttpClient, ctx: CallContext, options: { endpoint?: string; userAgentRequired?: boolean } = {}): IdentityRegistry {
  const endpoint = options.endpoint ?? WIKIDATA_SPARQL;
  const policy: RequestPolicy = { source: 'wikidata', operation: 'qid-by-identifier', expect: 'text', userAgentRequired: options.userAgentRequired ?? true, pacing: { maxConcurrent: 2 } };
  return {
    kind: 'wikidata',
    async lookup(name, opts, signal) {
      const { QueryEngine } = await import('@comunica/query-sparql');
      const engine = new QueryEngine();
      const callCtx: CallContext = signal ? { ...ctx, signal: AbortSignal.any([ctx.signal, signal]) } : ctx;
      const stream = await engine.queryBindings(candidateQuery(name, 'exact'), { sources: [{ type: 'sparql', value: endpoint }], fetch: clientFetch(http, policy, callCtx) });
      const rows = (await stream.toArray()).map((b) => ({ item: b.get('item')!.value, p: b.get('p')!.value, v: b.get('v')!.value }));
      return bundlesFromRows(rows, name, 'wikidata', opts.type);
    },
  };
}
