/**
 * The execution-accuracy harness. Each case is a question and a gold query; the gold runs on the
 * same graph at scoring time (no stored answers to drift). The candidate is graded by its answer
 * set, not its text: order-independent multisets of rows (each row compared as the multiset of its
 * values, so variable names and column order do not matter; numeric literals compare by value),
 * F1 per case (empty-vs-empty scores 1), macro-F1 over the cases, exact match (F1 = 1), validity
 * (the loop ended with a query that validated and ran) and repairs.
 *
 * Four cells: end-to-end (the generator writes the query) vs oracle (the gold is fed straight
 * through validate → execute; the generator is not consulted) × grounded vs ungrounded.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { askGraph, DEFAULT_NLQ_CONFIG, type NlqConfig, type NlqDeps } from './loop.ts';
import { termKey, type QueryResult, type Term } from './exec.ts';
import { validateQuery } from './validate.ts';
import { SparqlError } from './exec.ts';

/**
 * A case: a question and its gold query, or (`expect: 'refuse'`) a question the graph cannot answer,
 * which scores 1 only when the loop declines (a plausible query over the wrong data is a wrong answer).
 */
export interface EvalCase { id: string; question: string; gold: string; expect: 'answer' | 'refuse' }

/** The first line of a case file may say which graph the cases are over and how to build it. */
export interface CaseSetMeta {
  /** The graph the gold queries are written against (its IRI). */
  graph?: string;
  /** An RDF file (relative to the case file) to load into that graph when no store is given. */
  load?: string;
  /** Build Assay's catalog graph as the app does (src/ard/sync.ts) under this base IRI. */
  catalogBase?: string;
  description?: string;
}

export interface CaseSet { meta: CaseSetMeta; cases: EvalCase[]; path: string }

export async function loadCases(path: string): Promise<CaseSet> {
  const text = await readFile(path, 'utf8');
  const cases: EvalCase[] = [];
  let meta: CaseSetMeta = {};
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch (e) {
      problems.push(`line ${i + 1}: not JSON (${(e as Error).message})`);
      return;
    }
    if (o.meta && typeof o.meta === 'object') {
      meta = o.meta as CaseSetMeta;
      if (meta.load) meta.load = resolve(dirname(path), meta.load);
      return;
    }
    const gold = (o.gold ?? o.sparql) as unknown;
    const expect = o.expect === 'refuse' ? 'refuse' : 'answer';
    if (o.expect !== undefined && o.expect !== 'refuse' && o.expect !== 'answer') {
      problems.push(`line ${i + 1}: "expect" is "answer" (the default) or "refuse"`);
      return;
    }
    if (typeof o.question !== 'string' || (expect === 'answer' && typeof gold !== 'string')) {
      problems.push(`line ${i + 1}: a case needs "question" and "gold" (or "sparql") strings, or "expect": "refuse"`);
      return;
    }
    cases.push({ id: typeof o.id === 'string' ? o.id : `case-${cases.length + 1}`, question: o.question, gold: typeof gold === 'string' ? gold : '', expect });
  });
  if (problems.length > 0) throw new Error(`${path} has ${problems.length} bad line${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`);
  if (cases.length === 0) throw new Error(`${path} holds no cases: each line is {"id", "question", "gold"}`);
  return { meta, cases, path };
}

// ——— answer sets and F1 ———

const NUMERIC = /#(integer|decimal|float|double|int|long|short|byte|nonNegativeInteger|positiveInteger|unsignedInt|unsignedLong)$/;

function valueKey(t: Term | undefined): string {
  if (t && t.type === 'literal' && t.datatype && NUMERIC.test(t.datatype) && Number.isFinite(Number(t.value))) return `n:${Number(t.value)}`;
  return termKey(t);
}

/** The answer set: one key per row (the sorted multiset of its values); ASK is one row, its boolean. */
export function answerSet(r: QueryResult): string[] {
  if (r.kind === 'ask') return [`ask:${r.value}`];
  return r.rows.map((row) => r.vars.map((v) => valueKey(row[v])).filter((k) => k !== '').sort().join('\u0001'));
}

export interface F1 { precision: number; recall: number; f1: number; intersection: number; predicted: number; gold: number }

export function f1(predicted: readonly string[], gold: readonly string[]): F1 {
  if (predicted.length === 0 && gold.length === 0) return { precision: 1, recall: 1, f1: 1, intersection: 0, predicted: 0, gold: 0 };
  const counts = new Map<string, number>();
  for (const g of gold) counts.set(g, (counts.get(g) ?? 0) + 1);
  let inter = 0;
  for (const p of predicted) {
    const n = counts.get(p) ?? 0;
    if (n > 0) { inter++; counts.set(p, n - 1); }
  }
  const precision = predicted.length === 0 ? 0 : inter / predicted.length;
  const recall = gold.length === 0 ? 0 : inter / gold.length;
  const score = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1: score, intersection: inter, predicted: predicted.length, gold: gold.length };
}

// ——— cells ———

export type Mode = 'end-to-end' | 'oracle';

export interface CaseScore {
  id: string;
  question: string;
  f1: F1;
  valid: boolean;
  repairs: number;
  sparql: string | null;
  /** Why the loop produced no rows (typed code), when it did not. */
  failure: string | null;
  /** The loop answered (a query ran), whatever the score. */
  answered: boolean;
  expect: 'answer' | 'refuse';
}

export interface CellReport {
  mode: Mode;
  grounded: boolean;
  generator: string;
  cases: CaseScore[];
  macroF1: number;
  exactMatch: number;
  validity: number;
  repairs: number;
  /** Cases the loop declined (typed reason). */
  refused: number;
  /** Cases the loop answered with F1 < 1 (or answered when it should have declined): worse than declining. */
  wrong: number;
}

export interface GoldFailure { id: string; message: string }

/** A case a replay fixture held no completion for: the fixture no longer matches its prompts. */
export interface ReplayMiss { cell: string; id: string; message: string }

export interface EvalReport {
  graph: string | null;
  cases: number;
  cells: CellReport[];
  goldFailures: GoldFailure[];
  /** Non-empty: the scores are not the fixture's (a stale recording scores 0 for a reason that is not the generator's); callers fail. */
  replayMisses: ReplayMiss[];
}

/** Run the gold queries once (they are the same for every cell). */
async function goldSets(cases: readonly EvalCase[], graph: string | undefined, deps: NlqDeps, config: NlqConfig): Promise<{ sets: Map<string, string[]>; failures: GoldFailure[] }> {
  const sets = new Map<string, string[]>();
  const failures: GoldFailure[] = [];
  for (const c of cases) {
    if (c.expect === 'refuse') continue;
    const checked = validateQuery(c.gold, { allowPropertyPaths: true });
    if (!checked.ok) { failures.push({ id: c.id, message: `gold query is invalid: ${JSON.stringify(checked.issues)}` }); continue; }
    try {
      const r = await deps.runner.query(checked.sparql, graph, { timeoutMs: Math.max(config.timeoutMs, 30_000), maxRows: 1_000_000, limitName: 'eval gold' });
      sets.set(c.id, answerSet(r));
    } catch (e) {
      if (!(e instanceof SparqlError)) throw e;
      failures.push({ id: c.id, message: `gold query failed: ${e.message}` });
    }
  }
  return { sets, failures };
}

/** The typed failure code of an outcome that did not answer; a replay miss is its own code (a stale fixture, not a hard question). */
function failureCode(out: Exclude<Awaited<ReturnType<typeof askGraph>>, { status: 'answered' }>): string {
  const r = out.reason;
  if (r.code === 'beyond') return `beyond:${r.beyond.code}`;
  if (r.code === 'exhausted') return out.transcript.some((t) => t.outcome.kind === 'generator-error' && t.outcome.replayMiss) ? 'replay-miss' : `exhausted:${r.last.kind}`;
  return r.code;
}

function noteMiss(out: Awaited<ReturnType<typeof askGraph>>, id: string, onMiss?: (id: string, message: string) => void): void {
  for (const t of out.transcript) if (t.outcome.kind === 'generator-error' && t.outcome.replayMiss) onMiss?.(id, t.outcome.message);
}

export async function runCell(cases: readonly EvalCase[], gold: ReadonlyMap<string, string[]>, graph: string | undefined, deps: NlqDeps, config: NlqConfig, mode: Mode, grounded: boolean, onCase?: (s: CaseScore) => void, onMiss?: (id: string, message: string) => void): Promise<CellReport> {
  const scores: CaseScore[] = [];
  const cfg: NlqConfig = { ...config, ground: grounded, cite: false };
  for (const c of cases) {
    if (c.expect === 'refuse' && mode === 'oracle') continue;
    const g = c.expect === 'refuse' ? [] : gold.get(c.id);
    if (!g) continue;
    let s: CaseScore;
    const base = { id: c.id, question: c.question, expect: c.expect };
    if (c.expect === 'refuse') {
      const out = await askGraph(c.question, graph, deps, cfg);
      noteMiss(out, c.id, onMiss);
      const answered = out.status === 'answered';
      const failure = out.status === 'answered' ? null : failureCode(out);
      const one = { precision: 1, recall: 1, f1: 1, intersection: 0, predicted: 0, gold: 0 };
      const zero = { precision: 0, recall: 0, f1: 0, intersection: 0, predicted: 1, gold: 0 };
      s = { ...base, f1: answered ? zero : one, valid: answered, repairs: out.repairs, sparql: out.status === 'answered' ? out.sparql : null, failure, answered };
    } else if (mode === 'oracle') {
      const grounding = cfg.checkDictionary ? await deps.groundings.get(graph) : undefined;
      // The graph's own typing path is allowed as the loop allows it (grounding.ts Typing); the dictionary is checked only grounded.
      const checked = validateQuery(c.gold, { ...(grounded && grounding ? { dictionary: grounding.dictionary } : {}), allowPropertyPaths: cfg.allowPropertyPaths, ...(grounding?.typing ? { typing: grounding.typing } : {}) });
      if (!checked.ok) s = { ...base, f1: f1([], g), valid: false, repairs: 0, sparql: c.gold, failure: checked.issues.map((i) => i.code).join(','), answered: false };
      else {
        try {
          const r = await deps.runner.query(checked.sparql, graph, { timeoutMs: cfg.timeoutMs, maxRows: cfg.maxRows });
          const truncated = r.kind === 'select' && r.truncated;
          s = { ...base, f1: f1(truncated ? [] : answerSet(r), g), valid: !truncated, repairs: 0, sparql: checked.sparql, failure: truncated ? 'row-budget' : null, answered: !truncated };
        } catch (e) {
          if (!(e instanceof SparqlError)) throw e;
          s = { ...base, f1: f1([], g), valid: false, repairs: 0, sparql: checked.sparql, failure: e.code, answered: false };
        }
      }
    } else {
      const out = await askGraph(c.question, graph, deps, cfg);
      noteMiss(out, c.id, onMiss);
      if (out.status === 'answered') s = { ...base, f1: f1(answerSet(out.result), g), valid: true, repairs: out.repairs, sparql: out.sparql, failure: null, answered: true };
      else {
        s = { ...base, f1: f1([], g), valid: false, repairs: out.repairs, sparql: out.transcript.at(-1)?.sparql ?? null, failure: failureCode(out), answered: false };
      }
    }
    scores.push(s);
    onCase?.(s);

  }
  const n = scores.length || 1;
  return {
    mode, grounded, generator: mode === 'oracle' ? 'gold' : deps.generator.id, cases: scores,
    macroF1: scores.reduce((a, s) => a + s.f1.f1, 0) / n,
    exactMatch: scores.filter((s) => s.f1.f1 === 1).length / n,
    validity: scores.filter((s) => s.valid).length / n,
    repairs: scores.reduce((a, s) => a + s.repairs, 0),
    refused: scores.filter((s) => !s.answered).length,
    wrong: scores.filter((s) => s.answered && s.f1.f1 < 1).length,
  };
}

/** All four cells. `depsFor(grounded)` gives the generator for each end-to-end cell (a replay fixture may differ per cell). */
export async function runEval(set: CaseSet, graph: string | undefined, depsFor: (grounded: boolean) => NlqDeps, config: NlqConfig = DEFAULT_NLQ_CONFIG, onCase?: (cell: string, s: CaseScore) => void): Promise<EvalReport> {
  const base = depsFor(true);
  const { sets, failures } = await goldSets(set.cases, graph, base, config);
  const cells: CellReport[] = [];
  const replayMisses: ReplayMiss[] = [];
  for (const mode of ['end-to-end', 'oracle'] as const) {
    for (const grounded of [true, false]) {
      const deps = mode === 'oracle' ? base : depsFor(grounded);
      const cell = `${mode} ${grounded ? 'grounded' : 'ungrounded'}`;
      cells.push(await runCell(set.cases, sets, graph, deps, config, mode, grounded, (s) => onCase?.(cell, s), (id, message) => replayMisses.push({ cell, id, message })));
    }
  }
  return { graph: graph ?? null, cases: set.cases.length, cells, goldFailures: failures, replayMisses };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function reportTable(r: EvalReport): string {
  const lines = ['cell                     generator        n   macro-F1   exact   valid  repairs  refused  wrong'];
  for (const c of r.cells) {
    const name = `${c.mode} ${c.grounded ? 'grounded' : 'ungrounded'}`;
    lines.push(`${name.padEnd(24)} ${c.generator.slice(0, 15).padEnd(15)} ${String(c.cases.length).padStart(3)}   ${c.macroF1.toFixed(3).padStart(8)}  ${pct(c.exactMatch).padStart(6)}  ${pct(c.validity).padStart(6)}  ${String(c.repairs).padStart(7)}  ${String(c.refused).padStart(7)}  ${String(c.wrong).padStart(5)}`);
  }
  if (r.replayMisses.length > 0) lines.push(`NOT A SCORE: ${r.replayMisses.length} prompt${r.replayMisses.length === 1 ? '' : 's'} had no recorded completion (cases ${[...new Set(r.replayMisses.map((m) => m.id))].slice(0, 8).join(', ')}${new Set(r.replayMisses.map((m) => m.id)).size > 8 ? ', …' : ''}); the replay fixture no longer matches its prompts. First: ${r.replayMisses[0]!.message}`);
  if (r.goldFailures.length > 0) lines.push(`gold queries that did not run (cases left out): ${r.goldFailures.map((f) => `${f.id} (${f.message})`).join('; ')}`);
  return lines.join('\n');
}
