/**
 * plan: intent + discovery candidates → Plan. Deterministic, code only.
 *
 * Every relevant candidate gets a verdict (exact / composed / infeasible) with a reason, from the
 * operations its catalog entry declares and the operation the shape requires. The best candidate
 * is chosen in strict priority: exact over composed, then complete coverage over declared partial
 * coverage, then discovery order. When no candidate is eligible the plan is `infeasible` and its
 * reason names the missing operation — a successful plan, not an error.
 *
 * Relevance: a candidate is assessed only if it carries the measure's words (coverage, and the head
 * noun itself: "inflation" of "inflation rate") and scores within reach of the best candidate; this
 * is a cut by score, after scoring, never by count. Questions that ask for records are answered by
 * operations, so operations are cut against the best operation, and every operation of a source
 * whose operation is relevant is assessed too (which of its operations fits is the planner's call,
 * not the ranker's). "How many X" counts members of a population: the operations whose rows are X.
 */
import type { Candidate, OperationRef } from '../discover/index.ts';
import type { Intent } from '../understand/intent.ts';
import { grainMismatch, requirementFor, type Requirement } from './algebra.ts';
import { freshnessMismatch, grainRowNouns, kindMismatch, singular, sourceNamesKind } from './kinds.ts';

export type Verdict = 'exact' | 'composed' | 'infeasible';

export interface Assessment {
  candidateKey: string;
  kind: 'measure' | 'operation';
  publisherId: string;
  title: string;
  discoveryRank: number;
  verdict: Verdict;
  reason: string;
  /** The operation the verdict rests on, when eligible. */
  operation?: OperationRef;
  complete?: boolean;
  /** Why an infeasible verdict was reached, as a code: `stale` (the source is not dated by the day and the question asks for now). */
  reasonCode?: 'stale';
  /** `fallback`: beyond the relevance cut, tried only after every planned candidate failed (see `fallbackCandidates`). */
  tier?: 'planned' | 'fallback';
}

export interface Plan {
  question: string;
  shape: Intent['shape'];
  required: { exact: string[]; composed: string[]; missing: string };
  verdict: Verdict;
  reason: string;
  selected?: Assessment;
  /** Every assessed candidate, in priority order. */
  assessments: Assessment[];
  /** Eligible candidates beyond the relevance cut, from sources the cut left out, in discovery order (rule 5: backtracking across sources). */
  fallback?: Assessment[];
  /** Per component (ratio, correlation): the plan of each measure. */
  components?: { attribute: string; verdict: Verdict; reason: string; selected?: Assessment }[];
  considered: number;
  discovered: number;
}

export interface RelevanceOptions { minCoverage: number; minScoreRatio: number }
export const DEFAULT_RELEVANCE: RelevanceOptions = { minCoverage: 0.5, minScoreRatio: 0.35 };

/** Shapes that ask for records rather than a measure: the measure words are search terms, not a match test. */
const RECORD_SHAPES = new Set(['topical', 'entity_list', 'status', 'grant_graph']);

export function relevant(candidates: Candidate[], options: RelevanceOptions = DEFAULT_RELEVANCE, shape?: Intent['shape'], countsRecords = false): Candidate[] {
  const top = candidates[0]?.score ?? 0;
  const records = (shape !== undefined && RECORD_SHAPES.has(shape)) || countsRecords;
  if (!records) return candidates.filter((c) => c.coverage >= options.minCoverage && c.headCovered !== false && c.score >= top * options.minScoreRatio);
  const topOp = candidates.find((c) => c.card.kind === 'operation')?.score ?? 0;
  const kept = candidates.filter((c) => c.score >= (c.card.kind === 'operation' ? topOp : top) * options.minScoreRatio);
  const sources = new Set(kept.filter((c) => c.card.kind === 'operation').map((c) => c.card.publisherId));
  const keptIds = new Set(kept.map((c) => c.card.id));
  const siblings = candidates.filter((c) => c.card.kind === 'operation' && sources.has(c.card.publisherId) && !keptIds.has(c.card.id));
  return [...kept, ...siblings];
}

/** "number of 501(c)(3) organizations" → "organization"; "tax returns" → "return": what the rows are. */
function recordNoun(phrase: string | null): string | null {
  const rest = (phrase ?? '').replace(/^(?:number|count) of\s+/i, '').trim();
  const last = rest.split(/\s+/).pop()?.toLowerCase().replace(/[^a-z]/g, '');
  return last ? singular(last) : null;
}

/** Operations whose rows are the records named ("one organization (EIN, ...)" for organizations). */
function operationsReturning(candidates: Candidate[], noun: string): Candidate[] {
  return candidates.filter((c) => c.card.kind === 'operation' && c.card.operations.some((o) => grainRowNouns(o.grain).includes(noun)));
}

function assessOp(intent: Intent, req: Requirement, op: OperationRef): { verdict: Verdict; reason: string; reasonCode?: 'stale' } {
  const geo = grainMismatch(intent.geography?.level, op.grain, op.coverageOf, op.kind);
  if (geo) return { verdict: 'infeasible', reason: `${op.key} (${op.kind}) ${geo}` };
  const kind = kindMismatch(intent, op);
  if (kind) return { verdict: 'infeasible', reason: `${op.key} (${op.kind}) ${kind}` };
  const stale = freshnessMismatch(intent, op);
  if (stale) return { verdict: 'infeasible', reason: `${op.key} (${op.kind}) ${stale}`, reasonCode: 'stale' };
  const partial = !op.complete;
  // An ordered read filtered by the entity's own key lists that entity's records.
  if (intent.shape === 'entity_list' && op.kind === 'ordered_top_n' && op.accepts.length > 0) {
    return { verdict: 'exact', reason: `${op.key} lists records filtered by the entity (${op.accepts.join(', ')})` };
  }
  if (req.exact.includes(op.kind) && !(partial && req.needsComplete.includes(op.kind))) {
    return { verdict: 'exact', reason: `${op.key} is ${a(words(op.kind))}, which answers ${a(words(intent.shape))} question directly` };
  }
  if (req.composed.includes(op.kind) || req.exact.includes(op.kind)) {
    if (partial && req.needsComplete.includes(op.kind)) return { verdict: 'infeasible', reason: `${op.key} declares partial coverage (${op.coverageOf}); ${a(words(intent.shape))} needs the whole population` };
    return { verdict: 'composed', reason: `${op.key} (${op.kind.replace(/_/g, ' ')}) composes ${a(words(intent.shape))} answer${partial ? ` over declared partial coverage (${op.coverageOf})` : ''}` };
  }
  return { verdict: 'infeasible', reason: `${op.key} is ${a(words(op.kind))}; ${a(words(intent.shape))} question needs ${req.missing}` };
}

const words = (k: string) => k.replace(/_/g, ' ');
const a = (phrase: string) => `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`;

const RANK: Record<Verdict, number> = { exact: 0, composed: 1, infeasible: 2 };

export function assess(intent: Intent, req: Requirement, c: Candidate): Assessment {
  const base = { candidateKey: c.card.key, kind: c.card.kind, publisherId: c.card.publisherId, title: c.card.title, discoveryRank: c.rank };
  let best: Assessment | undefined;
  const reasons: string[] = [];
  let stale = false;
  for (const op of c.card.operations) {
    const v = assessOp(intent, req, op);
    const a: Assessment = { ...base, verdict: v.verdict, reason: v.reason, operation: op, complete: op.complete };
    if (v.verdict === 'infeasible') { reasons.push(v.reason); stale ||= v.reasonCode === 'stale'; continue; }
    if (!best || RANK[a.verdict] < RANK[best.verdict] || (RANK[a.verdict] === RANK[best.verdict] && a.complete && !best.complete)) best = a;
  }
  if (best) return best;
  return { ...base, verdict: 'infeasible', reason: reasons.join('; ') || `${c.card.key} declares no operation`, ...(stale ? { reasonCode: 'stale' as const } : {}) };
}

/** Strict priority: verdict, then complete over partial coverage, then discovery order. */
export function byPriority(a: Assessment, b: Assessment): number {
  return RANK[a.verdict] - RANK[b.verdict] || Number(b.complete ?? false) - Number(a.complete ?? false) || a.discoveryRank - b.discoveryRank;
}

function decide(intent: Intent, req: Requirement, candidates: Candidate[], relevance: RelevanceOptions, what: string) {
  // "How many X": a count of members, so X names the population, not a published measure.
  const countsRecords = intent.shape === 'aggregate' && /^(number|count) of\b/i.test(intent.attribute ?? '');
  let considered: Candidate[];
  if (countsRecords) {
    const members = operationsReturning(candidates, recordNoun(intent.attribute) ?? '');
    considered = members.length > 0 ? members : relevant(candidates, relevance, intent.shape, true);
  } else {
    considered = relevant(candidates, relevance, intent.shape, false);
    // A status is a field of the entity's own record: the operations of sources about entities of its kind qualify.
    // The kind is the intent's type or, when the question leaves it open, the status asked: a
    // 501(c)(3), a public charity or a private foundation is a nonprofit's status, an accelerated
    // filer a company's (the status words name the kind of entity that can hold them).
    if (intent.shape === 'status' && intent.entity_status !== 'none') {
      const have = new Set(considered.map((c) => c.card.id));
      const kind = intent.type ?? intent.attribute;
      considered = [...considered, ...candidates.filter((c) => c.card.kind === 'operation' && !have.has(c.card.id) && sourceNamesKind(kind, c.card.source))];
    }
    // A list of records ("tax returns") is served by the operations whose rows are those records, when any is relevant.
    // Those operations are looked for among every scored candidate, not only the best-scored ones:
    // a card that declares rows of returns ("one entry per return") serves a list of returns however
    // its wording scores against the question's.
    if (intent.shape === 'entity_list') {
      const noun = recordNoun(intent.attribute) ?? '';
      const rows = operationsReturning(considered, noun);
      const more = operationsReturning(candidates, noun).filter((c) => !rows.includes(c));
      if (rows.length > 0) considered = [...rows, ...more];
    }
    // A topical question names records and a topic ("grants for tribal energy development"): the topic
    // words are the search's argument, which no card carries, so they rank the search poorly. When
    // none of the best-scored is a search, the search operations among every scored candidate whose
    // own card names one of the question's words (the records: "grant", "opportunity") qualify.
    if (intent.shape === 'topical' && !considered.some((c) => c.card.operations.some((o) => o.kind === 'search'))) {
      const words = new Set((intent.attribute ?? '').toLowerCase().split(/\s+/).map((w) => singular(w.replace(/[^a-z]/g, ''))).filter((w) => w.length > 2));
      const names = (c: Candidate) => `${c.card.title} ${c.card.description}`.toLowerCase().split(/[^a-z]+/).some((w) => w.length > 2 && words.has(singular(w)));
      considered = [...considered, ...candidates.filter((c) => c.card.kind === 'operation' && !considered.includes(c) && c.card.operations.some((o) => o.kind === 'search') && names(c))];
    }
  }
  const assessments = considered.map((c) => assess(intent, req, c)).sort(byPriority);
  const selected = assessments[0] && assessments[0].verdict !== 'infeasible' ? assessments[0] : undefined;
  // the plan ranks candidates; which one is read is decided by the executor from the identifiers the
  // entity resolves to (a company has a CIK, not an EIN). When the best verdict spans several sources
  // the reason names them all, not one the executor may never bind (the attempts name the one read).
  const top = selected ? assessments.filter((x) => x.verdict === selected.verdict && x.operation) : [];
  const sources = [...new Set(top.map((x) => x.publisherId))];
  const reason = selected
    ? sources.length > 1
      ? `${selected.verdict}: ${top.length} candidate operations from ${sources.length} sources ${selected.verdict === 'exact' ? `answer ${a(words(intent.shape))} question directly` : `compose ${a(words(intent.shape))} answer`} (${sources.slice(0, 4).join(', ')}${sources.length > 4 ? `, and ${sources.length - 4} more` : ''}); which one is read depends on how the entity binds to each (the attempts name it)`
      : `${selected.verdict}: ${selected.reason}`
    : considered.length === 0
      ? `no published measure or operation matches ${what}`
      : assessments.every((x) => x.reasonCode === 'stale')
        ? `no source publishes ${what} dated by the day, and the question asks for the value right now (${considered.length} candidate${considered.length === 1 ? '' : 's'} assessed)`
        : `no source exposes ${req.missing} for ${what} (${considered.length} candidate${considered.length === 1 ? '' : 's'} assessed)`;
  return { considered, assessments, selected, verdict: (selected?.verdict ?? 'infeasible') as Verdict, reason, fallback: fallbackCandidates(intent, req, candidates, considered) };
}

/** Shapes read by keyed measure reads, whose search may continue into another source's candidates. */
const MEASURE_SHAPES = new Set(['point', 'comparison', 'timeseries']);
export const FALLBACK = { window: 50, perSource: 4, minCoverage: 1 / 3 } as const;

/**
 * The next eligible candidates when every planned one fails (issue 10, rule 5): a name the planned
 * sources do not hold (NVIDIA is not a nonprofit), a missing recording, an unusable key, no data.
 * The relevance cut ranks candidates by how well their words match; it says nothing about whether
 * the entity is in the source. So the best-ranked measures (at most `perSource`) of every source
 * the cut left out entirely, within the first `window` discovered and covering at least
 * `minCoverage` of the measure's words, follow the planned ones, in discovery order. They are
 * assessed like any candidate (only eligible ones are kept) and validated like any read: a record
 * whose label does not lead with the words asked is still the residual question no code settles.
 */
export function fallbackCandidates(intent: Intent, req: Requirement, candidates: readonly Candidate[], considered: readonly Candidate[]): Assessment[] {
  if (!MEASURE_SHAPES.has(intent.shape)) return [];
  const planned = new Set(considered.map((c) => c.card.publisherId));
  const taken = new Map<string, number>();
  const out: Assessment[] = [];
  for (const c of candidates.slice(0, FALLBACK.window)) {
    if (c.card.kind !== 'measure' || planned.has(c.card.publisherId) || c.coverage < FALLBACK.minCoverage) continue;
    if ((taken.get(c.card.publisherId) ?? 0) >= FALLBACK.perSource) continue;
    const a = assess(intent, req, c);
    if (a.verdict === 'infeasible') continue;
    taken.set(c.card.publisherId, (taken.get(c.card.publisherId) ?? 0) + 1);
    out.push({ ...a, tier: 'fallback' });
  }
  return out;
}

export function plan(intent: Intent, candidates: Candidate[], options: { components?: Map<string, Candidate[]>; relevance?: RelevanceOptions } = {}): Plan {
  const req = requirementFor(intent);
  const relevance = options.relevance ?? DEFAULT_RELEVANCE;
  const what = intent.attribute ? `"${intent.attribute}"` : 'this question';
  const main = decide(intent, req, candidates, relevance, what);
  const out: Plan = {
    question: intent.question, shape: intent.shape,
    required: { exact: req.exact, composed: req.composed, missing: req.missing },
    verdict: main.verdict, reason: main.reason, ...(main.selected ? { selected: main.selected } : {}),
    assessments: main.assessments, considered: main.considered.length, discovered: candidates.length,
    ...(main.fallback.length ? { fallback: main.fallback } : {}),
  };
  // Ratio and correlation: every component measure must be answerable; the plan is as strong as its weakest.
  if (options.components && options.components.size >= 2) {
    out.components = [...options.components].map(([attribute, cands]) => {
      const d = decide(intent, req, cands, relevance, `"${attribute}"`);
      return { attribute, verdict: d.verdict, reason: d.reason, ...(d.selected ? { selected: d.selected } : {}) };
    });
    const worst = out.components.reduce((w, c) => (RANK[c.verdict] > RANK[w.verdict] ? c : w));
    if (RANK[worst.verdict] > RANK[out.verdict] || out.verdict === 'infeasible') {
      out.verdict = worst.verdict;
      out.reason = worst.verdict === 'infeasible' ? `component ${JSON.stringify(worst.attribute)}: ${worst.reason}` : `${worst.verdict}: every component measure has an eligible operation`;
    }
    if (out.components.every((c) => c.verdict !== 'infeasible') && out.verdict === 'infeasible') out.verdict = 'composed';
  }
  return out;
}
