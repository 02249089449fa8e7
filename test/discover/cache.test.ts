/**
 * The discovery index cache: a second process loads the index it built before instead of
 * validating and indexing the catalog again, and finds exactly what a fresh build finds; an edited
 * descriptor, a damaged cache file or an invalid catalog never serve a stale or unchecked index.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAscii } from 'node:buffer';
import { loadDiscoveryIndex } from '../../src/discover/load.ts';
import { encodeCachedIndex, readCachedIndex, unpackCards } from '../../src/discover/cache.ts';
import { asciiJson, jsonText } from '../../src/json-cache.ts';
import type { DiscoveryIndex } from '../../src/discover/index.ts';
import { parseIntent, type Intent } from '../../src/understand/intent.ts';

// The hand-written descriptors only (no generated taxonomies): small enough to build quickly.
const KEEP = ['treasury-fiscal-data.json', 'cdc-places.json', 'college-scorecard.json', 'propublica-nonprofits.json', 'irs-eo-bmf.json', 'grants-gov.json'];

function intent(v: Record<string, unknown>): Intent {
  const r = parseIntent(v);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.intent;
}
const QUESTIONS = [
  intent({ question: 'What is the total public debt outstanding?', shape: 'point', attribute: 'total public debt outstanding' }),
  intent({ question: 'What is the obesity prevalence in Cook County?', shape: 'point', entity: 'Cook County', entity_status: 'resolved', attribute: 'obesity prevalence' }),
  intent({ question: 'Find education grant opportunities', shape: 'topical' }),
];
const ranked = (index: DiscoveryIndex) => QUESTIONS.map((q) => index.discover(q).map((c) => `${c.card.id} ${c.score.toFixed(9)} ${c.coverage} ${c.headCovered}`));

let root: string;
let catalogDir: string;
let cacheDir: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'assay-dcache-'));
  catalogDir = join(root, 'catalog');
  cacheDir = join(root, 'cache');
  for (const f of KEEP) cpSync(join('ard-okf', f), join(catalogDir, f));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cacheFiles = () => readdirSync(cacheDir).filter((f) => f.startsWith('discovery-'));

describe('the discovery index cache', () => {
  it('is written after a build and loaded back with identical results', async () => {
    const built = (await loadDiscoveryIndex(catalogDir, { cacheDir, embeddings: null })).index;
    expect(built.stats.fromCache).toBeUndefined();
    expect(cacheFiles()).toHaveLength(1);
    const loaded = (await loadDiscoveryIndex(catalogDir, { cacheDir, embeddings: null })).index;
    expect(loaded.stats.fromCache).toBe(true);
    expect({ ...loaded.stats, buildMs: 0, fromCache: undefined }).toEqual({ ...built.stats, buildMs: 0 });
    expect(ranked(loaded)).toEqual(ranked(built));
    expect(ranked(built).every((r) => r.length > 0)).toBe(true);
    // the binary file: its header is ASCII JSON, and the cards come back as built, in unpackCards' field order
    const bytes = readFileSync(join(cacheDir, cacheFiles()[0]!));
    expect(bytes.toString('latin1', 0, 4)).toBe('ADIX');
    expect(isAscii(bytes.subarray(8, 8 + bytes.readUInt32LE(4)))).toBe(true);
    const all = (index: DiscoveryIndex) => index.discover(intent({ question: 'debt', shape: 'topical' })).map((c) => c.card).sort((a, b) => a.id.localeCompare(b.id));
    expect(all(loaded)).toEqual(all(built));
    const previous = new Map(unpackCards(built.toCache('x')).map((c) => [c.id, Object.keys(c).join()]));
    expect(all(loaded).map((c) => Object.keys(c).join())).toEqual(all(loaded).map((c) => previous.get(c.id)));
    expect(all(loaded).length).toBeGreaterThan(0);
  });

  it('round-trips card strings with characters above U+00FF and operations shared between cards', async () => {
    const built = (await loadDiscoveryIndex(catalogDir, { cacheDir: null, embeddings: null })).index;
    const stored = built.toCache('test');
    const cards = unpackCards(stored);
    // a synthetic edit of two built cards (not publisher data): one title outside Latin-1, one description with an emoji
    cards[0] = { ...cards[0]!, title: `${cards[0]!.title} — “wide” ✓` };
    cards[1] = { ...cards[1]!, description: `${cards[1]!.description} \ud83d\ude00 é`, questions: '' };
    const file = join(root, 'wide.bin');
    writeFileSync(file, encodeCachedIndex({ ...stored, unpacked: cards, cards: [] }));
    const back = await readCachedIndex(file, 'test');
    expect(back?.unpacked).toEqual(cards);
    // an operation serving many cards is one object, as a build makes it
    const byKey = new Map<string, unknown>();
    for (const c of back!.unpacked!) for (const o of c.operations) { const seen = byKey.get(o.key); if (seen) expect(o).toBe(seen); else byKey.set(o.key, o); }
    expect(await readCachedIndex(file, 'another catalog')).toBeUndefined();
    // a file cut short is not an index
    writeFileSync(file, readFileSync(file).subarray(0, 2000));
    expect(await readCachedIndex(file, 'test')).toBeUndefined();
  });

  it('writes JSON as ASCII that reads back to the same value, whatever the characters', () => {
    const value = { s: 'Café — “quoted” \u2028 \\ \" \u0000 \u007f \ud83d\ude00 lone \ud800 end', n: [1, -0.5, 1e21], nested: [{ é: 'ü' }] };
    const text = asciiJson(value);
    expect(isAscii(Buffer.from(text, 'utf8'))).toBe(true);
    expect(JSON.parse(jsonText(Buffer.from(text, 'latin1')))).toEqual(value);
    // a file another writer left as UTF-8 still reads as UTF-8
    expect(JSON.parse(jsonText(Buffer.from(JSON.stringify(value), 'utf8')))).toEqual(value);
  });

  it('is not used for an edited descriptor: the edit is what discovery sees', async () => {
    const file = join(catalogDir, 'treasury-fiscal-data.json');
    const before = readFileSync(file, 'utf8');
    const manifest = JSON.parse(before) as { entries: Array<{ displayName: string; type: string }> };
    const op = manifest.entries.find((e) => e.type !== manifest.entries[0]!.type) ?? manifest.entries[1]!;
    op.displayName = `${op.displayName} zyxwvut`;
    writeFileSync(file, JSON.stringify(manifest, null, 2));
    try {
      const index = (await loadDiscoveryIndex(catalogDir, { cacheDir, embeddings: null })).index;
      expect(index.stats.fromCache).toBeUndefined();
      const found = index.discover(intent({ question: 'zyxwvut', shape: 'point', attribute: 'zyxwvut' }));
      expect(found.map((c) => c.card.title)).toContain(op.displayName);
    } finally {
      writeFileSync(file, before);
    }
  });

  it('ignores a damaged cache file and rebuilds it', async () => {
    await loadDiscoveryIndex(catalogDir, { cacheDir, embeddings: null });
    for (const f of cacheFiles()) writeFileSync(join(cacheDir, f), '{"format": "assay-discovery-index/1", "cards": [');
    const index = (await loadDiscoveryIndex(catalogDir, { cacheDir, embeddings: null })).index;
    expect(index.stats.fromCache).toBeUndefined();
    expect((await loadDiscoveryIndex(catalogDir, { cacheDir, embeddings: null })).index.stats.fromCache).toBe(true);
  });

  it('never serves an index for a catalog that fails validation', async () => {
    const bad = join(catalogDir, 'broken.json');
    writeFileSync(bad, JSON.stringify({ specVersion: '1.0', entries: [{ identifier: 'not-a-urn' }] }));
    try {
      await expect(loadDiscoveryIndex(catalogDir, { cacheDir, embeddings: null })).rejects.toThrow();
    } finally {
      rmSync(bad);
    }
  });
});
