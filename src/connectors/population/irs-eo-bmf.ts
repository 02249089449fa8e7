/**
 * IRS EO BMF populations: every tax-exempt organization registered in one state (the state's
 * extract, eo_<st>.csv), optionally narrowed to a class the question names (private foundations,
 * public charities, 501(c)(3) organizations, churches …), with an amount (revenue, assets, income)
 * or as members to count.
 *
 * The extract is per state: a population bounded by one state is answerable; "in the United
 * States" is not one request but every state's extract, a national population disproportionate to
 * one question (about 1.9 million organizations) that this build does not materialize — a typed
 * refusal naming that coverage, never a count of the extracts that happen to be at hand.
 *
 * Classes are the IRS's own codes (EO BMF documentation): FOUNDATION 02/03 private operating
 * foundations, 04 private non-operating foundations; 10–24 the public-charity classes under
 * 509(a)(1)–(3) (10 church, 11 school, 12 hospital or medical research, 21–24 supporting
 * organizations); SUBSECTION the 501(c) paragraph. Amounts are each organization's latest return
 * (its own tax period); a blank amount is a non-filer, excluded and counted.
 */
import type { EntityRecord, Observation, OperationResult } from '../records.ts';
import { monthEnd, subsectionLabel } from '../irs-eo-bmf.ts';
import type { PopulationFailure, PopulationRow } from '../../population/types.ts';
import type { MemberClass, MembershipCheck, PopulationAsk, PopulationBinding, PopulationProvider, ProviderRows } from './provider.ts';

const SOURCE = 'irs-eo-bmf';

const PUBLIC_CHARITY = ['10', '11', '12', '13', '14', '15', '16', '17', '18', '21', '22', '23', '24'];
/** Most specific first: the first class whose words the members phrase carries is the class. */
const CLASSES: ReadonlyArray<{ words: RegExp; cls: MemberClass }> = [
  { words: /\bprivate\s+non-?operating\s+foundations?\b/i, cls: { id: 'private_nonoperating_foundation', field: 'FOUNDATION', codes: ['04'] } },
  { words: /\bprivate\s+operating\s+foundations?\b/i, cls: { id: 'private_operating_foundation', field: 'FOUNDATION', codes: ['02', '03'] } },
  { words: /\bprivate\s+foundations?\b/i, cls: { id: 'private_foundation', field: 'FOUNDATION', codes: ['02', '03', '04'] } },
  { words: /\bsupporting\s+organi[sz]ations?\b/i, cls: { id: 'supporting_organization', field: 'FOUNDATION', codes: ['21', '22', '23', '24'] } },
  { words: /\bchurch(es)?\b/i, cls: { id: 'church', field: 'FOUNDATION', codes: ['10'] } },
  { words: /\bhospitals?\b/i, cls: { id: 'hospital', field: 'FOUNDATION', codes: ['12'] } },
  { words: /\bpublic\s+charit(y|ies)\b/i, cls: { id: 'public_charity', field: 'FOUNDATION', codes: PUBLIC_CHARITY } },
  { words: /\b501\s*\(\s*c\s*\)\s*\(\s*3\s*\)|\bcharit(y|ies|able organi[sz]ations?)\b/i, cls: { id: '501c3', field: 'SUBSECTION', codes: ['03'] } },
  ...[4, 5, 6, 7].map((n) => ({ words: new RegExp(`\\b501\\s*\\(\\s*c\\s*\\)\\s*\\(\\s*${n}\\s*\\)`, 'i'), cls: { id: `501c${n}`, field: 'SUBSECTION', codes: [String(n).padStart(2, '0')] } })),
];

/** The class a members phrase names, or undefined for every exempt organization. */
export function memberClassOf(members: string | null | undefined): MemberClass | undefined {
  return members ? CLASSES.find((c) => c.words.test(members))?.cls : undefined;
}

const AMOUNT = /bmf\/(REVENUE_AMT|ASSET_AMT|INCOME_AMT)$/;

function bind(ask: PopulationAsk, operation: string): PopulationBinding[] | PopulationFailure {
  if (ask.grain !== 'organization') return { code: 'grain_mismatch', asked: ask.grain, returns: 'organization', operation: `${SOURCE}/eo-bmf-state` };
  const amount = AMOUNT.exec(ask.measureKey)?.[1];
  if (!amount && ask.measureKey !== 'members') return { code: 'not_a_population_measure', measure: ask.measureKey, operation: `${SOURCE}/${operation}` };
  if (ask.scope.kind !== 'state') return { code: 'scope_not_covered', asked: 'United States', covers: 'one state per extract (eo_{state}.csv)', operation: `${SOURCE}/eo-bmf-state` };
  const cls = memberClassOf(ask.members);
  return [{
    source: SOURCE, operation: 'eo-bmf-state', grain: 'organization', args: { state: ask.scope.abbr.toLowerCase(), ...(amount ? { amounts: 'yes' } : {}) },
    recordMeasure: amount ? `bmf/${amount}` : 'members',
    period: { label: `IRS EO BMF extract for ${ask.scope.abbr}`, basis: 'release' },
    ...(cls ? { memberClass: cls } : {}),
  }];
}

function rows(result: OperationResult, b: PopulationBinding): ProviderRows {
  const orgs = result.records.filter((r): r is EntityRecord => r.type === 'entity' && r.kind === 'organization');
  const amounts = new Map<string, Observation>();
  if (b.recordMeasure !== 'members') for (const r of result.records) if (r.type === 'observation' && r.measure === b.recordMeasure && r.entity?.ein) amounts.set(r.entity.ein, r);
  const out: PopulationRow[] = orgs.map((o) => {
    const a = o.attributes;
    const ein = o.keys.ein!;
    const attributes = { STATE: (a.state as string) ?? null, FOUNDATION: (a.foundation as string) ?? null, SUBSECTION: (a.subsection as string) ?? null, subsectionLabel: a.subsection ? subsectionLabel(a.subsection as string) : null, NTEE_CD: (a.ntee as string) ?? null, TAX_PERIOD: (a.taxPeriod as string) ?? null };
    if (b.recordMeasure === 'members') return { key: ein, keyType: 'ein', label: o.label, value: null, status: 'reported', attributes };
    const obs = amounts.get(ein);
    const end = monthEnd((a.taxPeriod as string) ?? '');
    return {
      key: ein, keyType: 'ein', label: o.label, value: obs?.value ?? null, status: obs?.status ?? 'missing', asPublished: obs?.asPublished ?? '',
      ...(end ? { period: { label: `tax period ending ${end}`, end, basis: 'fiscal' as const } } : {}),
      attributes,
    };
  });
  return { rows: out, declared: null, unit: b.recordMeasure === 'members' ? 'count' : 'USD', ...(b.recordMeasure === 'members' ? {} : { currency: 'USD' }), label: b.recordMeasure === 'members' ? 'organizations' : b.recordMeasure.split('/')[1]!, notes: [] };
}

const membership = (): MembershipCheck => ({ verified: false, expected: 'every organization in the extract' });

export const irsEoBmfPopulation: PopulationProvider = {
  source: SOURCE,
  // the IRS regenerates the per-state extracts monthly, at the same address
  freshnessDays: 7,
  operations: { 'eo-bmf-state': 'organization' }, bind, rows, membership };
