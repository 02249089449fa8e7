/**
 * The postings discovery reads must score exactly as MiniSearch, which builds them: the same
 * documents, the same scores (to the last bit) and the same matched terms, for queries made from the
 * corpus questions and the catalog's own titles.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/ard/index.ts';
import { buildCards, type Card } from '../../src/discover/cards.ts';
import { BOOST, FIELDS, miniSearchOptions } from '../../src/discover/index.ts';
import { Postings } from '../../src/discover/postings.ts';
import { queryTerms } from '../../src/discover/text.ts';
import { loadCorpus } from '../../src/understand/corpus.ts';

// The hand-written descriptors and one generated measure list: thousands of cards, quick to build.
const KEEP = ['treasury-fiscal-data.json', 'cdc-places.json', 'college-scorecard.json', 'propublica-nonprofits.json', 'irs-eo-bmf.json', 'grants-gov.json', 'sec-edgar.json', 'census-acs.json'];
const dir = mkdtempSync(join(tmpdir(), 'assay-postings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('discovery postings', () => {
  it('score every query as MiniSearch does, and survive their stored form unchanged', { timeout: 240_000 }, async () => {
    for (const f of KEEP) cpSync(join('ard-okf', f), join(dir, f));
    const cards = buildCards(await loadCatalog(dir));
    const ms = new MiniSearch<Card>(miniSearchOptions());
    ms.addAll(cards);
    const built = Postings.fromMiniSearch(ms.toJSON(), FIELDS);
    const stored = Postings.fromStored(JSON.parse(JSON.stringify(built.toStored())));
    const texts = (await loadCorpus()).map((c) => c.question);
    for (let i = 0; i < cards.length; i += Math.max(1, Math.floor(cards.length / 200))) texts.push(cards[i]!.title);
    let hits = 0;
    for (const text of texts) {
      const q = queryTerms(text);
      for (const terms of [q.terms, q.expansions, [...q.terms, ...q.terms.slice(0, 1)]]) {
        if (terms.length === 0) continue;
        const want = ms.search(terms.join(' '), { boost: BOOST, combineWith: 'OR', tokenize: (x) => x.split(' '), processTerm: (t) => t })
          .map((r) => ({ id: r.id as string, score: r.score, terms: r.terms })).sort((a, b) => a.id.localeCompare(b.id));
        for (const p of [built, stored]) {
          const got = p.search(terms, BOOST).sort((a, b) => a.id.localeCompare(b.id));
          expect(got, text).toEqual(want);
        }
        hits += want.length;
        const df = ms.search(terms[0]!, { tokenize: (x) => [x], processTerm: (t) => t, fields: ['title', 'description', 'questions'] }).length;
        expect(stored.documentFrequency(terms[0]!, ['title', 'description', 'questions'])).toBe(df);
      }
    }
    expect(texts.length).toBeGreaterThan(300);
    expect(hits).toBeGreaterThan(1_000);
  });
});
