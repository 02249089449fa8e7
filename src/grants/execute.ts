/**
 * The grant-graph shape: intent → typed grant question → result → admitted evidence.
 *
 * Input: an intent of shape grant_graph, the store and registry, the caller's on_ambiguity.
 * Output: a GrantExecution — evidence items (each total and each row a fact, citing the source
 * documents its filings came from as the responses its attempt used), the typed result, the
 * reader's text and disclosures; or a refusal with a typed failure; or a clarification.
 *
 * Decides: the mechanism from the intent's direction (forward, reverse, intersection, population)
 * and what it names (a funder's recipients ranked, a place, a cause), and the relation ambiguity:
 * a name with no direction ("Ford Foundation grants") is read both ways; when both readings have
 * grants the caller is asked (on_ambiguity=ask) or told which reading was taken (answer).
 * Never: treats a question it cannot map as some other question — it refuses with the reason.
 */
import type { Attempt } from '../execute/attempt.ts';
import type { AnyEvidence } from '../evidence/types.ts';
import type { RawPointer } from '../http/client.ts';
import type { IdentityRegistry } from '../resolve/registry.ts';
import type { Intent } from '../understand/intent.ts';
import { causeMatch } from './cause.ts';
import { renderCandidate, renderDisclosure, renderFailure, renderShapeFailure, usd } from './render.ts';
import { stateCode } from './states.ts';
import { isUnnamedRecipient } from './unnamed.ts';
import type { GrantStore } from './store.ts';
import type { Role } from './resolve.ts';
import { choiceName, traverse, type Disclosure, type GrantFailure, type GrantQuestion, type GrantResult, type OrgRef, type Total } from './traverse.ts';
import { G, type GrantIris } from './vocab.ts';
import * as Q from './queries.ts';

export const GRANT_SOURCE = 'assay-grant-graph';

const OPERATION: Record<GrantResult['kind'], string> = {
  forward: 'grants-by-funder', pair: 'grants-by-funder', reverse: 'funders-of-recipient', intersection: 'common-recipients', ranking: 'top-funders', geographic: 'grants-by-state', cause: 'grants-by-cause',
  largest: 'grants-by-funder', average: 'grants-by-funder', two_funders: 'grants-by-funder', common_funders: 'funders-of-recipient',
};

/**
 * What a grant question measures beyond whose grants, read from its attribute (the offline cues
 * write these words; a model's intent may word them its own way): an average grant, the largest
 * single grants, or a ranking by the number of grants rather than the amount.
 */
const AVERAGE = /\b(?:average|mean|typical)\b/i;
const LARGEST = /\b(?:largest|biggest|top|single)\s+(?:single\s+|individual\s+)?grants?\b|\b(?:single|individual)\s+grants?\b/i;
/** States as the grain a question asks by, in its own words (lower case: "Michigan State University" is a name). */
const STATE_GRAIN = /\b(?:states|each\s+state|by\s+state|per\s+state|(?:[Ww]hich|[Ww]hat)\s+state)\b/;
/** The smallest single grants (of one funder or one recipient): the largest-grants reading, ascending. */
const SMALLEST = /\b(?:smallest|lowest|tiniest)\s+(?:single\s+|individual\s+)?grants?\b/i;
const BY_COUNT = /\b(?:number\s+of\s+grants|most\s+grants|fewest\s+grants|grant\s+counts?|grants?\s+count|count\s+of\s+grants|by\s+count)\b/i;

/** Words that name grants in general, not a cause or a recipient: an attribute made only of these asks for all of a funder's grants. */
const GENERIC_WORDS = new Set(['grant', 'grants', 'money', 'funding', 'fund', 'funds', 'donation', 'donations', 'gift', 'gifts', 'recipient', 'recipients', 'grantee', 'grantees',
  'organization', 'organizations', 'nonprofit', 'nonprofits', 'charity', 'charities', 'total', 'totals', 'amount', 'amounts', 'paid', 'made', 'given', 'awarded', 'the', 'of', 'in', 'all']);
const GENERIC = { test: (attr: string): boolean => attr.toLowerCase().split(/[^a-z]+/).filter(Boolean).every((w) => GENERIC_WORDS.has(w)) };

/**
 * Why a grant question is refused before or after the traversal, for reasons of the question's
 * reading rather than of the graph's contents (those are the traversal's GrantFailure codes).
 */
export type ShapeFailure =
  | { code: 'unmappable'; reason: Unmappable }
  /** A tax year was asked of a reading whose rollups are not kept per year, and the graph holds other years for it. */
  | { code: 'year_not_filterable'; taxYear: number; reading: GrantQuestion['direction']; years: number[] }
  /** The smallest grants of the whole graph: no bound on which funders hold them, so only every edge would answer. */
  | { code: 'smallest_graph_wide' }
  /** No grant is placed under the cause by an NTEE code or a purpose text: not a finding that none went to it. */
  | { code: 'cause_unclassified'; cause: string; funder: string | null };

/** Why a grant question has no reading the grant graph answers, worded in render.ts. */
export type Unmappable =
  /** A median: the graph gives an average and the largest or smallest single grants. */
  | { code: 'median' }
  /** Organizations ranked by their average grant. */
  | { code: 'ranked_by_average' }
  /** More funders than two to set side by side. */
  | { code: 'too_many_funders'; count: number }
  /** Whose grants (made, or received) the question does not say. */
  | { code: 'no_name'; role: 'funder' | 'recipient' }
  /** An average or a single grant within a state: of one funder's grants, of one recipient's, or of the graph's. */
  | { code: 'measure_in_state'; measure: 'average' | 'smallest' | 'largest'; scope: 'funder' | 'recipient' | 'graph'; name: string | null }
  /** A place the state rollups are not keyed by. */
  | { code: 'not_a_state'; place: string }
  /** The recipients of one funder that another did not fund: a difference, not an intersection. */
  | { code: 'difference' }
  /** An intersection names two organizations; this many were named. */
  | { code: 'intersection_arity'; count: number; of: 'funders' | 'recipients' }
  /** Neither whose grants nor which direction. */
  | { code: 'no_direction' }
  /** An average or single grants of a name that may be the funder or the recipient. */
  | { code: 'measure_direction_open'; measure: 'average' | 'largest'; name: string };

export type Mapped = { ok: true; question: GrantQuestion } | { ok: true; openDirection: string } | { ok: false; failure: ShapeFailure };

/** The typed grant question an intent asks, from its direction and what it names. */
export function questionFromIntent(intent: Intent): Mapped {
  const name = intent.canonical_entity ?? intent.entity;
  const taxYear = intent.period?.year ?? undefined;
  const year = taxYear ? { taxYear } : {};
  const limit = intent.limit ?? 10;
  const attr = (intent.attribute ?? '').trim();
  const recipients = /\b(recipients?|grantees?)\b/i.test(attr);
  const within = intent.geography?.within ?? null;
  const average = AVERAGE.test(attr);
  const smallest = !average && SMALLEST.test(attr);
  const largest = !average && (smallest || LARGEST.test(attr));
  const asc = smallest ? { order: 'asc' as const } : {};
  const by = BY_COUNT.test(attr) ? { by: 'count' as const } : {};
  // an amount the funders or recipients are kept by ("more than $1 million"): a dollar amount, compared
  const t = intent.threshold;
  const threshold = t && t.op !== '=' && (t.unit === 'USD' || t.unit === null) ? { threshold: { op: t.op, value: t.value } } : {};
  // what is left of the attribute once the reading's own words are taken out: a recipient, a place or a cause
  const rest = attr.replace(AVERAGE, ' ').replace(SMALLEST, ' ').replace(LARGEST, ' ').replace(BY_COUNT, ' ').replace(/\b(?:grant|grants|size|sizes|amount|amounts)\b/gi, ' ').replace(/\s+/g, ' ').trim();
  // a median, or a ranking by average: not readings the grant graph has (the average is one scope's totals divided)
  if (/\bmedian\b/i.test(attr)) return { ok: false, failure: { code: 'unmappable', reason: { code: 'median' } } };
  if (/\branked\s+by\s+average\b/i.test(attr)) return { ok: false, failure: { code: 'unmappable', reason: { code: 'ranked_by_average' } } };
  switch (intent.direction) {
    case 'forward': {
      // two funders: each one's grants (to one recipient, or in all), side by side
      if (intent.entities.length === 2 && !intent.entity) {
        const to = attr && !GENERIC.test(attr) ? { recipient: attr } : {};
        return { ok: true, question: { direction: 'two_funders', funders: [intent.entities[0]!, intent.entities[1]!], ...to, ...year, combine: intent.order ? 'difference' : 'sum' } };
      }
      if (intent.entities.length > 2) return { ok: false, failure: { code: 'unmappable', reason: { code: 'too_many_funders', count: intent.entities.length } } };
      if (!name) return { ok: false, failure: { code: 'unmappable', reason: { code: 'no_name', role: 'funder' } } };
      if (average || largest) {
        // what is left of the attribute names the grants' recipient ("average grant to Elevate Energy"); a place is not read here
        const to = rest.replace(/^(?:to|for)\s+/i, '').trim();
        if (within || (to && stateCode(to))) return { ok: false, failure: { code: 'unmappable', reason: { code: 'measure_in_state', measure: average ? 'average' : smallest ? 'smallest' : 'largest', scope: 'funder', name } } };
        const recipient = to && !GENERIC.test(to) ? { recipient: to } : {};
        return { ok: true, question: average ? { direction: 'average', funder: name, ...recipient, ...year } : { direction: 'largest_grants', funder: name, limit, ...recipient, ...year, ...asc } };
      }
      if (within) {
        const st = stateCode(within);
        if (!st) return { ok: false, failure: { code: 'unmappable', reason: { code: 'not_a_state', place: within } } };
        return { ok: true, question: { direction: 'geographic', state: st, funder: name, ...year, ...threshold } };
      }
      // states named as the grain ("which states", "by state"; not the "State" of a name), none as the place: the funder's grants by state
      if (intent.geography?.level === 'state' && (!attr || GENERIC.test(attr) || recipients || intent.order) && STATE_GRAIN.test(intent.question)) return { ok: true, question: { direction: 'states_of', funder: name, limit, ...by, ...year } };
      if (recipients || intent.order || by.by) return { ok: true, question: { direction: 'top_recipients_of', funder: name, limit, ...by, ...year, ...threshold } };
      // what the grants went to: a recipient the graph holds ("How much did X give to Y?", a pair), else a cause;
      // never all of the funder's grants in place of the narrower question
      // ("How much did X give to Michigan?": the place, as "to organizations in Michigan" reads)
      const st = attr ? stateCode(attr) : null;
      if (st) return { ok: true, question: { direction: 'geographic', state: st, funder: name, ...year, ...threshold } };
      if (attr && !GENERIC.test(attr)) return { ok: true, question: { direction: 'pair', funder: name, recipient: attr, ...year } };
      return { ok: true, question: { direction: 'forward', funder: name, ...year } };
    }
    case 'reverse':
      if (!name) return { ok: false, failure: { code: 'unmappable', reason: { code: 'no_name', role: 'recipient' } } };
      if ((average || largest) && within) return { ok: false, failure: { code: 'unmappable', reason: { code: 'measure_in_state', measure: average ? 'average' : 'largest', scope: 'recipient', name } } };
      if (average) return { ok: true, question: { direction: 'average', recipient: name, ...year } };
      if (largest) return { ok: true, question: { direction: 'largest_grants', recipient: name, limit, ...year, ...asc } };
      if (by.by) return { ok: true, question: { direction: 'funders_by_count', recipient: name, limit } };
      return { ok: true, question: { direction: 'reverse', recipient: name, limit, ...year, ...threshold } };
    case 'intersection':
      if (/\bbut\s+not\b|\bnot\b/i.test(attr)) return { ok: false, failure: { code: 'unmappable', reason: { code: 'difference' } } };
      if (intent.entities.length !== 2) return { ok: false, failure: { code: 'unmappable', reason: { code: 'intersection_arity', count: intent.entities.length, of: intent.attribute === 'funders' ? 'recipients' : 'funders' } } };
      if (intent.attribute === 'funders') return { ok: true, question: { direction: 'common_funders', recipients: [intent.entities[0]!, intent.entities[1]!] } };
      return { ok: true, question: { direction: 'intersection', funders: [intent.entities[0]!, intent.entities[1]!] } };
    case 'population': {
      if ((average || largest) && within) return { ok: false, failure: { code: 'unmappable', reason: { code: 'measure_in_state', measure: average ? 'average' : 'largest', scope: 'graph', name: null } } };
      if (average) return { ok: true, question: { direction: 'average' } };
      if (smallest) return { ok: false, failure: { code: 'smallest_graph_wide' } };
      if (largest) return { ok: true, question: { direction: 'largest_grants', limit } };
      if (/^funders\b/.test(attr) && within) {
        const st = stateCode(within);
        if (!st) return { ok: false, failure: { code: 'unmappable', reason: { code: 'not_a_state', place: within } } };
        return { ok: true, question: { direction: 'funders_in_state', state: st, limit, ...by, ...threshold } };
      }
      if (within) {
        const st = stateCode(within);
        if (st) return { ok: true, question: { direction: 'geographic', state: st } };
      }
      // the place as what the question asks of ("How much did Michigan organizations receive?")
      const placed = attr ? stateCode(attr) : null;
      if (placed) return { ok: true, question: { direction: 'geographic', state: placed } };
      if (attr && !GENERIC.test(attr) && !by.by && causeMatch(attr)) return { ok: true, question: { direction: 'cause', cause: attr, ...year } };
      const subject = intent.geography?.level === 'state' ? 'state' : recipients ? 'recipient' : 'funder';
      return { ok: true, question: { direction: 'ranking', subject, limit, order: intent.order ?? 'desc', ...by } };
    }
    default:
      if (!name) return { ok: false, failure: { code: 'unmappable', reason: { code: 'no_direction' } } };
      if (rest !== attr && (average || largest)) return { ok: false, failure: { code: 'unmappable', reason: { code: 'measure_direction_open', measure: average ? 'average' : 'largest', name } } };
      return { ok: true, openDirection: name };
  }
}

export interface GrantDeps { store: GrantStore; iris: GrantIris; registry?: IdentityRegistry; signal?: AbortSignal }

export type GrantExecution =
  | { kind: 'evidence'; result: GrantResult; attempt: Attempt; items: Array<Omit<AnyEvidence, 'index'>>; text: string; disclosures: string[]; codes: Disclosure[]; relation?: RelationChoice; derived: DerivedFigure[] }
  | { kind: 'refused'; attempt?: Attempt; failure: GrantFailure | ShapeFailure; reason: string }
  | { kind: 'clarify'; question: string; options: RelationOption[] }
  /** Several organizations match a name: which one is meant? Each option names one by a choice name (`choiceName`) and carries its paid total in the role. */
  | { kind: 'clarify_org'; question: string; role: Role; asked: string; options: OrgOption[] };

export interface OrgOption { n: number; choice: string; label: string; paid: number; grants: number }

/** A figure Assay computes from admitted values (an average, a sum or difference of two totals), graded derived: operands are indexes into the items. */
export interface DerivedFigure { value: number; unit: 'USD'; label: string; arithmetic: string; operands: number[] }

export interface RelationOption { n: number; direction: 'forward' | 'reverse'; label: string; paid: number; grants: number }
export interface RelationChoice { asked: string; chosen: 'forward' | 'reverse'; other: { direction: 'forward' | 'reverse'; paid: number; grants: number } | null }

/** Runs a grant question for an intent; `nextAttempt` numbers the attempt within the run. */
export async function executeGrantGraph(deps: GrantDeps, intent: Intent, options: { onAmbiguity: 'answer' | 'all' | 'ask'; nextAttempt: () => number; planVerdict: 'exact' | 'composed'; direction?: 'forward' | 'reverse' }): Promise<GrantExecution> {
  const mapped = questionFromIntent(options.direction ? { ...intent, direction: options.direction } : intent);
  if (!mapped.ok) return { kind: 'refused', failure: mapped.failure, reason: renderShapeFailure(mapped.failure) };
  let question: GrantQuestion;
  let relation: RelationChoice | undefined;
  if ('openDirection' in mapped) {
    // relation ambiguity: grants made, or grants received? read both, then ask or say which
    const name = mapped.openDirection;
    const year = intent.period?.year ? { taxYear: intent.period.year } : {};
    const made = await traverse(deps, { direction: 'forward', funder: name, ...year });
    const got = await traverse(deps, { direction: 'reverse', recipient: name, limit: intent.limit ?? 10, ...year });
    const paidOf = (r: typeof made): Total | null => (r.ok && (r.result.kind === 'forward' || r.result.kind === 'reverse') ? r.result.totals.paid : null);
    const m = paidOf(made);
    const g = paidOf(got);
    if (m && g && m.grants > 0 && g.grants > 0) {
      if (options.onAmbiguity === 'ask') {
        return { kind: 'clarify', question: `"${name} grants" can mean the grants ${name} made or the grants it received. Which do you mean?`, options: [
          { n: 1, direction: 'forward', label: `grants ${name} made`, paid: m.amount, grants: m.grants },
          { n: 2, direction: 'reverse', label: `grants ${name} received`, paid: g.amount, grants: g.grants },
        ] };
      }
      relation = { asked: name, chosen: 'forward', other: { direction: 'reverse', paid: g.amount, grants: g.grants } };
      question = { direction: 'forward', funder: name, ...year };
    } else if (g && g.grants > 0) {
      relation = { asked: name, chosen: 'reverse', other: null };
      question = { direction: 'reverse', recipient: name, limit: intent.limit ?? 10, ...year };
    } else {
      relation = { asked: name, chosen: 'forward', other: null };
      question = { direction: 'forward', funder: name, ...year };
    }
  } else question = mapped.question;

  const n = options.nextAttempt();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  let outcome = await traverse(deps, question);
  // "give to education": no recipient of that name, so the words name a cause
  // (a recipient found only by some words of its name yields to a cause the words name: "education" is not "XYZ Education Fund")
  const byWordsOnly = outcome.ok && outcome.result.disclosures.some((d) => d.code === 'match_method' && d.role === 'recipient' && d.method === 'name_words');
  // (a cause as typed: a word or three, not a list of names — "Freshwater Future and the Alliance for the Great Lakes" names recipients)
  const causeLike = (t: string) => t.trim().split(/\s+/).length <= 3 && !/\s\p{Lu}/u.test(t.trim());
  if (question.direction === 'pair' && causeLike(question.recipient) && (byWordsOnly || (!outcome.ok && (outcome.failure.code === 'not_in_graph' || outcome.failure.code === 'ambiguous_org') && outcome.failure.role === 'recipient')) && causeMatch(question.recipient.toLowerCase())) {
    question = { direction: 'cause', cause: question.recipient, funder: question.funder, ...(question.taxYear ? { taxYear: question.taxYear } : {}) };
    outcome = await traverse(deps, question);
  }
  // a name several organizations match: asked (on_ambiguity=ask), else the leading one answered and said
  const chosen: Disclosure[] = [];
  for (let i = 0; i < 3 && !outcome.ok && outcome.failure.code === 'ambiguous_org'; i++) {
    const f = outcome.failure;
    const ranked = await rankCandidates(deps, f.role, f.candidates);
    const method = f.method ?? 'name_exact';
    if (options.onAmbiguity === 'ask') {
      return { kind: 'clarify_org', role: f.role, asked: f.asked, question: `"${f.asked}" matches ${ranked.length} ${f.role}s in the grant graph. Which one do you mean?`, options: ranked.map((c, k) => ({
        n: k + 1, choice: choiceName(c.org.iri, method, f.asked), label: renderCandidate(c.org), paid: c.paid, grants: c.grants,
      })) };
    }
    const lead = ranked[0]!;
    question = withName(question, f.role, f.asked, choiceName(lead.org.iri, method, f.asked));
    chosen.push({ code: 'ambiguous_chosen', role: f.role, asked: f.asked, chosen: renderCandidate(lead.org), others: ranked.slice(1).map((c) => renderCandidate(c.org)) });
    outcome = await traverse(deps, question);
  }
  if (outcome.ok) outcome.result.disclosures.unshift(...chosen);
  // the traversal read the coverage already; a failure without one reads it here
  const responses = await responsesFor(deps, outcome.ok ? outcome.result : null);
  const attempt: Attempt = {
    n, source: GRANT_SOURCE, operation: OPERATION[outcome.ok ? outcome.result.kind : kindOf(question)], measure: `${GRANT_SOURCE}/grants/amount-paid`,
    bindings: bindingsOf(question), requests: [`${deps.store.label}: grant graph <${deps.iris.graph}>`], responses: responses.all,
    startedAt, endedAt: new Date().toISOString(), elapsedMs: performance.now() - t0, checks: [],
    disposition: outcome.ok ? 'accepted' : 'rejected', ...(outcome.ok ? {} : { reason: renderFailure(outcome.failure), failure: outcome.failure.code }),
  };
  if (!outcome.ok) return { kind: 'refused', attempt, failure: outcome.failure, reason: renderFailure(outcome.failure) };
  const r = outcome.result;
  // a reading the year cannot select within is answered only when the graph holds no other year for it
  const year = intent.period?.year ?? undefined;
  if (year !== undefined && !yearApplied(question, year)) {
    const years = await yearsOf(deps, question, r);
    if (years.some((y) => y !== year)) return refusedAfter(attempt, { code: 'year_not_filterable', taxYear: year, reading: question.direction, years });
  }
  // nothing placed under the cause: the purpose texts may simply not say ("PROGRAM SUPPORT"), so $0 is not a finding
  if (r.kind === 'cause' && r.totals.paid.grants + r.totals.approvedFuture.grants === 0) {
    return refusedAfter(attempt, { code: 'cause_unclassified', cause: r.cause.cause, funder: r.funder ? r.funder[0]!.name : null });
  }
  const built = buildEvidence(r, n, options.planVerdict, responses);
  const unnamed = unnamedRecipientsListed(r);
  const codes: Disclosure[] = [...r.disclosures, ...(built.derived.length ? [r.kind === 'average' ? { code: 'average_derived' } as const : { code: 'combined_derived', combine: r.kind === 'two_funders' ? r.combine : 'sum' } as const] : []),
    ...(unnamed.length ? [{ code: 'unnamed_recipient', names: unnamed } as const] : [])];
  const disclosures = codes.map(renderDisclosure);
  if (relation) disclosures.unshift(relationNote(relation));
  return { kind: 'evidence', result: r, attempt, items: built.items, text: built.text, disclosures, codes, derived: built.derived, ...(relation ? { relation } : {}) };
}

/**
 * Where a placeholder a filer wrote in place of a recipient (unnamed.ts) is listed as a recipient or
 * a grant (a funder's grants, the recipients two funders share), the answer says so; rankings leave it out.
 */

/** The recipient names listed in a result that are such placeholders, once each. */
function unnamedRecipientsListed(r: GrantResult): string[] {
  const orgs: OrgRef[] = [];
  if ('edges' in r) orgs.push(...r.edges.map((e) => e.recipient));
  if (r.kind === 'ranking' && (r.subject === 'recipient' || r.subject === 'recipient_of')) orgs.push(...r.rows.map((x) => x.org));
  if (r.kind === 'intersection') orgs.push(...r.recipients.map((x) => x.recipient));
  return [...new Set(orgs.map((o) => o.name).filter(isUnnamedRecipient))];
}

/** The readings whose queries select by tax year (the rest read rollups kept over every year held). */
const yearApplied = (q: GrantQuestion, year: number): boolean => 'taxYear' in q && q.taxYear === year;

/**
 * A name's candidates, leading first: the largest paid total in the role the question gives the
 * name (then the most grants, then IRI), each with that total, from their rollups (one read).
 */
async function rankCandidates(deps: GrantDeps, role: Role, candidates: readonly OrgRef[]): Promise<Array<{ org: OrgRef; paid: number; grants: number }>> {
  const iris = candidates.map((c) => c.iri);
  const rows = await deps.store.select(role === 'funder' ? Q.funderTotals(deps.iris, iris) : Q.recipientTotals(deps.iris, iris), deps.signal);
  const paid = new Map<string, { paid: number; grants: number }>();
  for (const r of rows) {
    if (r.status!.value !== G.Paid) continue;
    const key = (role === 'funder' ? r.f : r.r)!.value;
    const v = paid.get(key) ?? { paid: 0, grants: 0 };
    v.paid += Number(r.total!.value); v.grants += Number(r.n!.value); paid.set(key, v);
  }
  return candidates.map((org) => ({ org, ...(paid.get(org.iri) ?? { paid: 0, grants: 0 }) }))
    .sort((a, b) => b.paid - a.paid || b.grants - a.grants || (a.org.iri < b.org.iri ? -1 : 1));
}

/** The question with one organization chosen for a name it asked in a role. */
function withName(q: GrantQuestion, role: Role, asked: string, choice: string): GrantQuestion {
  const same = (x: string) => x.trim() === asked;
  const out: Record<string, unknown> = { ...q };
  const fields = role === 'funder' ? ['funder', 'funders'] : ['recipient', 'recipients'];
  for (const k of fields) {
    const v = out[k];
    if (typeof v === 'string' && same(v)) { out[k] = choice; break; }
    if (Array.isArray(v) && v.some((x) => typeof x === 'string' && same(x))) {
      const i = v.findIndex((x) => typeof x === 'string' && same(x));
      out[k] = v.map((x, j) => (j === i ? choice : x));
      break;
    }
  }
  return out as GrantQuestion;
}

function refusedAfter(attempt: Attempt, failure: ShapeFailure): GrantExecution {
  const reason = renderShapeFailure(failure);
  return { kind: 'refused', attempt: { ...attempt, disposition: 'rejected', reason, failure: failure.code }, failure, reason };
}

/**
 * The tax years a result's figures are drawn from: its funders' own filings where it names funders
 * (read from their edges), else every year the graph holds.
 */
async function yearsOf(deps: GrantDeps, q: GrantQuestion, r: GrantResult): Promise<number[]> {
  const funders = q.direction === 'intersection' ? q.funders : 'funder' in q && q.funder ? [q.funder] : [];
  if (funders.length === 0) return r.coverage.taxYears;
  const years = new Set<number>();
  for (const f of funders) {
    const made = await traverse(deps, { direction: 'forward', funder: f });
    if (!made.ok || made.result.kind !== 'forward') return r.coverage.taxYears;
    for (const e of made.result.edges) years.add(e.taxYear);
  }
  return [...years].sort();
}

function relationNote(r: RelationChoice): string {
  const what = (d: 'forward' | 'reverse') => (d === 'forward' ? 'made' : 'received');
  return r.other
    ? `"${r.asked} grants" read as the grants ${r.asked} ${what(r.chosen)}; it also ${what(r.other.direction)} ${usd(r.other.paid)} in ${r.other.grants} paid grant${r.other.grants === 1 ? '' : 's'} (ask with on_ambiguity=ask to choose)`
    : `"${r.asked} grants" read as the grants ${r.asked} ${what(r.chosen)} (the graph holds none ${r.chosen === 'forward' ? 'to it' : 'from it'})`;
}

const kindOf = (q: GrantQuestion): GrantResult['kind'] => {
  switch (q.direction) {
    case 'top_recipients_of': case 'states_of': case 'funders_in_state': case 'funders_by_count': case 'ranking': return 'ranking';
    case 'largest_grants': return 'largest';
    default: return q.direction;
  }
};

function bindingsOf(q: GrantQuestion): Record<string, string> {
  const out: Record<string, string> = { direction: q.direction };
  for (const [k, v] of Object.entries(q)) if (k !== 'direction' && v !== undefined) out[k] = Array.isArray(v) ? v.join(' | ') : String(v);
  return out;
}

interface Responses { all: RawPointer[]; byDoc: Map<string, RawPointer> }

/** Most documents one attempt lists as its responses (the coverage rollup counts all of them). */
const MAX_DOCUMENTS = 200;

/** The filings and funders an answer's figures come from: their documents are what it cites. */
function sourcesOf(r: GrantResult | null): { filings: string[]; funders: string[] } {
  if (!r) return { filings: [], funders: [] };
  const iris = (os: readonly OrgRef[] | undefined) => (os ?? []).map((o) => o.iri);
  switch (r.kind) {
    case 'forward': return { filings: [...new Set(r.edges.map((e) => e.filing))], funders: iris(r.funder) };
    case 'pair': return { filings: [...new Set(r.edges.map((e) => e.filing))], funders: [] };
    case 'cause': return { filings: [...new Set(r.edges.map((e) => e.filing))], funders: iris(r.funder) };
    case 'reverse': return { filings: [], funders: r.funders.map((f) => f.org.iri) };
    case 'intersection': return { filings: [], funders: [...iris(r.funders[0]), ...iris(r.funders[1])] };
    case 'ranking': return { filings: [], funders: r.subject === 'recipient_of' || r.subject === 'state' ? iris(r.of) : r.subject === 'funder' ? r.rows.map((x) => x.org.iri) : [] };
    case 'geographic': return { filings: [], funders: iris(r.funder) };
    case 'largest': return { filings: [...new Set(r.edges.map((e) => e.filing))], funders: iris(r.of && (r.scope === 'funder' || r.scope === 'pair') ? r.of : []) };
    case 'average': return { filings: [], funders: r.scope === 'funder' || r.scope === 'pair' ? iris(r.of) : [] };
    case 'two_funders': return { filings: [], funders: [...iris(r.sides[0].funder), ...iris(r.sides[1].funder)] };
    case 'common_funders': return { filings: [], funders: r.funders.map((x) => x.funder.iri) };
  }
}

/**
 * Each source document behind the answer as the "publisher response" its evidence cites: upstream
 * URL, SHA-256, ingest time — read in one query, at most MAX_DOCUMENTS, never a scan of every
 * filing. A graph-wide answer over recipients or states (no funder named) lists the graph's first
 * documents by IRI; its coverage states how many there are.
 */
async function responsesFor(deps: GrantDeps, r: GrantResult | null): Promise<Responses> {
  const byDoc = new Map<string, RawPointer>();
  let rows = await deps.store.select(Q.answerDocuments(deps.iris, { ...sourcesOf(r), limit: MAX_DOCUMENTS }), deps.signal);
  // an answer whose funders have no filing node (a generated graph's) cites the graph's documents
  if (rows.length === 0) rows = await deps.store.select(Q.answerDocuments(deps.iris, { limit: MAX_DOCUMENTS }), deps.signal);
  for (const d of rows) {
    if (byDoc.has(d.d!.value)) continue;
    const upstream = d.upstream?.value;
    const url = upstream && /^https?:\/\//.test(upstream) ? upstream : `${deps.iris.doc('')}${encodeURIComponent(d.d!.value.split('/').pop() ?? '')}`;
    byDoc.set(d.d!.value, {
      source: GRANT_SOURCE, method: 'GET', url, status: 200, sha256: d.sha!.value, retrievedAt: d.t?.value ?? '',
      ...(d.kind?.value === 'grants_extract' ? { origin: { kind: 'sample' as const, derived: true, note: 'grants extract parsed from e-file returns by a third party; not an IRS file' } } : {}),
    });
  }
  return { all: [...byDoc.values()], byDoc };
}

type Item = Omit<AnyEvidence, 'index'>;

const entityOf = (o: OrgRef): Item['entity'] => ({
  label: o.name, keyType: o.ein ? 'ein' : 'name', key: o.ein ?? o.name,
  keys: { name: o.name, ...(o.ein ? { ein: o.ein } : { grant_graph_org: o.iri.split('/org/').pop()! }) } as Item['entity']['keys'],
});

/** An amount to the cent, written as the grader reads it back: "$1,234.57", or "$1,235" when whole. */
const usdCents = (v: number): string => (Number.isInteger(v) ? usd(v) : `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
const cents = (v: number): number => Math.round(v * 100) / 100;

function buildEvidence(r: GrantResult, attemptN: number, planVerdict: 'exact' | 'composed', responses: Responses): { items: Item[]; text: string; derived: DerivedFigure[] } {
  const items: Item[] = [];
  const derived: DerivedFigure[] = [];
  const raw = responses.all[0]!;
  const matchKey = r.disclosures.some((d) => d.code === 'match_method' && d.method === 'ein');
  const base = (o: OrgRef, label: string, value: number, unit: 'USD' | 'count', kind: string, key: string, attributes: Record<string, string | number | boolean | null>): Item => ({
    attemptN, source: GRANT_SOURCE, operation: OPERATION[r.kind], measure: unit === 'USD' ? `${GRANT_SOURCE}/grants/amount-paid` : `${GRANT_SOURCE}/grants/grant-count`,
    measureLabel: label, attribute: 'grants', value, unit, ...(unit === 'USD' ? { currency: 'USD' } : {}),
    period: { label: 'tax years of the filings held', basis: 'fiscal' }, entity: entityOf(o), raw,
    // an answer for one tax year names it: the year is a period, not a measurement
    record: { kind, key: `${kind}=${key}`, label: `${label}: ${o.name}`, attributes: { ...attributes, ...('taxYear' in r && r.taxYear ? { taxYear: String(r.taxYear) } : {}) } },
    assurance: { match: matchKey ? 'key' : 'name', planVerdict, warnings: r.coverage.complete ? [] : [`partial coverage: ${r.coverage.funders} funders' filings`] },
  });
  const lines: string[] = [];
  const head = (subject: OrgRef[], t: { paid: Total; approvedFuture: Total }, verb: string, counterpart: string) => {
    const o = subject[0]!;
    items.push(base(o, 'grants paid (total)', t.paid.amount, 'USD', 'total_paid', o.iri, {}));
    items.push(base(o, 'grants paid (count)', t.paid.grants, 'count', 'count_paid', o.iri, {}));
    if (t.paid.counterparts !== undefined) items.push(base(o, `${counterpart} (count)`, t.paid.counterparts, 'count', `count_${counterpart}`, o.iri, {}));
    const one = (n: number, word: string) => (n === 1 ? word.replace(/s$/, '') : word);
    lines.push(`${o.name} ${verb} ${usd(t.paid.amount)} in ${t.paid.grants} paid grant${t.paid.grants === 1 ? '' : 's'}${t.paid.counterparts !== undefined ? ` (${t.paid.counterparts} ${one(t.paid.counterparts, counterpart)})` : ''}${'taxYear' in r && r.taxYear ? ` in tax year ${r.taxYear}` : ''}, according to the filings the grant graph holds.`);
    if (t.approvedFuture.grants > 0) {
      items.push(base(o, 'grants approved for future payment (total)', t.approvedFuture.amount, 'USD', 'total_future', o.iri, {}));
      items.push(base(o, 'grants approved for future payment (count)', t.approvedFuture.grants, 'count', 'count_future', o.iri, {}));
      lines.push(`Separately, ${usd(t.approvedFuture.amount)} in ${t.approvedFuture.grants} grant${t.approvedFuture.grants === 1 ? '' : 's'} approved for future payment (not paid).`);
    }
  };
  const TOP = 10;
  switch (r.kind) {
    case 'forward':
    case 'cause': {
      const funder = r.kind === 'forward' ? r.funder : (r.funder ?? [{ iri: 'all', name: 'All funders in the graph', ein: null, state: null }]);
      head(funder, r.totals, r.kind === 'cause' ? `paid, for ${r.cause.cause},` : 'paid', 'recipients');
      for (const e of r.edges.filter((x) => x.status === 'paid').slice(0, TOP)) {
        items.push(base(e.recipient, 'grant paid', e.amount, 'USD', 'grant', e.edge, { taxYear: String(e.taxYear), purpose: e.purpose, funder: e.funder.name, record: e.record, ...(e.causeBy ? { selectedBy: e.causeBy } : {}) }));
        // over every funder, each grant names its funder
        lines.push(`- ${usd(e.amount)}${r.kind === 'cause' && !r.funder ? ` from ${e.funder.name}` : ''} to ${e.recipient.name}${e.state ? `, ${e.state}` : ''}${e.purpose ? ` (${e.purpose})` : ''}`);
      }
      break;
    }
    case 'pair': {
      const [f, to] = [r.funder[0]!, r.recipient[0]!];
      const key = `${f.iri}|${to.iri}`;
      items.push(base(to, `grants paid by ${f.name} (total)`, r.totals.paid.amount, 'USD', 'pair_total_paid', key, { funder: f.name }));
      items.push(base(to, `grants paid by ${f.name} (count)`, r.totals.paid.grants, 'count', 'pair_count_paid', key, { funder: f.name }));
      lines.push(`${f.name} paid ${to.name} ${usd(r.totals.paid.amount)} in ${r.totals.paid.grants} grant${r.totals.paid.grants === 1 ? '' : 's'}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}, according to ${f.name}'s filings the grant graph holds.`);
      if (r.totals.approvedFuture.grants > 0) {
        items.push(base(to, `grants approved for future payment by ${f.name} (total)`, r.totals.approvedFuture.amount, 'USD', 'pair_total_future', key, { funder: f.name }));
        lines.push(`Separately, ${usd(r.totals.approvedFuture.amount)} in ${r.totals.approvedFuture.grants} grant${r.totals.approvedFuture.grants === 1 ? '' : 's'} approved for future payment (not paid).`);
      }
      for (const e of r.edges.slice(0, TOP)) {
        items.push(base(to, e.status === 'paid' ? 'grant paid' : 'grant approved for future payment', e.amount, 'USD', 'grant', e.edge, { taxYear: String(e.taxYear), purpose: e.purpose, funder: e.funder.name, record: e.record }));
        // a recipient counted with its units: each grant names the one it was filed to
        lines.push(`- ${usd(e.amount)}${r.recipient.length > 1 ? ` to ${e.recipient.name}` : ''}, tax year ${e.taxYear}${e.status === 'paid' ? '' : ', approved for future payment'}${e.purpose ? ` (${e.purpose})` : ''}`);
      }
      break;
    }
    case 'reverse': {
      head(r.recipient, { paid: { ...r.totals.paid, counterparts: r.totals.paid.counterparts ?? 0 }, approvedFuture: r.totals.approvedFuture }, 'received', 'funders');
      // the question's limit already cut the rows to the largest funders (disclosed as largest_shown)
      for (const f of r.funders.filter((x) => x.status === 'paid')) {
        items.push(base(f.org, 'grants paid by this funder', f.amount, 'USD', 'funder_total', `${f.org.iri}|${r.recipient[0]!.iri}`, { grants: String(f.grants) }));
        lines.push(`- ${usd(f.amount)} from ${f.org.name}`);
      }
      const t = r.disclosures.find((d) => d.code === 'threshold_filter');
      if (t && t.code === 'threshold_filter' && t.kept === 0) lines.push(`None of its funders' paid totals passes the amount asked (see the notes).`);
      break;
    }
    case 'intersection': {
      const [a, b] = r.funders;
      items.push(base(a[0]!, 'recipients both funders made grants to (count)', r.recipients.length, 'count', 'count_common', `${a[0]!.iri}|${b[0]!.iri}`, {}));
      lines.push(`${a[0]!.name} and ${b[0]!.name} both made grants to ${r.recipients.length} organization${r.recipients.length === 1 ? '' : 's'} in the filings the grant graph holds.`);
      for (const x of r.recipients.slice(0, TOP)) {
        items.push(base(x.recipient, `paid by ${a[0]!.name}`, x.amounts[0].paid.amount, 'USD', 'pair_a', `${a[0]!.iri}|${x.recipient.iri}`, { funder: a[0]!.name }));
        items.push(base(x.recipient, `paid by ${b[0]!.name}`, x.amounts[1].paid.amount, 'USD', 'pair_b', `${b[0]!.iri}|${x.recipient.iri}`, { funder: b[0]!.name }));
        lines.push(`- ${x.recipient.name}${x.recipient.state ? `, ${x.recipient.state}` : ''}: ${usd(x.amounts[0].paid.amount)} and ${usd(x.amounts[1].paid.amount)}`);
      }
      break;
    }
    case 'ranking': {
      if (r.subject === 'state') {
        lines.push(r.of ? `Recipient states of ${r.of[0]!.name}'s grants by ${r.by === 'count' ? 'number of grants paid' : 'grants paid'}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}, in its filings the grant graph holds:` : 'Recipient states by grants paid, in the filings the grant graph holds:');
        (r.stateRows ?? []).forEach((s, i) => {
          const who = r.of?.[0];
          items.push(base({ iri: s.state, name: s.state, ein: null, state: s.state }, who ? `grants paid by ${who.name} to recipients in the state` : 'grants paid to recipients in the state', s.amount, 'USD', 'state_total', `${who?.iri ?? 'graph'}|${s.state}`, {}));
          if (who) items.push(base({ iri: s.state, name: s.state, ein: null, state: s.state }, `grants paid by ${who.name} to recipients in the state (count)`, s.grants, 'count', 'state_count', `${who.iri}|${s.state}`, {}));
          lines.push(`${i + 1}. ${s.state}: ${usd(s.amount)}${who ? ` in ${s.grants} grant${s.grants === 1 ? '' : 's'}` : ''}`);
        });
      } else {
        const byCount = r.by === 'count';
        const what = byCount ? 'by number of grants paid' : 'by grants paid';
        lines.push(r.subject === 'recipient_of' ? `Largest recipients of ${r.of![0]!.name} ${what}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}:`
          : r.state ? `Funders ${what} to organizations in ${r.state}, in the filings the grant graph holds:`
          : r.to ? `Funders of ${r.to[0]!.name} ${what}, in the filings the grant graph holds:`
          : `${r.order === 'asc' ? 'Smallest' : 'Largest'} ${r.subject === 'funder' ? 'funders' : 'recipients'} ${what}${r.order === 'asc' ? ', smallest first' : ''}, in the filings the grant graph holds:`);
        r.rows.forEach((x, i) => {
          const label = r.state ? `grants paid by the funder to organizations in ${r.state}` : r.to ? `grants paid by the funder to ${r.to[0]!.name}` : r.subject === 'funder' ? 'grants paid by the funder' : 'grants paid to the recipient';
          const key = `${r.of?.[0]?.iri ?? r.to?.[0]?.iri ?? (r.state ? `state-${r.state}` : 'graph')}|${x.org.iri}`;
          items.push(base(x.org, label, x.amount, 'USD', `${r.subject}_total`, key, { grants: String(x.grants) }));
          if (byCount) items.push(base(x.org, `${label} (count)`, x.grants, 'count', `${r.subject}_count`, key, {}));
          lines.push(byCount ? `${i + 1}. ${x.org.name}: ${x.grants} grant${x.grants === 1 ? '' : 's'} (${usd(x.amount)})` : `${i + 1}. ${x.org.name}: ${usd(x.amount)}`);
        });
        // an amount the question set that no total passes: none, said (the note gives the amount and how many were read)
        const t = r.disclosures.find((d) => d.code === 'threshold_filter');
        if (r.rows.length === 0 && t && t.code === 'threshold_filter') lines.push(`None: no ${t.role}'s paid total passes the amount asked (see the notes).`);
      }
      break;
    }
    case 'geographic': {
      const who = r.funder ?? [{ iri: `state-${r.state}`, name: `Recipients in ${r.state}`, ein: null, state: r.state }];
      head(who, r.totals, r.funder ? `paid organizations in ${r.state}` : 'received', r.funder ? 'recipients' : 'recipients');
      for (const x of r.recipients ?? []) {
        items.push(base(x.org, `grants paid by ${who[0]!.name} (total)`, x.amount, 'USD', 'pair_total_paid', `${who[0]!.iri}|${x.org.iri}`, { grants: String(x.grants), state: r.state }));
        lines.push(`- ${usd(x.amount)} to ${x.org.name}`);
      }
      break;
    }
    case 'largest': {
      const whose = r.scope === 'graph' ? 'in the grant graph' : r.scope === 'funder' ? `by ${r.of![0]!.name}` : r.scope === 'pair' ? `by ${r.of![0]!.name} to ${r.to![0]!.name}` : `to ${r.of![0]!.name}`;
      const which = r.order === 'asc' ? 'smallest' : 'largest';
      const scopeOrg = r.of?.[0] ?? { iri: 'graph', name: 'All funders in the graph', ein: null, state: null };
      items.push(base(scopeOrg, 'grants paid (total)', r.totals.paid.amount, 'USD', 'total_paid', scopeOrg.iri, {}));
      items.push(base(scopeOrg, 'grants paid (count)', r.totals.paid.grants, 'count', 'count_paid', scopeOrg.iri, {}));
      lines.push(`The ${which} single grants paid ${whose}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}, of ${r.totals.paid.grants} paid grants totalling ${usd(r.totals.paid.amount)}, according to the filings the grant graph holds:`);
      r.edges.forEach((e, i) => {
        items.push(base(r.scope === 'recipient' ? e.funder : e.recipient, 'grant paid', e.amount, 'USD', 'grant', e.edge, { taxYear: String(e.taxYear), purpose: e.purpose, funder: e.funder.name, recipient: e.recipient.name, record: e.record }));
        const who = r.scope === 'pair' ? '' : r.scope === 'funder' ? `to ${e.recipient.name}${e.state ? `, ${e.state}` : ''}` : r.scope === 'recipient' ? `from ${e.funder.name}` : `from ${e.funder.name} to ${e.recipient.name}${e.state ? `, ${e.state}` : ''}`;
        lines.push(`${i + 1}. ${usd(e.amount)}${who ? ` ${who}` : ''}, tax year ${e.taxYear}${e.purpose ? ` (${e.purpose})` : ''}`);
      });
      break;
    }
    case 'average': {
      const o = r.of?.[0] ?? { iri: 'graph', name: 'All funders in the graph', ein: null, state: null };
      const t = r.totals;
      items.push(base(o, 'grants paid (total)', t.paid.amount, 'USD', 'total_paid', o.iri, {}));
      items.push(base(o, 'grants paid (count)', t.paid.grants, 'count', 'count_paid', o.iri, {}));
      const avg = cents(t.paid.amount / t.paid.grants);
      derived.push({ value: avg, unit: 'USD', label: 'average paid grant', arithmetic: `total paid ÷ paid grants = ${t.paid.amount} ÷ ${t.paid.grants}, rounded to the cent`, operands: [items.length - 2, items.length - 1] });
      const whose = r.scope === 'graph' ? 'in the grant graph' : r.scope === 'funder' ? `paid by ${o.name}` : r.scope === 'pair' ? `paid by ${o.name} to ${r.to![0]!.name}` : `paid to ${o.name}`;
      lines.push(`The average grant ${whose}${r.taxYear ? ` in tax year ${r.taxYear}` : ''} was ${usdCents(avg)}: ${usd(t.paid.amount)} paid in ${t.paid.grants} grant${t.paid.grants === 1 ? '' : 's'} according to the filings the grant graph holds, divided by Assay.`);
      if (t.approvedFuture.grants > 0) {
        items.push(base(o, 'grants approved for future payment (total)', t.approvedFuture.amount, 'USD', 'total_future', o.iri, {}));
        items.push(base(o, 'grants approved for future payment (count)', t.approvedFuture.grants, 'count', 'count_future', o.iri, {}));
        lines.push(`Grants approved for future payment are not in the average: ${usd(t.approvedFuture.amount)} in ${t.approvedFuture.grants} grant${t.approvedFuture.grants === 1 ? '' : 's'}, not paid.`);
      }
      break;
    }
    case 'two_funders': {
      const to = r.recipient?.[0];
      const at: number[] = [];
      for (const side of r.sides) {
        const f = side.funder[0]!;
        const key = to ? `${f.iri}|${to.iri}` : f.iri;
        at.push(items.length);
        items.push(base(to ?? f, to ? `grants paid by ${f.name} (total)` : 'grants paid (total)', side.totals.paid.amount, 'USD', to ? 'pair_total_paid' : 'total_paid', key, { funder: f.name }));
        items.push(base(to ?? f, to ? `grants paid by ${f.name} (count)` : 'grants paid (count)', side.totals.paid.grants, 'count', to ? 'pair_count_paid' : 'count_paid', key, { funder: f.name }));
        lines.push(side.totals.paid.grants > 0
          ? `${f.name} paid ${to ? `${to.name} ` : ''}${usd(side.totals.paid.amount)} in ${side.totals.paid.grants} grant${side.totals.paid.grants === 1 ? '' : 's'}${r.taxYear ? ` in tax year ${r.taxYear}` : ''}.`
          : `${f.name} made no paid grant${to ? ` to ${to.name}` : 's'} in its filings the grant graph holds${r.taxYear ? ` for tax year ${r.taxYear}` : ''}.`);
        if (side.totals.approvedFuture.grants > 0) {
          items.push(base(to ?? f, `grants approved for future payment by ${f.name} (total)`, side.totals.approvedFuture.amount, 'USD', to ? 'pair_total_future' : 'total_future', key, { funder: f.name }));
          lines.push(`Separately, ${f.name} approved ${usd(side.totals.approvedFuture.amount)} for future payment (not paid).`);
        }
      }
      const [a, b] = r.sides.map((x) => x.totals.paid.amount) as [number, number];
      const [na, nb] = [r.sides[0].funder[0]!.name, r.sides[1].funder[0]!.name];
      // the evidence ids the arithmetic names are the operands' own (a side with approved-for-future grants adds an item)
      const [ea, eb] = [`E${at[0]! + 1}`, `E${at[1]! + 1}`];
      if (r.combine === 'difference') {
        if (a === b) lines.push(`They paid the same amount${to ? ` to ${to.name}` : ''}.`);
        else {
          const [more, less, diff] = a > b ? [na, nb, a - b] : [nb, na, b - a];
          derived.push({ value: diff, unit: 'USD', label: `difference, ${more} minus ${less}`, arithmetic: `${a > b ? `${ea} − ${eb}` : `${eb} − ${ea}`} = ${Math.max(a, b)} − ${Math.min(a, b)}`, operands: [at[0]!, at[1]!] });
          lines.push(`${more} paid more${to ? ` to ${to.name}` : ''}, by ${usd(diff)}.`);
        }
      } else if (a > 0 && b > 0) {
        derived.push({ value: a + b, unit: 'USD', label: `sum of what ${na} and ${nb} paid`, arithmetic: `${ea} + ${eb} = ${a} + ${b}`, operands: [at[0]!, at[1]!] });
        lines.push(`Together they paid ${to ? `${to.name} ` : ''}${usd(a + b)} (summed by Assay from the two totals above).`);
      }
      break;
    }
    case 'common_funders': {
      const [a, b] = r.recipients;
      items.push(base(a[0]!, 'funders of both recipients (count)', r.funders.length, 'count', 'count_common_funders', `${a[0]!.iri}|${b[0]!.iri}`, {}));
      lines.push(`${r.funders.length} funder${r.funders.length === 1 ? '' : 's'} in the filings the grant graph holds made grants to both ${a[0]!.name} and ${b[0]!.name}${r.funders.length ? ':' : '.'}`);
      for (const x of r.funders.slice(0, TOP)) {
        items.push(base(x.funder, `paid to ${a[0]!.name}`, x.amounts[0].paid.amount, 'USD', 'pair_a', `${x.funder.iri}|${a[0]!.iri}`, { recipient: a[0]!.name }));
        items.push(base(x.funder, `paid to ${b[0]!.name}`, x.amounts[1].paid.amount, 'USD', 'pair_b', `${x.funder.iri}|${b[0]!.iri}`, { recipient: b[0]!.name }));
        lines.push(`- ${x.funder.name}: ${usd(x.amounts[0].paid.amount)} to ${a[0]!.name} and ${usd(x.amounts[1].paid.amount)} to ${b[0]!.name}`);
      }
      break;
    }
  }
  return { items, text: lines.join('\n'), derived };
}
