/**
 * The discovery index's cards as flat per-document tables, for scoring a query without a map or a
 * set per card: each card's kind, publisher and unit class, its title terms and head terms as term
 * numbers, and its place in the id order that breaks score ties. Built once per index, on the first
 * query (tens of milliseconds), from the same cards and derived terms the reference ranking reads.
 *
 * Term numbers: a term of the full-text postings keeps its position there; a title or head term the
 * postings do not hold (none today; possible in principle) gets a number after them. Two terms are
 * equal exactly when their numbers are.
 */
import type { Card } from './cards.ts';
import type { Postings, RunScratch } from './postings.ts';

export interface CardTables {
  /** Card by document number (the postings' numbering). */
  cards: Card[];
  /** 1 measure, 2 operation. */
  kind: Uint8Array;
  /** Publisher number per document; `publishers[n]` is its id. */
  publisher: Uint16Array;
  publishers: string[];
  /** The card's unit is a percent or ratio (1) / a head count (1), as the ranking's unit rules read it. */
  unitPercent: Uint8Array;
  unitCount: Uint8Array;
  /** Title terms of document d: titleTerms[titleStart[d] … titleStart[d + 1]), in title order. */
  titleStart: Uint32Array; titleTerms: Int32Array;
  /** Head terms of document d, likewise (a set: order carries nothing). */
  headStart: Uint32Array; headTerms: Int32Array;
  /** Rank of each document's id in `localeCompare` order (the ranking's tie-break). */
  idRank: Uint32Array;
  /** Whether `localeCompare` puts the ids in a strict order (checked pair by pair); the fast ranking needs it. */
  strictOrder: boolean;
  /** The number of a term (postings position, or after them for a term only titles or heads hold); undefined: no card holds it. */
  term(t: string): number | undefined;
  /** The term of a number (the inverse of `term`). */
  termName(n: number): string;
  extraTerms: string[];
  /** One mark per term number (the query's wanted terms, set and cleared by each query). */
  mark: Uint8Array;
  /** Per level asked: documents whose every operation returns rows at another level (ranking rule). */
  levelMismatch: Map<string, Uint8Array>;
  /** Working arrays, reused query after query (a query is scored synchronously, never two at once). */
  scratch: RunScratch;
  bm25: Float64Array; seen: Int32Array; sim: Float64Array; simSeen: Int32Array;
  final: Float64Array; coverage: Float64Array; head: Int8Array; candidates: Int32Array;
  stamp: number;
}

/** Units of a rate or share (a fraction of 1 is one too): a percent asked is answered by them. */
export const PERCENT_UNIT = /^(percent|%|ratio|proportion|fraction)$/;
const COUNT = /^(count|people|persons|households|students|number)$/i;

/** The tables as the discovery cache stores them (typed arrays as base64 in JSON, or the arrays themselves from the binary cache file); the per-card columns are recomputed from the cards. */
export interface StoredTables {
  /** Term numbers from `postings.termCount` on: the title and head terms the postings do not hold. */
  extraTerms: string[];
  titleStart: string | Uint32Array; titleTerms: string | Int32Array; headStart: string | Uint32Array; headTerms: string | Int32Array;
  idRank: string | Uint32Array;
  /** The ICU version the id order was computed with (another version may collate differently: recomputed). */
  icu: string;
  strictOrder: boolean;
}

/** Builds the tables from the cards and their derived title and head terms (at index build). */
export function cardTables(postings: Postings, cards: ReadonlyMap<string, Card>, titles: ReadonlyMap<string, string[]>, heads: ReadonlyMap<string, Set<string>>): CardTables {
  const n = postings.documents;
  const extra = new Map<string, number>();
  const base = postings.termCount;
  const number = (t: string): number => {
    const i = postings.termIndex(t);
    if (i !== undefined) return i;
    let x = extra.get(t);
    if (x === undefined) { x = base + extra.size; extra.set(t, x); }
    return x;
  };
  const byDoc = cardsByDoc(postings, cards);
  const titleStart = new Uint32Array(n + 1);
  const headStart = new Uint32Array(n + 1);
  const titleList: number[] = [];
  const headList: number[] = [];
  for (let d = 0; d < n; d++) {
    const id = byDoc[d]!.id;
    titleStart[d] = titleList.length;
    for (const t of titles.get(id) ?? []) titleList.push(number(t));
    headStart[d] = headList.length;
    for (const t of heads.get(id) ?? []) headList.push(number(t));
  }
  titleStart[n] = titleList.length;
  headStart[n] = headList.length;
  const { idRank, strictOrder } = idOrder(byDoc);
  return assemble(postings, byDoc, [...extra.keys()], titleStart, Int32Array.from(titleList), headStart, Int32Array.from(headList), idRank, strictOrder);
}

export function storeTables(T: CardTables): StoredTables {
  const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
  return {
    extraTerms: T.extraTerms, titleStart: b64(T.titleStart), titleTerms: b64(T.titleTerms), headStart: b64(T.headStart), headTerms: b64(T.headTerms),
    idRank: b64(T.idRank), icu: process.versions.icu ?? '', strictOrder: T.strictOrder,
  };
}

/** The tables loaded back from the cache (the id order recomputed under another ICU version). */
export function loadTables(postings: Postings, cards: ReadonlyMap<string, Card>, s: StoredTables): CardTables {
  const byDoc = cardsByDoc(postings, cards);
  const n = byDoc.length;
  const view = <T>(text: string | T, Kind: { new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number }): T => {
    if (typeof text !== 'string') return text;
    const buf = Buffer.from(text, 'base64');
    const own = new ArrayBuffer(buf.byteLength);
    new Uint8Array(own).set(buf);
    return new Kind(own, 0, buf.byteLength / Kind.BYTES_PER_ELEMENT);
  };
  const titleStart = view(s.titleStart, Uint32Array);
  const headStart = view(s.headStart, Uint32Array);
  if (titleStart.length !== n + 1 || headStart.length !== n + 1) throw new Error('stored discovery tables do not match the cards');
  const order = s.icu === (process.versions.icu ?? '') ? { idRank: view(s.idRank, Uint32Array), strictOrder: s.strictOrder } : idOrder(byDoc);
  return assemble(postings, byDoc, s.extraTerms, titleStart, view(s.titleTerms, Int32Array), headStart, view(s.headTerms, Int32Array), order.idRank, order.strictOrder);
}

/** The title terms (in order) and head terms of document d, as strings. */
export function termsOfDoc(T: CardTables, d: number): { title: string[]; head: string[] } {
  const title: string[] = [];
  const head: string[] = [];
  for (let k = T.titleStart[d]!; k < T.titleStart[d + 1]!; k++) title.push(T.termName(T.titleTerms[k]!));
  for (let k = T.headStart[d]!; k < T.headStart[d + 1]!; k++) head.push(T.termName(T.headTerms[k]!));
  return { title, head };
}

function cardsByDoc(postings: Postings, cards: ReadonlyMap<string, Card>): Card[] {
  const n = postings.documents;
  const byDoc: Card[] = new Array(n);
  for (let d = 0; d < n; d++) {
    const id = postings.idOf(d);
    const card = cards.get(id);
    if (!card) throw new Error(`the discovery postings name a card the index does not hold: ${id}`);
    byDoc[d] = card;
  }
  return byDoc;
}

/** The tie-break: ids in localeCompare order (Intl.Collator's compare is the same order, faster), checked pair by pair. */
function idOrder(byDoc: readonly Card[]): { idRank: Uint32Array; strictOrder: boolean } {
  const n = byDoc.length;
  const compare = new Intl.Collator().compare;
  const order = Array.from({ length: n }, (_, d) => d).sort((a, b) => compare(byDoc[a]!.id, byDoc[b]!.id));
  const idRank = new Uint32Array(n);
  let strictOrder = true;
  order.forEach((d, r) => {
    idRank[d] = r;
    if (r > 0 && !(byDoc[order[r - 1]!]!.id.localeCompare(byDoc[d]!.id) < 0)) strictOrder = false;
  });
  return { idRank, strictOrder };
}

function assemble(postings: Postings, byDoc: Card[], extraTerms: string[], titleStart: Uint32Array, titleTerms: Int32Array, headStart: Uint32Array, headTerms: Int32Array, idRank: Uint32Array, strictOrder: boolean): CardTables {
  const n = byDoc.length;
  const base = postings.termCount;
  const extra = new Map(extraTerms.map((t, i) => [t, base + i]));
  const kind = new Uint8Array(n);
  const publisher = new Uint16Array(n);
  const publishers: string[] = [];
  const publisherAt = new Map<string, number>();
  const unitPercent = new Uint8Array(n);
  const unitCount = new Uint8Array(n);
  for (let d = 0; d < n; d++) {
    const card = byDoc[d]!;
    kind[d] = card.kind === 'measure' ? 1 : card.kind === 'operation' ? 2 : 0;
    let p = publisherAt.get(card.publisherId);
    if (p === undefined) { p = publishers.length; publishers.push(card.publisherId); publisherAt.set(card.publisherId, p); }
    publisher[d] = p;
    if (card.unit && PERCENT_UNIT.test(card.unit)) unitPercent[d] = 1;
    if (card.unit && COUNT.test(card.unit)) unitCount[d] = 1;
  }
  return {
    cards: byDoc, kind, publisher, publishers, unitPercent, unitCount,
    titleStart, titleTerms, headStart, headTerms, idRank, strictOrder, extraTerms,
    term: (t) => postings.termIndex(t) ?? extra.get(t),
    termName: (x) => (x < base ? postings.termName(x) : extraTerms[x - base]!),
    mark: new Uint8Array(base + extraTerms.length),
    levelMismatch: new Map(),
    scratch: postings.scratch(),
    bm25: new Float64Array(n), seen: new Int32Array(n), sim: new Float64Array(n), simSeen: new Int32Array(n),
    final: new Float64Array(n), coverage: new Float64Array(n), head: new Int8Array(n), candidates: new Int32Array(n),
    stamp: 0,
  };
}
