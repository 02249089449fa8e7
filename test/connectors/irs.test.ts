import { describe, expect, it } from 'vitest';
import { entities, fails, observations, run } from './harness.ts';

describe('IRS EO BMF connector (real extracts)', () => {
  it('a state extract is the complete population, EINs kept as text with leading zeros', async () => {
    const r = await run('irs-eo-bmf', 'eo-bmf-state', { state: 'RI' });
    expect(r.complete).toBe(true);
    expect(entities(r)).toHaveLength(6443);
    const first = entities(r).find((e) => e.keys.ein === '010357301')!;
    expect(first).toMatchObject({ label: 'SABATTUS HOUSING INC', attributes: { subsection: '03', subsectionLabel: '501(c)(3)', deductibility: '1', deductibilityLabel: 'contributions are deductible', status: '01', ntee: 'L21', zip: '02886-2233' } });
  });

  it('filters by subsection keep the population claim honest in the notes', async () => {
    const r = await run('irs-eo-bmf', 'eo-bmf-state', { state: 'ri', subsection: '3' });
    expect(entities(r).every((e) => e.attributes.subsection === '03')).toBe(true);
    expect(r.notes[0]).toMatch(/complete BMF extract for RI: 6443 organizations, \d+ filtered to 501\(c\)\(3\)/);
  });

  it('amounts are USD for the tax period; blank is missing, not zero', async () => {
    const r = await run('irs-eo-bmf', 'eo-bmf-ein-lookup', { state: 'ri', ein: '01-0370716' });
    expect(observations(r).find((o) => o.measure === 'bmf/REVENUE_AMT')).toMatchObject({ value: 9107134, unit: 'USD', period: { end: '2022-12-31', basis: 'fiscal' } });
    const sab = await run('irs-eo-bmf', 'eo-bmf-ein-lookup', { state: 'ri', ein: '010357301' });
    expect(observations(sab).find((o) => o.measure === 'bmf/REVENUE_AMT')).toMatchObject({ value: null, status: 'missing', asPublished: '' });
    expect(observations(sab).find((o) => o.measure === 'bmf/ASSET_AMT')?.value).toBe(56403);
  });

  it('an EIN absent from the extract is not found', async () => {
    expect((await fails('irs-eo-bmf', 'eo-bmf-ein-lookup', { state: 'ri', ein: '999999999' })).kind).toBe('not_found');
  });
});

describe('IRS 990 e-file connector (real returns)', () => {
  it('Schedule I grants: grantor → recipient edges with amounts, purposes and EINs as text', async () => {
    const r = await run('irs-990-efile', 'schedule-i-grants', { object_id: '202403589349300950' });
    const g = observations(r);
    expect(new Set(g.map((o) => o.entity?.ein))).toEqual(new Set(['741894581']));
    const cash = g.filter((o) => o.measure === 'IRS990ScheduleI/CashGrantAmt');
    expect(cash).toHaveLength(4);
    expect(cash[0]).toMatchObject({ value: 877418, unit: 'USD', counterparty: { name: 'POUDRE VALLEY HEALTH CARE INC', ein: '841262971' }, attributes: { purpose: 'VARIOUS PROGRAM SUPPORT' }, period: { end: '2024-06-30', fiscalYear: 2023 } });
    expect(g.some((o) => o.counterparty?.ein === '043730045')).toBe(true);
    // Part II (organizations) 5,820,757; with Part III (individuals, by type of assistance) the
    // Schedule I total is 8,355,995 (Part I says 8,355,996: rounding in the return itself)
    const orgs = g.filter((o) => !o.attributes.recipientsAreIndividuals);
    expect(orgs.reduce((s, o) => s + (o.value ?? 0), 0)).toBe(5_820_757);
    expect(g.reduce((s, o) => s + (o.value ?? 0), 0)).toBe(8_355_995);
    expect(g.find((o) => o.attributes.grantType === 'EMPLOYEE ASSISTANCE')).toMatchObject({ value: 350165, attributes: { recipientCount: 243 } });
    expect(r.notes.join(' ')).toContain('TRIMMED');
  });

  it('990-PF grants paid: four grants totalling 12,000 USD', async () => {
    const g = observations(await run('irs-990-efile', 'schedule-i-grants', { object_id: '201601249349100900' }));
    expect(g).toHaveLength(4);
    expect(g.reduce((s, o) => s + (o.value ?? 0), 0)).toBe(12_000);
    expect(g[0]).toMatchObject({ entity: { ein: '046662754' }, counterparty: { name: 'UNIVERSITY OF MASSACHUSETTS' }, attributes: { purpose: 'SCHOLARSHIP', formType: '990PF' } });
  });

  it('a return without grants says so instead of returning nothing silently', async () => {
    const r = await run('irs-990-efile', 'schedule-i-grants', { object_id: '201541349349307794' });
    expect(r.records).toHaveLength(0);
    expect(r.notes[0]).toMatch(/reports no grants/);
    const ret = entities(await run('irs-990-efile', 'efile-return', { object_id: '201541349349307794' }))[0]!;
    expect(ret.keys.ein).toMatch(/^\d{9}$/);
    expect(ret.attributes.formType).toBe('990');
  });
});
