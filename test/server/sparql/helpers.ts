/**
 * Shared setup for the /sparql tests: an app over an in-memory DurableStore with small,
 * known data, plus request helpers. Each helper returns what a test asserts on.
 */
import type { FastifyInstance } from 'fastify';
import { build } from '../../../src/server/app.ts';
import { loadConfig, type ConfigInput } from '../../../src/config.ts';
import { DurableStore } from '../../../src/rdf/durable.ts';

export const TOKEN = 'test-token-0123456789abcdef';
export const KASEI = 'http://kasei.us/2009/09/sparql/data/';
const FOAF = 'http://xmlns.com/foaf/0.1/';

/** Stand-ins for the W3C protocol tests' data1/2/3.rdf: each a foaf:Document with a title. */
export function kaseiGraph(n: number): string {
  return `<${KASEI}data${n}.rdf> a <${FOAF}Document> ; <http://purl.org/dc/terms/title> "Document ${n}" .\n`;
}

export async function seedKasei(store: DurableStore): Promise<void> {
  for (const n of [1, 2, 3]) {
    await store.apply({ kind: 'replaceGraph', graph: `${KASEI}data${n}.rdf`, data: kaseiGraph(n), format: 'text/turtle' });
  }
}

export interface TestApp {
  app: FastifyInstance;
  store: DurableStore;
  close(): Promise<void>;
}

export async function makeApp(sparql: ConfigInput['sparql'] = {}, rest: Omit<ConfigInput, 'sparql'> = {}): Promise<TestApp> {
  const store = DurableStore.inMemory();
  const config = loadConfig({ dataDir: '/tmp/assay-sparql-test', baseIri: 'http://assay.test/', ...rest, sparql: { updateToken: TOKEN, ...sparql } }, {});
  const app = await build({ config, store });
  // Tests start once the query workers hold their replicas (as a load balancer waits for /ready).
  await app.queryPool.ready();
  return { app, store, close: async () => { await app.close(); await store.close(); } };
}

export function select(app: FastifyInstance, query: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url: `/sparql?query=${encodeURIComponent(query)}`, headers });
}

/** Address of the canary client: another client than the tests' hostile requests (127.0.0.1). */
export const CANARY_CLIENT = '198.51.100.99';

/** The canary: a query whose answer is known, sent by another client, to show the endpoint still works. */
/**
 * `retryTimeouts`: how many times a 503 "timeout" (the documented answer past sparql.timeoutMs) is
 * asked again before it counts as a failure; 0 (the default) fails at once.
 */
export async function canary(app: FastifyInstance, options: { retryTimeouts?: number } = {}): Promise<string[]> {
  const query = `SELECT ?t WHERE { <${KASEI}data1.rdf> <http://purl.org/dc/terms/title> ?t }`;
  let r = await app.inject({ method: 'GET', url: `/sparql?query=${encodeURIComponent(query)}`, remoteAddress: CANARY_CLIENT });
  for (let left = options.retryTimeouts ?? 0; left > 0 && r.statusCode === 503 && errorCode(r.body) === 'timeout'; left--) {
    r = await app.inject({ method: 'GET', url: `/sparql?query=${encodeURIComponent(query)}`, remoteAddress: CANARY_CLIENT });
  }
  if (r.statusCode !== 200) throw new Error(`canary failed: ${r.statusCode} ${r.body}`);
  return (JSON.parse(r.body) as { results: { bindings: { t: { value: string } }[] } }).results.bindings.map((b) => b.t.value);
}

function errorCode(body: string): string | undefined {
  try { return (JSON.parse(body) as { error?: string }).error; } catch { return undefined; }
}

export function bindings(body: string): Record<string, { type: string; value: string }>[] {
  return (JSON.parse(body) as { results: { bindings: Record<string, { type: string; value: string }>[] } }).results.bindings;
}

/** Boolean from a SPARQL JSON or XML ASK result. */
export function askResult(body: string, contentType: string | undefined): boolean {
  if (contentType?.startsWith('application/sparql-results+json')) return (JSON.parse(body) as { boolean: boolean }).boolean;
  const m = /<boolean>\s*(true|false)\s*<\/boolean>/.exec(body);
  if (!m) throw new Error(`not an ASK result: ${body.slice(0, 200)}`);
  return m[1] === 'true';
}
