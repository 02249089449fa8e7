/**
 * `assay nlq "<question>" [--graph IRI] [--json] [--sparql]` and `assay eval nlq <cases.jsonl>`:
 * questions over any graph of the local store (or a file loaded for the run) through the
 * NL→SPARQL loop. Generated SPARQL runs in a query worker (the endpoint's pool), never on this
 * thread. The generator is offline unless the environment names a model or a replay fixture
 * (src/nlq/generate/from-env.ts). Exit codes: 0 answered, 3 not answered; `eval nlq` exits 4 when a replay fixture
 * held no completion for some prompt (the fixture is stale: re-record it).
 */
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { DurableStore } from '../../rdf/durable.ts';
import { mediaTypeForFile } from '../../rdf/store.ts';
import { syncCatalogGraph } from '../../ard/sync.ts';
import { graphIri } from '../../rdf/vocab.ts';
import { startQueryPool, type QueryPool } from '../../server/sparql/pool.ts';
import {
  askGraph, DEFAULT_NLQ_CONFIG, failureText, footnotes, groundingCutText, generatorFromEnv, GroundingCache, LANE_LABEL, loadCases,
  outcomeJson, poolRunner, qualificationText, reportTable, runEval, type NlqConfig, type NlqDeps, type GraphRunner,
} from '../../nlq/index.ts';
import { UserError } from '../errors.ts';

export interface NlqOptions {
  graph?: string;
  json?: boolean;
  sparql?: boolean;
  data?: string;
  load?: string;
  generator?: string;
  repairs?: number;
  ungrounded?: boolean;
  noDictionary?: boolean;
  timeout?: number;
}

export function registerNlq(cli: Command): void {
  cli.command('nlq')
    .description('answer a question over a graph with generated SPARQL (the NL→SPARQL loop; rows are unverified, cited from the graph\'s provenance)')
    .argument('<question>', 'the question, in plain language')
    .option('--graph <iri>', 'the named graph to ask (default: every graph together)')
    .option('--json', 'the full result as JSON (query, rows, transcript, citations, qualification)')
    .option('--sparql', 'print only the executed query')
    .option('--load <file>', 'load this RDF file into --graph of an in-memory store for this run, instead of the data directory')
    .option('--generator <g>', 'offline | model | replay:<file> (default: from the environment, offline when nothing is set)')
    .option('--repairs <n>', 'repair rounds after the first attempt (default 2)', nonNegative)
    .option('--ungrounded', 'leave the grounding out (the harness baseline)')
    .option('--no-dictionary', 'do not check predicates and classes against the graph\'s dictionary')
    .option('--timeout <ms>', 'time limit per generated query (default 10000)', nonNegative)
    .option('--data <dir>', 'data directory holding the store (env ASSAY_DATA_DIR)')
    .action(async (question: string, opts: NlqOptions & { dictionary?: boolean }) => nlqCommand(question, { ...opts, noDictionary: opts.dictionary === false }));
}

function nonNegative(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UserError(`expected a whole number, not "${v}"`);
  return n;
}

interface Session { deps: NlqDeps; runner: GraphRunner; graph: string | undefined; close(): Promise<void>; save?: () => Promise<void> }

async function openSession(opts: { data?: string; load?: string; graph?: string; catalogBase?: string; generator?: string }): Promise<Session> {
  let store: DurableStore;
  let graph = opts.graph;
  if (graph !== undefined) {
    try { new URL(graph); } catch { throw new UserError(`--graph must be an absolute IRI, not "${graph}"`); }
  }
  if (opts.load) {
    const format = mediaTypeForFile(opts.load);
    if (!format) throw new UserError(`cannot tell the RDF syntax of "${opts.load}" from its extension (.ttl, .nt, .nq, .trig, .rdf)`);
    let data: string;
    try { data = await readFile(opts.load, 'utf8'); } catch (e) { throw new UserError(`cannot read ${opts.load}: ${(e as Error).message}`); }
    graph ??= 'urn:assay:nlq:loaded';
    store = DurableStore.inMemory();
    try {
      await store.apply({ kind: 'load', data, format, graph, baseIri: new URL(`file://${opts.load}`).href });
    } catch (e) {
      throw new UserError(`${opts.load} is not valid ${format}: ${(e as Error).message}`);
    }
  } else if (opts.catalogBase) {
    store = DurableStore.inMemory();
    await syncCatalogGraph(store, { baseIri: opts.catalogBase, dir: 'ard-okf' });
    graph ??= graphIri(opts.catalogBase, 'catalog');
  } else {
    const config = loadConfig({ dataDir: opts.data });
    store = await DurableStore.open(config.dataDir, { readOnly: true });
  }
  const pool: QueryPool = startQueryPool(store, { workers: 1, maxQueue: 64 });
  // The worker reads its replica first (seconds for a large store): wait, so no job times out queued behind it.
  await pool.ready();
  const runner = poolRunner(pool, { baseIri: 'http://assay.local/' });
  let chosen;
  try {
    chosen = await generatorFromEnv(process.env, opts.generator);
  } catch (e) {
    await pool.close();
    await store.close();
    throw new UserError((e as Error).message);
  }
  return {
    deps: { runner, groundings: new GroundingCache(runner), generator: chosen.generator },
    runner, graph,
    ...(chosen.save ? { save: chosen.save } : {}),
    close: async () => { await pool.close(); await store.close(); },
  };
}

function configFrom(opts: NlqOptions): NlqConfig {
  return {
    ...DEFAULT_NLQ_CONFIG,
    ...(opts.repairs !== undefined ? { maxRepairRounds: opts.repairs } : {}),
    ...(opts.ungrounded ? { ground: false } : {}),
    ...(opts.noDictionary ? { checkDictionary: false } : {}),
    ...(opts.timeout ? { timeoutMs: opts.timeout } : {}),
  };
}

export async function nlqCommand(question: string, opts: NlqOptions): Promise<void> {
  const session = await openSession(opts);
  try {
    const out = await askGraph(question, session.graph, session.deps, configFrom(opts));
    await session.save?.();
    if (opts.json) process.stdout.write(`${JSON.stringify(outcomeJson(out), null, 2)}\n`);
    else if (opts.sparql) {
      if (out.status === 'answered') process.stdout.write(`${out.sparql}\n`);
      else process.stderr.write(`assay: ${failureText(out)}\n`);
    } else process.stdout.write(humanNlq(out));
    if (out.status !== 'answered') process.exitCode = 3;
  } finally {
    await session.close();
  }
}

/** The human rendering of an NL→SPARQL outcome (also `assay ask` on a question about Assay's graphs). */
export function humanNlq(out: Awaited<ReturnType<typeof askGraph>>): string {
  const cuts = out.groundingCuts.map((c) => `warning: ${groundingCutText(c)}`);
  if (out.status !== 'answered') return `${[failureText(out), ...cuts].join('\n')}\n`;
  const lines: string[] = [];
  const r = out.result;
  if (r.kind === 'ask') lines.push(r.value ? 'yes' : 'no');
  else {
    lines.push(r.vars.join('\t'));
    for (const row of r.rows.slice(0, 50)) lines.push(r.vars.map((v) => row[v]?.value ?? '').join('\t'));
    if (r.rows.length > 50) lines.push(`… ${r.rows.length - 50} more rows (--json for all)`);
    if (r.rows.length === 0) lines.push('(no rows)');
  }
  lines.push('', LANE_LABEL, '', 'SPARQL:', out.sparql.trim());
  if (out.repairs > 0) lines.push(`(after ${out.repairs} repair round${out.repairs === 1 ? '' : 's'})`);
  for (const t of out.transcript) for (const n of t.notes) lines.push(`note: ${n}`);
  if (out.citations) lines.push('', 'Sources:', ...footnotes(out.citations).map((f) => `  ${f}`));
  if (out.qualification) lines.push('', `Qualification: ${qualificationText(out.qualification)}`);
  if (cuts.length > 0) lines.push('', ...cuts);
  return `${lines.join('\n')}\n`;
}

export interface EvalNlqOptions extends NlqOptions { out?: string }

/** `assay eval nlq <cases.jsonl>`: the four cells printed as a table; the full report as JSON. */
export async function evalNlqCommand(casesPath: string | undefined, opts: EvalNlqOptions): Promise<void> {
  if (!casesPath) throw new UserError('give the case file: assay eval nlq <cases.jsonl> (e.g. fixtures/nlq/cases/swapi.jsonl)');
  let set;
  try { set = await loadCases(casesPath); } catch (e) { throw new UserError((e as Error).message); }
  const useStore = opts.data !== undefined || (opts.graph !== undefined && !set.meta.load && !set.meta.catalogBase);
  const session = await openSession({
    ...(opts.data ? { data: opts.data } : {}),
    ...(!useStore && set.meta.load ? { load: opts.load ?? set.meta.load } : opts.load ? { load: opts.load } : {}),
    ...(!useStore && !set.meta.load && set.meta.catalogBase ? { catalogBase: set.meta.catalogBase } : {}),
    ...(opts.graph ?? set.meta.graph ? { graph: opts.graph ?? set.meta.graph } : {}),
    ...(opts.generator ? { generator: opts.generator } : {}),
  });
  try {
    process.stderr.write(`eval nlq: ${set.cases.length} cases from ${casesPath} over ${session.graph ? `<${session.graph}>` : 'every graph'}, generator ${session.deps.generator.id}\n`);
    const report = await runEval(set, session.graph, () => session.deps, configFrom(opts), (cell, s) => {
      process.stderr.write(`  ${cell.padEnd(22)} ${s.id.padEnd(12)} F1 ${s.f1.f1.toFixed(2)}${s.failure ? `  (${s.failure})` : ''}  ${s.question}\n`);
    });
    await session.save?.();
    process.stdout.write(`${reportTable(report)}\n`);
    const out = opts.out ?? `bench/out/eval-nlq-${casesPath.split('/').at(-1)!.replace(/\.jsonl$/, '')}.json`;
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, JSON.stringify(report, null, 2) + '\n');
    process.stdout.write(`\nresult written to ${out}\n`);
    // A stale replay fixture scores 0 for a reason that is not the generator's: fail, never print it as a figure.
    if (report.replayMisses.length > 0) {
      throw new UserError(`${report.replayMisses.length} prompt${report.replayMisses.length === 1 ? '' : 's'} had no recorded completion in ${session.deps.generator.id}, so the table above is not a score of that fixture. First (case ${report.replayMisses[0]!.id}, ${report.replayMisses[0]!.cell}): ${report.replayMisses[0]!.message}`, 4);
    }
  } finally {
    await session.close();
  }
}
