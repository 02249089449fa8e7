/**
 * Population question latency with replayed publishers (offline interpreter, plain renderer):
 *   npx tsx bench/population.ts [repeats=5]
 * Two questions: a ranking over the 3,142 counties of the SVI 2018 file ("Which county has the
 * highest poverty rate?") and the county poverty–diabetes correlation (SVI 2018 × PLACES 2022,
 * 3,140 aligned counties). Each is asked once on fresh services (first: catalog, cassette bodies
 * and the population graphs written for the first time) and then `repeats` more times on the same
 * services (the population graphs stored by the first read are read back from the store, not
 * parsed from the publisher response again). Prints first, p50, p95 and max of the repeats, the
 * CPU time of first and repeated runs, and the outcome of each question.
 */
import { DurableStore } from '../src/rdf/durable.ts';
import { loadAskServices } from '../src/ask/services.ts';
import { ask } from '../src/ask/run.ts';

const repeats = Number(process.argv[2] ?? 5);
const QUESTIONS = ['Which county has the highest poverty rate?', 'Is county poverty associated with diabetes prevalence?'];
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN; };

let t = performance.now();
const services = await loadAskServices({ store: DurableStore.inMemory(), baseIri: 'http://bench.assay/' });
console.log(`services loaded in ${(performance.now() - t).toFixed(0)} ms`);
for (const question of QUESTIONS) {
  const times: number[] = [];
  const cpus: number[] = [];
  let first = 0;
  let firstCpu = 0;
  let outcome = '';
  for (let k = 0; k <= repeats; k++) {
    t = performance.now();
    const c0 = process.cpuUsage();
    const r = await ask(services, { question });
    const ms = performance.now() - t;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    if (k === 0) { first = ms; firstCpu = cpu; outcome = `${r.status}${r.refusal ? ` (${r.refusal.boundary})` : ''}: ${r.text.split('\n')[0]!.slice(0, 140)}; rows read ${r.populations?.map((p) => `${p.operation} ${p.read}/${p.usable} usable`).join(', ') ?? '-'}`; }
    else { times.push(ms); cpus.push(cpu); }
  }
  console.log(`\n${question}\n  ${outcome}\n  first ${first.toFixed(0)} ms; repeated ×${repeats}: p50 ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`);
  // CPU time of this process (the machine may be shared: wall times are inflated, CPU times much less so)
  console.log(`  CPU: first ${firstCpu.toFixed(0)} ms; repeated p50 ${pct(cpus, 50).toFixed(0)} ms (repeated/first ${(pct(cpus, 50) / firstCpu).toFixed(2)})`);
}
console.log(`\nstore: ${services.store.rdf.size} quads; command: npx tsx bench/population.ts ${repeats}`);
await services.store.close();
