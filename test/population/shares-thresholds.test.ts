// A class named inside a share ("501(c)(3)" among nonprofits, private foundations among 501(c)(3)
// organizations) carried into the counts, and a subset's threshold stated in the question's own
// words and graded as the question's number, not as an unverified figure. Expected values are
// computed here from the recorded IRS EO BMF and SAIPE bodies.
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 180_000 });
import { ask } from '../../src/ask/run.ts';
import type { AskServices } from '../../src/ask/services.ts';
import { interpretOffline } from '../../src/understand/offline/interpret.ts';
import { testServices } from '../ask/services.ts';
import { CASSETTES, censusRows, csvRows } from './helpers.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

const ri = () => csvRows('irs-eo-bmf', CASSETTES.bmf('ri')).filter((r) => r.STATE === 'RI');

describe('a class inside a share', () => {
  it.each([
    ['What share of Rhode Island nonprofits are 501(c)(3)?', ['number of 501(c)(3) organizations', 'number of nonprofits']],
    ['What share of 501(c)(3) organizations in Rhode Island are private foundations?', ['number of private foundations', 'number of 501(c)(3) organizations']],
  ])('the offline interpreter counts the class: %s', (q, components) => {
    const u = interpretOffline(q);
    expect(u.status).toBe('understood');
    if (u.status !== 'understood') return;
    expect(u.intent.attributes).toEqual(components);
    expect(u.intent.entity).toBe('Rhode Island');
    // the class code is not a place bounding the population
    expect(u.intent.geography?.within ?? 'Rhode Island').toBe('Rhode Island');
  });

  it('"are 501(c)(3)": the share of Rhode Island organizations in subsection 03, derived from two counts', async () => {
    const r = await ask(services, { question: 'What share of Rhode Island nonprofits are 501(c)(3)?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const rows = ri();
    const c3 = rows.filter((x) => x.SUBSECTION === '03').length;
    const share = Number(((c3 / rows.length) * 100).toFixed(2));
    expect(r.figures.filter((f) => f.grade === 'derived').map((f) => f.value)).toEqual(expect.arrayContaining([share, c3, rows.length]));
    for (const f of r.figures) expect(['verified', 'derived']).toContain(f.grade);
  });

  it('private foundations among 501(c)(3) organizations: the class of the denominator is counted, not every organization', async () => {
    const r = await ask(services, { question: 'What share of 501(c)(3) organizations in Rhode Island are private foundations?' });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    const rows = ri();
    const c3 = rows.filter((x) => x.SUBSECTION === '03').length;
    const pf = rows.filter((x) => ['02', '03', '04'].includes(x.FOUNDATION!)).length;
    expect(r.figures.filter((f) => f.grade === 'derived').map((f) => f.value)).toEqual(expect.arrayContaining([Number(((pf / c3) * 100).toFixed(2)), pf, c3]));
  });
});

describe('a subset states the threshold asked', () => {
  it('in dollars: "over $100 million" in the question\'s words, exempt from grading as the question\'s own number', async () => {
    const r = await ask(services, { question: 'Which Rhode Island organizations have revenue over $100 million?', strict: true });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    expect(r.text).toContain('over $100 million, the threshold asked');
    expect(r.figures.some((f) => f.text === '$100 million')).toBe(false);
    expect(r.figures.every((f) => f.grade === 'verified' || f.grade === 'derived')).toBe(true);
    const n = ri().filter((x) => Number(x.REVENUE_AMT || 0) > 100_000_000).length;
    expect(r.figures.find((f) => f.grade === 'derived')?.value).toBe(n);
  });

  it('in percent: "below 10%" stated, and a member\'s own value is still verified', async () => {
    const r = await ask(services, { question: 'Which states have a poverty rate below 10% in 2023?', strict: true });
    expect(r.status, JSON.stringify(r.refusal)).toBe('answered');
    expect(r.text).toContain('below 10%, the threshold asked');
    expect(r.figures.some((f) => f.text === '10%')).toBe(false);
    const under = censusRows('saipe-states.timeseries_saipe_SAEPOVRTALL_PT_state-all_time-2023.wrapped.cassette.json').filter((x) => x.state !== '11' && Number(x.SAEPOVRTALL_PT) < 10);
    expect(r.figures.find((f) => f.grade === 'derived')?.value).toBe(under.length);
    expect(r.figures.filter((f) => f.grade === 'verified')).toHaveLength(under.length);
  });
});
