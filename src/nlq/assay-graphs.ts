/**
 * The hook `assay ask` calls: a question about Assay's own graphs (its catalog, evidence or runs;
 * route.ts decides from the words) is answered by the NL→SPARQL loop over that graph; anything
 * else is left to the publisher pipeline (undefined).
 *
 *   const nlq = await openNlq(store, { baseIri });            // once per process or app
 *   const out = await answerIfAboutAssaysGraphs(question, nlq.deps, baseIri);
 *   if (out) return out;                                       // NlqOutcome: render with outcomeJson()
 *   …publisher pipeline…
 *   await nlq.close();
 *
 * `openNlq` starts its own one-worker query pool over the store (generated SPARQL never runs on the
 * main thread); a server passes its app's pool to `poolRunner` instead.
 */
import type { DurableStore } from '../rdf/durable.ts';
import { startQueryPool } from '../server/sparql/pool.ts';
import { poolRunner } from './exec.ts';
import { generatorFromEnv } from './generate/from-env.ts';
import { askGraph, DEFAULT_NLQ_CONFIG, GroundingCache, type NlqConfig, type NlqDeps, type NlqOutcome } from './loop.ts';
import { graphForRoute, routeQuestion } from './route.ts';

export async function answerIfAboutAssaysGraphs(question: string, deps: NlqDeps, baseIri: string, config: NlqConfig = DEFAULT_NLQ_CONFIG, signal?: AbortSignal): Promise<NlqOutcome | undefined> {
  const route = routeQuestion(question);
  if (route.route !== 'graph') return undefined;
  return askGraph(question, graphForRoute(route, baseIri), deps, config, signal);
}

export async function openNlq(store: DurableStore, options: { baseIri: string; env?: NodeJS.ProcessEnv }): Promise<{ deps: NlqDeps; close(): Promise<void> }> {
  const pool = startQueryPool(store, { workers: 1, maxQueue: 16 });
  try {
    await pool.ready();
    const runner = poolRunner(pool, { baseIri: options.baseIri });
    const { generator } = await generatorFromEnv(options.env ?? process.env);
    const groundings = new GroundingCache(runner);
    const off = store.onWrite(groundings.onWrite);
    return { deps: { runner, groundings, generator }, close: async () => { off(); await pool.close(); } };
  } catch (e) {
    await pool.close();
    throw e;
  }
}
