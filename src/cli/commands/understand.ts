/**
 * `assay understand "<question>" [--interpreter offline|model] [--json]`: prints the intent, or
 * the reason the interpreter could not tell. Also the shared helper the discover and plan doors
 * use to get an intent.
 */
import { Option, type Command } from 'commander';
import { modelClientFromEnv, NO_MODEL_MESSAGE } from '../../llm/index.ts';
import { periodLabel, understand, type Understanding } from '../../understand/index.ts';
import { UserError } from '../errors.ts';

export const interpreterOption = () => new Option('--interpreter <kind>', 'offline (deterministic, default) or model (ASSAY_LLM_URL / ASSAY_LLM_MODEL)').choices(['offline', 'model']).default('offline');

export async function understandQuestion(question: string, interpreter: 'offline' | 'model'): Promise<Understanding> {
  if (!question.trim()) throw new UserError('give a question, e.g. assay understand "What was Apple\'s total revenue in 2023?"');
  if (interpreter === 'model') {
    const model = await modelClientFromEnv();
    if (!model) throw new UserError(NO_MODEL_MESSAGE);
    return understand(question, { interpreter: 'model', model });
  }
  return understand(question, { interpreter: 'offline' });
}

export function formatUnderstanding(u: Understanding): string {
  if (u.status !== 'understood') return `cannot tell (${u.interpreter}): ${u.reason}\n`;
  const i = u.intent;
  const rows: [string, string][] = [
    ['shape', i.shape],
    ['entity', i.entity ? `${i.entity}${i.canonical_entity && i.canonical_entity !== i.entity ? ` (${i.canonical_entity})` : ''} [${i.entity_status}]` : '—'],
    ...(i.entity_candidates.length ? [['candidates', i.entity_candidates.join('; ')] as [string, string]] : []),
    ...(i.entities.length ? [['entities', i.entities.join('; ')] as [string, string]] : []),
    ['type', i.type ?? '—'],
    ['attribute', i.attribute ?? '—'],
    ...(i.attributes.length ? [['components', i.attributes.join('; ')] as [string, string]] : []),
    ...(i.interpretations.length ? [['readings', i.interpretations.join('; ')] as [string, string]] : []),
    ['period', periodLabel(i.period) ?? (i.periods.length ? i.periods.map(periodLabel).join(', ') : '—')],
    ...(i.quantifier ? [['quantifier', i.quantifier] as [string, string]] : []),
    ...(i.threshold ? [['threshold', `${i.threshold.op} ${i.threshold.value}${i.threshold.unit ? ` ${i.threshold.unit}` : ''}`] as [string, string]] : []),
    ...(i.order ? [['order', `${i.order}${i.limit ? `, top ${i.limit}` : ''}`] as [string, string]] : []),
    ...(i.direction ? [['direction', i.direction] as [string, string]] : []),
    ...(i.geography ? [['geography', [i.geography.level, i.geography.within && `within ${i.geography.within}`].filter(Boolean).join(' ')] as [string, string]] : []),
    ['interpreter', u.interpreter],
  ];
  return rows.map(([k, v]) => `${k.padEnd(12)} ${v}`).join('\n') + '\n';
}

export function registerUnderstand(cli: Command): void {
  cli.command('understand')
    .description('interpret a question into an intent (shape, entity, measure, period, ...) without reading the catalog')
    .argument('<question>', 'the question, in quotes')
    .addOption(interpreterOption())
    .option('--json', 'print the intent (or the refusal) as JSON')
    .action(async (question: string, opts: { interpreter: 'offline' | 'model'; json?: boolean }) => {
      const u = await understandQuestion(question, opts.interpreter);
      process.stdout.write(opts.json ? JSON.stringify(u, null, 2) + '\n' : formatUnderstanding(u));
      if (u.status !== 'understood') process.exitCode = 3;
    });
}
