/**
 * The residual semantic check may only narrow, never choose: a candidate whose label the code
 * cannot settle ("does 'Contract with Customer, Liability, Revenue Recognized' mean 'total
 * revenue'?") is judged by the model only after every candidate the code settles on its own was
 * tried. A judge that says yes to everything must not turn a worse measure earlier in the order into
 * the answer (Apple's contract-liability revenue recognized, $8,169,000,000, was answered and graded
 * verified for "total revenue"); a judge that says no to everything still leaves the clean answer.
 * Figures are those of the recorded companyfacts response (fixtures/publishers/sec-edgar).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { fixedModel, testServices } from './services.ts';

/** A concept's FY value in the recorded Apple companyfacts body, read from the file (not through Assay's connector). */
function appleFact(concept: string, fy: number): number {
  const dir = new URL('../../fixtures/publishers/sec-edgar/', import.meta.url);
  const cassette = JSON.parse(readFileSync(new URL('companyfacts.CIK0000320193.cassette.json', dir), 'utf8')) as { response: { bodyFile: string } };
  const body = JSON.parse(readFileSync(new URL(cassette.response.bodyFile, dir), 'utf8')) as { facts: Record<string, Record<string, { units: Record<string, Array<{ fy: number; fp: string; form: string; val: number; start?: string; end: string; frame?: string }>> }>> };
  const rows = Object.values(body.facts['us-gaap']![concept]!.units)[0]!;
  const row = rows.find((r) => r.frame === `CY${fy}`) ?? rows.find((r) => r.fy === fy && r.fp === 'FY' && r.form === '10-K');
  if (!row) throw new Error(`no FY${fy} ${concept} in the recorded Apple companyfacts`);
  return row.val;
}

describe('a model judge is asked only after every candidate the code settles alone', () => {
  let yes: AskServices;
  let no: AskServices;
  beforeAll(async () => {
    yes = await testServices({ model: fixedModel('Drafted.', [], true) });
    no = await testServices({ model: fixedModel('Drafted.', [], false) });
  }, 240_000);

  const q = "What was Apple's total revenue in 2023?";
  const revenue = () => appleFact('RevenueFromContractWithCustomerExcludingAssessedTax', 2023);

  it('a yes-to-everything judge: the clean measure is read, not the residual one earlier in the order', async () => {
    const r = await ask(yes, { question: q });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.measure, e.value])).toEqual([['sec-edgar/us-gaap/RevenueFromContractWithCustomerExcludingAssessedTax', revenue()]]);
    expect(r.evidence.map((e) => e.value)).not.toContain(appleFact('ContractWithCustomerLiabilityRevenueRecognized', 2023));
  }, 120_000);

  it('a no-to-everything judge: the same clean answer', async () => {
    const r = await ask(no, { question: q });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => e.value)).toEqual([revenue()]);
  }, 120_000);

  it('the same for a read that names no entity: "federal debt" is total public debt outstanding, not the debt held by the public ranked before it', async () => {
    // discovery ranks "Debt held by the public" first; its label narrows "debt", so only a model could
    // admit it, and a yes-judge did (24,517,593,324,394.19 for 2022), before the total the catalog names "federal debt"
    const r = await ask(yes, { question: 'What was the federal debt at the end of 2022?' });
    expect(r.status).toBe('answered');
    expect(r.evidence.map((e) => [e.measure, e.period_end])).toEqual([['treasury-fiscal-data/debt_to_penny/tot_pub_debt_out_amt', '2022-12-30']]);
    // (With the measure's altLabels in discovery the total may now rank first; either way the debt
    // held by the public is never the one admitted.)
    expect(r.attempts.filter((a) => a.disposition === 'accepted').map((a) => a.measure)).toEqual(['treasury-fiscal-data/debt_to_penny/tot_pub_debt_out_amt']);
    for (const a of r.attempts) if (a.measure?.endsWith('/debt_held_public_amt')) expect(a.disposition).toBe('rejected');
  }, 120_000);

  it('when no candidate is clean, the judge settles the residual one (its yes admits, its no refuses)', async () => {
    // "outstanding debt": no label the code accepts; only the model can say Total Public Debt Outstanding is it
    const question = 'What was the outstanding debt on March 31, 2024?';
    const admitted = await ask(yes, { question });
    expect(admitted.status).toBe('answered');
    expect(admitted.evidence.map((e) => e.measure)).toEqual(['treasury-fiscal-data/debt_to_penny/tot_pub_debt_out_amt']);
    const refused = await ask(no, { question });
    expect(refused.status).toBe('refused');
  }, 120_000);
});
