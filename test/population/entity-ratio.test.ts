// Ratios of two measures of one named entity (a company's margin, a nonprofit's liabilities to
// assets): each component a keyed read, the division in code. Expected values are read here from
// the recorded bodies (SEC companyfacts, ProPublica organization), never through Assay's code.
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 180_000 });
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { ratio } from '../../src/population/compute/ratio.ts';
import { computeRefusalText } from '../../src/population/wording.ts';
import { interpretOffline } from '../../src/understand/offline/interpret.ts';
import { testServices } from '../ask/services.ts';
import { body } from './helpers.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

interface Fact { val: number; fy: number; fp: string; form: string; end: string; start?: string }
/** One us-gaap concept's annual 10-K value for a fiscal year, from the recorded companyfacts body. */
function secAnnual(concept: string, fy: number): number {
  const facts = JSON.parse(body('sec-edgar', 'companyfacts.CIK0000320193.cassette.json')) as { facts: { 'us-gaap': Record<string, { units: Record<string, Fact[]> }> } };
  const rows = facts.facts['us-gaap'][concept]!.units.USD!.filter((f) => f.fy === fy && f.fp === 'FY' && f.form === '10-K' && f.start && f.end.startsWith(String(fy)));
  const vals = [...new Set(rows.map((r) => r.val))];
  expect(vals).toHaveLength(1);
  return vals[0]!;
}

describe('the offline interpreter decomposes a named ratio into its components', () => {
  it.each([
    ["What was Apple's net profit margin in 2023?", 'Apple', ['net income', 'revenue']],
    ["What was Tesla's gross margin in 2023?", 'Tesla', ['gross profit', 'revenue']],
    ["What was Microsoft's net income as a percentage of revenue in 2022?", 'Microsoft', ['net income', 'revenue']],
    ["What was Apple's return on assets in 2023?", 'Apple', ['net income', 'total assets']],
    ["What is Apple's debt-to-equity ratio?", 'Apple', ['total liabilities', 'stockholders equity']],
    ["What share of the American Red Cross's revenue came from government grants?", 'American Red Cross', ['government grants', 'revenue']],
    ["What is Tesla's debt-to-assets ratio?", 'Tesla', ['debt', 'assets']],
    ["What was Coca-Cola's dividend payout ratio in 2022?", 'Coca-Cola', ['dividends paid', 'net income']],
  ])('%s', (q, entity, components) => {
    const u = interpretOffline(q);
    expect(u.status).toBe('understood');
    if (u.status !== 'understood') return;
    expect(u.intent.shape).toBe('ratio');
    expect(u.intent.entity).toBe(entity);
    expect(u.intent.attributes).toEqual(components);
  });
});

describe('a ratio of one entity\'s keyed measures', () => {
  it("Apple's net profit margin in 2023: net income over revenue, both FY2023 from the same filing basis, derived in code", async () => {
    const r = await ask(services, { question: "What was Apple's net profit margin in 2023?" });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const income = secAnnual('NetIncomeLoss', 2023);
    const revenue = secAnnual('RevenueFromContractWithCustomerExcludingAssessedTax', 2023);
    const margin = Number(((income / revenue) * 100).toFixed(2));
    // the two components are admitted evidence, each verified; the margin is derived from them
    expect(r.evidence.map((e) => e.value)).toEqual([income, revenue]);
    expect(r.evidence.map((e) => e.period)).toEqual(['FY2023', 'FY2023']);
    expect(r.evidence.map((e) => e.entity_key)).toEqual(['cik=0000320193', 'cik=0000320193']);
    const derived = r.figures.filter((f) => f.grade === 'derived');
    expect(derived).toHaveLength(1);
    expect(derived[0]!.text).toBe(`${margin}%`);
    for (const f of r.figures) expect(['verified', 'derived']).toContain(f.grade);
    expect(r.figures.filter((f) => f.grade === 'verified')).toHaveLength(2);
    // the formula and both components are shown
    expect(r.text).toContain(`$${income.toLocaleString('en-US')} / $${revenue.toLocaleString('en-US')} × 100`);
    expect(r.text).toContain('FY2023');
    expect(r.citations.some((c) => /companyfacts\/CIK0000320193/.test(c.url ?? ''))).toBe(true);
  });

  it('a nonprofit\'s liabilities to assets (ProPublica), a ratio below 0.01 shown with its significant digits, never 0', async () => {
    const r = await ask(services, { question: 'What was the ratio of total liabilities to total assets of the Apache Software Foundation in 2021?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const org = JSON.parse(body('propublica-nonprofits', 'organization.v2_organizations_470825376.cassette.json')) as { filings_with_data: Array<{ tax_prd_yr: number; totliabend: number; totassetsend: number }> };
    const f = org.filings_with_data.find((x) => x.tax_prd_yr === 2021)!;
    expect(r.evidence.map((e) => e.value)).toEqual([f.totliabend, f.totassetsend]);
    const v = f.totliabend / f.totassetsend;
    const places = Math.ceil(-Math.log10(v)) + 2;
    const derived = r.figures.find((x) => x.grade === 'derived')!;
    expect(Number(derived.text)).toBeCloseTo(Number(v.toFixed(places)), 10);
    expect(Number(derived.text)).not.toBe(0);
    for (const x of r.figures) expect(['verified', 'derived']).toContain(x.grade);
  });

  it('each component is cross-checked against the second paths its measure declares, as a keyed point read is, and graded by them', async () => {
    const r = await ask(services, { question: "What was Apple's net profit margin in 2023?" });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const [income, revenue] = r.evidence;
    // every component has its cross-checks, each against another operation than the one it was admitted from
    for (const e of [income!, revenue!]) {
      const mine = (r.cross_checks ?? []).filter((c) => c.evidence === e.iri);
      expect(mine.length, e.measure).toBeGreaterThan(0);
      for (const c of mine) expect(c.operation).not.toBe('companyfacts');
    }
    // where a second path was read, it holds the value the companyfacts body states (computed here), and the figure names it
    const agreeing = (r.cross_checks ?? []).filter((c) => c.outcome === 'agrees');
    expect(agreeing.length).toBeGreaterThan(0);
    for (const c of agreeing) expect(c.value).toBe(c.evidence === income!.iri ? secAnnual('NetIncomeLoss', 2023) : secAnnual('RevenueFromContractWithCustomerExcludingAssessedTax', 2023));
    for (const f of r.figures.filter((x) => x.grade === 'verified')) expect(f.corroborated_by?.length, f.text).toBeGreaterThan(0);
    // the DERIVED second paths are not independent: said, not hidden
    expect(r.qualification!.disclosures.join(' ')).toMatch(/Cross-check agrees: .*may agree with the primary read by construction/);
    // the cross-check attempts are in the run graph
    expect(services.store.rdf.ask(`ASK { GRAPH <http://assay.test/graph/runs/${r.run_id}> { ?c a <https://w3id.org/assay/ns#CrossCheck> } }`)).toBe(true);
  });

  it('a component whose measure no other operation serves says no cross-check was available', async () => {
    const r = await ask(services, { question: 'What was the ratio of total liabilities to total assets of the Apache Software Foundation in 2021?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    expect((r.cross_checks ?? []).map((c) => c.outcome)).toEqual(['unavailable', 'unavailable']);
    expect(r.qualification!.disclosures.join(' ')).toMatch(/No cross-check available for any of the 2 figures/);
    for (const x of r.figures) expect(['verified', 'derived']).toContain(x.grade);
  });

  it('a component with no record for the period refuses naming that component, never dividing what it has', async () => {
    const r = await ask(services, { question: "What was Tesla's net profit margin in 2023?" });
    expect(r.status).toBe('refused');
    expect(r.figures).toHaveLength(0);
    expect(JSON.stringify(r.refusal)).toMatch(/net income/);
  });

  it('components of different periods or different entities are refused, not warned about', () => {
    const c = (label: string, key: string, value: number) => ({ measure: 'm', value, unit: 'USD', currency: 'USD', period: { label }, about: { grain: 'entity', key, label: key }, match: 'key' as const, evidence: ['0'] });
    const periods = ratio(c('FY2023', 'Q1', 1), c('FY2022', 'Q1', 2), 100, { strict: true });
    expect(periods).toMatchObject({ ok: false, refusal: { code: 'period_mismatch', periods: ['FY2023', 'FY2022'] } });
    const entities = ratio(c('FY2023', 'Q1', 1), c('FY2023', 'Q2', 2), 100, { strict: true });
    expect(entities).toMatchObject({ ok: false, refusal: { code: 'entity_mismatch' } });
    if (!entities.ok) expect(computeRefusalText(entities.refusal)).toMatch(/different entities/);
    // a per-capita figure (not strict) keeps the period difference as a warning
    const loose = ratio(c('2023', 'Q1', 1), c('2018', 'Q1', 2), 100);
    expect(loose.ok && loose.value.warnings.map((w) => w.code)).toEqual(['periods_differ']);
  });
});
