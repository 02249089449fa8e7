/**
 * Discovery's ranking over typed arrays (`discover`, `discoverTop`) against its plain definition
 * (`discoverReference`), over the whole catalog: for every corpus question (gold intents, and the
 * same with a geography level and an entity kind), queries made from catalog titles, and the
 * components of ratio questions, the same cards in the same order with the same scores, coverage,
 * matched terms, head verdicts (to the bit); and the first k of `discoverTop` are the first k of
 * that list for every k a caller uses, with the count of cards scored.
 */
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/discover/index.ts';
import { loadDiscoveryIndex } from '../../src/discover/load.ts';
import { goldIntent, loadCorpus } from '../../src/understand/corpus.ts';
import { parseIntent, type Intent } from '../../src/understand/intent.ts';

// String(x) of a double round-trips exactly: equal strings, equal bits.
const line = (c: Candidate) => [c.rank, c.card.id, String(c.score), String(c.coverage), c.matched.join(','), String(c.headCovered), String(c.similarity)].join(' ');

describe('discovery ranking', () => {
  it('discover and discoverTop give discoverReference\'s ranking to the bit', { timeout: 600_000 }, async () => {
    const { index } = await loadDiscoveryIndex('ard-okf', { embeddings: null });
    const corpus = await loadCorpus();
    const intents: Intent[] = [];
    for (const r of corpus) {
      const i = goldIntent(r);
      intents.push(i);
      if (i.attributes.length >= 2) for (const a of i.attributes) intents.push({ ...i, attribute: a, attributes: [], interpretations: [] });
    }
    // variants that reach the level, kind and records rules
    for (const r of corpus.filter((_, n) => n % 8 === 0)) {
      const i = goldIntent(r);
      intents.push({ ...i, geography: { level: 'county', within: null } });
      intents.push({ ...i, type: 'nonprofit organization' });
      intents.push({ ...i, shape: 'entity_list' });
    }
    const titles = [...new Set((await loadCorpus()).flatMap((r) => r.acceptable_measures))].slice(0, 50);
    for (const t of titles) {
      const r = parseIntent({ question: `What is the ${t.split('/').pop()} in 2023?`, shape: 'point', attribute: t.split('/').pop()!.replace(/[_-]/g, ' ') });
      if (r.ok) intents.push(r.intent);
    }
    let compared = 0;
    for (const intent of intents) {
      const want = index.discoverReference(intent).map(line);
      const got = index.discover(intent).map(line);
      expect(got.length, intent.question).toBe(want.length);
      // one string comparison per list (a deep comparison of 14,000 lines per question is slow); the first difference on failure
      if (got.join('\n') !== want.join('\n')) expect(got.find((g, n) => g !== want[n]), intent.question).toBe(want.find((w, n) => w !== got[n]));
      for (const k of [1, 15, 50]) {
        const top = index.discoverTop(intent, k);
        expect(top.scored).toBe(want.length);
        expect(top.candidates.map(line), `${intent.question} top ${k}`).toEqual(want.slice(0, k));
      }
      compared += want.length;
    }
    expect(intents.length).toBeGreaterThan(500);
    expect(compared).toBeGreaterThan(1_000_000);
  });
});
