/**
 * `assay chat [--on-ambiguity answer|all|ask] [--strict] [--conversation id]`: an interactive
 * session. Each line is a question asked as the next turn of one conversation, so a follow-up
 * ("and in 2022?", "what about Microsoft?", "and its net income?", "compare that with Alphabet")
 * is read against the turn before (src/conversation). After a clarification, a line holding only
 * an option number resumes it. Progress prints on stderr, answers on stdout as `assay ask` prints
 * them; the conversation id is printed first, and `--conversation` continues an earlier session
 * (the turns are in the store). Ends at end of input, `exit` or `quit`, or Ctrl-C.
 */
import { createInterface } from 'node:readline';
import { Option, type Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { DurableStore } from '../../rdf/durable.ts';
import { modelClientFromEnv } from '../../llm/index.ts';
import { loadAskServices } from '../../ask/services.ts';
import { askTurn, type TurnRequest, type TurnResult } from '../../conversation/ask.ts';
import { CONVERSATION_ID, newConversationId } from '../../conversation/turns.ts';
import { UserError } from '../errors.ts';
import { formatResult } from './ask.ts';

interface ChatOpts { onAmbiguity: 'answer' | 'all' | 'ask'; interpreter: 'offline' | 'model'; strict?: boolean; conversation?: string; data?: string; catalog: string; live?: boolean; quiet?: boolean }

export function registerChat(cli: Command): void {
  cli.command('chat')
    .description('an interactive session: each line is a question, and follow-ups ("and in 2022?") are read against the previous turn')
    .addOption(new Option('--on-ambiguity <mode>', 'answer, all, or ask (a clarification; answer with the option number)').choices(['answer', 'all', 'ask']).default('answer'))
    .option('--strict', 'refuse an answer that contains an unverified figure')
    .addOption(new Option('--interpreter <kind>', 'offline (default) or model (given the previous turn\'s intent as context)').choices(['offline', 'model']).default('offline'))
    .option('--conversation <id>', 'continue an earlier conversation (its id is printed when a session starts)')
    .option('--live', 'go to the publishers over the network instead of the bundled cassettes')
    .option('--quiet', 'do not print progress events')
    .option('--catalog <dir>', 'directory of publisher descriptors', 'ard-okf')
    .option('--data <dir>', 'data directory holding the store (env ASSAY_DATA_DIR; default ./.assay-data)')
    .action(async (opts: ChatOpts) => chatCommand(opts));
}

export async function chatCommand(opts: ChatOpts): Promise<void> {
  if (opts.conversation && !CONVERSATION_ID.test(opts.conversation)) throw new UserError(`--conversation takes the id a session printed (6–64 letters, digits, "-" or "_"), not "${opts.conversation}"`);
  const config = loadConfig({ dataDir: opts.data });
  const store = await DurableStore.open(config.dataDir);
  try {
    const model = await modelClientFromEnv();
    if (opts.interpreter === 'model' && !model) throw new UserError('--interpreter model needs a model: set ASSAY_LLM_URL and ASSAY_LLM_MODEL (an OpenAI-compatible endpoint)');
    const services = await loadAskServices({ store, baseIri: config.baseIri, catalogDir: opts.catalog, mode: opts.live ? 'live' : 'replay', ...(model ? { model } : {}) });
    const conversation = opts.conversation ?? newConversationId();
    process.stderr.write(`assay chat — conversation ${conversation}. Ask a question; follow-ups are read against the one before. "exit" ends.\n`);
    const rl = createInterface({ input: process.stdin, terminal: process.stdin.isTTY === true, ...(process.stdin.isTTY ? { prompt: '? ' } : {}) });
    let last: TurnResult | undefined;
    let controller = new AbortController();
    rl.on('SIGINT', () => { controller.abort(new Error('cancelled by Ctrl-C')); rl.close(); });
    if (process.stdin.isTTY) rl.prompt();
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === 'exit' || line === 'quit') break;
      if (line) {
        const option = /^\d+$/.test(line) && last?.status === 'needs_clarification' ? Number(line) : undefined;
        const req: TurnRequest = {
          on_ambiguity: opts.onAmbiguity, strict: !!opts.strict, conversation, interpreter: opts.interpreter,
          ...(option !== undefined && last ? { resume: { run: last.run_id, option } } : { question: line }),
        };
        controller = new AbortController();
        last = await askTurn(services, req, {
          signal: controller.signal,
          onProgress: opts.quiet ? undefined : (e) => process.stderr.write(`  · ${e.stage.padEnd(14)} [${e.by}] ${e.message}\n`),
        });
        process.stdout.write(formatResult(last));
        if (last.followup) process.stdout.write(`(follow-up: carried over ${last.followup.carried.map((c) => c.field).join(', ') || 'nothing'} from "${last.followup.from_question}")\n`);
        if (last.status === 'needs_clarification') process.stdout.write('Answer with the option number to resume.\n');
      }
      if (process.stdin.isTTY) rl.prompt();
    }
    rl.close();
  } finally {
    await store.close();
  }
}
