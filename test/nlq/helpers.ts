/**
 * Shared setup for the NL→SPARQL tests: an in-memory store holding the bundled SWAPI graph and the
 * synthetic provenance graph, a query pool over it (generated SPARQL never runs on the test's
 * thread either), and the loop's dependencies.
 */
import { readFileSync } from 'node:fs';
import { DurableStore } from '../../src/rdf/durable.ts';
import { startQueryPool, type QueryPool } from '../../src/server/sparql/pool.ts';
import { GroundingCache, poolRunner, type GraphRunner, type NlqDeps, type SparqlGenerator } from '../../src/nlq/index.ts';
import { offlineGenerator } from '../../src/nlq/generate/offline.ts';

export const SWAPI = 'http://example.org/graph/swapi';
export const PROV_GRAPH = 'http://example.org/graph/prov-test';
export const VOC = 'https://swapi.co/vocabulary/';
export const RES = 'https://swapi.co/resource/';

export interface Fixture {
  store: DurableStore;
  pool: QueryPool;
  runner: GraphRunner;
  groundings: GroundingCache;
  deps(generator?: SparqlGenerator): NlqDeps;
  close(): Promise<void>;
}

export async function fixture(): Promise<Fixture> {
  const store = DurableStore.inMemory();
  await store.apply({ kind: 'load', data: readFileSync('fixtures/nlq/swapi/swapi-dataset.ttl', 'utf8'), format: 'text/turtle', graph: SWAPI, baseIri: 'http://example.org/' });
  await store.apply({ kind: 'load', data: readFileSync('fixtures/nlq/provenance.ttl', 'utf8'), format: 'text/turtle', graph: PROV_GRAPH, baseIri: 'http://example.org/' });
  const pool = startQueryPool(store, { workers: 1, maxQueue: 32 });
  await pool.ready();
  const runner = poolRunner(pool, { baseIri: 'http://assay.test/' });
  const groundings = new GroundingCache(runner);
  return {
    store, pool, runner, groundings,
    deps: (generator = offlineGenerator()) => ({ runner, groundings, generator }),
    close: async () => { await pool.close(); await store.close(); },
  };
}

/** A scripted model: completions in order, the last repeated. */
export function scripted(...completions: string[]): SparqlGenerator & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    id: 'scripted',
    prompts,
    async generate(req) {
      prompts.push(req.prompt);
      return { kind: 'text', text: completions[Math.min(prompts.length - 1, completions.length - 1)]! };
    },
  };
}

export const fence = (q: string) => `Here is the query:\n\`\`\`sparql\n${q}\n\`\`\``;
