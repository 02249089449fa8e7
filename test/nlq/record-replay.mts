// Re-record a replay fixture from the stub model on loopback (what CI replays; test/nlq/model-path.test.ts):
//   npx tsx test/nlq/record-replay.mts [cases=fixtures/nlq/cases/swapi.jsonl] [out=fixtures/nlq/replay/swapi-stub.json]
// The stub answers from the case set's golds (test/nlq/stub-model.ts): a mechanism check, not a model.
import { readFileSync } from 'node:fs';
import { startStub } from '../llm/stub-server.ts';
import { goldModel } from './stub-model.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { syncCatalogGraph } from '../../src/ard/sync.ts';
import { startQueryPool } from '../../src/server/sparql/pool.ts';
import { completerGenerator, GroundingCache, loadCases, modelCompleter, poolRunner, recordingCompleter, reportTable, runEval } from '../../src/nlq/index.ts';

const casesPath = process.argv[2] ?? 'fixtures/nlq/cases/swapi.jsonl';
const out = process.argv[3] ?? 'fixtures/nlq/replay/swapi-stub.json';
const set = await loadCases(casesPath);
const store = DurableStore.inMemory();
if (set.meta.catalogBase) await syncCatalogGraph(store, { baseIri: set.meta.catalogBase, dir: 'ard-okf' });
else await store.apply({ kind: 'load', data: readFileSync(set.meta.load!, 'utf8'), format: 'text/turtle', graph: set.meta.graph!, baseIri: 'http://example.org/' });
const namespace = set.meta.catalogBase ? 'https://w3id.org/assay/ns#' : 'https://swapi.co/vocabulary/';
const stub = await startStub(goldModel(set.cases, namespace));
const pool = startQueryPool(store, { workers: 1, maxQueue: 16 });
await pool.ready();
const runner = poolRunner(pool, { baseIri: 'http://assay.local/' });
const rec = recordingCompleter(modelCompleter({ baseURL: stub.url, model: 'stub-gold', timeoutMs: 10_000 }, { maxRetries: 0 }));
const groundings = new GroundingCache(runner);
const report = await runEval(set, set.meta.graph, () => ({ runner, groundings, generator: completerGenerator(rec) }));
console.log(reportTable(report));
await rec.save(out);
console.log(`${rec.recordings.length} completions recorded to ${out}`);
await pool.close();
await store.close();
await stub.close();
