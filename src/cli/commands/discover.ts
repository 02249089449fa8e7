/**
 * `assay discover "<question>" [--json] [--show N]`: the scored candidates from the ARD index.
 * Every matching card is scored; --show only limits how many are printed.
 */
import type { Command } from 'commander';
import { loadDiscoveryIndex } from '../../discover/load.ts';
import { interpreterOption, understandQuestion, formatUnderstanding } from './understand.ts';
import { UserError } from '../errors.ts';
import { modelClientFromEnv, NO_MODEL_MESSAGE } from '../../llm/index.ts';
import { modelReranker } from '../../discover/rerank.ts';

export function registerDiscover(cli: Command): void {
  cli.command('discover')
    .description('rank the catalog measures and operations that could serve a question (lexical BM25+ prefilter)')
    .argument('<question>', 'the question, in quotes')
    .addOption(interpreterOption())
    .option('--catalog <dir>', 'directory of publisher descriptors', 'ard-okf')
    .option('--show <n>', 'how many scored candidates to print (all are scored)', '15')
    .option('--rerank', 'let the configured model (rerank role) reorder the survivors against their full cards')
    .option('--json', 'print the intent and candidates as JSON')
    .action(async (question: string, opts: { interpreter: 'offline' | 'model'; catalog: string; show: string; rerank?: boolean; json?: boolean }) => {
      const show = Number(opts.show);
      if (!Number.isInteger(show) || show < 1) throw new UserError(`--show must be a positive integer, not "${opts.show}"`);
      const u = await understandQuestion(question, opts.interpreter);
      if (u.status !== 'understood') { process.stdout.write(opts.json ? JSON.stringify(u, null, 2) + '\n' : formatUnderstanding(u)); process.exitCode = 3; return; }
      const { index } = await loadDiscoveryIndex(opts.catalog);
      let reranker;
      if (opts.rerank) {
        const model = await modelClientFromEnv();
        if (!model) throw new UserError(NO_MODEL_MESSAGE);
        reranker = modelReranker(model);
      }
      // without a re-ranker only the candidates printed are built: exactly the first --show of the full ranking
      const { candidates, scored } = reranker
        ? await index.discoverAndRerank(u.intent, reranker).then((c) => ({ candidates: c, scored: c.length }))
        : await index.discoverTopAsync(u.intent, show);
      if (opts.json) {
        process.stdout.write(JSON.stringify({ intent: u.intent, scored, candidates: candidates.slice(0, show).map((c) => ({ rank: c.rank, key: c.card.key, kind: c.card.kind, source: c.card.publisherId, title: c.card.title, score: round(c.score), coverage: round(c.coverage), operations: c.card.operations.map((o) => `${o.key} (${o.kind})`) })) }, null, 2) + '\n');
        return;
      }
      process.stdout.write(`${scored} candidates scored; top ${Math.min(show, candidates.length)}:\n`);
      for (const c of candidates.slice(0, show)) {
        process.stdout.write(`${String(c.rank).padStart(3)}  ${round(c.score).toFixed(1).padStart(8)}  cov ${round(c.coverage).toFixed(2)}  ${c.card.kind === 'measure' ? 'M' : 'O'} ${c.card.key}  — ${c.card.title}\n`);
      }
    });
}

const round = (x: number) => Math.round(x * 100) / 100;
