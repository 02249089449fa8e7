/**
 * The NL→SPARQL loop: ground → generate → validate → execute → repair.
 *
 * Input: a question, a target graph (an IRI, or undefined for the union of every graph), a
 * generator and a runner over the worker pool. Output: an `NlqAnswer` (the executed query, its
 * rows, the repair count, the transcript, citations and qualification) or an `NlqFailure` with a
 * typed reason and the same transcript.
 *
 * Decides: nothing about truth. Rows from a generated query are the generated-query lane: always
 * labelled unverified and never mixed with graded evidence. Must never: run generated SPARQL on
 * the main thread (the runner is the pool), run a query that failed validation, or invent a
 * citation (cite.ts only reports what the graph asserts).
 *
 * Repair: parse errors, invalid queries (not read-only, SERVICE, dataset clauses, unknown terms),
 * execution errors and row-budget trips are each a repair signal; up to maxRepairRounds further
 * rounds, each recorded as a turn (prompt, completion, SPARQL, outcome).
 */
import type { Query } from 'sparqljs';
import { buildGrounding, DEFAULT_GROUND_OPTIONS, type GroundOptions, type Grounding, type GroundingCut } from './grounding.ts';
import type { GraphRunner, QueryResult } from './exec.ts';
import { SparqlError } from './exec.ts';
import { cite, supportingIris, type Cited } from './cite.ts';
import { groundedPrompt, repairPrompt, ungroundedPrompt } from './generate/prompt.ts';
import { ReplayMissError } from './generate/replay.ts';
import { extractSparql, type BeyondReason, type SparqlGenerator } from './generate/types.ts';
import type { Linking } from './link.ts';
import { qualify, DEFAULT_QUALIFY, type Qualification, type QualifyConfig } from './qualify.ts';
import { repairMessage, validateQuery, type ValidationIssue } from './validate.ts';
import { localName } from './text.ts';

export interface NlqConfig {
  /** Put the grounding (card, detail, VoID, linking) in the prompt / hand it to the generator. */
  ground: boolean;
  /** Repair rounds after the first attempt. */
  maxRepairRounds: number;
  /** Wall-clock limit per generated query, milliseconds. */
  timeoutMs: number;
  /** Rows a generated query may return; more is a row-budget trip. */
  maxRows: number;
  /** Check predicate and class IRIs against the graph's dictionary (off: an absent class can be a true empty answer). */
  checkDictionary: boolean;
  allowPropertyPaths: boolean;
  cardChars: number;
  detailChars: number;
  /** Join provenance for citations and qualification. */
  cite: boolean;
  /** Supporting IRIs joined for citations at most. */
  maxCitedSubjects: number;
  qualify: QualifyConfig;
  groundOptions: GroundOptions;
}

export const DEFAULT_NLQ_CONFIG: Readonly<NlqConfig> = Object.freeze({
  ground: true,
  maxRepairRounds: 2,
  timeoutMs: 10_000,
  maxRows: 10_000,
  checkDictionary: true,
  allowPropertyPaths: false,
  cardChars: 4000,
  detailChars: 1500,
  cite: true,
  maxCitedSubjects: 200,
  qualify: DEFAULT_QUALIFY,
  groundOptions: DEFAULT_GROUND_OPTIONS,
});

export type TurnOutcome =
  | { kind: 'rows'; rows: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'no-sparql' }
  | { kind: 'invalid'; issues: ValidationIssue[]; message: string }
  | { kind: 'exec-error'; code: string; message: string }
  | { kind: 'row-budget'; maxRows: number }
  | { kind: 'beyond'; reason: BeyondReason }
  /** `replayMiss`: a replay fixture held no completion for the prompt (the fixture is stale, not the question hard). */
  | { kind: 'generator-error'; message: string; replayMiss?: true };

export interface Turn {
  round: number;
  generator: string;
  prompt: string;
  completion: string | null;
  sparql: string | null;
  outcome: TurnOutcome;
  notes: string[];
  ms: number;
}

export interface NlqAnswer {
  status: 'answered';
  question: string;
  graph: string | null;
  generator: string;
  /** The executed query (as regenerated from its checked syntax tree). */
  sparql: string;
  result: QueryResult;
  repairs: number;
  transcript: Turn[];
  lane: 'generated-query';
  verified: false;
  citations: Cited | null;
  qualification: Qualification | null;
  linking: LinkSummary | null;
  /** Grounding reads that stopped at a limit (empty: the whole graph was read). */
  groundingCuts: readonly GroundingCut[];
}

export type FailureReason =
  | { code: 'beyond'; beyond: BeyondReason }
  | { code: 'exhausted'; rounds: number; last: TurnOutcome }
  | { code: 'abstained'; why: 'confidence-below-floor' | 'assurance-below-floor' }
  | { code: 'unknown-graph'; graph: string }
  | { code: 'empty-graph' };

export interface NlqFailure {
  status: 'not_answered';
  question: string;
  graph: string | null;
  generator: string;
  reason: FailureReason;
  repairs: number;
  transcript: Turn[];
  /** The last query that ran, when an abstention follows a successful execution. */
  sparql?: string;
  linking: LinkSummary | null;
  groundingCuts: readonly GroundingCut[];
}

export type NlqOutcome = NlqAnswer | NlqFailure;

export interface LinkSummary {
  entities: { mention: string; iri: string; label: string; exact: boolean }[];
  ambiguous: { mention: string; candidates: { iri: string; label: string }[] }[];
  classes: { mention: string; iri: string }[];
  relations: { iri: string; score: number }[];
}

/**
 * Groundings per graph, built once and kept until a write touches that graph: each entry carries
 * the store's write sequence it was built at, and `noteWrite` records, per graph, the sequence of
 * the last write to it (a SPARQL update or a delta may touch any graph, so it counts for all).
 * A write to one graph leaves the other graphs' groundings in place.
 */
export class GroundingCache {
  readonly #runner: GraphRunner;
  readonly #options: GroundOptions;
  readonly #cache = new Map<string, { seq: number; g: Promise<Grounding> }>();
  readonly #lastWrite = new Map<string, number>();
  #seq = 0;
  constructor(runner: GraphRunner, options: GroundOptions = DEFAULT_GROUND_OPTIONS) {
    this.#runner = runner;
    this.#options = options;
  }
  get(graph: string | undefined): Promise<Grounding> {
    const key = graph ?? UNION;
    const had = this.#cache.get(key);
    if (had && !this.#stale(key, had.seq)) return had.g;
    const g = buildGrounding(this.#runner, graph, this.#options);
    const entry = { seq: this.#seq, g };
    this.#cache.set(key, entry);
    g.catch(() => { if (this.#cache.get(key) === entry) this.#cache.delete(key); });
    return g;
  }
  /** A write landed: `graph` undefined = any graph may have changed. Wire to the store's onWrite. */
  noteWrite(graph: string | undefined, seq: number): void {
    this.#seq = Math.max(this.#seq, seq);
    this.#lastWrite.set(graph ?? ANY, seq);
  }
  /** The store's onWrite listener: the graph each write touched, by its kind. */
  readonly onWrite = (op: { kind: string; graph?: string }, seq: number): void => {
    const graph = op.kind === 'load' || op.kind === 'clearGraph' || op.kind === 'replaceGraph' ? op.graph : undefined;
    this.noteWrite(graph, seq);
  };
  #stale(key: string, builtAt: number): boolean {
    const any = this.#lastWrite.get(ANY) ?? -1;
    // The union of every graph changes with any write.
    const mine = key === UNION ? Math.max(-1, ...this.#lastWrite.values()) : (this.#lastWrite.get(key) ?? -1);
    return Math.max(any, mine) > builtAt;
  }
  clear(): void {
    this.#cache.clear();
  }
}

const UNION = '\u0000union';
const ANY = '\u0000any';

export interface NlqDeps {
  runner: GraphRunner;
  groundings: GroundingCache;
  generator: SparqlGenerator;
}

export async function askGraph(question: string, graph: string | undefined, deps: NlqDeps, config: NlqConfig = DEFAULT_NLQ_CONFIG, signal?: AbortSignal): Promise<NlqOutcome> {
  const needGrounding = config.ground || config.checkDictionary;
  const grounding = needGrounding ? await deps.groundings.get(graph) : undefined;
  const base = { question, graph: graph ?? null, generator: deps.generator.id, groundingCuts: grounding?.cuts ?? [] };
  if (grounding && grounding.ix.triples === 0) {
    return { status: 'not_answered', ...base, reason: graph === undefined ? { code: 'empty-graph' } : { code: 'unknown-graph', graph }, repairs: 0, transcript: [], linking: null };
  }
  const linking = config.ground && grounding ? grounding.linker.link(question) : undefined;
  const summary = linking ? summarise(linking) : null;
  const basePrompt = config.ground && grounding
    ? groundedPrompt(question, grounding, linking, { cardChars: config.cardChars, detailChars: config.detailChars })
    : ungroundedPrompt(question);
  const transcript: Turn[] = [];
  let prompt = basePrompt;
  let tentative: BeyondReason | undefined;
  for (let round = 0; round <= config.maxRepairRounds; round++) {
    signal?.throwIfAborted();
    const started = performance.now();
    const turn: Turn = { round, generator: deps.generator.id, prompt, completion: null, sparql: null, outcome: { kind: 'no-sparql' }, notes: [], ms: 0 };
    transcript.push(turn);
    const done = (o: TurnOutcome) => { turn.outcome = o; turn.ms = performance.now() - started; };
    let text: string;
    try {
      const gen = await deps.generator.generate({ question, prompt, round, ...(config.ground && grounding ? { grounding, linking } : {}), ...(signal ? { signal } : {}) });
      if (gen.kind === 'beyond') {
        done({ kind: 'beyond', reason: gen.reason });
        // The first round's reason is the one worth telling (a repair round's "cannot repair" is not).
        const first = transcript.find((t) => t.outcome.kind === 'beyond')!.outcome as { reason: BeyondReason };
        if (round === 0) return { status: 'not_answered', ...base, reason: { code: 'beyond', beyond: first.reason }, repairs: round, transcript, linking: summary };
        break;
      }
      text = gen.text;
      turn.notes = gen.notes ?? [];
      tentative = gen.tentative;
    } catch (e) {
      if (signal?.aborted) throw e;
      done({ kind: 'generator-error', message: (e as Error).message, ...(e instanceof ReplayMissError ? { replayMiss: true as const } : {}) });
      break;
    }
    turn.completion = text;
    const sparql = extractSparql(text);
    turn.sparql = sparql ?? null;
    let problem: string;
    if (!sparql) {
      done({ kind: 'no-sparql' });
      problem = 'your reply held no SPARQL query; reply with one query in a ```sparql block';
    } else {
      const checked = validateQuery(sparql, { ...(config.checkDictionary && grounding ? { dictionary: grounding.dictionary } : {}), allowPropertyPaths: config.allowPropertyPaths, ...(grounding?.typing ? { typing: grounding.typing } : {}) });
      if (!checked.ok) {
        const message = repairMessage(checked.issues);
        done({ kind: 'invalid', issues: checked.issues, message });
        problem = message;
      } else {
        try {
          const result = await deps.runner.query(checked.sparql, graph, { timeoutMs: config.timeoutMs, maxRows: config.maxRows, limitName: 'nlq.timeoutMs' });
          if (result.kind === 'select' && result.truncated) {
            done({ kind: 'row-budget', maxRows: config.maxRows });
            problem = `the query returned more than ${config.maxRows} rows (the row budget); aggregate, filter, or add a LIMIT`;
          } else {
            done(result.kind === 'ask' ? { kind: 'boolean', value: result.value } : { kind: 'rows', rows: result.rows.length });
            if (tentative && foundNothing(result)) {
              turn.notes.push('the query found nothing through a join the question did not name');
              return { status: 'not_answered', ...base, reason: { code: 'beyond', beyond: tentative }, repairs: round, transcript, linking: summary, sparql: checked.sparql };
            }
            return finish(question, graph, deps, config, grounding, checked.ast, checked.sparql, result, round, transcript, summary);
          }
        } catch (e) {
          if (!(e instanceof SparqlError)) throw e;
          done({ kind: 'exec-error', code: e.code, message: e.message });
          problem = `${e.code}: ${e.message}`;
        }
      }
    }
    prompt = repairPrompt(basePrompt, sparql, problem);
  }
  const last = transcript.at(-1)!.outcome;
  return { status: 'not_answered', ...base, reason: { code: 'exhausted', rounds: transcript.length, last }, repairs: Math.max(0, transcript.length - 1), transcript, linking: summary };
}

async function finish(question: string, graph: string | undefined, deps: NlqDeps, config: NlqConfig, grounding: Grounding | undefined, ast: Query, sparql: string, result: QueryResult, round: number, transcript: Turn[], linking: LinkSummary | null): Promise<NlqOutcome> {
  let citations: Cited | null = null;
  let qualification: Qualification | null = null;
  if (config.cite) {
    const preds = [...(grounding?.dictionary.predicates ?? [])];
    citations = await cite(deps.runner, graph, supportingIris(result, ast), {
      limits: { timeoutMs: config.timeoutMs, maxRows: 100_000, limitName: 'nlq.timeoutMs' },
      maxSubjects: config.maxCitedSubjects,
      assurancePredicates: preds.filter((p) => localName(p).toLowerCase() === 'assurance'),
      confidencePredicates: preds.filter((p) => localName(p).toLowerCase() === 'confidence'),
    });
    qualification = qualify(citations.support, config.qualify);
    if (qualification.abstain) {
      return { status: 'not_answered', question, graph: graph ?? null, generator: deps.generator.id, reason: { code: 'abstained', why: qualification.abstainReason! }, repairs: round, transcript, sparql, linking, groundingCuts: grounding?.cuts ?? [] };
    }
  }
  return {
    status: 'answered', question, graph: graph ?? null, generator: deps.generator.id, sparql, result, repairs: round, transcript,
    lane: 'generated-query', verified: false, citations, qualification, linking, groundingCuts: grounding?.cuts ?? [],
  };
}

/** No rows, one row whose only value is a zero count, or ASK false. */
function foundNothing(r: QueryResult): boolean {
  if (r.kind === 'ask') return !r.value;
  if (r.rows.length === 0) return true;
  if (r.rows.length === 1 && r.vars.length === 1) {
    const t = r.rows[0]![r.vars[0]!];
    return t?.type === 'literal' && /#(integer|decimal|long|int)$/.test(t.datatype ?? '') && Number(t.value) === 0;
  }
  return false;
}

function summarise(l: Linking): LinkSummary {
  return {
    entities: l.entities.map((e) => ({ mention: e.mention, iri: e.iri, label: e.label, exact: e.exact })),
    ambiguous: l.ambiguous.map((a) => ({ mention: a.mention, candidates: a.candidates.map((c) => ({ iri: c.iri, label: c.label })) })),
    classes: l.classes.map((c) => ({ mention: c.mention, iri: c.iri })),
    relations: l.relations.slice(0, 5).map((r) => ({ iri: r.iri, score: r.score })),
  };
}
