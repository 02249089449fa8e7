/**
 * Introspection build time and peak memory on a generated graph of mixed classes.
 *   npx tsx bench/introspect.ts [triples=1800000] [--reads]
 * Loads the graph into one oxigraph named graph, then in the same run times:
 *   - COUNT:   SELECT (COUNT(*) AS ?n) { GRAPH <g> { ?s ?p ?o } }  (one full scan inside WASM)
 *   - mine:    fromOxigraph(store, g) → mine(): dump as N-Triples, intern its terms in place, then
 *              linear passes over integer columns (see introspect/mine.ts)
 *   - mine without distinct-object counting (skips one counting sort by predicate)
 * and prints the ratio of each to COUNT, with the heap and RSS high-water marks sampled around them.
 * `--reads` also times the other ways of reading every triple out of oxigraph, each against the
 * same COUNT: `match()` (a JS object per quad, each term's value read), one `SELECT ?s ?o` per
 * predicate serialized as TSV (two terms per triple instead of three), and a Turtle dump (a subject
 * and predicate written once per group). They show what bounds the miner: turning the store's term
 * ids back into text, which every read pays per term; see introspect/README.md.
 */
import * as ox from 'oxigraph';
import { fromOxigraph, mine } from '../introspect/index.ts';

const args = process.argv.slice(2);
const READS = args.includes('--reads');
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
let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};
const sampler = setInterval(sample, 20);

const store = new ox.Store();
let t = performance.now();
// Load in batches: one huge load() call grows superlinearly in oxigraph's WASM build.
let chunk: string[] = [];
const flushChunk = () => {
  store.load(chunk.join(''), { format: 'application/n-triples', lenient: true, to_graph_name: ox.namedNode(G) });
  chunk = [];
};
for (const line of generate(target)) {
  chunk.push(line);
  if (chunk.length === 50_000) flushChunk();
}
flushChunk();
const loadS = (performance.now() - t) / 1000;
console.log(`loaded ${store.size.toLocaleString('en-US')} triples in ${loadS.toFixed(1)} s (Node ${process.version}, oxigraph 0.5.11)`);

// Synchronous work blocks the sampler; sample right before and after each measured step.
const time = <R>(f: () => R): [R, number] => {
  sample();
  const t0 = performance.now();
  const r = f();
  const s = (performance.now() - t0) / 1000;
  sample();
  return [r, s];
};

const [count, countS] = time(() => (store.query(`SELECT (COUNT(*) AS ?n) { GRAPH <${G}> { ?s ?p ?o } }`) as Map<string, ox.Term>[])[0]!.get('n')!.value);
const [dumped, dumpS] = time(() => store.dump({ format: 'application/n-triples', from_graph_name: ox.namedNode(G) }).length);
const reads: [string, number][] = [];
if (READS) {
  const g = ox.namedNode(G);
  reads.push(['match(), every term value read', time(() => {
    let chars = 0;
    for (const q of store.match(null, null, null, g)) chars += q.subject.value.length + q.predicate.value.length + q.object.value.length;
    return chars;
  })[1]]);
  const preds = (store.query(`SELECT DISTINCT ?p { GRAPH <${G}> { ?s ?p ?o } }`) as Map<string, ox.Term>[]).map((m) => m.get('p')!.value);
  reads.push([`SELECT ?s ?o per predicate (${preds.length}), TSV`, time(() => {
    let chars = 0;
    for (const p of preds) chars += (store.query(`SELECT ?s ?o { GRAPH <${G}> { ?s <${p}> ?o } }`, { results_format: 'text/tab-separated-values' }) as string).length;
    return chars;
  })[1]]);
  reads.push(['Turtle dump', time(() => store.dump({ format: 'text/turtle', from_graph_name: g }).length)[1]]);
}
const baseRss = process.memoryUsage().rss;
peakRss = 0;
const [ix, mineS] = time(() => mine(fromOxigraph(store, G)));
const mineRss = peakRss;
const [, lightS] = time(() => mine(fromOxigraph(store, G), { distinctObjects: false }));
clearInterval(sampler);

console.log(`COUNT(*) = ${count}: ${countS.toFixed(2)} s`);
console.log(`dump as N-Triples alone (${mb(dumped * 2)} of UTF-16): ${dumpS.toFixed(2)} s = ${(dumpS / countS).toFixed(1)}x COUNT`);
for (const [name, secs] of reads) console.log(`read: ${name.padEnd(44)} ${secs.toFixed(2)} s = ${(secs / countS).toFixed(1)}x COUNT`);
console.log(`mine (full):                 ${mineS.toFixed(2)} s = ${(mineS / countS).toFixed(1)}x COUNT; ${ix.classes.length} classes, ${ix.predicates.length} predicates, ${ix.characteristicSets.total} characteristic sets, ${ix.joinHints.hints.length} join hints`);
console.log(`mine (distinctObjects off):  ${lightS.toFixed(2)} s = ${(lightS / countS).toFixed(1)}x COUNT`);
console.log(`memory: RSS before mining ${mb(baseRss)}, sampled RSS high-water during mining ${mb(mineRss)}, heap high-water ${mb(peakHeap)}`);
console.log(`reproduce: npx tsx bench/introspect.ts ${target}${READS ? ' --reads' : ''} (load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`);
