/**
 * Discovery benchmark over the full catalog (thousands of measures):
 *   npx tsx bench/discover.ts [runs=3]
 * Prints catalog load time, index build time (median of `runs` builds), the load from the on-disk
 * cache, index size (cards, terms, serialized bytes, heap growth), and prefilter latency p50/p95/max
 * over every corpus question (gold intents) plus 500 queries made from measure titles — the plain
 * reference ranking, the full ranking and its first 15 and 50, interleaved, with ratios to the
 * reference from the same run; and the planner's time per question.
 */
import { loadCatalog } from '../src/ard/index.ts';
import { DiscoveryIndex } from '../src/discover/index.ts';
import { loadDiscoveryIndex } from '../src/discover/load.ts';
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

t = performance.now();
const cached = (await loadDiscoveryIndex('ard-okf', { embeddings: null })).index;
const cachedMs = performance.now() - t;

const corpus = await loadCorpus();
const intents: Intent[] = corpus.map(goldIntent);
const step = Math.max(1, Math.floor(catalog.measures.length / 500));
for (let i = 0; i < catalog.measures.length && intents.length < corpus.length + 500; i += step) {
  const m = catalog.measures[i]!;
  const r = parseIntent({ question: `What is the ${m.entry.displayName}?`, shape: 'point', attribute: m.entry.displayName.replace(/\s*\(.*\)$/, '') });
  if (r.ok) intents.push(r.intent);
}
// Warm up once (first-use document frequencies, the scoring tables), then time. Each query runs
// through the plain reference ranking (the code before the typed-array ranking), the full ranking,
// and the first 15 and 50 (what `assay eval discover` and a paged caller read), interleaved.
for (const i of intents.slice(0, 20)) { index.discover(i); index.discoverReference(i); }
const lat: number[] = [];
const refLat: number[] = [];
const top15: number[] = [];
const top50: number[] = [];
const sizes: number[] = [];
for (const i of intents) {
  t = performance.now();
  index.discoverReference(i);
  refLat.push(performance.now() - t);
  t = performance.now();
  const c = index.discover(i);
  lat.push(performance.now() - t);
  t = performance.now();
  index.discoverTop(i, 15);
  top15.push(performance.now() - t);
  t = performance.now();
  index.discoverTop(i, 50);
  top50.push(performance.now() - t);
  sizes.push(c.length);
}
const planLat: number[] = [];
for (const i of intents.slice(0, corpus.length)) { t = performance.now(); planQuestion(i, index); planLat.push(performance.now() - t); }

const s = index.stats;
console.log('discovery benchmark (Node', process.version, ')');
console.log(`catalog load (validated):   ${catalogMs.toFixed(0)} ms — ${catalog.measures.length} measures, ${catalog.accessPaths.length} operations, ${catalog.publishers.length} publishers`);
console.log(`index build (median of ${runs}): ${median(builds).toFixed(0)} ms — ${s.cards} cards, ${s.terms} distinct terms, ${(index.serializedBytes() / 1e6).toFixed(1)} MB serialized, ~${heapMb.toFixed(0)} MB heap per index`);
const row = (label: string, xs: number[]) => console.log(`  ${label.padEnd(34)} p50 ${pct(xs, 50).toFixed(2).padStart(7)} ms   p95 ${pct(xs, 95).toFixed(2).padStart(7)} ms   max ${Math.max(...xs).toFixed(1).padStart(7)} ms   p50 ÷ reference ${(pct(xs, 50) / pct(refLat, 50)).toFixed(3)}`);
console.log(`prefilter latency over ${lat.length} queries (same run, interleaved); candidates scored per query: median ${median(sizes)}, max ${Math.max(...sizes)}`);
row('reference ranking (maps and sets)', refLat);
row('discover: every candidate, ranked', lat);
row('discoverTop 15 (eval, discover CLI)', top15);
row('discoverTop 50', top50);
console.log(`index load from the on-disk cache (what a process does): ${cachedMs.toFixed(0)} ms${cached.stats.fromCache ? '' : ' (no cache yet: built and written)'}`);
console.log(`plan (discovery + verdicts) over ${planLat.length} corpus questions: p50 ${pct(planLat, 50).toFixed(1)} ms, p95 ${pct(planLat, 95).toFixed(1)} ms`);
console.log('reproduce: npx tsx bench/discover.ts', runs);
