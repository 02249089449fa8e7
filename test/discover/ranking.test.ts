/**
 * Discovery's ranking over typed arrays (`discover`, `discoverTop`) against its plain definition
 * (`discoverReference`): the same cards in the same order with the same scores, coverage, matched
 * terms and head verdicts (to the bit), and the first k of `discoverTop` are the first k of that
 * list for every k a caller reads, with the count of cards scored.
 *
 * Over every corpus question (gold intents; ratio components; variants with a geography level, an
 * entity kind and a records shape) on the cards of eight hand-written descriptors, for the index
 * as built and as loaded back from its cache (also with
 * the id order recomputed, as under another ICU version); and a sample of the questions on the
 * whole catalog's cached index.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/ard/index.ts';
import { DiscoveryIndex, type Candidate } from '../../src/discover/index.ts';
import { loadDiscoveryIndex } from '../../src/discover/load.ts';
import { goldIntent, loadCorpus } from '../../src/understand/corpus.ts';
import { parseIntent, type Intent } from '../../src/understand/intent.ts';

const KEEP = ['treasury-fiscal-data.json', 'cdc-places.json', 'college-scorecard.json', 'propublica-nonprofits.json', 'irs-eo-bmf.json', 'grants-gov.json', 'sec-edgar.json', 'census-acs.json'];
const dir = mkdtempSync(join(tmpdir(), 'assay-ranking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// String(x) of a double round-trips exactly: equal strings, equal bits.
const line = (c: Candidate) => [c.rank, c.card.id, String(c.score), String(c.coverage), c.matched.join(','), String(c.headCovered), String(c.similarity)].join(' ');

async function intents(every: number): Promise<Intent[]> {
  const corpus = await loadCorpus();
  const out: Intent[] = [];
  corpus.forEach((r, n) => {
    if (n % every !== 0) return;
    const i = goldIntent(r);
    out.push(i);
    if (i.attributes.length >= 2) for (const a of i.attributes) out.push({ ...i, attribute: a, attributes: [], interpretations: [] });
    if (n % (every * 4) === 0) {
      out.push({ ...i, geography: { level: 'county', within: null } });
      out.push({ ...i, type: 'nonprofit organization' });
      out.push({ ...i, shape: 'entity_list' });
    }
  });
  for (const a of ['rate of uninsured people', 'R&D expense', 'net income (loss)', 'in-state tuition 2023', '2019 2020 2021 population']) {
    const r = parseIntent({ question: `What is the ${a}?`, shape: 'point', attribute: a });
    if (r.ok) out.push(r.intent);
  }
  return out;
}

/** Compares every intent; returns how many candidates were compared. */
function compare(index: DiscoveryIndex, list: Intent[]): number {
  let compared = 0;
  for (const intent of list) {
    const want = index.discoverReference(intent).map(line);
    const got = index.discover(intent).map(line);
    expect(got.length, intent.question).toBe(want.length);
    // one string comparison per list (a deep comparison of thousands of lines is slow); the first difference on failure
    if (got.join('\n') !== want.join('\n')) expect(got.find((g, n) => g !== want[n]), intent.question).toBe(want.find((w, n) => w !== got[n]));
    for (const k of [1, 15, 50]) {
      const top = index.discoverTop(intent, k);
      expect(top.scored).toBe(want.length);
      expect(top.candidates.map(line), `${intent.question} top ${k}`).toEqual(want.slice(0, k));
    }
    compared += want.length;
  }
  return compared;
}

describe('discovery ranking', () => {
  it('discover and discoverTop give discoverReference\'s ranking to the bit, built and loaded back', { timeout: 300_000 }, async () => {
    for (const f of KEEP) cpSync(join('ard-okf', f), join(dir, f));
    const built = DiscoveryIndex.build(await loadCatalog(dir));
    const stored = JSON.parse(JSON.stringify(built.toCache('test')));
    const loaded = DiscoveryIndex.fromCache(stored);
    const reordered = DiscoveryIndex.fromCache({ ...stored, tables: { ...stored.tables, icu: 'another ICU' } });
    const list = await intents(1);
    expect(list.length).toBeGreaterThan(350);
    for (const index of [built, loaded, reordered]) expect(compare(index, list)).toBeGreaterThan(10_000);
  });

  it('on the whole catalog\'s cached index, for a sample of the questions', { timeout: 300_000 }, async () => {
    const { index } = await loadDiscoveryIndex('ard-okf', { embeddings: null });
    const list = await intents(40);
    expect(list.length).toBeGreaterThan(12);
    expect(compare(index, list)).toBeGreaterThan(100_000);
  });
});
