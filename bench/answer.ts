/**
 * Answer latency over the corpus's keyed-read questions (point, status, entity list, comparison,
 * timeseries) with replayed publishers:
 *   npx tsx bench/answer.ts [runs=1]
 * Pass 1: no model (offline interpreter, plain renderer). Pass 2: the same with a stub
 * OpenAI-compatible synthesis server on loopback (measures the drafting round trip and grading).
 * Prints p50/p95/max per shape for each pass, answered questions apart from refusals and
 * clarifications (a refusal is usually cheap, so a mixed median hides what an answer costs), and the
 * outcome mix (answered / clarification / refusals by boundary) with a check that every answered
 * figure is verified or derived.
 */
import { DurableStore } from '../src/rdf/durable.ts';
import { loadAskServices } from '../src/ask/services.ts';
import { ask } from '../src/ask/run.ts';
import type { AskResult } from '../src/ask/types.ts';
import { loadCorpus } from '../src/understand/corpus.ts';
import { openAiClient } from '../src/llm/openai-backend.ts';
import { startStub } from '../test/llm/stub-server.ts';

const runs = Number(process.argv[2] ?? 1);
const SHAPES = ['point', 'status', 'entity_list', 'comparison', 'timeseries'];
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN; };

const corpus = (await loadCorpus()).filter((r) => SHAPES.includes(r.shape));
let t = performance.now();
const base = await loadAskServices({ store: DurableStore.inMemory(), baseIri: 'http://bench.assay/' });
console.log(`services loaded in ${(performance.now() - t).toFixed(0)} ms (catalog index, connectors, registry, shapes); ${corpus.length} keyed-read questions × ${runs} run(s)`);

const stub = await startStub((body) => {
  const sheet = body.messages.map((m) => m.content).join('\n');
  const m = /\[E1\] (.+?) — .+? — (.+?) — (\$?[\d,.]+(?: \S+)?) —/.exec(sheet);
  return { content: m ? `${m[1]} reported ${m[3]} [E1] for ${m[2]}, according to the publisher.` : 'No figure.' };
});
const model = openAiClient({ baseURL: stub.url, models: { classify: 'stub', rerank: 'stub', synthesise: 'stub' }, timeoutMs: 10_000 });

async function pass(label: string, services: typeof base): Promise<AskResult[]> {
  const byShape = new Map<string, number[]>();
  const results: AskResult[] = [];
  for (let i = 0; i < runs; i++) {
    for (const r of corpus) {
      const t0 = performance.now();
      const res = await ask(services, { question: r.question });
      const ms = performance.now() - t0;
      const key = `${r.shape} ${res.status === 'answered' ? 'answered' : res.status === 'refused' ? 'refused' : 'clarified'}`;
      byShape.set(key, [...(byShape.get(key) ?? []), ms]);
      if (i === 0) results.push(res);
    }
  }
  console.log(`\n${label}`);
  console.log('shape        outcome      n    p50 ms   p95 ms   max ms');
  for (const [key, xs] of [...byShape].sort((a, b) => a[0].localeCompare(b[0]))) {
    const [shape, outcome] = key.split(' ');
    console.log(`${shape!.padEnd(12)} ${outcome!.padEnd(10)} ${String(xs.length).padStart(3)} ${pct(xs, 50).toFixed(1).padStart(8)} ${pct(xs, 95).toFixed(1).padStart(8)} ${Math.max(...xs).toFixed(1).padStart(8)}`);
  }
  return results;
}

const plain = await pass('no model (plain renderer)', base);
await pass(`stub synthesis model at ${stub.url}`, { ...base, model });
await stub.close();

const outcomes = new Map<string, number>();
let badFigures = 0;
for (const r of plain) {
  const k = r.status === 'refused' ? `refused:${r.refusal!.boundary}${r.refusal!.code ? `/${r.refusal!.code}` : ''}` : r.status;
  outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
  if (r.status === 'answered' && r.figures.some((f) => f.grade !== 'verified' && f.grade !== 'derived')) badFigures++;
}
console.log('\noutcomes (no model):');
for (const [k, n] of [...outcomes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${k}`);
console.log(`answered with a figure neither verified nor derived: ${badFigures}`);
console.log('\nanswered:');
const show = (e: AskResult['evidence'][number]) => e.record ? `${e.record.kind} ${e.record.key}` : `${e.entity} ${e.measure.split('/').pop()} ${e.period} = ${e.value} ${e.unit}`;
for (const r of plain.filter((x) => x.status === 'answered')) {
  const ev = r.evidence;
  console.log(`  ${r.question}  →  ${ev.slice(0, 3).map(show).join('; ')}${ev.length > 3 ? `; … (${ev.length} items)` : ''}`);
}
console.log('\nreproduce: npx tsx bench/answer.ts', runs);
