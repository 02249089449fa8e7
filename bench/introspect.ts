/**
 * Introspection time and memory on a generated graph of mixed classes.
 *   npx tsx bench/introspect.ts [triples=1800000] [--reads] [--fold-when-read]
 * Loads the graph into one named graph of an in-memory DurableStore that keeps the miner's columns
 * (DurableOptions.keep; src/void/kept.ts), in batches of 50,000 lines — by default its keeper's
 * thread folds each batch as it is written (introspect/kept-thread.ts); with --fold-when-read the
 * batches are queued and folded at the first introspection — then in the same run times:
 *   - COUNT:   SELECT (COUNT(*) AS ?n) { GRAPH <g> { ?s ?p ?o } }  (one full scan inside WASM)
 *   - dump path: fromDumpable(rdf, g) → mine(): oxigraph's N-Triples dump, interned in place, then
 *              linear passes over integer columns (see introspect/mine.ts); what a store not kept
 *              pays, and every store paid before
 *   - kept, first: graphSource(rdf, g) → mine(), right after the last load: what the keeper's thread
 *              folded while the store loaded (waiting for any it has not), or the loads queued at
 *              write time parsed now
 *   - kept, after a write: 1,000 more triples loaded, then mined again (only those are parsed)
 *   - kept, again: nothing new to fold; then 3 interleaved rounds of COUNT, kept and dump path (medians)
 * checks that every kept result is byte for byte the dump path's JSON, and prints each time against
 * COUNT, with the RSS sampled right before and after each step and the keeper's own bytes.
 * `--reads` also times the other ways of reading every triple out of oxigraph, each against the
 * same COUNT: `match()`, one `SELECT ?s ?o` per predicate serialized as TSV, and a Turtle dump.
 * They show what bounds the dump path: turning the store's term ids back into text, which every
 * read pays per term; see introspect/README.md.
 */
import { loadavg } from 'node:os';
import { fromDumpable, mine, toJson } from '../introspect/index.ts';
import { DurableStore } from '../src/rdf/durable.ts';
import { graphSource, keptOf } from '../src/void/kept.ts';
import { ThreadedKeeper } from '../introspect/kept-thread.ts';
import { factory } from '../src/rdf/store.ts';

const args = process.argv.slice(2);
const READS = args.includes('--reads');
const FOLD_WHEN_READ = args.includes('--fold-when-read');
const ROUNDS = 3;
const target = Number(args.filter((a) => !a.startsWith('--'))[0] ?? 1_800_000);
const G = 'http://example.org/graph';
const E = 'http://example.org/';
const T = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** People, organisations, grants and places: ~10 triples per entity, with optional predicates and links. */
function* generate(n: number): Generator<string> {
  const entities = Math.ceil(n / 7);
  let emitted = 0;
  for (let i = 0; emitted < n; i++) {
    const id = i;
    const kind = id % 10 < 5 ? 'Person' : id % 10 < 7 ? 'Organization' : id % 10 < 9 ? 'Grant' : 'Place';
    const s = `<${E}${kind.toLowerCase()}/${id}>`;
    const lines = [`${s} ${T} <${E}${kind}> .`, `${s} <http://www.w3.org/2000/01/rdf-schema#label> "${kind} number ${id}"@en .`];
    if (kind === 'Person') {
      lines.push(`${s} <${E}birthYear> "${1940 + (id % 60)}"^^<${XSD}integer> .`);
      lines.push(`${s} <${E}memberOf> <${E}organization/${(id * 7 + 5) % entities - ((id * 7 + 5) % entities) % 10 + 5}> .`);
      if (id % 3 === 0) lines.push(`${s} <${E}knows> <${E}person/${(id * 31) % entities - ((id * 31) % entities) % 10}> .`);
      if (id % 4 === 0) lines.push(`${s} ${T} <${E}Researcher> .`);
      lines.push(`${s} <${E}email> "p${id}@example.org" .`);
      lines.push(`${s} <${E}livesIn> <${E}place/${(id % entities) - (id % 10) + 9}> .`);
    } else if (kind === 'Organization') {
      lines.push(`${s} <${E}founded> "${1900 + (id % 120)}-01-01"^^<${XSD}date> .`);
      lines.push(`${s} <${E}employees> "${id % 5000}"^^<${XSD}integer> .`);
      lines.push(`${s} <${E}locatedIn> <${E}place/${id - (id % 10) + 9}> .`);
      lines.push(`${s} <${E}ein> "${String(id).padStart(9, '0')}" .`);
    } else if (kind === 'Grant') {
      lines.push(`${s} <${E}amount> "${(id * 13.37).toFixed(2)}"^^<${XSD}decimal> .`);
      lines.push(`${s} <${E}awardedTo> <${E}organization/${id - (id % 10) + 5}> .`);
      lines.push(`${s} <${E}fundedBy> <${E}organization/${id - (id % 10) + 6}> .`);
      lines.push(`${s} <${E}year> "${2000 + (id % 24)}"^^<${XSD}gYear> .`);
      lines.push(`${s} <${E}abstract> _:b${id} .`);
      lines.push(`_:b${id} <${E}text> "Abstract of grant ${id}, with some words." .`);
    } else {
      lines.push(`${s} <${E}lat> "${(id % 90).toFixed(3)}"^^<${XSD}double> .`);
      lines.push(`${s} <${E}long> "${(id % 180).toFixed(3)}"^^<${XSD}double> .`);
      lines.push(`${s} <${E}fips> "${id % 100000}" .`);
    }
    for (const l of lines) {
      if (emitted++ >= n) return;
      yield `${l}\n`;
    }
  }
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
const rss = () => process.memoryUsage().rss;
const load0 = loadavg()[0]!;

const store = DurableStore.inMemory({ keep: { thread: !FOLD_WHEN_READ } });
const rdf = store.rdf;
let t = performance.now();
// Load in batches: one huge load() call grows superlinearly in oxigraph's WASM build.
let chunk: string[] = [];
const flushChunk = async () => {
  await store.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: chunk.join('') });
  chunk = [];
};
for (const line of generate(target)) {
  chunk.push(line);
  if (chunk.length === 50_000) await flushChunk();
}
await flushChunk();
const loadS = (performance.now() - t) / 1000;
const keeper = keptOf(rdf)!;
const busy = keeper instanceof ThreadedKeeper ? keeper.threadBusyMs() / 1000 : 0;
console.log(`loaded ${rdf.size.toLocaleString('en-US')} triples in ${loadS.toFixed(1)} s through DurableStore.apply, ${FOLD_WHEN_READ ? 'writes queued for the keeper' : `each write folded by the keeper's thread beside the load (that thread busy ${busy.toFixed(1)} s so far)`} (Node ${process.version}, oxigraph 0.5.11)`);

/** Time one synchronous step, with the RSS right before and right after it (a sampler cannot run during it). */
const time = <R>(f: () => R): [R, number, number, number] => {
  const before = rss();
  const t0 = performance.now();
  const r = f();
  const s = (performance.now() - t0) / 1000;
  return [r, s, before, rss()];
};

const countOnce = () => time(() => rdf.select(`SELECT (COUNT(*) AS ?n) { GRAPH <${G}> { ?s ?p ?o } }`)[0]!.get('n')!.value);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const counts: number[] = [];
const [count, firstCountS] = countOnce();
counts.push(firstCountS);
const [dumped, dumpS] = time(() => rdf.dump({ format: 'application/n-triples', graph: G }).length);
const reads: [string, number][] = [];
if (READS) {
  const g = factory.namedNode(G);
  reads.push(['match(), every term value read', time(() => {
    let chars = 0;
    for (const q of rdf.match(null, null, null, g)) chars += q.subject.value.length + q.predicate.value.length + q.object.value.length;
    return chars;
  })[1]]);
  const preds = rdf.select(`SELECT DISTINCT ?p { GRAPH <${G}> { ?s ?p ?o } }`).map((m) => m.get('p')!.value);
  reads.push([`SELECT ?s ?o per predicate (${preds.length}), TSV`, time(() => {
    let chars = 0;
    for (const p of preds) chars += rdf.querySerialized(`SELECT ?s ?o { GRAPH <${G}> { ?s <${p}> ?o } }`, 'text/tab-separated-values').length;
    return chars;
  })[1]]);
  reads.push(['Turtle dump', time(() => rdf.dump({ format: 'text/turtle', graph: G }).length)[1]]);
}
const json = (ix: ReturnType<typeof mine>) => JSON.stringify(toJson(ix));
const [ix, mineS, dumpRss0, dumpRss1] = time(() => mine(fromDumpable(rdf, G)));
const reference = json(ix);
const [firstIx, firstS, firstRss0, firstRss1] = time(() => mine(graphSource(rdf, G)));
const kept = keptOf(rdf)!.stats();
let more: string[] = [];
for (const line of generate(target + 1000)) more.push(line);
more = more.slice(target);
await store.apply({ kind: 'load', format: 'application/n-triples', graph: G, data: more.join('') });
const [afterIx, afterS] = time(() => mine(graphSource(rdf, G)));
const [afterDumpIx, afterDumpS] = time(() => mine(fromDumpable(rdf, G)));
let same = json(firstIx) === reference && json(afterIx) === json(afterDumpIx);
// Then ROUNDS interleaved rounds of COUNT, the dump path and the kept path on the same state: medians.
const dumpRounds = [afterDumpS];
const againRounds: number[] = [];
let againRss0 = 0;
let againRss1 = 0;
for (let r = 0; r < ROUNDS; r++) {
  counts.push(countOnce()[1]);
  const [k, s, r0, r1] = time(() => mine(graphSource(rdf, G)));
  againRounds.push(s);
  [againRss0, againRss1] = [r0, r1];
  const [d, ds] = time(() => mine(fromDumpable(rdf, G)));
  dumpRounds.push(ds);
  same &&= json(k) === json(afterDumpIx) && json(d) === json(afterDumpIx);
}
const countS = median(counts);
const againS = median(againRounds);

const x = (s: number) => `${s.toFixed(2)} s = ${(s / countS).toFixed(2)}x COUNT`;
console.log(`COUNT(*) = ${count}: median ${countS.toFixed(2)} s of ${counts.length} (${counts.map((c) => c.toFixed(2)).join(', ')}); every ratio below is against this median`);
console.log(`dump as N-Triples alone (${mb(dumped * 2)} of UTF-16): ${x(dumpS)}`);
for (const [name, secs] of reads) console.log(`read: ${name.padEnd(44)} ${x(secs)}`);
console.log(`dump path (dump + intern + mine):         ${x(mineS)}; ${ix.classes.length} classes, ${ix.predicates.length} predicates, ${ix.characteristicSets.total} characteristic sets, ${ix.joinHints.hints.length} join hints; RSS ${mb(dumpRss0)} -> ${mb(dumpRss1)}`);
console.log(`kept, first (${FOLD_WHEN_READ ? `fold ${target.toLocaleString('en-US')} queued lines` : 'take what the thread folded'} + mine): ${x(firstS)}; RSS ${mb(firstRss0)} -> ${mb(firstRss1)}`);
console.log(`kept, after a write of 1,000 triples:      ${x(afterS)}`);
console.log(`kept, again (nothing to fold), median of ${ROUNDS}: ${x(againS)} (${againRounds.map((c) => c.toFixed(2)).join(', ')}); RSS ${mb(againRss0)} -> ${mb(againRss1)}`);
console.log(`dump path on the same state, median of ${dumpRounds.length}: ${x(median(dumpRounds))} (${dumpRounds.map((c) => c.toFixed(2)).join(', ')})`);
console.log(`kept columns: ${kept.triples.toLocaleString('en-US')} triples in ${mb(kept.bytes)} of typed arrays = ${(kept.bytes / kept.triples).toFixed(0)} bytes/triple (predicate keys aside)`);
console.log(`kept results byte for byte equal to the dump path's: ${same ? 'yes' : 'NO'}`);
console.log(`reproduce: npx tsx bench/introspect.ts ${target}${READS ? ' --reads' : ''}${FOLD_WHEN_READ ? ' --fold-when-read' : ''} (load average ${load0.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end, from /proc/loadavg)`);
if (!same) process.exitCode = 1;
