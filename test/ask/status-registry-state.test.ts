/**
 * Status questions that name no state, on the offline default: the IRS EO BMF is published one
 * extract per state, so the extract is the one the identity registry places the organization in
 * (its wdt:P131, built from the STATE column of the extract row itself), disclosed as coming from
 * the registry. Codes are exactly as the extracts publish them (rows read from
 * fixtures/publishers/irs-eo-bmf/bodies): HAZEN SCHOLARSHIP FUND 3035016112, EIN 020530567, RI,
 * FOUNDATION 04, STATUS 01; AMERICAN NATIONAL RED CROSS, EIN 530196605, DC, STATUS 01, FOUNDATION 15;
 * EL HIBRI FOUNDATION, EIN 522306995, DC, STATUS 25. An organization the registry places in a state
 * with no recorded extract ends operationally_blocked naming that extract; one it places nowhere
 * leaves the BMF unbound.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../src/ask/run.ts';
import { loadAskServices, type AskServices } from '../../src/ask/services.ts';
import type { ProgressEvent } from '../../src/ask/types.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import type { IdentityBundle } from '../../src/resolve/bundle.ts';
import { normaliseName, openOfflineRegistry, type IdentityRegistry } from '../../src/resolve/registry.ts';
import { BASE, testServices } from './services.ts';

let services: AskServices;
beforeAll(async () => { services = await testServices(); }, 120_000);

async function run(question: string, s = services) {
  const events: ProgressEvent[] = [];
  const r = await ask(s, { question }, { onProgress: (e) => events.push(e) });
  return { r, events };
}

const FROM_REGISTRY = (state: string, code: string) => `the question names no state; the identity registry places the organization in ${state} (located in, wdt:P131), so the IRS EO BMF extract for ${state} (eo_${code}) is read`;

describe('a status question naming no state reads the extract of the state the registry places the organization in', () => {
  it('RI: a private foundation from FOUNDATION 04 in eo_ri, the state disclosed as the registry\'s', async () => {
    const { r, events } = await run('Is the Hazen Scholarship Fund a private foundation?');
    expect(r.status).toBe('answered');
    expect(r.evidence).toHaveLength(1);
    expect(r.evidence[0]).toMatchObject({ value: true, source: 'irs-eo-bmf', entity_key: 'ein=020530567', status: { field: 'foundation', code: '04', meaning: 'private non-operating foundation' } });
    expect(r.evidence[0]!.warnings).toContain(FROM_REGISTRY('Rhode Island', 'ri'));
    expect(r.qualification!.disclosures).toContain(FROM_REGISTRY('Rhode Island', 'ri'));
    expect(r.citations.map((c) => c.url)).toEqual(['https://www.irs.gov/pub/irs-soi/eo_ri.csv']);
    // ProPublica (EIN alone) has no recording for this EIN; the BMF read is bound to eo_ri by the registry's state
    expect(r.attempts.map((a) => [a.source, a.operation, a.disposition])).toEqual([['propublica-nonprofits', 'organization', 'errored'], ['irs-eo-bmf', 'eo-bmf-ein-lookup', 'accepted']]);
    expect(events.some((e) => e.stage === 'crosswalk' && e.message.includes(FROM_REGISTRY('Rhode Island', 'ri')))).toBe(true);
  });

  it('RI: the same row read as tax-exempt (STATUS 01)', async () => {
    const { r } = await run('Is the Hazen Scholarship Fund tax-exempt?');
    expect(r.status).toBe('answered');
    expect(r.evidence[0]).toMatchObject({ value: true, entity_key: 'ein=020530567', status: { field: 'status', code: '01', meaning: 'unconditional exemption' } });
    expect(r.citations.map((c) => c.url)).toEqual(['https://www.irs.gov/pub/irs-soi/eo_ri.csv']);
  });

  it('DC: tax-exempt from STATUS 01 in eo_dc; not a private foundation (FOUNDATION 15), a false on its own terms', async () => {
    const ex = (await run('Is the American National Red Cross tax-exempt?')).r;
    expect(ex.status).toBe('answered');
    expect(ex.text).toBe('Yes. AMERICAN NATIONAL RED CROSS (EIN 530196605) is tax-exempt: its status is "01" (unconditional exemption), according to the IRS Exempt Organizations Business Master File.');
    expect(ex.evidence[0]!.warnings).toEqual([FROM_REGISTRY('District of Columbia', 'dc')]);
    expect(ex.citations.map((c) => c.url)).toEqual(['https://www.irs.gov/pub/irs-soi/eo_dc.csv']);
    const pf = (await run('Is the American National Red Cross a private foundation?')).r;
    expect(pf.status).toBe('answered');
    expect(pf.evidence[0]).toMatchObject({ value: false, entity_key: 'ein=530196605', status: { field: 'foundation', code: '15', meaning: 'publicly supported organization (170(b)(1)(A)(vi))' } });
  });

  it('DC: a descriptive status code (25) read from the registry\'s extract is still rejected, never coerced', async () => {
    const { r } = await run('Is the El Hibri Foundation tax-exempt?');
    expect(r.status).toBe('refused');
    expect(r.refusal).toMatchObject({ boundary: 'no_data', code: 'polarity' });
    expect(r.refusal!.reason).toContain('status is "25" (organization terminating its private foundation status)');
    expect(r.attempts.filter((a) => a.source === 'irs-eo-bmf').map((a) => a.disposition)).toEqual(['rejected', 'rejected']);
    expect(r.evidence).toEqual([]);
  });

  it('an organization the registry places nowhere leaves the BMF unbound (Apple: an EIN from SEC, no place)', async () => {
    const { r } = await run('Is Apple tax-exempt?');
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('operationally_blocked');
    expect(r.refusal!.reason).toContain('https://projects.propublica.org/nonprofits/api/v2/organizations/942404110.json');
    expect(r.refusal!.reason).toContain('the question names no state and the identity registry places the organization in none');
    expect(r.evidence).toEqual([]);
  });
});

describe('an organization the registry places in a state whose extract is not recorded', () => {
  // The offline registry plus one organization as ProPublica's Ohio search response publishes it (name,
  // EIN, state OH), placed in the registry's own Ohio node: nothing typed in by hand.
  let oh: AskServices;
  let ein = '';
  beforeAll(async () => {
    const base = await openOfflineRegistry();
    const file = fileURLToPath(new URL('../../fixtures/publishers/propublica-nonprofits/bodies/v2_search_q-rural_state-OH_page0.json', import.meta.url));
    const org = (JSON.parse(await readFile(file, 'utf8')) as { organizations: Array<{ ein: number; name: string; state: string }> }).organizations.find((o) => o.name === 'OHIO RURAL WATER ASSOCIATION')!;
    expect(org.state).toBe('OH');
    ein = String(org.ein).padStart(9, '0');
    const state = (await base.lookup('Ohio', { type: 'state' })).find((b) => b.label === 'Ohio')!;
    const bundle: IdentityBundle = { id: `test:ein-${ein}`, label: org.name, altLabels: [], types: ['organization'], identifiers: { ein: [ein] }, locatedIn: [{ id: state.id, label: state.label, fips: state.identifiers.fips![0]!, level: 'state' }], from: 'offline-snapshot', match: 'exact' };
    const registry: IdentityRegistry = {
      kind: base.kind,
      async lookup(name, options, signal) { return normaliseName(name) === normaliseName(org.name) ? [bundle] : base.lookup(name, options, signal); },
    };
    oh = await loadAskServices({ store: DurableStore.inMemory(), baseIri: BASE, registry });
  }, 120_000);

  it('ends operationally_blocked naming the missing Ohio extract (and the missing ProPublica recording)', async () => {
    expect(ein).toBe('310917953');
    const { r } = await run('Is the Ohio Rural Water Association tax-exempt?', oh);
    expect(r.status).toBe('refused');
    expect(r.refusal!.boundary).toBe('operationally_blocked');
    expect(r.refusal!.reason).toContain('https://www.irs.gov/pub/irs-soi/eo_oh.csv');
    expect(r.refusal!.reason).toContain('https://projects.propublica.org/nonprofits/api/v2/organizations/310917953.json');
    expect(r.refusal!.reason).toContain('not in the offline snapshot');
    expect(r.evidence).toEqual([]);
    expect(r.attempts.every((a) => a.disposition === 'errored')).toBe(true);
    expect(r.attempts.map((a) => a.source)).toEqual(expect.arrayContaining(['propublica-nonprofits', 'irs-eo-bmf']));
  });
});
