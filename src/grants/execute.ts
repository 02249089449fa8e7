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
import { renderDisclosure, renderFailure, renderShapeFailure, usd } from './render.ts';
import { stateCode } from './states.ts';
import type { GrantStore } from './store.ts';
import { traverse, type Disclosure, type GrantFailure, type GrantQuestion, type GrantResult, type OrgRef, type Total } from './traverse.ts';
import type { GrantIris } from './vocab.ts';
import * as Q from './queries.ts';

export const GRANT_SOURCE = 'assay-grant-graph';

const OPERATION: Record<GrantResult['kind'], string> = {
  forward: 'grants-by-funder', pair: 'grants-by-funder', reverse: 'funders-of-recipient', intersection: 'common-recipients', ranking: 'top-funders', geographic: 'grants-by-state', cause: 'grants-by-cause',
};

/** Words that name grants in general, not a cause or a recipient: an attribute made only of these asks for all of a funder's grants. */
const GENERIC_WORDS = new Set(['grant', 'grants', 'money', 'funding', 'fund', 'funds', 'donation', 'donations', 'gift', 'gifts', 'recipient', 'recipients', 'grantee', 'grantees',
  'organization', 'organizations', 'nonprofit', 'nonprofits', 'charity', 'charities', 'total', 'totals', 'amount', 'amounts', 'paid', 'made', 'given', 'awarded', 'the', 'of', 'in', 'all']);
const GENERIC = { test: (attr: string): boolean => attr.toLowerCase().split(/[^a-z]+/).filter(Boolean).every((w) => GENERIC_WORDS.has(w)) };

/**
 * Why a grant question is refused before or after the traversal, for reasons of the question's
 * reading rather than of the graph's contents (those are the traversal's GrantFailure codes).
 */
export type ShapeFailure =
  | { code: 'unmappable'; why: string }
  /** A tax year was asked of a reading whose rollups are not kept per year, and the graph holds other years for it. */
  | { code: 'year_not_filterable'; taxYear: number; reading: GrantQuestion['direction']; years: number[] }
  /** The funders two recipients share: the intersection runs over two funders' recipients only. */
  | { code: 'common_funders' }
  /** Funders ranked by their grants to one state: the state rollups give one funder's total there at a time. */
  | { code: 'funder_ranking_in_state'; state: string }
  /** One funder's grants ranked by recipient state: a state is answerable one at a time. */
  | { code: 'funder_state_ranking'; funder: string }
  /** No grant is placed under the cause by an NTEE code or a purpose text: not a finding that none went to it. */
  | { code: 'cause_unclassified'; cause: string; funder: string | null };

export type Mapped = { ok: true; question: GrantQuestion } | { ok: true; openDirection: string } | { ok: false; failure: ShapeFailure };

/** The typed grant question an intent asks, from its direction and what it names. */
export function questionFromIntent(intent: Intent): Mapped {
  const name = intent.canonical_entity ?? intent.entity;
  const taxYear = intent.period?.year ?? undefined;
  const limit = intent.limit ?? 10;
  const attr = (intent.attribute ?? '').trim();
  const recipients = /\b(recipients?|grantees?)\b/i.test(attr);
  const within = intent.geography?.within ?? null;
  switch (intent.direction) {
    case 'forward': {
      if (!name) return { ok: false, failure: { code: 'unmappable', why: 'a question about the grants an organization made must name the organization' } };
      if (within) {
        const st = stateCode(within);
        if (!st) return { ok: false, failure: { code: 'unmappable', why: `"${within}" is not a US state or territory the grant graph's state rollups are keyed by` } };
        return { ok: true, question: { direction: 'geographic', state: st, funder: name } };
      }
      if ((recipients || intent.order) && intent.geography?.level === 'state') return { ok: false, failure: { code: 'funder_state_ranking', funder: name } };
      if (recipients || intent.order) return { ok: true, question: { direction: 'top_recipients_of', funder: name, limit } };
      // what the grants went to: a recipient the graph holds ("How much did X give to Y?", a pair), else a cause;
      // never all of the funder's grants in place of the narrower question
      // ("How much did X give to Michigan?": the place, as "to organizations in Michigan" reads)
      const st = attr ? stateCode(attr) : null;
      if (st) return { ok: true, question: { direction: 'geographic', state: st, funder: name } };
      if (attr && !GENERIC.test(attr)) return { ok: true, question: { direction: 'pair', funder: name, recipient: attr, ...(taxYear ? { taxYear } : {}) } };
      return { ok: true, question: { direction: 'forward', funder: name, ...(taxYear ? { taxYear } : {}) } };
    }
    case 'reverse':
      if (!name) return { ok: false, failure: { code: 'unmappable', why: 'a question about who funds an organization must name the organization' } };
      return { ok: true, question: { direction: 'reverse', recipient: name, limit, ...(taxYear ? { taxYear } : {}) } };
    case 'intersection':
      if (intent.attribute === 'funders') return { ok: false, failure: { code: 'common_funders' } };
      if (intent.entities.length !== 2) return { ok: false, failure: { code: 'unmappable', why: `an intersection names two funders; this question names ${intent.entities.length}` } };
      return { ok: true, question: { direction: 'intersection', funders: [intent.entities[0]!, intent.entities[1]!] } };
    case 'population': {
      if (intent.attribute === 'funders' && within) return { ok: false, failure: { code: 'funder_ranking_in_state', state: within } };
      if (within) {
        const st = stateCode(within);
        if (st) return { ok: true, question: { direction: 'geographic', state: st } };
      }
      if (attr && !GENERIC.test(attr) && causeMatch(attr)) return { ok: true, question: { direction: 'cause', cause: attr } };
      const subject = intent.geography?.level === 'state' ? 'state' : recipients ? 'recipient' : 'funder';
      return { ok: true, question: { direction: 'ranking', subject, limit, order: intent.order ?? 'desc' } };
    }
    default:
      if (!name) return { ok: false, failure: { code: 'unmappable', why: 'the question says neither whose grants nor in which direction' } };
      return { ok: true, openDirection: name };
  }
}

export interface GrantDeps { store: GrantStore; iris: GrantIris; registry?: IdentityRegistry; signal?: AbortSignal }

export type GrantExecution =
  | { kind: 'evidence'; result: GrantResult; attempt: Attempt; items: Array<Omit<AnyEvidence, 'index'>>; text: string; disclosures: string[]; codes: Disclosure[]; relation?: RelationChoice }
  | { kind: 'refused'; attempt?: Attempt; failure: GrantFailure | ShapeFailure; reason: string }
  | { kind: 'clarify'; question: string; options: RelationOption[] };

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
  if (question.direction === 'pair' && (byWordsOnly || (!outcome.ok && (outcome.failure.code === 'not_in_graph' || outcome.failure.code === 'ambiguous_org') && outcome.failure.role === 'recipient')) && causeMatch(question.recipient.toLowerCase())) {
    question = { direction: 'cause', cause: question.recipient, funder: question.funder };
    outcome = await traverse(deps, question);
  }
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
  if (year !== undefined && !YEAR_FILTERED.has(question.direction)) {
    const years = await yearsOf(deps, question, r);
    if (years.some((y) => y !== year)) return refusedAfter(attempt, { code: 'year_not_filterable', taxYear: year, reading: question.direction, years });
  }
  // nothing placed under the cause: the purpose texts may simply not say ("PROGRAM SUPPORT"), so $0 is not a finding
  if (r.kind === 'cause' && r.totals.paid.grants + r.totals.approvedFuture.grants === 0) {
    return refusedAfter(attempt, { code: 'cause_unclassified', cause: r.cause.cause, funder: r.funder ? r.funder[0]!.name : null });
  }
  const built = buildEvidence(r, n, options.planVerdict, responses);
  const codes = [...r.disclosures];
  const disclosures = codes.map(renderDisclosure);
  if (relation) disclosures.unshift(relationNote(relation));
  return { kind: 'evidence', result: r, attempt, items: built.items, text: built.text, disclosures, codes, ...(relation ? { relation } : {}) };
}

/** The readings whose queries select by tax year (the rest read rollups kept over every year held). */
const YEAR_FILTERED = new Set<GrantQuestion['direction']>(['forward', 'reverse', 'pair']);

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

const kindOf = (q: GrantQuestion): GrantResult['kind'] => (q.direction === 'top_recipients_of' ? 'ranking' : q.direction);

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
    case 'ranking': return { filings: [], funders: r.subject === 'recipient_of' ? iris(r.of) : r.subject === 'funder' ? r.rows.map((x) => x.org.iri) : [] };
    case 'geographic': return { filings: [], funders: iris(r.funder) };
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

function buildEvidence(r: GrantResult, attemptN: number, planVerdict: 'exact' | 'composed', responses: Responses): { items: Item[]; text: string } {
  const items: Item[] = [];
  const raw = responses.all[0]!;
  const matchKey = r.disclosures.some((d) => d.code === 'match_method' && d.method === 'ein');
  const base = (o: OrgRef, label: string, value: number, unit: 'USD' | 'count', kind: string, key: string, attributes: Record<string, string | number | boolean | null>): Item => ({
    attemptN, source: GRANT_SOURCE, operation: OPERATION[r.kind], measure: unit === 'USD' ? `${GRANT_SOURCE}/grants/amount-paid` : `${GRANT_SOURCE}/grants/grant-count`,
    measureLabel: label, attribute: 'grants', value, unit, ...(unit === 'USD' ? { currency: 'USD' } : {}),
    period: { label: 'tax years of the filings held', basis: 'fiscal' }, entity: entityOf(o), raw,
    record: { kind, key: `${kind}=${key}`, label: `${label}: ${o.name}`, attributes },
    assurance: { match: matchKey ? 'key' : 'name', planVerdict, warnings: r.coverage.complete ? [] : [`partial coverage: ${r.coverage.funders} funders' filings`] },
  });
  const lines: string[] = [];
  const head = (subject: OrgRef[], t: { paid: Total; approvedFuture: Total }, verb: string, counterpart: string) => {
    const o = subject[0]!;
    items.push(base(o, 'grants paid (total)', t.paid.amount, 'USD', 'total_paid', o.iri, {}));
    items.push(base(o, 'grants paid (count)', t.paid.grants, 'count', 'count_paid', o.iri, {}));
    if (t.paid.counterparts !== undefined) items.push(base(o, `${counterpart} (count)`, t.paid.counterparts, 'count', `count_${counterpart}`, o.iri, {}));
    lines.push(`${o.name} ${verb} ${usd(t.paid.amount)} in ${t.paid.grants} paid grant${t.paid.grants === 1 ? '' : 's'}${t.paid.counterparts !== undefined ? ` (${t.paid.counterparts} ${counterpart})` : ''}, according to the filings the grant graph holds.`);
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
        lines.push(`- ${usd(e.amount)} to ${e.recipient.name}${e.recipient.state ? `, ${e.recipient.state}` : ''}${e.purpose ? ` (${e.purpose})` : ''}`);
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
        lines.push(`- ${usd(e.amount)}, tax year ${e.taxYear}${e.status === 'paid' ? '' : ', approved for future payment'}${e.purpose ? ` (${e.purpose})` : ''}`);
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
        lines.push('Recipient states by grants paid, in the filings the grant graph holds:');
        (r.stateRows ?? []).forEach((s, i) => {
          items.push(base({ iri: s.state, name: s.state, ein: null, state: s.state }, 'grants paid to recipients in the state', s.amount, 'USD', 'state_total', s.state, {}));
          lines.push(`${i + 1}. ${s.state}: ${usd(s.amount)}`);
        });
      } else {
        lines.push(r.subject === 'recipient_of' ? `Largest recipients of ${r.of![0]!.name} by grants paid:` : `Largest ${r.subject === 'funder' ? 'funders' : 'recipients'} by grants paid, in the filings the grant graph holds:`);
        r.rows.forEach((x, i) => {
          items.push(base(x.org, r.subject === 'funder' ? 'grants paid by the funder' : 'grants paid to the recipient', x.amount, 'USD', `${r.subject}_total`, `${r.of?.[0]?.iri ?? 'graph'}|${x.org.iri}`, { grants: String(x.grants) }));
          lines.push(`${i + 1}. ${x.org.name}: ${usd(x.amount)}`);
        });
      }
      break;
    }
    case 'geographic': {
      const who = r.funder ?? [{ iri: `state-${r.state}`, name: `Recipients in ${r.state}`, ein: null, state: r.state }];
      head(who, r.totals, r.funder ? `paid organizations in ${r.state}` : 'received', r.funder ? 'recipients' : 'recipients');
      break;
    }
  }
  return { items, text: lines.join('\n') };
}
