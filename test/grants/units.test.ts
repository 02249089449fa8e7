// Units of an organization filed as recipients ("University of Chicago - Urban Labs", no EIN of
// their own): which filed names are units (the rule, as a table), which the extract's names give
// (computed here from the file, not with Assay's rule), and how a question about the parent counts
// them — its units in its state, a unit in another state left out and named — over a SYNTHETIC
// extract written here (every name in it says SYNTHETIC; no figure in it is a real grant).
import { describe, expect, it } from 'vitest';
import { isPlace, splitUnit, unitLinks } from '../../src/grants/units.ts';
import { traverse } from '../../src/grants/traverse.ts';
import { renderDisclosure } from '../../src/grants/render.ts';
import { ingest } from '../../src/grants/ingest.ts';
import { DurableStore } from '../../src/rdf/durable.ts';
import { embeddedGrantStore } from '../../src/grants/store.ts';
import { grantIris } from '../../src/grants/vocab.ts';
import { BASE, EXTRACT, extractRows, ingestedStore, norm } from './helpers.ts';

describe('which filed names are units of a parent', () => {
  it.each([
    ['University of Chicago - Urban Labs', { parent: 'University of Chicago', unit: 'Urban Labs' }],
    ['NEO Philanthropy Inc - State Infrastructure Fund', { parent: 'NEO Philanthropy Inc', unit: 'State Infrastructure Fund' }],
    ['Stand for Children Leadership Center - Illinois', { parent: 'Stand for Children Leadership Center', unit: 'Illinois' }],
    // initials say no organization a reader could name
    ['MSU - COMMUNITY MUSIC SCHOOL-DETROIT', null],
    ['AFS - USA Inc', null],
    // a legal form after the dash is the same organization's name
    ['Acme Arts - Inc', null],
    ['The - Acme Arts', null],
    // no " - ": a hyphenated name is one name
    ['Minneapolis-St Paul Partnership', null],
    ['University of Chicago -Urban Labs', null],
  ] as const)('%s', (name, want) => {
    expect(splitUnit(name)).toEqual(want);
  });

  it('a parent that is a state or a filed city is a place, not an organization', () => {
    const cities = new Set(['MINNEAPOLIS', 'PETOSKEY']);
    expect(isPlace('Minneapolis', cities)).toBe(true);
    expect(isPlace('Petoskey', cities)).toBe(true);
    expect(isPlace('Michigan', cities)).toBe(true);
    expect(isPlace('Minneapolis Foundation', cities)).toBe(false);
  });

  it('the extract\'s unit links: every recipient filed "Parent - Unit" with no EIN, whose parent is no filed city, state or initials', async () => {
    const rows = extractRows();
    const cities = new Set(rows.map((r) => norm(r.grantee_city)));
    const expected = new Set<string>();
    for (const r of rows) {
      const at = r.grantee_name.indexOf(' - ');
      if (at < 0 || r.grantee_ein) continue;
      const parent = r.grantee_name.slice(0, at);
      if (cities.has(norm(parent)) || /^[A-Z]{1,5}$/.test(parent)) continue;
      expected.add(`${norm(r.grantee_name)}|${r.grantee_state.toUpperCase()}`);
    }
    const { store, iris } = await ingestedStore([EXTRACT]);
    const links = await unitLinks(store, iris);
    const names = new Map((await store.select(`SELECT ?o ?name ?st WHERE { GRAPH <${iris.graph}> { ?o <https://schema.org/name> ?name . OPTIONAL { ?o <https://schema.org/addressRegion> ?st } } }`)).map((r) => [r.o!.value, `${norm(r.name!.value)}|${r.st?.value ?? ''}`]));
    expect(new Set(links.map((l) => names.get(l.org)))).toEqual(expected);
    expect(links).toHaveLength(expected.size);
    expect(expected.size).toBe(52);
    expect(links.find((l) => l.parent === 'University of Chicago')?.parentKey).toBe('university of chicago');
    // the rollups graph holds exactly these links
    const held = await store.select(`SELECT ?o WHERE { GRAPH <${iris.rollups}> { ?o <https://w3id.org/assay/grants#parentNameKey> ?k } }`);
    expect(held).toHaveLength(links.length);
  }, 120_000);
});

/** A SYNTHETIC extract in the extract's layout: a parent in OH with a unit in OH and one in PA; units of an unheld parent in two states. */
function syntheticExtract(): string {
  const header = 'grantee_name,grantee_city,grantee_state,grantee_zip,grantee_country,grant_amount,grant_purpose_raw,relationship,foundation_status,grant_bucket,region_id,region_name,region_rule_source,region_relevant,foundation_name,foundation_ein,tax_year,grantee_ein,cash_grant_amount,non_cash_amount,irc_section,source_file,foundation_country,source_system,grant_amount_cash,grant_amount_in_kind,currency,fiscal_year,reporting_period';
  const row = (name: string, city: string, st: string, amount: number, bucket = '3a', ein = '') => `${name},${city},${st},,US,${amount},SYNTHETIC purpose,NONE,PC,${bucket},,,,,SYNTHETIC FUNDER ONE,99-0000001,2023,${ein},,,,,US,IRS_990,,,USD,,`;
  return [header,
    row('SYNTHETIC Parent College', 'Akron', 'OH', 1000),
    row('SYNTHETIC Parent College - School of Music', 'Akron', 'OH', 200),
    row('SYNTHETIC Parent College - Lab', 'Akron', 'OH', 30),
    row('SYNTHETIC Parent College - Lab', 'Akron', 'OH', 7, '3b'),
    row('SYNTHETIC Parent College - Erie Campus', 'Erie', 'PA', 4000),
    // a unit with an EIN of its own is an organization of its own
    row('SYNTHETIC Parent College - Foundation', 'Akron', 'OH', 50000, '3a', '99-0000009'),
    row('SYNTHETIC Alliance - Ohio', 'Columbus', 'OH', 60),
    row('SYNTHETIC Alliance - Indiana', 'Gary', 'IN', 90),
    row('SYNTHETIC Network - East', 'Dayton', 'OH', 11),
    row('SYNTHETIC Network - West', 'Dayton', 'OH', 13),
  ].join('\n') + '\n';
}

describe('a question about a parent counts its units (SYNTHETIC extract)', async () => {
  const store = embeddedGrantStore(DurableStore.inMemory());
  const iris = grantIris(BASE);
  await ingest(store, [{ fileName: 'synthetic-units.csv', text: syntheticExtract() }], { iris });
  const ctx = { store, iris };

  it('its units in its own state are counted with it; a unit in another state is left out and named; a unit with an EIN is not a unit', async () => {
    const r = await traverse(ctx, { direction: 'reverse', recipient: 'SYNTHETIC Parent College' });
    if (!r.ok || r.result.kind !== 'reverse') throw new Error(JSON.stringify(r));
    expect(r.result.totals.paid).toMatchObject({ amount: 1000 + 200 + 30, grants: 3 });
    expect(r.result.totals.approvedFuture).toMatchObject({ amount: 7, grants: 1 });
    const units = r.result.disclosures.find((d) => d.code === 'units_included');
    expect(units).toEqual({ code: 'units_included', asked: 'SYNTHETIC Parent College', parentHeld: true, units: expect.arrayContaining([{ name: 'SYNTHETIC Parent College - School of Music', state: 'OH' }, { name: 'SYNTHETIC Parent College - Lab', state: 'OH' }]) });
    expect(units && units.code === 'units_included' && units.units).toHaveLength(2);
    const other = r.result.disclosures.find((d) => d.code === 'units_other_state')!;
    expect(other).toEqual({ code: 'units_other_state', asked: 'SYNTHETIC Parent College', states: ['OH'], units: [{ name: 'SYNTHETIC Parent College - Erie Campus', state: 'PA' }] });
    expect(renderDisclosure(other)).toBe('1 recipient filed as a unit of "SYNTHETIC Parent College" but in another state than OH is left out, since another organization of that name may be meant: SYNTHETIC Parent College - Erie Campus, PA');
    // the record counted is named as the organization asked for, not as one of its units
    expect(r.result.recipient[0]!.name).toBe('SYNTHETIC Parent College');
  });

  it('a unit asked for by its own name is that unit only', async () => {
    const r = await traverse(ctx, { direction: 'reverse', recipient: 'SYNTHETIC Parent College - Lab' });
    if (!r.ok || r.result.kind !== 'reverse') throw new Error(JSON.stringify(r));
    expect(r.result.totals.paid).toMatchObject({ amount: 30, grants: 1 });
    expect(r.result.disclosures.map((d) => d.code)).not.toContain('units_included');
  });

  it('a name no recipient has but units in one state are filed under is those units, said so; units in two states are candidates', async () => {
    const r = await traverse(ctx, { direction: 'reverse', recipient: 'SYNTHETIC Network' });
    if (!r.ok || r.result.kind !== 'reverse') throw new Error(JSON.stringify(r));
    expect(r.result.totals.paid).toMatchObject({ amount: 24, grants: 2 });
    const d = r.result.disclosures.find((x) => x.code === 'units_included')!;
    expect(renderDisclosure(d)).toMatch(/^no recipient is filed as "SYNTHETIC Network" itself: the answer is its 2 units filed as recipients/);
    const two = await traverse(ctx, { direction: 'reverse', recipient: 'SYNTHETIC Alliance' });
    expect(two.ok).toBe(false);
    if (!two.ok) expect(two.failure).toMatchObject({ code: 'ambiguous_org', role: 'recipient', candidates: [expect.objectContaining({ state: 'IN' }), expect.objectContaining({ state: 'OH' })] });
  });

  it('a pair counts the funder\'s grants to the units too', async () => {
    const r = await traverse(ctx, { direction: 'pair', funder: 'SYNTHETIC FUNDER ONE', recipient: 'SYNTHETIC Parent College' });
    if (!r.ok || r.result.kind !== 'pair') throw new Error(JSON.stringify(r));
    expect(r.result.totals.paid).toMatchObject({ amount: 1230, grants: 3 });
  });
});
