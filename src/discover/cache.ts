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
 *
 * The file is binary (src/binary-cache.ts), because every `assay ask` reads it (format 6 on; 5 and
 * before were one JSON document with the typed arrays in base64, whose decoding and parsed strings
 * were most of the load and of what the collector then copied): the postings' and scoring tables'
 * typed arrays as they are, and the cards as columns (kind, publisher, unit, operations, and spans of
 * their id, key, title, description and questions in the file's one text, of which each card string
 * is then a slice, not a copy).
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogFiles } from '../ard/load.ts';
import { encodeBinaryCache, readBinaryCache, TextWriter } from '../binary-cache.ts';
import type { Card, OperationRef } from './cards.ts';
import type { StoredPostings } from './postings.ts';
import type { StoredTables } from './tables.ts';

/** Bump when the cached shape or the index's tokenization/scoring inputs change. */
export const CACHE_FORMAT = 'assay-discovery-index/8';

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
  /** The cards already unpacked (a cache file read back holds them so; `cards` is then empty). */
  unpacked?: Card[];
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
  return join(cacheDir, `discovery-${createHash('sha256').update(fingerprint).digest('hex').slice(0, 24)}.bin`);
}

const MAGIC = 'ADIX';
/** The card strings kept as spans, in this order per card. */
const SPAN_FIELDS = ['id', 'key', 'title', 'description', 'questions'] as const;

interface FileHeader {
  format: string;
  fingerprint: string;
  sources: Record<string, string>;
  operations: Record<string, OperationRef>;
  terms: number;
  sourceTerms: Record<string, string[]>;
  postings: Pick<StoredPostings, 'fields' | 'documentCount' | 'terms' | 'averageFieldLength'>;
  tables: Pick<StoredTables, 'extraTerms' | 'icu' | 'strictOrder'>;
  cards: { count: number; publishers: string[]; units: string[]; ops: string[] };
}

/** The index as the binary file (see the module comment). */
export function encodeCachedIndex(c: CachedIndex): Buffer {
  const cards = c.unpacked ? packCards(c.unpacked).cards : c.cards;
  const text = new TextWriter();
  const n = cards.length;
  const spans = new Uint32Array(n * SPAN_FIELDS.length * 2);
  const kind = new Uint8Array(n);
  const publisher = new Uint16Array(n);
  const unit = new Int32Array(n);
  const opStart = new Uint32Array(n + 1);
  const publishers: string[] = [];
  const units: string[] = [];
  const ops = Object.keys(c.operations);
  const opAt = new Map(ops.map((k, i) => [k, i]));
  const opList: number[] = [];
  const indexIn = (list: string[], v: string) => { let i = list.indexOf(v); if (i < 0) { i = list.length; list.push(v); } return i; };
  cards.forEach((card, i) => {
    SPAN_FIELDS.forEach((f, k) => text.put(spans, (i * SPAN_FIELDS.length + k) * 2, card[f]));
    if (card.kind !== 'measure' && card.kind !== 'operation') throw new Error(`a discovery card of unknown kind: ${String(card.kind)}`);
    kind[i] = card.kind === 'measure' ? 1 : 2;
    publisher[i] = indexIn(publishers, card.publisherId);
    unit[i] = card.unit === undefined ? -1 : indexIn(units, card.unit);
    opStart[i] = opList.length;
    for (const k of card.ops) { const o = opAt.get(k); if (o === undefined) throw new Error(`a discovery card names an operation the index does not hold: ${k}`); opList.push(o); }
  });
  opStart[n] = opList.length;
  const ids = text.spans(c.postings.ids);
  const typed = <T>(v: string | T, Kind: { from(b: Uint8Array): unknown; new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number }): T => {
    if (typeof v !== 'string') return v;
    const b = Buffer.from(v, 'base64');
    const own = new ArrayBuffer(b.byteLength);
    new Uint8Array(own).set(b);
    return new Kind(own, 0, b.byteLength / Kind.BYTES_PER_ELEMENT);
  };
  const { fields, documentCount, terms, averageFieldLength } = c.postings;
  const header: FileHeader = {
    format: c.format, fingerprint: c.fingerprint, sources: c.sources, operations: c.operations, terms: c.terms, sourceTerms: c.sourceTerms,
    postings: { fields, documentCount, terms, averageFieldLength },
    tables: { extraTerms: c.tables.extraTerms, icu: c.tables.icu, strictOrder: c.tables.strictOrder },
    cards: { count: n, publishers, units, ops },
  };
  return encodeBinaryCache(MAGIC, { ...header }, {
    'postings.fieldStart': typed(c.postings.fieldStart, Uint32Array), 'postings.docs': typed(c.postings.docs, Uint32Array),
    'postings.tfs': typed(c.postings.tfs, Uint16Array), 'postings.fieldLength': typed(c.postings.fieldLength, Uint16Array), 'postings.ids': ids,
    'tables.titleStart': typed(c.tables.titleStart, Uint32Array), 'tables.titleTerms': typed(c.tables.titleTerms, Int32Array),
    'tables.headStart': typed(c.tables.headStart, Uint32Array), 'tables.headTerms': typed(c.tables.headTerms, Int32Array), 'tables.idRank': typed(c.tables.idRank, Uint32Array),
    'cards.spans': spans, 'cards.kind': kind, 'cards.publisher': publisher, 'cards.unit': unit, 'cards.opStart': opStart, 'cards.ops': Uint16Array.from(opList),
  }, text);
}

/** The cached index for this fingerprint, or undefined (no file, another format or catalog, damaged). */
export async function readCachedIndex(file: string, fingerprint: string): Promise<CachedIndex | undefined> {
  const f = await readBinaryCache<FileHeader>(file, MAGIC, (h) => h.format === CACHE_FORMAT && h.fingerprint === fingerprint);
  if (!f) return undefined;
  try {
    const h = f.header;
    const { text } = f;
    const spans = f.array('cards.spans') as Uint32Array;
    const kind = f.array('cards.kind');
    const publisher = f.array('cards.publisher');
    const unit = f.array('cards.unit');
    const opStart = f.array('cards.opStart');
    const opIdx = f.array('cards.ops');
    const operations = h.cards.ops.map((k) => h.operations[k]!);
    const F = SPAN_FIELDS.length;
    const cards = new Array<Card>(h.cards.count);
    if (spans.length !== cards.length * F * 2 || opStart.length !== cards.length + 1) return undefined;
    for (let i = 0; i < cards.length; i++) {
      const b = i * F * 2;
      const publisherId = h.cards.publishers[publisher[i]!]!;
      const ops: OperationRef[] = [];
      for (let k = opStart[i]!; k < opStart[i + 1]!; k++) ops.push(operations[opIdx[k]!]!);
      const id = text.get(spans, b); const key = text.get(spans, b + 2); const title = text.get(spans, b + 4);
      const description = text.get(spans, b + 6); const questions = text.get(spans, b + 8);
      const source = h.sources[publisherId] ?? '';
      const k = kind[i] === 1 ? 'measure' : 'operation';
      // the fields in unpackCards' order
      cards[i] = unit[i]! < 0
        ? { id, kind: k, key, publisherId, title, description, questions, source, operations: ops }
        : { id, kind: k, key, publisherId, title, description, questions, unit: h.cards.units[unit[i]!]!, source, operations: ops };
    }
    const idSpans = f.array('postings.ids') as Uint32Array;
    const ids = new Array<string>(idSpans.length / 2);
    // a document's id is its card's id (the same string) where the two orders agree, as a build makes them
    for (let d = 0; d < ids.length; d++) ids[d] = d < cards.length && idSpans[d * 2] === spans[d * F * 2] && idSpans[d * 2 + 1] === spans[d * F * 2 + 1] ? cards[d]!.id : text.get(idSpans, d * 2);
    return {
      format: CACHE_FORMAT, fingerprint, sources: h.sources, operations: h.operations, cards: [], unpacked: cards, terms: h.terms, sourceTerms: h.sourceTerms,
      postings: {
        ...h.postings, ids,
        fieldStart: f.array('postings.fieldStart') as Uint32Array, docs: f.array('postings.docs') as Uint32Array,
        tfs: f.array('postings.tfs') as Uint16Array, fieldLength: f.array('postings.fieldLength') as Uint16Array,
      },
      tables: {
        ...h.tables,
        titleStart: f.array('tables.titleStart') as Uint32Array, titleTerms: f.array('tables.titleTerms') as Int32Array,
        headStart: f.array('tables.headStart') as Uint32Array, headTerms: f.array('tables.headTerms') as Int32Array, idRank: f.array('tables.idRank') as Uint32Array,
      },
    };
  } catch {
    return undefined;
  }
}

/** Writes the index and keeps only the two newest cached catalogs (each file is tens of MB). */
export async function writeCachedIndex(file: string, c: CachedIndex): Promise<void> {
  await writeAtomic(file, encodeCachedIndex(c));
  const dir = dirname(file);
  const files = (await readdir(dir)).filter((f) => /^discovery-[0-9a-f]+\.bin$/.test(f));
  if (files.length <= 2) return;
  const dated = await Promise.all(files.map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })));
  for (const { f } of dated.sort((a, b) => b.t - a.t).slice(2)) await rm(join(dir, f), { force: true });
}

async function writeAtomic(file: string, text: string | Buffer): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}
