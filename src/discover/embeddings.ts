/**
 * Embedding vectors for discovery cards and queries, cached on disk by content hash.
 *
 * One cache file per model (`<cacheDir>/<model>.jsonl`, one `{"h": hash, "v": base64 float32}` per
 * line): a card whose text has not changed is never sent again, so the catalog is embedded once
 * per model and a restart costs a file read. New vectors are appended; a damaged line is skipped
 * (its text is embedded again) rather than failing start-up.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmbeddingClient } from '../llm/embeddings.ts';
import type { Card } from './cards.ts';

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 40);
}

/** What a card's vector is made from: the words a reader would judge it by. */
export function cardText(card: Card): string {
  return [card.title, card.description, card.questions].filter(Boolean).join('\n').slice(0, 4000);
}

export class EmbeddingCache {
  private constructor(readonly file: string, private readonly vectors: Map<string, Float32Array>) {}

  static async open(cacheDir: string, model: string): Promise<EmbeddingCache> {
    const file = join(cacheDir, `${model.replace(/[^A-Za-z0-9._-]+/g, '_')}.jsonl`);
    const vectors = new Map<string, Float32Array>();
    let text = '';
    try { text = await readFile(file, 'utf8'); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const { h, v } = JSON.parse(line) as { h: string; v: string };
        const buf = Buffer.from(v, 'base64');
        vectors.set(h, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)));
      } catch { /* a torn last line: re-embedded on demand */ }
    }
    return new EmbeddingCache(file, vectors);
  }

  get size(): number { return this.vectors.size; }
  get(hash: string): Float32Array | undefined { return this.vectors.get(hash); }

  async putAll(entries: [string, Float32Array][]): Promise<void> {
    if (entries.length === 0) return;
    await mkdir(join(this.file, '..'), { recursive: true });
    const lines = entries.map(([h, v]) => JSON.stringify({ h, v: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') })).join('\n') + '\n';
    await appendFile(this.file, lines);
    for (const [h, v] of entries) this.vectors.set(h, v);
  }
}

/** Unit-length copy, so similarity is a dot product. */
export function normalize(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * s;
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

/** Vectors for texts: from the cache where the hash is known, else from the client (then cached). */
export async function embedTexts(client: EmbeddingClient, cache: EmbeddingCache, texts: string[], signal?: AbortSignal): Promise<{ vectors: Float32Array[]; requested: number }> {
  const hashes = texts.map(contentHash);
  const missing = [...new Set(hashes.filter((h) => !cache.get(h)))];
  if (missing.length > 0) {
    const byHash = new Map(hashes.map((h, i) => [h, texts[i]!]));
    const got = await client.embed(missing.map((h) => byHash.get(h)!), signal);
    await cache.putAll(missing.map((h, i) => [h, normalize(got[i]!)]));
  }
  return { vectors: hashes.map((h) => cache.get(h)!), requested: missing.length };
}
