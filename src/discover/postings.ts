/**
 * The discovery index's full-text postings in flat typed arrays, scored as MiniSearch scores them.
 *
 * MiniSearch builds the index (its tokenization and term processing stay the one definition); this
 * takes its serialization apart into a term table and, per term and field, the documents holding the
 * term and how often. Loading that back is a base64 decode and one Map of terms — against MiniSearch's
 * own loader, which turns every posting back into nested Maps (about a second per `assay ask` on the
 * loaded machine) — and a query walks the postings of its terms only, without building a result
 * object per document and field.
 *
 * Scoring is MiniSearch's, operation for operation (a test holds the two equal for the corpus
 * questions): BM25+ per field (k 1.2, b 0.7, d 0.5; inverse document frequency over the field's
 * postings), times the field's boost, summed over fields in field order for each query term, summed
 * over the query terms in order (an OR query), times the number of distinct query terms matched.
 */

export interface StoredPostings {
  fields: string[];
  documentCount: number;
  /** Short document number → document id (the card id). */
  ids: string[];
  terms: string[];
  averageFieldLength: number[];
  /** Little-endian typed arrays, as base64 (JSON) or as the arrays themselves (the binary cache file, src/discover/cache.ts). */
  fieldStart: string | Uint32Array; docs: string | Uint32Array; tfs: string | Uint16Array; fieldLength: string | Uint16Array;
}

interface MiniSearchJson {
  documentCount: number;
  documentIds: Record<string, string>;
  fieldIds: Record<string, number>;
  fieldLength: Record<string, number[]>;
  averageFieldLength: number[];
  index: Array<[string, Record<string, Record<string, number>>]>;
}

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** A term an object key would list first (an integer index): MiniSearch lists matched terms as object keys. */
export const isIndexLike = (t: string) => /^(0|[1-9]\d*)$/.test(t);

export interface PostingsHit { id: string; score: number; terms: string[] }

/** Per-document working arrays of `Postings.runInto` (stamps instead of clearing between runs). */
export interface RunScratch {
  term: Float64Array; termSeen: Int32Array; termDocs: Int32Array; termStamp: number;
  run: Float64Array; count: Uint16Array; runSeen: Int32Array; runStamp: number;
  touched: Int32Array; touchedLength: number;
  /** Which query slots each document holds (bits 0–30 and 31–61); the caller clears them. */
  maskLo: Int32Array; maskHi: Int32Array;
}

export class Postings {
  private readonly termAt: Map<string, number>;
  private readonly fieldAt: Map<string, number>;
  private docAt: Map<string, number> | undefined;

  private constructor(
    readonly fields: string[],
    readonly documentCount: number,
    private readonly ids: string[],
    private readonly terms: string[],
    private readonly averageFieldLength: number[],
    /** Per term t and field f: postings of (t, f) are docs[fieldStart[t·F + f] … fieldStart[t·F + f + 1]). */
    private readonly fieldStart: Uint32Array,
    private readonly docs: Uint32Array,
    private readonly tfs: Uint16Array,
    /** Per document d and field f: fieldLength[d·F + f]. */
    private readonly fieldLength: Uint16Array,
  ) {
    this.termAt = new Map(terms.map((t, i) => [t, i]));
    this.fieldAt = new Map(fields.map((f, i) => [f, i]));
  }

  get termCount(): number { return this.terms.length; }

  /** From MiniSearch's `toJSON()` (documents numbered 0…n−1 as MiniSearch numbered them). */
  static fromMiniSearch(json: unknown, fields: readonly string[]): Postings {
    const j = json as MiniSearchJson;
    const F = fields.length;
    const shortIds = Object.keys(j.documentIds).map(Number).sort((a, b) => a - b);
    const docNo = new Map(shortIds.map((s, i) => [s, i]));
    const ids = shortIds.map((s) => j.documentIds[String(s)]!);
    const fieldIdOf = fields.map((f) => {
      const id = j.fieldIds[f];
      if (id === undefined) throw new Error(`the MiniSearch index has no field ${f}`);
      return id;
    });
    const fieldLength = new Uint16Array(ids.length * F);
    shortIds.forEach((s, d) => { const ls = j.fieldLength[String(s)] ?? []; fieldIdOf.forEach((id, f) => { fieldLength[d * F + f] = Math.min(65535, ls[id] ?? 0); }); });
    const terms: string[] = [];
    const fieldStart: number[] = [0];
    const docs: number[] = [];
    const tfs: number[] = [];
    for (const [term, byField] of j.index) {
      terms.push(term);
      for (const id of fieldIdOf) {
        const freqs = byField[String(id)];
        if (freqs) {
          // ascending document number: the order MiniSearch iterates a posting in
          const entries = Object.entries(freqs).map(([s, tf]) => [docNo.get(Number(s))!, tf] as const).sort((a, b) => a[0] - b[0]);
          for (const [d, tf] of entries) { docs.push(d); tfs.push(Math.min(65535, tf)); }
        }
        fieldStart.push(docs.length);
      }
    }
    const avg = fieldIdOf.map((id) => j.averageFieldLength[id] ?? 0);
    return new Postings([...fields], j.documentCount, ids, terms, avg, Uint32Array.from(fieldStart), Uint32Array.from(docs), Uint16Array.from(tfs), fieldLength);
  }

  toStored(): StoredPostings {
    const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
    return { fields: this.fields, documentCount: this.documentCount, ids: this.ids, terms: this.terms, averageFieldLength: this.averageFieldLength, fieldStart: b64(this.fieldStart), docs: b64(this.docs), tfs: b64(this.tfs), fieldLength: b64(this.fieldLength) };
  }

  static fromStored(s: StoredPostings): Postings {
    const view = <T>(text: string | T, Kind: { new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number }): T => {
      if (typeof text !== 'string') return text;
      const buf = Buffer.from(text, 'base64');
      // copy into an aligned buffer of its own (a pooled Buffer's offset may not be aligned)
      const own = new ArrayBuffer(buf.byteLength);
      new Uint8Array(own).set(buf);
      return new Kind(own, 0, buf.byteLength / Kind.BYTES_PER_ELEMENT);
    };
    const p = new Postings(s.fields, s.documentCount, s.ids, s.terms, s.averageFieldLength, view(s.fieldStart, Uint32Array), view(s.docs, Uint32Array), view(s.tfs, Uint16Array), view(s.fieldLength, Uint16Array));
    if (p.fieldStart.length !== s.terms.length * s.fields.length + 1 || p.fieldLength.length !== s.ids.length * s.fields.length) throw new Error('stored postings do not match their term and document tables');
    return p;
  }

  /**
   * An OR query over processed terms, scored as MiniSearch's `search(terms.join(' '), { boost,
   * combineWith: 'OR' })` scores it (fields and boosts as given; a field without a boost counts 1).
   * Documents in no particular order.
   */
  search(queryTerms: readonly string[], boost: Readonly<Record<string, number>>, fields: readonly string[] = this.fields): PostingsHit[] {
    const F = this.fields.length;
    const acc = new Map<number, { score: number; terms: string[] }>();
    const fieldNos = fields.map((f) => { const n = this.fieldAt.get(f); if (n === undefined) throw new Error(`no field ${f} in the index`); return n; });
    const termScore = new Map<number, number>();
    for (const term of queryTerms) {
      const t = this.termAt.get(term);
      if (t === undefined) continue;
      termScore.clear();
      for (let i = 0; i < fields.length; i++) {
        const f = fieldNos[i]!;
        const from = this.fieldStart[t * F + f]!;
        const to = this.fieldStart[t * F + f + 1]!;
        const matching = to - from;
        if (matching === 0) continue;
        const fieldBoost = Object.hasOwn(boost, fields[i]!) ? (boost[fields[i]!] || 1) : 1;
        const avg = this.averageFieldLength[f]!;
        const idf = Math.log(1 + (this.documentCount - matching + 0.5) / (matching + 0.5));
        for (let k = from; k < to; k++) {
          const d = this.docs[k]!;
          const tf = this.tfs[k]!;
          const raw = idf * (BM25.d + tf * (BM25.k + 1) / (tf + BM25.k * (1 - BM25.b + BM25.b * this.fieldLength[d * F + f]! / avg)));
          const w = 1 * 1 * fieldBoost * 1 * raw;
          const prev = termScore.get(d);
          termScore.set(d, prev === undefined ? w : prev + w);
        }
      }
      for (const [d, s] of termScore) {
        const e = acc.get(d);
        if (!e) acc.set(d, { score: s, terms: [term] });
        else { e.score = e.score + s; if (!e.terms.includes(term)) e.terms.push(term); }
      }
    }
    const out: PostingsHit[] = [];
    // the matched terms as MiniSearch lists them (the keys of an object: integer-like terms first)
    for (const [d, e] of acc) out.push({ id: this.ids[d]!, score: e.score * (e.terms.length || 1), terms: e.terms.some(isIndexLike) ? Object.keys(Object.fromEntries(e.terms.map((t) => [t, 1]))) : e.terms });
    return out;
  }

  /** Document number of a document id (the card id), or undefined. */
  docNumber(id: string): number | undefined {
    return (this.docAt ??= new Map(this.ids.map((x, i) => [x, i]))).get(id);
  }

  /** Position of a term in the term table, or undefined when no document holds it. */
  termIndex(term: string): number | undefined { return this.termAt.get(term); }

  /** The term at a position of the term table. */
  termName(i: number): string { return this.terms[i]!; }

  /** Number of documents (document numbers are 0 … n−1). */
  get documents(): number { return this.ids.length; }

  /** Document id (the card id) of a document number. */
  idOf(d: number): string { return this.ids[d]!; }

  /**
   * `search` term at a time into typed arrays, one OR run of terms: per document the run's score
   * before the matched-terms factor (`s.run`), how many distinct run terms it holds (`s.count`),
   * and the documents touched (`s.touched[0 … s.touchedLength)`); `slots[i]` is the bit set in
   * `s.maskLo`/`s.maskHi` for a document holding `queryTerms[i]` (0 ≤ slot < 62). The same
   * arithmetic as `search`, in the same order, so `s.run[d] * (s.count[d] || 1)` is the score
   * `search` gives d, to the bit.
   */
  runInto(queryTerms: readonly string[], slots: readonly number[], boost: Readonly<Record<string, number>>, s: RunScratch): void {
    const F = this.fields.length;
    s.runStamp++;
    s.touchedLength = 0;
    for (let q = 0; q < queryTerms.length; q++) {
      const term = queryTerms[q]!;
      const t = this.termAt.get(term);
      if (t === undefined) continue;
      const dup = queryTerms.indexOf(term) < q;
      const slot = slots[q]!;
      const lo = slot < 31 ? 1 << slot : 0;
      const hi = slot >= 31 ? 1 << (slot - 31) : 0;
      const stamp = ++s.termStamp;
      let n = 0;
      for (let f = 0; f < F; f++) {
        const from: number = this.fieldStart[t * F + f]!;
        const to: number = this.fieldStart[t * F + f + 1]!;
        const matching = to - from;
        if (matching === 0) continue;
        const name = this.fields[f]!;
        const fieldBoost = Object.hasOwn(boost, name) ? (boost[name] || 1) : 1;
        const avg = this.averageFieldLength[f]!;
        const idf = Math.log(1 + (this.documentCount - matching + 0.5) / (matching + 0.5));
        for (let k: number = from; k < to; k++) {
          const d: number = this.docs[k]!;
          const tf: number = this.tfs[k]!;
          const raw = idf * (BM25.d + tf * (BM25.k + 1) / (tf + BM25.k * (1 - BM25.b + BM25.b * this.fieldLength[d * F + f]! / avg)));
          const w = 1 * 1 * fieldBoost * 1 * raw;
          if (s.termSeen[d] !== stamp) { s.termSeen[d] = stamp; s.term[d] = w; s.termDocs[n++] = d; }
          else s.term[d] = s.term[d]! + w;
        }
      }
      for (let i = 0; i < n; i++) {
        const d = s.termDocs[i]!;
        if (s.runSeen[d] !== s.runStamp) { s.runSeen[d] = s.runStamp; s.run[d] = s.term[d]!; s.count[d] = 1; s.touched[s.touchedLength++] = d; }
        else { s.run[d] = s.run[d]! + s.term[d]!; if (!dup) s.count[d] = s.count[d]! + 1; }
        s.maskLo[d]! |= lo;
        s.maskHi[d]! |= hi;
      }
    }
  }

  /** Scratch arrays for `runInto`, sized for this index (reusable across queries). */
  scratch(): RunScratch {
    const n = this.ids.length;
    return {
      term: new Float64Array(n), termSeen: new Int32Array(n), termDocs: new Int32Array(n), termStamp: 0,
      run: new Float64Array(n), count: new Uint16Array(n), runSeen: new Int32Array(n), runStamp: 0,
      touched: new Int32Array(n), touchedLength: 0, maskLo: new Int32Array(n), maskHi: new Int32Array(n),
    };
  }

  /** How many documents hold the term in any of these fields. */
  documentFrequency(term: string, fields: readonly string[]): number {
    const t = this.termAt.get(term);
    if (t === undefined) return 0;
    const F = this.fields.length;
    const seen = new Set<number>();
    for (const name of fields) {
      const f = this.fieldAt.get(name)!;
      for (let k = this.fieldStart[t * F + f]!; k < this.fieldStart[t * F + f + 1]!; k++) seen.add(this.docs[k]!);
    }
    return seen.size;
  }

  /** Bytes of the stored form (the typed arrays as base64 plus the term and id tables). */
  storedBytes(): number {
    return JSON.stringify(this.toStored()).length;
  }
}
