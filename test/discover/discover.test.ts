import { beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryIndex } from '../../src/discover/index.ts';
import { sharedBuiltIndex } from '../shared.ts';
import { goldIntent, loadCorpus, type CorpusRecord } from '../../src/understand/corpus.ts';
import { parseIntent, type Intent } from '../../src/understand/intent.ts';
import { discoveryMetrics } from '../../src/discover/eval.ts';

let index: DiscoveryIndex;
let corpus: CorpusRecord[];
beforeAll(async () => {
  index = await sharedBuiltIndex();
  corpus = await loadCorpus();
}, 120_000);

function intent(v: Record<string, unknown>): Intent {
  const r = parseIntent(v);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.intent;
}

describe('discovery over the ARD index', () => {
  it('indexes every measure and operation of the catalog once', () => {
    expect(index.stats.measures).toBeGreaterThan(10_000);
    expect(index.stats.operations).toBeGreaterThan(30);
    expect(index.stats.cards).toBe(index.stats.measures + index.stats.operations);
  });

  it('leads with the attribute when an entity is named, with the question otherwise', () => {
    const named = intent({ question: "What was Apple's total revenue in 2023?", shape: 'point', entity: 'Apple', entity_status: 'resolved', attribute: 'total revenue' });
    expect(DiscoveryIndex.retrievalText(named).lead).toBe('total revenue');
    const none = intent({ question: 'What is the latest total public debt outstanding?', shape: 'point', attribute: 'total public debt outstanding' });
    expect(DiscoveryIndex.retrievalText(none).lead).toBe(none.question);
  });

  it('scores every matching card (no fixed cut) and ranks the answering measure first for a plain question', () => {
    const c = index.discover(intent({ question: "What was Apple's revenue in 2023?", shape: 'point', entity: 'Apple', entity_status: 'resolved', type: 'company', attribute: 'revenue' }));
    expect(c.length).toBeGreaterThan(100);
    expect(c[0]!.card.publisherId).toBe('sec-edgar');
    expect(c.map((x) => x.rank)).toEqual(c.map((_, i) => i + 1));
    for (let i = 1; i < c.length; i++) expect(c[i - 1]!.score).toBeGreaterThanOrEqual(c[i]!.score);
  });

  it('meets the targets with gold intents: source rank-1 ≥ 85%, top-15 ≥ 98%', () => {
    const m = discoveryMetrics(index, corpus, goldIntent);
    expect(m.questions).toBeGreaterThan(240);
    expect(m.source.rank1).toBeGreaterThanOrEqual(0.85);
    expect(m.source.top15).toBeGreaterThanOrEqual(0.98);
  }, 120_000);
});
