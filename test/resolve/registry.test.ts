import { beforeAll, describe, expect, it } from 'vitest';
import { bindKey } from '../../src/resolve/bundle.ts';
import { candidateQuery, openOfflineRegistry, resolveContext, resolveName, type IdentityRegistry } from '../../src/resolve/registry.ts';
import { sparql, lit } from '../../src/resolve/sparql-text.ts';

let offline: IdentityRegistry;
let reference: Promise<import('../../src/rdf/store.ts').RdfStore> | undefined;
beforeAll(async () => { offline = await openOfflineRegistry(); });

describe('identity registry (offline snapshot from real samples)', () => {
  it('"Apple" → candidates including the registrant with CIK 0000320193 and ticker AAPL, ranked first', async () => {
    const c = await resolveName(offline, 'Apple', {}, resolveContext());
    expect(c.length).toBeGreaterThan(1);
    expect(c[0]).toMatchObject({ label: 'Apple Inc.', match: 'exact', types: ['company'], identifiers: { cik: ['0000320193'], ticker: ['AAPL'], ein: ['942404110'] }, from: 'offline-snapshot' });
    expect(c[0]!.altLabels).toContain('APPLE COMPUTER INC');
  });

  it('an ambiguous name returns every candidate for the caller to choose, never one picked', async () => {
    const c = await resolveName(offline, 'Cook County', { type: 'county' }, resolveContext());
    expect(c.map((b) => b.label)).toEqual(expect.arrayContaining(['Cook County, Georgia', 'Cook County, Illinois', 'Cook County, Minnesota']));
    expect(c.find((b) => b.label === 'Cook County, Illinois')!.identifiers.fips).toEqual(['17031']);
  });

  it('states carry their Wikidata QID from the real WDQS rows; identifiers absent from the samples stay absent', async () => {
    const [il] = await resolveName(offline, 'Illinois', { type: 'state' }, resolveContext());
    expect(il).toMatchObject({ id: 'Q1204', qid: 'Q1204', identifiers: { qid: ['Q1204'], fips: ['17'] }, fipsLevel: 'state' });
    const [apple] = await resolveName(offline, 'Apple', { type: 'company' }, resolveContext());
    expect(apple!.qid).toBeUndefined(); // no sample carries Apple's QID or LEI
    expect(apple!.identifiers.lei).toBeUndefined();
  });

  it('share classes: one bundle, several tickers', async () => {
    const [alphabet] = await resolveName(offline, 'Alphabet', {}, resolveContext());
    expect(alphabet!.identifiers.ticker!.sort()).toEqual(['GOOG', 'GOOGL']);
  });

  it('nonprofits from the IRS BMF carry their EIN as text with leading zeros', async () => {
    const c = await resolveName(offline, 'Sabattus Housing', { type: 'organization' }, resolveContext());
    expect(c[0]!.identifiers.ein).toEqual(['010357301']);
  });

  it("nonprofits from the IRS BMF are placed in the state of their extract row's STATE column (wdt:P131 → the state's node)", async () => {
    const [hazen] = await resolveName(offline, 'Hazen Scholarship Fund', { type: 'organization' }, resolveContext());
    expect(hazen).toMatchObject({ label: 'HAZEN SCHOLARSHIP FUND 3035016112', identifiers: { ein: ['020530567'] } });
    expect(hazen!.locatedIn).toEqual([{ id: 'http://www.wikidata.org/entity/Q1387', label: 'Rhode Island', fips: '44', level: 'state' }]);
    const [redCross] = await resolveName(offline, 'American National Red Cross', { type: 'organization' }, resolveContext());
    expect(redCross!.identifiers.ein).toEqual(['530196605']);
    // DC has no QID in the governors rows, so its node is the registry's own fips-11
    expect(redCross!.locatedIn).toEqual([{ id: 'https://w3id.org/assay/registry/fips-11', label: 'District of Columbia', fips: '11', level: 'state' }]);
    // an SEC filer with an EIN crosswalk is placed nowhere: no sample says where
    const [apple] = await resolveName(offline, 'Apple', { type: 'company' }, resolveContext());
    expect(apple!.locatedIn).toBeUndefined();
  });

  it('a name that matches nothing gives no candidates (not an error)', async () => {
    expect(await resolveName(offline, 'Zzyzx Quasar Holdings', {}, resolveContext())).toEqual([]);
  });

  it('hostile names stay data: quotes and regex characters cannot change the query', async () => {
    expect(await resolveName(offline, 'Apple" } ; DROP ALL ; #', {}, resolveContext())).toEqual([]);
    expect(await resolveName(offline, '.*', {}, resolveContext())).toEqual([]);
    expect(() => candidateQuery('a"b\\c\nd', 'words')).not.toThrow();
    expect(() => sparql`SELECT * WHERE { ?s ?p ${lit('x" } DROP')} }`).not.toThrow();
  });
});

describe('the label index answers exactly as the reference SPARQL match', () => {
  it.each(['Apple', 'Cook County', 'Illinois', 'Alabama A&M', 'Spurwink', 'Tesla, Inc.', 'rural', 'Coca-Cola', 'Ford Motor Company', 'AT&T'])('%s', async (name) => {
    const { RdfStore, RDF_FORMATS } = await import('../../src/rdf/store.ts');
    const { readFile } = await import('node:fs/promises');
    const { DEFAULT_SNAPSHOT, bundlesFromRows } = await import('../../src/resolve/registry.ts');
    reference ??= (async () => { const s = new RdfStore(); s.load(await readFile(DEFAULT_SNAPSHOT, 'utf8'), { format: RDF_FORMATS.turtle }); return s; })();
    const store = await reference;
    const rows = store.select(candidateQuery(name, 'words')).map((b) => ({ item: b.get('item')!.value, p: b.get('p')!.value, v: b.get('v')!.value }));
    const viaSparql = bundlesFromRows(rows, name, 'offline-snapshot');
    const viaIndex = await resolveName(offline, name, {}, resolveContext());
    expect(viaIndex.map((b) => b.id)).toEqual(viaSparql.map((b) => b.id));
  });
});

describe('legal forms and punctuation do not hide a name', () => {
  it.each([
    ['Coca-Cola', 'COCA COLA CO', '0000021344'],
    ['Ford Motor Company', 'FORD MOTOR CO', '0000037996'],
    ['The Coca-Cola Company', 'COCA COLA CO', '0000021344'],
  ])('%s → %s (exact after normalising)', async (name, label, cik) => {
    const [first] = await resolveName(offline, name, {}, resolveContext());
    expect(first).toMatchObject({ label, match: 'exact', identifiers: { cik: [cik] } });
  });
  it('a name made only of legal-form words still needs those words', async () => {
    expect((await resolveName(offline, 'The Company', {}, resolveContext())).every((b) => /\bthe\b/i.test([b.label, ...b.altLabels].join(' ')))).toBe(true);
  });
});

describe('binding a bundle to an operation key', () => {
  it('picks the accepted identifier; a bundle without it is a failed choice point with the reason', async () => {
    const [apple] = await resolveName(offline, 'Apple', {}, resolveContext());
    expect(bindKey(apple!, ['cik'])).toEqual({ ok: true, keyType: 'cik', value: '0000320193', alternatives: [] });
    expect(bindKey(apple!, ['ein'])).toMatchObject({ ok: true, value: '942404110' });
    const [cook] = await resolveName(offline, 'Cook County, Illinois', {}, resolveContext());
    const failed = bindKey(cook!, ['cik', 'ticker']);
    expect(failed.ok).toBe(false);
    if (!failed.ok) {
      expect(failed.reason).toMatch(/has no cik or ticker.*carries fips, name/);
      expect(failed.available).toEqual(['fips', 'name']);
    }
    expect(bindKey(cook!, ['name'])).toMatchObject({ ok: true, keyType: 'name', value: 'Cook County, Illinois' });
    expect(bindKey(cook!, []).ok).toBe(false);
  });
});

describe('memoisation is per question, not per process', () => {
  it('same question: one lookup; another question: its own lookup', async () => {
    let calls = 0;
    const counting: IdentityRegistry = { kind: 'offline-snapshot', lookup: async () => { calls++; return []; } };
    const q1 = resolveContext();
    const q2 = resolveContext();
    await Promise.all([resolveName(counting, 'Apple', {}, q1), resolveName(counting, 'apple', {}, q1), resolveName(counting, 'Apple Inc.', {}, q1)]);
    expect(calls).toBe(1);
    await resolveName(counting, 'Apple', {}, q2);
    expect(calls).toBe(2);
    expect(q1.resolutionMemo).not.toBe(q2.resolutionMemo);
  });
});
