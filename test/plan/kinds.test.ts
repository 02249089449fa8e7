/**
 * The planner's checks against what the catalog declares: the entity's kind against the keys an
 * operation accepts, "right now" against day-dated grains, the head noun of the measure, and the
 * rows an operation returns for counts and lists.
 */
import { describe, expect, it } from 'vitest';
import type { Candidate, Card, OperationRef } from '../../src/discover/index.ts';
import { headOf } from '../../src/discover/text.ts';
import { plan } from '../../src/plan/index.ts';
import { grainHead, grainNoun, grainRowNouns, kindMismatch } from '../../src/plan/kinds.ts';
import { parseIntent, type Intent } from '../../src/understand/intent.ts';

function intent(v: Record<string, unknown>): Intent {
  const r = parseIntent(v);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.intent;
}
function op(key: string, kind: OperationRef['kind'], accepts: string[], grain: string, complete = true): OperationRef {
  const [pub, id] = key.split('/') as [string, string];
  return { key, publisherId: pub, operationId: id, kind, accepts, grain, complete, coverageOf: 'x', title: id };
}
function cand(rank: number, key: string, ops: OperationRef[], extra: Partial<Candidate> & { kind?: Card['kind']; source?: string } = {}): Candidate {
  const card: Card = { id: `${extra.kind === 'operation' ? 'op' : 'm'}:${key}`, kind: extra.kind ?? 'measure', key, publisherId: key.split('/')[0]!, title: key, description: '', questions: '', source: extra.source ?? '', operations: ops };
  return { rank, card, score: extra.score ?? 10, coverage: extra.coverage ?? 1, matched: [], ...(extra.headCovered === undefined ? {} : { headCovered: extra.headCovered }) };
}

const concept = op('sec/companyconcept', 'period_read', ['cik'], 'one fact per unit × period × filing for the concept');
const filing990 = op('np/organization', 'keyed_read', ['ein'], 'one organization; filings per return');

describe('entity kind against the keys an operation accepts', () => {
  const redCross = intent({ question: "How did the Red Cross's total revenue change?", shape: 'timeseries', entity: 'Red Cross', entity_status: 'resolved', type: 'nonprofit', attribute: 'total revenue' });

  it('refuses a company-keyed read for a nonprofit and takes the nonprofit source instead', () => {
    const p = plan(redCross, [cand(1, 'sec/us-gaap/Revenues', [concept]), cand(2, 'np/filing/totrevenue', [filing990])]);
    expect(p.verdict).toBe('composed');
    expect(p.selected?.candidateKey).toBe('np/filing/totrevenue');
    expect(p.assessments.find((a) => a.candidateKey === 'sec/us-gaap/Revenues')!.reason).toMatch(/keyed by cik, which does not identify nonprofit/);
  });

  it('judges only what it knows: name-keyed operations, unknown keys and unknown kinds pass', () => {
    expect(kindMismatch(redCross, op('nih/by-org', 'records_by_entity', ['name'], 'one project'))).toBeNull();
    expect(kindMismatch(redCross, op('irs/return', 'keyed_read', ['object_id'], 'one return'))).toBeNull();
    expect(kindMismatch({ ...redCross, type: 'space agency' }, concept)).toBeNull();
    expect(kindMismatch({ ...redCross, entity: null, canonical_entity: null, entity_status: 'none' }, concept)).toBeNull();
    expect(kindMismatch({ ...redCross, type: 'company' }, concept)).toBeNull();
  });

  it('refuses a population scan whose rows are another kind of entity', () => {
    expect(kindMismatch(redCross, op('acs/all-states', 'population_scan', [], 'one state'))).toMatch(/not one of those rows/);
    expect(kindMismatch(redCross, op('bmf/state', 'population_scan', ['state'], 'one organization (EIN, NAME)'))).toBeNull();
  });

  it('reads what a row of a grain is', () => {
    expect(grainHead('one prime award')).toBe('award');
    expect(grainHead('one organization (EIN, NAME, CITY)')).toBe('organization');
    expect(grainHead('one county × measure × value type')).toBe('county');
    expect(grainNoun('one fact per company (accn, cik)')).toBe('company');
    expect(grainHead('one return (RETURN_ID, EIN)')).toBe('return');
  });
});

describe('"right now" needs day-dated data', () => {
  const now = { text: 'right now', basis: 'unspecified' as const, year: null, quarter: null, date: null, latest: true };
  const stock = intent({ question: "What is Tesla's stock price right now?", shape: 'point', entity: 'Tesla', entity_status: 'resolved', attribute: 'stock price', period: now });
  const filings = op('sec/companyfacts', 'keyed_read', ['cik'], 'one fact per company × concept × period × filing');
  const daily = op('tr/debt-range', 'period_read', ['date'], 'one business day');

  it('refuses filing-dated reads and says why', () => {
    const p = plan(stock, [cand(1, 'sec/us-gaap/SharePrice', [filings])]);
    expect(p.verdict).toBe('infeasible');
    expect(p.reason).toMatch(/dated by the day, and the question asks for the value right now/);
  });

  it('accepts a day-dated read, and leaves "latest" alone', () => {
    expect(plan({ ...stock, attribute: 'debt', entity: null, canonical_entity: null, entity_status: 'none' }, [cand(1, 'tr/debt/amt', [daily])]).verdict).toBe('exact');
    expect(plan({ ...stock, period: { ...now, text: 'latest' } }, [cand(1, 'sec/us-gaap/SharePrice', [filings])]).verdict).toBe('exact');
  });
});

describe('relevance', () => {
  const inflation = intent({ question: 'What is the inflation rate in Argentina?', shape: 'point', entity: 'Argentina', entity_status: 'resolved', attribute: 'inflation rate' });

  it('finds the head noun of an attribute past measure words and postmodifiers', () => {
    expect(headOf('inflation rate')?.term).toBe('inflation');
    expect(headOf('median earnings of graduates')?.term).toBe('earning');
    expect(headOf('average interest rate on Treasury securities')?.term).toBe('interest');
    expect(headOf('debt held by the public')?.term).toBe('debt');
    expect(headOf('diabetes prevalence')?.term).toBe('diabete');
    expect(headOf('rate')).toBeUndefined();
  });

  it('does not assess a card that matched on words alone, without the head noun', () => {
    const p = plan(inflation, [cand(1, 'tr/avg/interest_rate', [op('tr/avg-rates', 'period_read', ['date'], 'one month')], { headCovered: false })]);
    expect(p).toMatchObject({ verdict: 'infeasible', considered: 0 });
    expect(p.reason).toMatch(/no published measure or operation matches "inflation rate"/);
  });

  it('counts records with the operations whose rows are the population', () => {
    const count = intent({ question: 'How many tax-exempt organizations are registered in Texas?', shape: 'aggregate', attribute: 'number of tax-exempt organizations', quantifier: 'exhaustive' });
    const p = plan(count, [
      cand(1, 'irs/990/SupportedOrgCount', [op('irs/return', 'keyed_read', ['object_id'], 'one return')], { score: 300 }),
      cand(2, 'bmf/eo-bmf-state', [op('bmf/eo-bmf-state', 'population_scan', ['state'], 'one organization (EIN, NAME)')], { kind: 'operation', score: 1 }),
    ]);
    expect(p.verdict).toBe('composed');
    expect(p.selected?.candidateKey).toBe('bmf/eo-bmf-state');
  });

  it('lists records with every operation of a relevant source, not only the best-scored one', () => {
    const list = intent({ question: 'List the NIH grants awarded to Stanford University in 2023.', shape: 'entity_list', entity: 'Stanford University', entity_status: 'resolved', type: 'university', attribute: 'NIH grants', quantifier: 'exhaustive' });
    const p = plan(list, [
      cand(1, 'nih/projects-search', [op('nih/projects-search', 'search', ['name'], 'one project-year', false)], { kind: 'operation', score: 60 }),
      cand(2, 'nih/projects-by-organization', [op('nih/projects-by-organization', 'records_by_entity', ['name'], 'one project-year', false)], { kind: 'operation', score: 12 }),
    ]);
    expect(p.verdict).toBe('exact');
    expect(p.selected?.candidateKey).toBe('nih/projects-by-organization');
  });
});

describe('status and list routing from what the catalog declares', () => {
  const orgRead = op('np/organization', 'keyed_read', ['ein'], 'one organization; filings_with_data has one entry per return (tax_prd YYYYMM)');
  const efile = op('irs/efile-return', 'keyed_read', ['object_id'], 'one return');

  it('reads the nested rows a grain declares', () => {
    expect(grainRowNouns(orgRead.grain)).toEqual(['organization', 'return']);
    expect(grainRowNouns('one prime award')).toEqual(['award']);
  });

  it('a list of returns is served by an operation declaring one entry per return, even when it scored low', () => {
    const list = intent({ question: 'Show every tax return the Ford Foundation has filed.', shape: 'entity_list', entity: 'Ford Foundation', entity_status: 'resolved', attribute: 'tax return' });
    const p = plan(list, [cand(1, 'irs/efile-return', [efile], { kind: 'operation', score: 100 }), cand(2, 'np/organization', [orgRead], { kind: 'operation', score: 1 })]);
    expect(p.assessments.map((a) => a.candidateKey)).toEqual(expect.arrayContaining(['irs/efile-return', 'np/organization']));
  });

  it('with no entity type, the status asked names the kind whose sources qualify (501(c)(3) → nonprofit sources)', () => {
    const status = intent({ question: 'Is the Sierra Club a 501(c)(3)?', shape: 'status', entity: 'Sierra Club', entity_status: 'resolved', attribute: '501(c)(3) status' });
    const cands = [cand(1, 'irs/efile-return', [efile], { kind: 'operation', score: 100 }), cand(2, 'np/organization', [orgRead], { kind: 'operation', score: 1, source: 'Nonprofit Explorer: nonprofits by EIN' })];
    expect(plan(status, cands).assessments.map((a) => a.candidateKey)).toContain('np/organization');
    expect(plan({ ...status, attribute: 'membership status' }, cands).assessments.map((a) => a.candidateKey)).not.toContain('np/organization');
  });
});
