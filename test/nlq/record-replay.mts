// Re-record fixtures/nlq/replay/swapi-stub.json from the stub model on loopback:
//   npx tsx test/nlq/record-replay.mts
// (The fixture is what CI replays; see test/nlq/model-path.test.ts.)
import { startStub } from '../llm/stub-server.ts';
import { goldModel } from './stub-model.ts';
import { fixture, SWAPI, VOC } from './helpers.ts';
import { completerGenerator, loadCases, modelCompleter, recordingCompleter, runEval, reportTable } from '../../src/nlq/index.ts';

const set = await loadCases('fixtures/nlq/cases/swapi.jsonl');
const stub = await startStub(goldModel(set.cases, VOC));
const f = await fixture();
const rec = recordingCompleter(modelCompleter({ baseURL: stub.url, model: 'stub-gold', timeoutMs: 10_000 }, { maxRetries: 0 }));
const report = await runEval(set, SWAPI, () => f.deps(completerGenerator(rec)));
console.log(reportTable(report));
await rec.save('fixtures/nlq/replay/swapi-stub.json');
console.log(`${rec.recordings.length} completions recorded`);
await f.close();
await stub.close();
