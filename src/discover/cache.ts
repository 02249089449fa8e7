/**
 * The discovery index on disk, keyed by the catalog's content.
 *
 * Building the index validates the whole catalog (~17,600 measures) and indexes every card, which
 * costs seconds per process. Once built for a catalog, the index is written here and the next
 * process loads it instead: the cards, the full-text postings (postings.ts), the terms derived from
 * each title, and the statistics. A cache file exists only for a catalog that passed validation (it is written after a
 * successful build), so loading it never skips a check that would have failed.
 *
 * Key: the SHA-256 of every descriptor file's name and bytes. Hashing 35 MB on every start would
 * cost about 100 ms, so a small sidecar remembers the content hash of each (name, size, mtime)
 * tuple; an edited file changes its tuple and is hashed again. A cache that cannot be read, is
 * from another format version, or cannot be written is ignored: the index is built as before.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogFiles } from '../ard/load.ts';
import { asciiJson, jsonText } from '../json-cache.ts';
import type { Card, OperationRef } from './cards.ts';
import type { StoredPostings } from './postings.ts';
import type { StoredTables } from './tables.ts';

/** Bump when the cached shape or the index's tokenization/scoring inputs change. */
export const CACHE_FORMAT = 'assay-discovery-index/5';

export const DEFAULT_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/assay/', import.meta.url));

/** A card as stored: its source text and operations by reference (they repeat across thousands of cards). */
interface StoredCard extends Omit<Card, 'source' | 'operations'> { ops: string[] }

export interface CachedIndex {
  format: typeof CACHE_FORMAT;
  fingerprint: string;
  sources: Record<string, string>;
  operations: Record<string, OperationRef>;
  cards: StoredCard[];
  /** The full-text postings as typed arrays (postings.ts), built from MiniSearch's index. */
  postings: StoredPostings;
  terms: number;
  /** The scoring tables (tables.ts): each card's title terms and head terms as term numbers, derived at build (see text.ts), and the id order. */
  tables: StoredTables;
  /** Per publisher: the terms of its source text. */
  sourceTerms: Record<string, string[]>;
}

export function packCards(cards: readonly Card[]): Pick<CachedIndex, 'sources' | 'operations' | 'cards'> {
  const sources: Record<string, string> = {};
  const operations: Record<string, OperationRef> = {};
  const out: StoredCard[] = [];
  for (const c of cards) {
    sources[c.publisherId] ??= c.source;
    for (const o of c.operations) operations[o.key] ??= o;
    const { source: _s, operations: ops, ...rest } = c;
    out.push({ ...rest, ops: ops.map((o) => o.key) });
  }
  return { sources, operations, cards: out };
}

export function unpackCards(c: Pick<CachedIndex, 'sources' | 'operations' | 'cards'>): Card[] {
  const out = new Array<Card>(c.cards.length);
  const operations = new Map(Object.entries(c.operations));
  for (let i = 0; i < c.cards.length; i++) {
    const s = c.cards[i]!;
    const ops = s.ops.map((k) => {
      const o = operations.get(k);
      if (!o) throw new Error(`discovery cache names an operation it does not hold: ${k}`);
      return o;
    });
    const source = c.sources[s.publisherId] ?? '';
    // the stored fields in their stored order, then source and operations (as packCards left them):
    // written out rather than spread, since this runs for every card of every process
    out[i] = s.unit === undefined
      ? { id: s.id, kind: s.kind, key: s.key, publisherId: s.publisherId, title: s.title, description: s.description, questions: s.questions, source, operations: ops }
      : { id: s.id, kind: s.kind, key: s.key, publisherId: s.publisherId, title: s.title, description: s.description, questions: s.questions, unit: s.unit, source, operations: ops };
  }
  return out;
}

/** Content fingerprint of the catalog directory (see the module comment for the stat shortcut). */
export async function catalogFingerprint(dir: string, cacheDir: string): Promise<string> {
  const files = await catalogFiles(dir);
  const sidecarFile = join(cacheDir, 'file-hashes.json');
  let sidecar: Record<string, string> = {};
  try { sidecar = JSON.parse(await readFile(sidecarFile, 'utf8')) as Record<string, string>; } catch { /* first use */ }
  const next: Record<string, string> = {};
  const whole = createHash('sha256');
  for (const f of files) {
    const s = await stat(f);
    const tuple = `${f}\u0000${s.size}\u0000${s.mtimeMs}`;
    let h = sidecar[tuple];
    if (!h) h = createHash('sha256').update(await readFile(f)).digest('hex');
    next[tuple] = h;
    whole.update(`${basename(f)}\u0000${h}\n`);
  }
  if (JSON.stringify(next) !== JSON.stringify(sidecar)) await writeAtomic(sidecarFile, JSON.stringify(next)).catch(() => undefined);
  return `${CACHE_FORMAT}:${whole.digest('hex')}`;
}

export function cacheFile(cacheDir: string, fingerprint: string): string {
  return join(cacheDir, `discovery-${createHash('sha256').update(fingerprint).digest('hex').slice(0, 24)}.json`);
}

export async function readCachedIndex(file: string, fingerprint: string): Promise<CachedIndex | undefined> {
  let text: string;
  try { text = jsonText(await readFile(file)); } catch { return undefined; }
  try {
    const c = JSON.parse(text) as CachedIndex;
    return c.format === CACHE_FORMAT && c.fingerprint === fingerprint ? c : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the index and keeps only the two newest cached catalogs (each file is tens of MB). */
export async function writeCachedIndex(file: string, c: CachedIndex): Promise<void> {
  await writeAtomic(file, asciiJson(c)); // pure ASCII: loads as a one-byte string (src/json-cache.ts)
  const dir = dirname(file);
  const files = (await readdir(dir)).filter((f) => /^discovery-[0-9a-f]+\.json$/.test(f));
  if (files.length <= 2) return;
  const dated = await Promise.all(files.map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })));
  for (const { f } of dated.sort((a, b) => b.t - a.t).slice(2)) await rm(join(dir, f), { force: true });
}

async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}
