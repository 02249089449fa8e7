/**
 * Grant-graph questions in ask: read from the store's grant graph (src/grants), admitted as record
 * evidence citing the source documents, worded by the grant renderer and graded like any list.
 * Relation ambiguity (grants made or received) is asked, with both totals, or disclosed; the
 * option chosen binds its direction on resume (its concept is `direction:forward|reverse`).
 */
import { answerRecords } from '../answer/assemble.ts';
import { formatValue } from '../answer/factsheet.ts';
import type { Note } from '../execute/notes.ts';
import { text } from '../execute/notes.ts';
// the grant graph's modules (and their CSV and XML parsers) are loaded by the first grant question only:
// every other question's process never pays for them
import type { GrantStore } from '../grants/store.ts';
import type { GrantIris } from '../grants/vocab.ts';
import type { IdentityRegistry } from '../resolve/registry.ts';
import { basename } from 'node:path';
import type { Plan } from '../plan/plan.ts';
import { periodLabel, type Intent } from '../understand/index.ts';
import type { ResumeState } from './resume.ts';
import type { RunState } from './state.ts';
import type { AskResult, ClarificationOption } from './types.ts';

/**
 * A resumed grant clarification that chose one organization for a name (concept `grant-org:<role>`):
 * the intent with that choice in the place the name held — the entity, an entity listed, or the
 * attribute that named the recipient — never re-interpreted.
 */
export function bindGrantOrg(intent: Intent, concept: string | null, choice: string): Intent | undefined {
  if (!concept?.startsWith('grant-org:')) return undefined;
  const asked = choice.slice(choice.indexOf('#', choice.indexOf('#') + 1) + 1);
  const same = (x: string | null | undefined) => x?.trim() === asked;
  if (same(intent.canonical_entity ?? intent.entity)) return { ...intent, canonical_entity: choice, entity_status: 'resolved', entity_candidates: [] };
  if (intent.entities.some(same)) return { ...intent, entities: intent.entities.map((e) => (same(e) ? choice : e)) };
  if (same(intent.attribute)) return { ...intent, attribute: choice };
  return { ...intent, canonical_entity: choice, entity_status: 'resolved', entity_candidates: [] };
}

const DIRECTIONS = new Map<string, NonNullable<Intent['direction']>>([['direction:forward', 'forward'], ['direction:reverse', 'reverse']]);
/** The direction a resumed option binds, from its concept code. */
export const directionOf = (concept: string | null): Intent['direction'] | undefined => concept ? DIRECTIONS.get(concept) : undefined;

const cap = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/**
 * What discovery looks for on a grant question: grants. The question's other words (a cause, a
 * recipient, a place) select within the grant graph, in the executor; read as the measure they
 * would send discovery to other sources, or to none ("give to education", "to the Moon Society").
 */
export const grantDiscoveryIntent = (intent: Intent): Intent => ({ ...intent, attribute: 'grants', attributes: [] });

/** One seeding per store and process: concurrent first questions wait for the same ingest. */
const seeding = new WeakMap<object, Promise<void>>();

/**
 * An empty grant graph gets the service's seed files first (the offline default's bundled extract),
 * once: ingest is idempotent, so a second process seeding the same store writes nothing new.
 * A graph written by an earlier Assay in an older layout (grants/layout.ts) is upgraded the same
 * way: the ingest brings the whole graph to this build's layout in place, and the seed files it
 * holds already add nothing. Otherwise a graph that holds any filing is left as it is. Without seed
 * files (live), neither happens: the question is refused over the graph as it is, naming the ingest.
 */
async function seedGrantGraph(s: RunState, deps: { store: GrantStore; iris: GrantIris; registry: IdentityRegistry }): Promise<void> {
  const files = s.services.grantSeed ?? [];
  if (files.length === 0) return;
  let p = seeding.get(s.services.store);
  if (!p) {
    p = (async () => {
      const [{ readLayout }, { GRANT_LAYOUT }, { ingest, readIngestFile }] = await Promise.all([import('../grants/layout.ts'), import('../grants/vocab.ts'), import('../grants/ingest.ts')]);
      const { layout, filings } = await readLayout(deps.store, deps.iris);
      if (filings && layout !== null && layout >= GRANT_LAYOUT) return;
      s.ctx.emit({ stage: 'execution_plan', by: 'grant graph', message: filings
        ? `the grant graph was written by an earlier Assay (layout ${layout ?? 1}; this build reads layout ${GRANT_LAYOUT}): upgrading it in place by ingesting the ${files.length} bundled grant file(s) of the offline default again`
        : `the grant graph is empty: ingesting the ${files.length} bundled grant file(s) of the offline default` });
      // the documents are named by their path in the repository, not on this machine
      const inputs = await Promise.all(files.map(async (f) => ({ ...(await readIngestFile(f)), fileName: `fixtures/grants/${basename(f)}` })));
      const report = await ingest(deps.store, inputs, { iris: deps.iris, registry: deps.registry });
      // the graph holds other files too: the upgrade waits for them, and grant questions are refused naming them
      if (report.upgradePending) s.ctx.emit({ stage: 'execution_plan', by: 'grant graph', message: `the grant graph also holds grants read from ${report.upgradePending.files.length} other file(s) (${report.upgradePending.files.slice(0, 3).join(', ')}${report.upgradePending.files.length > 3 ? ', …' : ''}): its upgrade waits until they are ingested again` });
    })();
    seeding.set(s.services.store, p);
    p.catch(() => seeding.delete(s.services.store));
  }
  // a seed that cannot be read or written leaves the graph as it was: the question is answered or
  // refused over that graph (empty: "run assay grants ingest"), and the reason is in the progress events
  await p.catch((e: unknown) => s.ctx.emit({ stage: 'execution_plan', by: 'grant graph', message: `the bundled grant files could not be ingested (${(e as Error).message}); the grant graph is left as it was` }));
}

export async function answerGrantGraph(s: RunState, intent: Intent, plan: Plan, notes: readonly Note[]): Promise<AskResult> {
  const [{ executeGrantGraph }, { embeddedGrantStore }, { grantIris }] = await Promise.all([import('../grants/execute.ts'), import('../grants/store.ts'), import('../grants/vocab.ts')]);
  const deps = { store: embeddedGrantStore(s.services.store), iris: grantIris(s.services.baseIri), registry: s.services.registry, signal: s.ctx.signal };
  await seedGrantGraph(s, deps);
  const verdict = plan.verdict === 'exact' ? 'exact' : 'composed';
  const x = await executeGrantGraph(deps, intent, { onAmbiguity: s.onAmbiguity, nextAttempt: s.nextAttempt, planVerdict: verdict });
  if (x.kind === 'clarify') {
    const name = intent.canonical_entity ?? intent.entity ?? '';
    const options: ClarificationOption[] = x.options.map((o) => ({
      n: o.n, id: `direction:${o.direction}`, label: cap(o.label), value: o.paid, unit: 'USD', currency: 'USD', period: null, evidence: null,
      assumptions: { measure: intent.attribute, measure_key: null, concept: `direction:${o.direction}`, operation: null, entity: name, period: periodLabel(intent.period) },
    }));
    s.resumeState = JSON.stringify({ intent, options: options.map((o) => ({ assumptions: o.assumptions })) } satisfies ResumeState);
    s.ctx.emit({ stage: 'ambiguity', by: 'grant graph', message: `relation ambiguous: ${x.options.map((o) => `${o.label} ${formatValue(o.paid, 'USD', 'USD')}`).join('; ')}; asking` });
    return { ...s.base('needs_clarification'), text: [x.question, ...options.map((o) => `${o.n}. ${o.label}: ${formatValue(o.value!, 'USD', 'USD')} paid`)].join('\n'), clarification: { question: x.question, options } };
  }
  if (x.kind === 'clarify_org') {
    // several organizations match a name: each option names one (its choice name binds it on resume) with its paid total
    const options: ClarificationOption[] = x.options.map((o) => ({
      n: o.n, id: `grant-org:${x.role}`, label: o.label, value: o.paid, unit: 'USD', currency: 'USD', period: null, evidence: null,
      assumptions: { measure: intent.attribute, measure_key: null, concept: `grant-org:${x.role}`, operation: null, entity: o.choice, period: periodLabel(intent.period) },
    }));
    s.resumeState = JSON.stringify({ intent, options: options.map((o) => ({ assumptions: o.assumptions })) } satisfies ResumeState);
    s.ctx.emit({ stage: 'ambiguity', by: 'grant graph', message: `"${x.asked}" matches ${options.length} ${x.role}s; asking` });
    return { ...s.base('needs_clarification'), text: [x.question, ...x.options.map((o) => `${o.n}. ${o.label}: ${formatValue(o.paid, 'USD', 'USD')} paid in ${o.grants} grant${o.grants === 1 ? '' : 's'}`)].join('\n'), clarification: { question: x.question, options } };
  }
  if (x.attempt) s.attempts.push(x.attempt);
  if (x.kind === 'refused') {
    const f = x.failure;
    const boundary = f.code === 'not_in_graph' || f.code === 'ambiguous_org' ? 'entity_unresolved' : f.code === 'unmappable' ? 'not_understood'
      : f.code === 'year_not_filterable' || f.code === 'smallest_graph_wide' ? 'no_access_path' : 'no_data';
    return s.refuse({ boundary, code: f.code, detail: x.reason, context: { attribute: intent.attribute, entity: intent.canonical_entity ?? intent.entity } });
  }
  const items = s.number(x.items);
  await s.writeEvidence(items);
  // figures Assay computed from the listed values (an average, two totals combined): graded derived, operands named
  const derived = x.derived.map((d, i) => ({ id: `D${i + 3}`, value: d.value, unit: d.unit, currency: 'USD', label: d.label, arithmetic: d.arithmetic, operands: d.operands.map((k) => `E${k + 1}`) }));
  return answerRecords(s, items, items.length, [...notes, ...x.disclosures.map(text)], x.text, derived);
}
