/**
 * `assay ask "<question>" [--json] [--on-ambiguity answer|all|ask] [--strict] [--intent file.json]`
 * and `assay ask --resume <run-id> --option <n>`. Progress events print live on stderr as the
 * question runs; the result (text, graded figures, citations, qualification — or the clarification
 * or refusal) on stdout. Exit codes: 0 answered, 2 needs clarification, 3 refused.
 */
import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { openStore } from '../../rdf/open.ts';
import { modelClientFromEnv } from '../../llm/index.ts';
import { ask } from '../../ask/run.ts';
import { loadAskServices } from '../../ask/services.ts';
import type { AskRequest, AskResult } from '../../ask/types.ts';
import { UserError } from '../errors.ts';
import { routeQuestion } from '../../nlq/route.ts';
import { formatValue } from '../../answer/factsheet.ts';

interface AskOpts { json?: boolean; onAmbiguity: 'answer' | 'all' | 'ask'; strict?: boolean; intent?: string; resume?: string; option?: string; data?: string; catalog: string; live?: boolean; interpreter: 'offline' | 'model'; timeout?: string; quiet?: boolean }

export function registerAsk(cli: Command): void {
  cli.command('ask')
    .description('answer a question from publisher data: graded figures, citations from the PROV-O graph, or a clarification or typed refusal')
    .argument('[question]', 'the question, in quotes')
    .option('--json', 'print the result as JSON')
    .addOption(new Option('--on-ambiguity <mode>', 'answer (preferred reading, alternatives in data), all, or ask (a clarification)').choices(['answer', 'all', 'ask']).default('answer'))
    .option('--strict', 'refuse an answer that contains an unverified figure')
    .option('--intent <file>', 'send this intent (JSON) instead of interpreting the question')
    .option('--resume <run-id>', 'resume the clarification this run returned')
    .option('--option <n>', 'the option chosen (with --resume)')
    .addOption(new Option('--interpreter <kind>', 'offline (default) or model').choices(['offline', 'model']).default('offline'))
    .option('--live', 'go to the publishers over the network instead of the bundled cassettes')
    .option('--timeout <ms>', 'question deadline in milliseconds (default 30000)')
    .option('--quiet', 'do not print progress events')
    .option('--catalog <dir>', 'directory of publisher descriptors', 'ard-okf')
    .option('--data <dir>', 'data directory holding the store (env ASSAY_DATA_DIR; default ./.assay-data)')
    .action(async (question: string | undefined, opts: AskOpts) => { process.exitCode = await askCommand(question, opts); });
}

export async function askCommand(question: string | undefined, opts: AskOpts): Promise<number> {
  const req: AskRequest = { on_ambiguity: opts.onAmbiguity, strict: !!opts.strict, interpreter: opts.interpreter };
  if (opts.resume) {
    const n = Number(opts.option);
    if (!Number.isInteger(n) || n < 1) throw new UserError('--resume needs --option <n>, the number of the option chosen (1, 2, …)');
    req.resume = { run: opts.resume, option: n };
  } else if (opts.intent) {
    try { req.intent = JSON.parse(await readFile(opts.intent, 'utf8')); } catch (e) { throw new UserError(`cannot read the intent in ${opts.intent}: ${(e as Error).message}`); }
  } else if (question && question.trim()) {
    req.question = question;
  } else {
    throw new UserError('give a question, e.g. assay ask "What was Apple\'s total revenue in 2023?" (or --intent file.json, or --resume <run> --option <n>)');
  }
  if (opts.timeout) { const t = Number(opts.timeout); if (!(t > 0)) throw new UserError(`--timeout must be a positive number of milliseconds, not "${opts.timeout}"`); req.timeoutMs = t; }
  const config = loadConfig({ dataDir: opts.data });
  const store = await openStore(config);
  try {
    // A question about Assay's own graphs (its catalog, evidence or runs) goes to the NL→SPARQL loop.
    const route = req.question ? routeQuestion(req.question) : undefined;
    if (req.question && route?.route === 'graph') {
      const { askAssaysGraphs } = await import('./ask-graphs.ts');
      return await askAssaysGraphs(req.question, route, { store, config, catalogDir: opts.catalog, ...(opts.json ? { json: true } : {}), ...(opts.quiet ? { quiet: true } : {}), ...(req.timeoutMs ? { timeoutMs: req.timeoutMs } : {}) });
    }
    const model = await modelClientFromEnv();
    const services = await loadAskServices({ store, baseIri: config.baseIri, catalogDir: opts.catalog, mode: opts.live ? 'live' : 'replay', ...(model ? { model } : {}) });
    const controller = new AbortController();
    const onSigint = () => controller.abort(new Error('cancelled by Ctrl-C'));
    process.once('SIGINT', onSigint);
    try {
      const result = await ask(services, req, {
        signal: controller.signal,
        onProgress: opts.quiet || opts.json ? undefined : (e) => process.stderr.write(`  · ${e.stage.padEnd(14)} [${e.by}] ${e.message}\n`),
      });
      process.stdout.write(opts.json ? JSON.stringify(result, null, 2) + '\n' : formatResult(result));
      return result.status === 'answered' ? 0 : result.status === 'needs_clarification' ? 2 : 3;
    } finally {
      process.off('SIGINT', onSigint);
    }
  } finally {
    await store.close();
  }
}

export function formatResult(r: AskResult): string {
  const out: string[] = ['', r.text, ''];
  if (r.rendering_label) out.push(`(${r.rendering_label})`);
  if (r.status === 'needs_clarification' && r.clarification) {
    out.push(`Resume with: assay ask --resume ${r.run_id} --option <n>`);
  }
  if (r.figures.length) {
    out.push('Figures:');
    for (const f of r.figures) out.push(`  ${f.text.padEnd(22)} ${f.grade.padEnd(12)} ${evidenceList(f.evidence)}${f.arithmetic ? `  [${f.arithmetic}]` : ''}${f.note ? `  note: ${f.note}` : ''}`);
  }
  if (r.citations.length) {
    // one line per publisher response: a list's hundred records cite the same body once
    out.push('Sources:');
    const bodies = new Map<string, { c: typeof r.citations[number]; evidence: string[] }>();
    for (const c of r.citations) {
      const k = c.url ? `${c.url}|${c.content_hash}|${c.retrieved_at}` : c.evidence;
      const b = bodies.get(k) ?? { c, evidence: [] };
      b.evidence.push(c.evidence); bodies.set(k, b);
    }
    for (const { c, evidence } of bodies.values()) out.push(c.url ? `  ${c.url}  (${c.retrieved_at ? `retrieved ${c.retrieved_at}` : 'retrieval time not recorded'}; sha256 ${c.content_hash?.slice(0, 12)}…; evidence ${evidenceList(evidence)})` : `  ${c.evidence}: no source recorded`);
  }
  if (r.qualification) {
    out.push(r.qualification.statement);
    for (const d of r.qualification.disclosures) out.push(`  disclosed: ${d}`);
  }
  if (r.alternatives?.length) for (const a of r.alternatives) out.push(`Alternative reading: ${a.interpretation} = ${typeof a.value === 'number' ? formatValue(a.value, a.unit, a.unit === 'USD' ? 'USD' : undefined) : `${a.value} ${a.unit}`} (${a.period}) ${a.evidence}`);
  if (r.refusal) out.push(`Boundary: ${r.refusal.boundary}${r.refusal.code && r.refusal.code !== r.refusal.boundary ? ` (${r.refusal.code})` : ''}`, `Answerable with: ${r.refusal.answerable_if}`);
  out.push(`Run: ${r.run}  (${r.attempts.length} attempt${r.attempts.length === 1 ? '' : 's'}: ${r.attempts.map((a) => `#${a.n} ${a.disposition}`).join(', ') || 'none'})`, '');
  return out.join('\n');
}

/** Evidence IRIs of one run, consecutive numbers written as a range (…/evidence/<run>/1…100). */
export function evidenceList(iris: readonly string[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < iris.length) {
    const m = /^(.*\/)(\d+)$/.exec(iris[i]!);
    let j = i;
    while (m && j + 1 < iris.length && iris[j + 1] === `${m[1]}${Number(/(\d+)$/.exec(iris[j]!)![1]) + 1}`) j++;
    parts.push(j - i >= 2 ? `${iris[i]}…${/(\d+)$/.exec(iris[j]!)![1]}` : iris.slice(i, j + 1).join(' '));
    i = j + 1;
  }
  return parts.join(' ');
}
