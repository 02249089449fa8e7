/**
 * `assay eval understand|discover|plan|ask [--interpreter offline|model] [--out file]`: runs a
 * stage over the labelled corpus and prints its tables; the full result is also written as JSON.
 * Discovery and planning are measured with gold intents, so each stage is measured alone; `ask`
 * runs the keyed-read questions end to end (cassettes, offline registry, no model) and prints
 * the outcome mix.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { discoveryMetrics } from '../../discover/eval.ts';
import { loadDiscoveryIndex } from '../../discover/load.ts';
import { planMetrics } from '../../plan/eval.ts';
import { goldIntent, loadCorpus, DEFAULT_CORPUS_DIR } from '../../understand/corpus.ts';
import { understandMetrics } from '../../understand/eval.ts';
import type { Understanding } from '../../understand/understanding.ts';
import { askMetrics } from '../../ask/eval.ts';
import { loadAskServices } from '../../ask/services.ts';
import { DurableStore } from '../../rdf/durable.ts';
import { UserError } from '../errors.ts';
import { interpreterOption, understandQuestion } from './understand.ts';
import { evalNlqCommand } from './nlq.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function registerEval(cli: Command): void {
  cli.command('eval')
    .description('measure understanding, discovery, planning or end-to-end asking over the labelled question corpus')
    .argument('<stage>', 'understand | discover | plan | ask | nlq')
    .argument('[cases]', 'nlq only: the case file (JSON lines of {id, question, gold})')
    .addOption(interpreterOption())
    .option('--corpus <dir>', 'directory of *.jsonl question files', DEFAULT_CORPUS_DIR)
    .option('--catalog <dir>', 'directory of publisher descriptors', 'ard-okf')
    .option('--out <file>', 'where to write the JSON result (default bench/out/eval-<stage>.json)')
    .option('--graph <iri>', 'nlq only: the graph the cases run over (default: the case file\'s own)')
    .option('--generator <g>', 'nlq only: offline | model | replay:<file> (default: from the environment)')
    .option('--data <dir>', 'nlq only: run over this data directory\'s store instead of the case file\'s graph')
    .action(async (stage: string, cases: string | undefined, opts: { interpreter: 'offline' | 'model'; corpus: string; catalog: string; out?: string; graph?: string; generator?: string; data?: string }) => {
      if (stage === 'nlq') return evalNlqCommand(cases, { ...(opts.out ? { out: opts.out } : {}), ...(opts.graph ? { graph: opts.graph } : {}), ...(opts.generator ? { generator: opts.generator } : {}), ...(opts.data ? { data: opts.data } : {}) });
      if (!['understand', 'discover', 'plan', 'ask'].includes(stage)) throw new UserError(`unknown stage "${stage}": use understand, discover, plan, ask or nlq`);
      const corpus = await loadCorpus(opts.corpus);
      const out = opts.out ?? `bench/out/eval-${stage}.json`;
      let result: unknown;
      if (stage === 'understand') {
        const results = new Map<string, Understanding>();
        for (const r of corpus) results.set(r.id, await understandQuestion(r.question, opts.interpreter));
        const m = understandMetrics(corpus, results);
        result = { interpreter: opts.interpreter, ...m };
        process.stdout.write(`understand (${opts.interpreter}) over ${m.questions} questions\n`);
        process.stdout.write(`shape accuracy ${pct(m.shape.accuracy)} (${m.shape.correct} right, ${m.shape.wrong} wrong, ${m.shape.cannotTell} cannot tell)\n`);
        process.stdout.write(`entity ${pct(m.entity.accuracy)}   attribute ${pct(m.attribute.accuracy)}   period ${pct(m.period.accuracy)}\n\n`);
        process.stdout.write('shape            n  right  cannot  accuracy   confused with\n');
        for (const [s, v] of Object.entries(m.perShape).sort()) {
          const conf = Object.entries(m.confusion[s] ?? {}).filter(([k]) => k !== s).map(([k, n]) => `${k}×${n}`).join(' ');
          process.stdout.write(`${s.padEnd(15)} ${String(v.n).padStart(3)}  ${String(v.correct).padStart(5)}  ${String(v.cannotTell).padStart(6)}  ${pct(v.accuracy).padStart(8)}   ${conf}\n`);
        }
      } else if (stage === 'ask') {
        const services = await loadAskServices({ store: DurableStore.inMemory(), baseIri: 'http://assay.eval/', catalogDir: opts.catalog });
        const m = await askMetrics(services, corpus, (o) => process.stdout.write(`${o.id} ${o.status.padEnd(19)} ${(o.boundary ?? o.grades.join(',')).padEnd(22)} ${String(o.attempts).padStart(3)} att  ${o.question}${o.reason ? `  — ${o.reason.slice(0, 140)}` : ''}\n`));
        result = m;
        process.stdout.write(`\nask (offline: cassettes, registry snapshot, no model) over ${m.questions} keyed-read questions\n`);
        process.stdout.write(`status   ${Object.entries(m.byStatus).map(([k, n]) => `${k} ${n}`).join('   ')}\n`);
        process.stdout.write(`refused  ${Object.entries(m.byBoundary).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join('   ')}\n`);
        for (const [s, v] of Object.entries(m.byShape).sort()) process.stdout.write(`  ${s.padEnd(12)} ${Object.entries(v).map(([k, n]) => `${k} ${n}`).join('   ')}\n`);
      } else {
        const { index, catalogMs } = await loadDiscoveryIndex(opts.catalog);
        process.stdout.write(`catalog loaded in ${catalogMs.toFixed(0)} ms; index: ${index.stats.cards} cards (${index.stats.measures} measures, ${index.stats.operations} operations), ${index.stats.terms} terms, built in ${index.stats.buildMs.toFixed(0)} ms, ~${(index.serializedBytes() / 1e6).toFixed(1)} MB serialized\n`);
        if (stage === 'discover') {
          const m = discoveryMetrics(index, corpus, goldIntent);
          result = { index: index.stats, ...m };
          process.stdout.write(`discover (gold intents, lexical prefilter) over ${m.questions} questions with an answering source\n`);
          process.stdout.write(`source   rank-1 ${pct(m.source.rank1)}   top-15 ${pct(m.source.top15)}\nmeasure  rank-1 ${pct(m.measure.rank1)}   top-15 ${pct(m.measure.top15)}\n${m.msPerQuery.toFixed(1)} ms per question\n`);
          for (const x of m.misses) process.stdout.write(`  miss ${x.id} ${x.question} → ${x.top.join(', ')}\n`);
        } else {
          const m = planMetrics(index, corpus, goldIntent);
          result = m;
          process.stdout.write(`plan (gold intents) over ${m.questions} questions: verdict accuracy ${pct(m.accuracy)}\n`);
          for (const [v, x] of Object.entries(m.perVerdict)) process.stdout.write(`  ${v.padEnd(10)} ${x.correct}/${x.n}   ${JSON.stringify(m.confusion[v])}\n`);
          for (const x of m.mismatches) process.stdout.write(`  mismatch ${x.id} expected ${x.expected}, got ${x.got}: ${x.question} — ${x.reason}\n`);
        }
      }
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, JSON.stringify(result, null, 2) + '\n');
      process.stdout.write(`\nresult written to ${out}\n`);
    });
}
