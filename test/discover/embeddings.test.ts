/**
 * Embeddings in discovery, against a stub OpenAI-compatible server on loopback (the real `openai`
 * client) with deterministic fake vectors: the cards are embedded once and cached on disk by
 * content hash (one file per model), a second start-up sends nothing, similarity finds a card that
 * shares no word with the question, and without configuration discovery stays lexical.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/ard/index.ts';
import { sharedCatalog } from '../shared.ts';
import { DiscoveryIndex, type Candidate, type CatalogView } from '../../src/discover/index.ts';
import { EmbeddingCache, contentHash } from '../../src/discover/embeddings.ts';
import { embeddingSetupFromEnv } from '../../src/discover/load.ts';
import { embeddingConfigFromEnv } from '../../src/llm/config.ts';
import { openAiEmbeddings } from '../../src/llm/embeddings.ts';
import { parseIntent, type Intent } from '../../src/understand/intent.ts';
import { fakeEmbedding, startStub, type Stub } from '../llm/stub-server.ts';

function intent(v: Record<string, unknown>): Intent {
  const r = parseIntent(v);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.intent;
}

// A word the catalog never uses, which the fake model reads as "debt": found by meaning only.
const embed = (text: string) => fakeEmbedding(text.replace(/indebtedness/gi, 'debt'));
const question = intent({ question: 'How big is the indebtedness?', shape: 'point', attribute: 'indebtedness' });
const isDebtCard = (key: string) => key.startsWith('treasury-fiscal-data/') && /debt/i.test(key);

let catalog: Catalog;
let view: CatalogView;
let stub: Stub;
let cacheDir: string;
beforeAll(async () => {
  catalog = await sharedCatalog('ard-okf');
  // The hand-written publishers only (no generated taxonomies): a few hundred cards.
  const keep = new Set(['treasury-fiscal-data', 'cdc-places', 'college-scorecard', 'propublica-nonprofits', 'irs-eo-bmf', 'grants-gov']);
  view = {
    publishers: catalog.publishers.filter((p) => keep.has(p.id)),
    accessPaths: catalog.accessPaths.filter((a) => keep.has(a.publisherId)),
    measures: catalog.measures.filter((m) => keep.has(m.publisherId)),
    servingPaths: (m) => catalog.servingPaths(m),
  };
  stub = await startStub(() => ({ content: '' }), embed);
  cacheDir = mkdtempSync(join(tmpdir(), 'assay-embed-'));
}, 120_000);
afterAll(async () => { await stub.close(); rmSync(cacheDir, { recursive: true, force: true }); });

const client = () => openAiEmbeddings({ baseURL: stub.url, model: 'fake-embed/v1', timeoutMs: 5_000 }, { maxRetries: 0, batchSize: 50 });

describe('discovery with embeddings', () => {
  it('stays lexical when no embeddings endpoint is configured', async () => {
    expect(embeddingConfigFromEnv({})).toBeUndefined();
    expect(embeddingSetupFromEnv({ ASSAY_LLM_URL: 'http://127.0.0.1:1/v1', ASSAY_LLM_MODEL: 'm' })).toBeUndefined();
    const index = DiscoveryIndex.build(view);
    expect(index.hasEmbeddings).toBe(false);
    const plain = intent({ question: 'What is the total public debt outstanding?', shape: 'point', attribute: 'total public debt outstanding' });
    const a = await index.discoverAsync(plain);
    expect(a.map((c) => c.card.id)).toEqual(index.discover(plain).map((c) => c.card.id));
    expect(isDebtCard(a[0]!.card.key)).toBe(true);
    expect(a.every((c) => c.similarity === undefined)).toBe(true);
    // The made-up word shares nothing with any card: lexical discovery cannot find the debt measures.
    expect(index.discover(question).filter((c) => isDebtCard(c.card.key))).toHaveLength(0);
    expect(stub.embeddingRequests).toHaveLength(0);
  });

  it('reads the configuration: a model enables it, the URL falls back to the chat endpoint, the cache sits under the data dir', () => {
    expect(() => embeddingConfigFromEnv({ ASSAY_EMBED_MODEL: 'e' })).toThrow(/set ASSAY_EMBED_URL/);
    expect(embeddingConfigFromEnv({ ASSAY_EMBED_MODEL: 'e', ASSAY_LLM_URL: 'http://127.0.0.1:9/v1', ASSAY_LLM_KEY: 'k', ASSAY_DATA_DIR: '/d' }))
      .toEqual({ baseURL: 'http://127.0.0.1:9/v1', model: 'e', apiKey: 'k', timeoutMs: 60_000, cacheDir: '/d/cache/embeddings' });
  });

  it('embeds every card once, caches the vectors by content hash, and finds a card by meaning', async () => {
    const index = DiscoveryIndex.build(view);
    await index.attachEmbeddings(client(), cacheDir);
    const cards = index.stats.cards;
    expect(index.stats.embeddings).toMatchObject({ model: 'fake-embed/v1', vectors: cards, requested: cards });
    expect(stub.embeddingRequests.length).toBe(Math.ceil(cards / 50));
    expect(stub.embeddingRequests[0]).toMatchObject({ model: 'fake-embed/v1', encoding_format: 'float' });
    expect(existsSync(join(cacheDir, 'fake-embed_v1.jsonl'))).toBe(true);

    const found = await index.discoverAsync(question);
    const debt = found.filter((c) => isDebtCard(c.card.key));
    expect(debt.length).toBeGreaterThan(0);
    expect(isDebtCard(found[0]!.card.key)).toBe(true);
    expect(found[0]!.similarity).toBeGreaterThan(0);
    const cache = await EmbeddingCache.open(cacheDir, 'fake-embed/v1');
    expect(cache.get(contentHash(DiscoveryIndex.retrievalText(question).lead))).toBeDefined();
  }, 60_000);

  it('uses the cache on the second start-up: no request for cards or a repeated query', async () => {
    const before = stub.embeddingRequests.length;
    const index = DiscoveryIndex.build(view);
    await index.attachEmbeddings(client(), cacheDir);
    expect(index.stats.embeddings).toMatchObject({ requested: 0, vectors: index.stats.cards });
    const found = await index.discoverAsync(question);
    expect(isDebtCard(found[0]!.card.key)).toBe(true);
    expect(stub.embeddingRequests.length).toBe(before);
    // with similarity in the score, the typed-array ranking is still the reference ranking, to the bit
    const queryVector = await index.embedQuery(question);
    const line = (c: Candidate) => `${c.rank} ${c.card.id} ${c.score} ${c.coverage} ${c.matched.join(',')} ${c.headCovered} ${c.similarity}`;
    const want = index.discoverReference(question, { queryVector }).map(line);
    expect(index.discover(question, { queryVector }).map(line)).toEqual(want);
    expect(found.map(line)).toEqual(want);
    expect((await index.discoverTopAsync(question, 15)).candidates.map(line)).toEqual(want.slice(0, 15));
  }, 60_000);

  it('names the endpoint when the embeddings call fails', async () => {
    const index = DiscoveryIndex.build(view);
    const bad = openAiEmbeddings({ baseURL: 'http://127.0.0.1:1/v1', model: 'other-model', timeoutMs: 2_000 }, { maxRetries: 0 });
    await expect(index.attachEmbeddings(bad, cacheDir)).rejects.toThrow(/embeddings call \(other-model\) to http:\/\/127\.0\.0\.1:1\/v1 failed/);
  });
});
