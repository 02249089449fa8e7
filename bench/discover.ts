/**
 * Discovery benchmark over the full catalog (thousands of measures):
 *   npx tsx bench/discover.ts [runs=3]
 * Prints catalog load time, index build time (median of `runs` builds), index size (cards, terms,
 * serialized bytes, heap growth), and prefilter latency p50/p95/max over every corpus question
 * (gold intents) plus 500 queries made from measure titles; and the planner's time per question.
 */
import { loadCatalog } from '../src/ard/index.ts';
import { DiscoveryIndex } from '../src/discover/index.ts';
import { planQuestion } from '../src/plan/index.ts';
import { goldIntent, loadCorpus } from '../src/understand/corpus.ts';
import { parseIntent, type Intent } from '../src/understand/intent.ts';

const runs = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!; };

let t = performance.now();
const catalog = await loadCatalog('ard-okf');
const catalogMs = performance.now() - t;

const builds: number[] = [];
let index!: DiscoveryIndex;
const heapBefore = process.memoryUsage().heapUsed;
for (let i = 0; i < runs; i++) {
  t = performance.now();
  index = DiscoveryIndex.build(catalog);
  builds.push(performance.now() - t);
}
globalThis.gc?.();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6 / runs;

const corpus = await loadCorpus();
const intents: Intent[] = corpus.map(goldIntent);
const step = Math.max(1, Math.floor(catalog.measures.length / 500));
for (let i = 0; i < catalog.measures.length && intents.length < corpus.length + 500; i += step) {
  const m = catalog.measures[i]!;
  const r = parseIntent({ question: `What is the ${m.entry.displayName}?`, shape: 'point', attribute: m.entry.displayName.replace(/\s*\(.*\)$/, '') });
  if (r.ok) intents.push(r.intent);
}
// Warm up once (first-use document frequencies), then time.
for (const i of intents.slice(0, 20)) index.discover(i);
const lat: number[] = [];
const sizes: number[] = [];
for (const i of intents) {
  t = performance.now();
  const c = index.discover(i);
  lat.push(performance.now() - t);
  sizes.push(c.length);
}
const planLat: number[] = [];
for (const i of intents.slice(0, corpus.length)) { t = performance.now(); planQuestion(i, index); planLat.push(performance.now() - t); }

const s = index.stats;
console.log('discovery benchmark (Node', process.version, ')');
console.log(`catalog load (validated):   ${catalogMs.toFixed(0)} ms — ${catalog.measures.length} measures, ${catalog.accessPaths.length} operations, ${catalog.publishers.length} publishers`);
console.log(`index build (median of ${runs}): ${median(builds).toFixed(0)} ms — ${s.cards} cards, ${s.terms} distinct terms, ${(index.serializedBytes() / 1e6).toFixed(1)} MB serialized, ~${heapMb.toFixed(0)} MB heap per index`);
console.log(`prefilter latency over ${lat.length} queries: p50 ${pct(lat, 50).toFixed(1)} ms, p95 ${pct(lat, 95).toFixed(1)} ms, max ${Math.max(...lat).toFixed(1)} ms; candidates scored per query: median ${median(sizes)}, max ${Math.max(...sizes)}`);
console.log(`plan (discovery + verdicts) over ${planLat.length} corpus questions: p50 ${pct(planLat, 50).toFixed(1)} ms, p95 ${pct(planLat, 95).toFixed(1)} ms`);
console.log('reproduce: npx tsx bench/discover.ts', runs);
