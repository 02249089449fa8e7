/**
 * `assay plan "<question>" [--json]`: the plan, with every assessed candidate's verdict and reason.
 * An infeasible plan is a successful answer (exit 0): it names the missing operation.
 */
import type { Command } from 'commander';
import { loadDiscoveryIndex } from '../../discover/load.ts';
import { planQuestionAsync } from '../../plan/index.ts';
import { formatUnderstanding, interpreterOption, understandQuestion } from './understand.ts';

export function registerPlan(cli: Command): void {
  cli.command('plan')
    .description('decide whether any declared operation can answer a question: exact, composed or infeasible, with reasons')
    .argument('<question>', 'the question, in quotes')
    .addOption(interpreterOption())
    .option('--catalog <dir>', 'directory of publisher descriptors', 'ard-okf')
    .option('--json', 'print the plan as JSON')
    .action(async (question: string, opts: { interpreter: 'offline' | 'model'; catalog: string; json?: boolean }) => {
      const u = await understandQuestion(question, opts.interpreter);
      if (u.status !== 'understood') { process.stdout.write(opts.json ? JSON.stringify(u, null, 2) + '\n' : formatUnderstanding(u)); process.exitCode = 3; return; }
      const { index } = await loadDiscoveryIndex(opts.catalog);
      // The async form adds embedding similarity when an embeddings model is configured.
      const p = await planQuestionAsync(u.intent, index);
      if (opts.json) { process.stdout.write(JSON.stringify({ intent: u.intent, plan: p }, null, 2) + '\n'); return; }
      process.stdout.write(`shape     ${p.shape}\nrequires  exact: ${p.required.exact.join(', ') || '—'}; composed: ${p.required.composed.join(', ') || '—'}\nverdict   ${p.verdict.toUpperCase()}\nreason    ${p.reason}\n`);
      if (p.components) for (const c of p.components) process.stdout.write(`component ${JSON.stringify(c.attribute)}: ${c.verdict} — ${c.reason}\n`);
      process.stdout.write(`\n${p.assessments.length} of ${p.discovered} candidates assessed (relevant by score and coverage):\n`);
      for (const a of p.assessments) process.stdout.write(`  ${a === p.selected ? '*' : ' '} ${a.verdict.padEnd(10)} #${String(a.discoveryRank).padEnd(4)} ${a.candidateKey}: ${a.reason}\n`);
    });
}
