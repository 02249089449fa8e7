/**
 * `assay ask` on a question about Assay's own graphs ("Which publishers did Assay cite for Apple?",
 * "How many measures does the catalog hold for Census?"): src/nlq/route.ts decides from the words
 * alone, and such a question goes to the NL→SPARQL loop over the store of the data directory instead
 * of to the publishers. A catalog question makes sure the catalog graph is in the store first (as
 * `assay serve` does; from its cache when the descriptors are unchanged). The rows are the graph's,
 * labelled unverified and cited from its provenance, exactly as `assay nlq` prints them.
 */
import type { Config } from '../../config.ts';
import { syncCatalogGraph } from '../../ard/sync.ts';
import { askGraph, DEFAULT_NLQ_CONFIG, generatorFromEnv, GroundingCache, outcomeJson, poolRunner, type GraphRunner, type NlqOutcome } from '../../nlq/index.ts';
import { graphForRoute, withoutSelfReference, type Route } from '../../nlq/route.ts';
import type { DurableStore } from '../../rdf/durable.ts';
import { RemoteStore } from '../../rdf/remote.ts';
import type { AssayStore } from '../../rdf/backend.ts';
import { startQueryPool } from '../../server/sparql/pool.ts';
import { RemoteEvaluator } from '../../server/sparql/remote.ts';
import { UserError } from '../errors.ts';
import { humanNlq } from './nlq.ts';

type GraphRoute = Extract<Route, { route: 'graph' }>;

const ROLE_WORDS: Record<GraphRoute['role'], string> = {
  catalog: "Assay's catalog graph",
  evidence: 'the evidence Assay admitted (every run graph)',
  runs: "Assay's runs (every run graph)",
};

export async function askAssaysGraphs(
  question: string, route: GraphRoute,
  o: { store: AssayStore; config: Config; catalogDir: string; json?: boolean; quiet?: boolean; timeoutMs?: number },
): Promise<number> {
  const say = (stage: string, by: string, message: string) => { if (!o.quiet && !o.json) process.stderr.write(`  · ${stage.padEnd(14)} [${by}] ${message}\n`); };
  say('route', 'words', `about ${ROLE_WORDS[route.role]} (cue "${route.cue}"): answered by the NL→SPARQL loop over the store, not by the publishers`);
  if (route.role === 'catalog') {
    const s = await syncCatalogGraph(o.store, { baseIri: o.config.baseIri, dir: o.catalogDir });
    say('catalog', 'ard-okf', `catalog graph ${s.changed ? 'written' : 'unchanged'} (${s.quads} quads)`);
  }
  const pool = o.store instanceof RemoteStore
    ? new RemoteEvaluator(o.store, { maxConcurrent: o.config.store.maxConcurrent, maxQueue: 16 })
    : startQueryPool(o.store as DurableStore, { workers: 1, maxQueue: 16 });
  try {
    await pool.ready();
    const runner: GraphRunner = poolRunner(pool, { baseIri: o.config.baseIri, allowedRemoteHosts: [] });
    let generator;
    try { generator = (await generatorFromEnv(process.env)).generator; } catch (e) { throw new UserError((e as Error).message); }
    say('generate', generator.id, 'writing SPARQL from the graph\'s grounding');
    const out: NlqOutcome = await askGraph(withoutSelfReference(question), graphForRoute(route, o.config.baseIri), { runner, groundings: new GroundingCache(runner), generator }, {
      ...DEFAULT_NLQ_CONFIG, ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
    });
    process.stdout.write(o.json
      ? `${JSON.stringify({ routed: { to: 'nlq', role: route.role, cue: route.cue }, ...outcomeJson(out) }, null, 2)}\n`
      : `\n(${ROLE_WORDS[route.role]}; the question was routed by the word "${route.cue}")\n${humanNlq(out)}`);
    return out.status === 'answered' ? 0 : 3;
  } finally {
    await pool.close();
  }
}
