/**
 * NL→SPARQL benchmark: grounding build time and card size on Assay's catalog graph, and
 * question-to-rows latency of the offline generator (p50/p95) on the catalog, SWAPI, music and the two
 * blind case sets (IRS grants, SYNTHETIC Wikidata-style).
 *   npx tsx bench/nlq.ts [rounds=5]
 * The catalog graph is built as `assay serve` builds it (src/ard/sync.ts); the SWAPI graph is the
 * bundled fixture. Every query runs in one query worker (src/server/sparql/pool.ts). Latency is
 * per question, grounding cached (as in a running gateway), citations on; each case set's
 * questions are asked `rounds` times. Figures are medians and percentiles of one run on whatever
 * machine runs it; the machine is shared and noisy.
 */
import { readFileSync } from 'node:fs';
import { DurableStore } from '../src/rdf/durable.ts';
import { syncCatalogGraph } from '../src/ard/sync.ts';
import { startQueryPool } from '../src/server/sparql/pool.ts';
import { askGraph, GroundingCache, loadCases, offlineGenerator, poolRunner } from '../src/nlq/index.ts';
import { schemaCard } from '../src/nlq/grounding.ts';

const rounds = Number(process.argv[2] ?? 5);
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]!; };

async function measure(name: string, store: DurableStore, graph: string, casesPath: string): Promise<void> {
  const pool = startQueryPool(store, { workers: 1, maxQueue: 16 });
  await pool.ready();
  const runner = poolRunner(pool, { baseIri: 'http://assay.local/' });
  const groundings = new GroundingCache(runner);
  const t0 = performance.now();
  const g = await groundings.get(graph);
  const buildMs = performance.now() - t0;
  const card = schemaCard(g, 4000);
  process.stdout.write(`${name}: ${g.void.triples} triples; grounding built in ${(buildMs / 1000).toFixed(2)} s (mining, labels, types, dictionary, numeric stats, linker); card ${card.length} chars at a 4000-char budget; full card ${schemaCard(g, 100_000).length} chars; ${g.cuts.length === 0 ? 'nothing cut' : `cut: ${g.cuts.map((c) => `${c.code} at ${c.read}`).join(', ')}`}\n`);
  const set = await loadCases(casesPath);
  const deps = { runner, groundings, generator: offlineGenerator() };
  const ms: number[] = [];
  let answered = 0;
  for (let r = 0; r < rounds; r++) {
    for (const c of set.cases) {
      const s = performance.now();
      const o = await askGraph(c.question, graph, deps);
      ms.push(performance.now() - s);
      if (r === 0 && o.status === 'answered') answered++;
    }
  }
  process.stdout.write(`${name}: question → rows (offline generator, ${set.cases.length} questions × ${rounds}; ${answered} answered): p50 ${pct(ms, 0.5).toFixed(1)} ms, p95 ${pct(ms, 0.95).toFixed(1)} ms\n`);
  await pool.close();
}

const catalog = DurableStore.inMemory();
const s0 = performance.now();
const sync = await syncCatalogGraph(catalog, { baseIri: 'http://assay.local/', dir: 'ard-okf' });
process.stdout.write(`catalog graph: ${sync.quads} quads built in ${((performance.now() - s0) / 1000).toFixed(1)} s\n`);
await measure('catalog', catalog, 'http://assay.local/graph/catalog', 'fixtures/nlq/cases/catalog.jsonl');
await catalog.close();

const swapi = DurableStore.inMemory();
await swapi.apply({ kind: 'load', data: readFileSync('fixtures/nlq/swapi/swapi-dataset.ttl', 'utf8'), format: 'text/turtle', graph: 'http://example.org/graph/swapi', baseIri: 'http://example.org/' });
await measure('swapi', swapi, 'http://example.org/graph/swapi', 'fixtures/nlq/cases/swapi.jsonl');
await swapi.close();
const music = DurableStore.inMemory();
await music.apply({ kind: 'load', data: readFileSync('fixtures/nlq/music/music.ttl', 'utf8'), format: 'text/turtle', graph: 'http://example.org/graph/music', baseIri: 'http://example.org/' });
await measure('music', music, 'http://example.org/graph/music', 'fixtures/nlq/cases/music.jsonl');
await music.close();
// The two blind sets' graphs: real IRS grant records as schema.org, and the SYNTHETIC Wikidata-style graph (typing mined over P31/P279).
for (const [name, file] of [['irs-grants', 'fixtures/nlq/irs-grants/irs-grants.ttl'], ['wikidata-synth', 'fixtures/nlq/wikidata-synth/wikidata-synth.ttl']] as const) {
  const store = DurableStore.inMemory();
  await store.apply({ kind: 'load', data: readFileSync(file, 'utf8'), format: 'text/turtle', graph: `http://example.org/graph/${name}`, baseIri: 'http://example.org/' });
  await measure(name, store, `http://example.org/graph/${name}`, `fixtures/nlq/cases/${name}.jsonl`);
  await store.close();
}
process.stdout.write(`load average (1/5/15 min, /proc/loadavg): ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
process.stdout.write(`reproduce: npx tsx bench/nlq.ts ${rounds}\n`);
