/**
 * discover: intent → scored candidates (measures and operations) from the ARD index.
 *
 * The index is built once (at start-up) over the catalog's cards with a BM25+ full-text ranker
 * (MiniSearch). A query scores every card that shares a term with it; nothing is cut by a fixed
 * count before scoring. A caller that reads only the first k (`discoverTop`) gets exactly the first
 * k of that list: a card is left out only when a bound proves it cannot reach them, and a caller
 * that needs more asks for more. Retrieval text leads with
 * the attribute when the intent names a specific entity (the entity would only add noise), and
 * with the question otherwise; the other text is added at a lower weight. When an embeddings
 * endpoint is configured, `attachEmbeddings` gives every card a vector (cached on disk by content
 * hash) and `discoverAsync` adds the similarity of the query's vector to the lexical score, so a
 * card can be found by meaning without sharing a word. An optional re-ranker (a model, through the
 * one model interface) may reorder the survivors against their full cards.
 */
import MiniSearch from 'minisearch';
import { grainMismatch } from '../plan/algebra.ts';
import type { Intent } from '../understand/intent.ts';
import type { EmbeddingClient } from '../llm/embeddings.ts';
import { buildCards, type Card, type CatalogView } from './cards.ts';
import { cardText, dot, EmbeddingCache, embedTexts } from './embeddings.ts';
import { headOf, headTerms, processTerm, queryTerms, titleTerms, tokenize } from './text.ts';
import { CACHE_FORMAT, packCards, unpackCards, type CachedIndex } from './cache.ts';
import { isIndexLike, Postings } from './postings.ts';
import { cardTables, loadTables, PERCENT_UNIT, storeTables, termsOfDoc, type CardTables, type StoredTables } from './tables.ts';

export type { Card, OperationRef, CatalogView } from './cards.ts';

export interface Candidate {
  rank: number;
  card: Card;
  score: number;
  /** Share of the lead query's own terms (not expansions) that the card contains, 0..1. */
  coverage: number;
  matched: string[];
  /**
   * Whether the card carries the head noun of the measure asked for ("inflation" in "inflation
   * rate"); undefined when the intent names no measure. A card without it matched on words alone.
   */
  headCovered?: boolean;
  /** Embedding similarity to the query above the floor, 0..1, when embeddings are attached. */
  similarity?: number;
}

export interface DiscoveryStats {
  cards: number; measures: number; operations: number; terms: number;
  /** Time to build the index, or to load it back when `fromCache`. */
  buildMs: number;
  /** The index was loaded from its on-disk cache (src/discover/cache.ts), not built. */
  fromCache?: boolean;
  /** Present once embeddings are attached: the model, how many card vectors, how many came from the endpoint. */
  embeddings?: { model: string; vectors: number; requested: number; cacheFile: string; ms: number };
}

/** How similarity joins the lexical score: cosine below `floor` counts as nothing; `weight` × the best lexical score at cosine 1. */
export interface SemanticOptions { floor: number; weight: number }
export const DEFAULT_SEMANTIC: SemanticOptions = { floor: 0.3, weight: 0.5 };

interface Semantic { client: EmbeddingClient; cache: EmbeddingCache; vectors: Map<string, Float32Array>; options: SemanticOptions }

export interface Reranker {
  rerank(intent: Intent, candidates: Candidate[], signal?: AbortSignal): Promise<Candidate[]>;
}

interface Derived { titles: Map<string, string[]>; heads: Map<string, Set<string>>; sourceTerms: Map<string, Set<string>> }

export const FIELDS = ['title', 'questions', 'description', 'source'] as const;
export const BOOST = { title: 3, questions: 1.5, description: 1, source: 0.7 };

/** The index's options: building and loading back from the cache must use the same ones. */
export function miniSearchOptions() {
  return {
    fields: [...FIELDS], idField: 'id', storeFields: [],
    tokenize, processTerm,
    searchOptions: { boost: BOOST, combineWith: 'OR' as const },
  };
}

type QueryTerms = ReturnType<typeof queryTerms>;

export class DiscoveryIndex {
  /** Document frequency per processed term, filled on first use (per index, never shared). */
  private readonly df = new Map<string, number>();
  /** Card vectors, once attached (per index; set at most once, at start-up). */
  private semantic: Semantic | undefined;
  /** The cards as flat tables for scoring (tables.ts), built on the first query. */
  private tables: CardTables | undefined;

  private constructor(
    private readonly postings: Postings,
    private readonly cards: Map<string, Card>,
    /** Each card's title terms and head terms: computed at build, or read back from the cached tables when first needed. */
    private readonly termsOf: () => { titles: Map<string, string[]>; heads: Map<string, Set<string>> },
    private readonly sourceTerms: Map<string, Set<string>>,
    readonly stats: DiscoveryStats,
    private readonly storedTables?: StoredTables,
  ) {}

  private derivedTerms: { titles: Map<string, string[]>; heads: Map<string, Set<string>> } | undefined;
  private get titles(): Map<string, string[]> { return (this.derivedTerms ??= this.termsOf()).titles; }
  private get heads(): Map<string, Set<string>> { return (this.derivedTerms ??= this.termsOf()).heads; }

  /** What both rankings (the reference and the typed-array one) weigh a card by: the query's word groups and weights, and what the intent asks for. */
  private rankingInputs(intent: Intent, leadQ: QueryTerms, measureQ: QueryTerms, measureText: string) {
    const groups = measureQ.groups.length > 0 ? measureQ.groups : leadQ.groups;
    const weights = groups.map((g) => this.idf(g.term));
    return {
      groups, weights,
      totalWeight: weights.reduce((a, b) => a + b, 0),
      typeTerms: intent.type ? queryTerms(intent.type).terms : [],
      wantedAll: new Set([...groups.map((g) => g.term), ...measureQ.expansions]),
      wantsPercent: /\b(rate|rates|share|percent|percentage|prevalence|proportion)\b/i.test(measureText),
      level: intent.geography?.level ?? null,
      head: intent.attribute && intent.attributes.length === 0 ? headOf(intent.attribute) : undefined,
      wantsRecords: !measureText || ['entity_list', 'topical', 'status', 'grant_graph'].includes(intent.shape),
    };
  }

  private idf(term: string): number {
    let n = this.df.get(term);
    if (n === undefined) {
      n = this.postings.documentFrequency(term, ['title', 'description', 'questions']);
      this.df.set(term, n);
    }
    return Math.log(1 + this.stats.cards / (1 + n));
  }

  static build(catalog: CatalogView): DiscoveryIndex {
    const t0 = performance.now();
    const cards = buildCards(catalog);
    const ms = new MiniSearch<Card>(miniSearchOptions());
    ms.addAll(cards);
    // a measure's other names (altLabels: "graduation rate" for the Scorecard's completion rate) name what it measures as its title does
    const names = new Map(catalog.measures.filter((m) => m.data.altLabels?.length).map((m) => [`m:${m.key}`, m.data.altLabels!]));
    return DiscoveryIndex.assemble(cards, Postings.fromMiniSearch(ms.toJSON(), FIELDS), performance.now() - t0, undefined, names);
  }

  /** The index as `src/discover/cache.ts` stores it (cards packed, the postings, the scoring tables with the derived terms). */
  toCache(fingerprint: string): CachedIndex {
    const cards = [...this.cards.values()];
    return {
      format: CACHE_FORMAT, fingerprint, ...packCards(cards), postings: this.postings.toStored(), terms: this.stats.terms,
      tables: storeTables(this.tablesOf()),
      sourceTerms: Object.fromEntries([...this.sourceTerms].map(([k, v]) => [k, [...v]])),
    };
  }

  /** An index loaded back from its cache: the same cards, full-text index and derived terms, not recomputed. */
  static fromCache(c: CachedIndex): DiscoveryIndex {
    const t0 = performance.now();
    const cards = c.unpacked ?? unpackCards(c);
    const postings = Postings.fromStored(c.postings);
    const sourceTerms = new Map(Object.entries(c.sourceTerms).map(([k, v]) => [k, new Set(v)]));
    const byId = new Map(cards.map((card) => [card.id, card]));
    let index: DiscoveryIndex | undefined = undefined;
    // the title and head terms as strings only for the reference ranking (discover reads the tables)
    const termsOf = () => {
      const T = index!.tablesOf();
      const titles = new Map<string, string[]>();
      const heads = new Map<string, Set<string>>();
      T.cards.forEach((card, d) => { const t = termsOfDoc(T, d); titles.set(card.id, t.title); heads.set(card.id, new Set(t.head)); });
      return { titles, heads };
    };
    index = DiscoveryIndex.assemble(cards, postings, 0, { termsOf, sourceTerms, byId, stored: c.tables });
    index.stats.buildMs = performance.now() - t0;
    return index;
  }

  private static derive(cards: Card[], names: ReadonlyMap<string, readonly string[]>): Derived {
    const sourceTerms = new Map<string, Set<string>>();
    for (const c of cards) {
      if (sourceTerms.has(c.publisherId)) continue;
      sourceTerms.set(c.publisherId, new Set(tokenize(c.source).map(processTerm).filter((t): t is string => !!t)));
    }
    return { titles: new Map(cards.map((c) => [c.id, titleTerms(c.title)])), heads: new Map(cards.map((c) => [c.id, new Set([c.title, ...(names.get(c.id) ?? [])].flatMap((t) => [...headTerms(t)]))])), sourceTerms };
  }

  private static assemble(cards: Card[], postings: Postings, buildMs: number, cached?: { termsOf: () => { titles: Map<string, string[]>; heads: Map<string, Set<string>> }; sourceTerms: Map<string, Set<string>>; byId: Map<string, Card>; stored: StoredTables }, names: ReadonlyMap<string, readonly string[]> = new Map()): DiscoveryIndex {
    let measures = 0;
    let operations = 0;
    for (const c of cards) { if (c.kind === 'measure') measures++; else if (c.kind === 'operation') operations++; }
    const stats: DiscoveryStats = { cards: cards.length, measures, operations, terms: postings.termCount, buildMs, ...(cached ? { fromCache: true } : {}) };
    if (cached) return new DiscoveryIndex(postings, cached.byId, cached.termsOf, cached.sourceTerms, stats, cached.stored);
    const { titles, heads, sourceTerms } = DiscoveryIndex.derive(cards, names);
    return new DiscoveryIndex(postings, new Map(cards.map((c) => [c.id, c])), () => ({ titles, heads }), sourceTerms, stats);
  }

  /**
   * Gives every card an embedding vector, from the on-disk cache (one file per model, keyed by
   * content hash) or the endpoint for cards not seen before. Call once, at start-up.
   */
  async attachEmbeddings(client: EmbeddingClient, cacheDir: string, options: { signal?: AbortSignal; semantic?: SemanticOptions } = {}): Promise<void> {
    const t0 = performance.now();
    const cache = await EmbeddingCache.open(cacheDir, client.model);
    const cards = [...this.cards.values()];
    const { vectors, requested } = await embedTexts(client, cache, cards.map(cardText), options.signal);
    this.semantic = { client, cache, vectors: new Map(cards.map((c, i) => [c.id, vectors[i]!])), options: options.semantic ?? DEFAULT_SEMANTIC };
    this.stats.embeddings = { model: client.model, vectors: vectors.length, requested, cacheFile: cache.file, ms: performance.now() - t0 };
  }

  get hasEmbeddings(): boolean { return this.semantic !== undefined; }

  /** The unit a measure's card declares, by its key (`sec-edgar/us-gaap/EarningsPerShareBasic`); undefined when none or no such card. */
  unitOf(measureKey: string): string | undefined { return this.cards.get(`m:${measureKey}`)?.unit; }

  /** The query's vector (cached like the cards'), or undefined when no embeddings are attached. */
  async embedQuery(intent: Intent, signal?: AbortSignal): Promise<Float32Array | undefined> {
    if (!this.semantic) return undefined;
    const { lead } = DiscoveryIndex.retrievalText(intent);
    return (await embedTexts(this.semantic.client, this.semantic.cache, [lead], signal)).vectors[0];
  }

  /**
   * Every operation card the test accepts, unscored (score and coverage 0, ranked after `after`
   * candidates), in catalog order: choice points a rule makes rather than the query's words — the
   * population operations whose rows are the members a count asks for ("number of private
   * foundations" → every organization population), which no word of the question need name.
   */
  operationCandidates(test: (card: Card) => boolean, after = 0): Candidate[] {
    const out: Candidate[] = [];
    for (const card of this.cards.values()) if (card.kind === 'operation' && test(card)) out.push({ rank: after + out.length + 1, card, score: 0, coverage: 0, matched: [] });
    return out;
  }

  /** `discover` plus embedding similarity when embeddings are attached; lexical only otherwise. */
  async discoverAsync(intent: Intent, signal?: AbortSignal): Promise<Candidate[]> {
    const queryVector = await this.embedQuery(intent, signal);
    return this.discover(intent, queryVector ? { queryVector } : {});
  }

  /** Size of the index serialized as JSON (computed on demand: it costs about as much as a build). */
  serializedBytes(): number {
    return this.postings.storedBytes();
  }

  /** The retrieval texts for an intent: [lead, secondary]. */
  static retrievalText(intent: Intent): { lead: string; secondary: string } {
    const named = [intent.entity, intent.canonical_entity, ...intent.entities].filter((x): x is string => !!x);
    let questionText = intent.question;
    for (const n of named) questionText = questionText.split(n).join(' ');
    const attribute = [intent.attribute, ...intent.attributes, ...intent.interpretations].filter(Boolean).join(' ');
    const specific = intent.entity_status !== 'none' || intent.entities.length > 0;
    // The entity's kind (an open noun phrase) is context for retrieval, never a filter.
    const kind = intent.type ?? '';
    if (specific && attribute) return { lead: attribute, secondary: `${questionText} ${kind}`.trim() };
    return { lead: questionText, secondary: `${attribute} ${kind}`.trim() };
  }

  /**
   * Every card sharing a term with the intent's retrieval text, scored, best first.
   * Score = BM25+ (lead text, plus expansions and the secondary text at lower weight)
   *       × coverage of the measure's words × title tightness × kind and unit fit.
   * `discoverTop` gives the first `limit` of the same list, without building the rest.
   */
  discover(intent: Intent, options: { queryVector?: Float32Array } = {}): Candidate[] {
    return this.ranked(intent, options.queryVector, Infinity).candidates;
  }

  /**
   * The first `limit` candidates of `discover` — the same cards, scores and order — and how many
   * cards match the query (`discover`'s length). Every matching card gets its BM25+ score and
   * coverage; one whose final score provably cannot reach the `limit`-th is not scored further,
   * and only the candidates returned are built. A caller that needs more asks with a larger limit.
   */
  discoverTop(intent: Intent, limit: number, options: { queryVector?: Float32Array } = {}): { candidates: Candidate[]; scored: number } {
    if (!(limit >= 0)) throw new Error(`discoverTop needs a limit ≥ 0, not ${limit}`);
    return this.ranked(intent, options.queryVector, limit);
  }

  /** `discoverTop` with embedding similarity when embeddings are attached. */
  async discoverTopAsync(intent: Intent, limit: number, signal?: AbortSignal): Promise<{ candidates: Candidate[]; scored: number }> {
    const queryVector = await this.embedQuery(intent, signal);
    return this.discoverTop(intent, limit, queryVector ? { queryVector } : {});
  }

  /**
   * The definition of `discover`'s ranking, written plainly over maps and sets: `discover` computes
   * the same over typed arrays (tables.ts), and a test holds the two equal to the bit. Kept as the
   * reference (and used for a query with more distinct terms than the fast path's 62 slots).
   */
  discoverReference(intent: Intent, options: { queryVector?: Float32Array } = {}): Candidate[] {
    const { lead, secondary } = DiscoveryIndex.retrievalText(intent);
    const leadQ = queryTerms(lead);
    const secQ = queryTerms(secondary);
    const measureText = [intent.attribute, ...intent.attributes].filter(Boolean).join(' ');
    const measureQ = measureText ? queryTerms(measureText) : leadQ;
    const scores = new Map<string, { bm25: number; matched: Set<string> }>();
    const run = (terms: string[], weight: number) => {
      if (terms.length === 0) return;
      for (const r of this.postings.search(terms, BOOST)) {
        const e = scores.get(r.id as string) ?? { bm25: 0, matched: new Set<string>() };
        e.bm25 += r.score * weight;
        for (const t of r.terms) e.matched.add(t);
        scores.set(r.id as string, e);
      }
    };
    run(leadQ.terms, 1);
    run(leadQ.expansions, 0.5);
    run(secQ.terms.filter((t) => !leadQ.terms.includes(t)), measureText && lead !== measureText ? 0.8 : 0.3);
    run(secQ.expansions.filter((t) => !leadQ.terms.includes(t) && !leadQ.expansions.includes(t)), 0.3);

    // Meaning: cards close to the query's vector join (or rise in) the scored set, in proportion to the best lexical score.
    const similarity = new Map<string, number>();
    if (options.queryVector && this.semantic) {
      const { floor, weight } = this.semantic.options;
      let top = 0;
      for (const e of scores.values()) top = Math.max(top, e.bm25);
      const scale = (top || 1) * weight;
      for (const [id, v] of this.semantic.vectors) {
        const sem = (dot(options.queryVector, v) - floor) / (1 - floor);
        if (sem <= 0) continue;
        similarity.set(id, sem);
        const e = scores.get(id) ?? { bm25: 0, matched: new Set<string>() };
        e.bm25 += scale * sem;
        scores.set(id, e);
      }
    }

    const { groups, weights, totalWeight, typeTerms, wantedAll, wantsPercent, level, head, wantsRecords } = this.rankingInputs(intent, leadQ, measureQ, measureText);
    const out: Candidate[] = [];
    for (const [id, e] of scores) {
      const card = this.cards.get(id)!;
      // Coverage weighs each word by its rarity: missing "rate" matters less than missing "smoking".
      const coveredWeight = groups.reduce((a, g, i) => a + (e.matched.has(g.term) || g.alts.some((x) => e.matched.has(x)) ? weights[i]! : 0), 0);
      const coverage = totalWeight > 0 ? coveredWeight / totalWeight : 0;
      const title = this.titles.get(id)!;
      const tight = title.length ? title.filter((t) => wantedAll.has(t)).length / title.length : 0;
      let score = e.bm25 * (0.25 + coverage) ** 2 * (0.4 + 0.6 * tight) * phraseBonus(measureQ.terms, title);
      if (card.kind === 'operation' && !wantsRecords) score *= 0.5;
      if (card.kind === 'measure' && wantsRecords) score *= 0.7;
      if (typeTerms.some((t) => this.sourceTerms.get(card.publisherId)?.has(t))) score *= 1.5;
      // A measure published only at another geographic level (county rows for a city question) is a weaker match.
      if (level && card.operations.length > 0 && card.operations.every((o) => grainMismatch(level, o.grain, o.coverageOf, o.kind) !== null)) score *= 0.5;
      // A rate is a percent or ratio; a head count of the same people is not an answer to it.
      if (wantsPercent && card.unit && PERCENT_UNIT.test(card.unit)) score *= 1.5;
      if (wantsPercent && card.unit && /^(count|people|persons|households|students|number)$/i.test(card.unit)) score *= 0.5;
      // The head must name what the card measures: in its title, outside any parenthetical
      // ("inflation" in "(in 2019 inflation-adjusted dollars)" qualifies the unit, not the measure).
      const heads = this.heads.get(id)!;
      // An operation's title is generic ("One measure for one county"): its whole card is what it serves.
      const has = card.kind === 'operation' ? e.matched : heads;
      const headCovered = head ? has.has(head.term) || head.alts.some((x) => has.has(x)) : undefined;
      const sim = similarity.get(id);
      out.push({ rank: 0, card, score, coverage, matched: [...e.matched], ...(headCovered === undefined ? {} : { headCovered }), ...(sim === undefined ? {} : { similarity: sim }) });
    }
    out.sort((a, b) => b.score - a.score || a.card.id.localeCompare(b.card.id));
    out.forEach((c, i) => { c.rank = i + 1; });
    return out;
  }

  private tablesOf(): CardTables {
    return (this.tables ??= this.storedTables ? loadTables(this.postings, this.cards, this.storedTables) : cardTables(this.postings, this.cards, this.titles, this.heads));
  }

  /**
   * `discoverReference`'s ranking over typed arrays (tables.ts): the same arithmetic in the same
   * order, so the same scores to the bit; only the first `limit` candidates are built.
   */
  private ranked(intent: Intent, queryVector: Float32Array | undefined, limit: number): { candidates: Candidate[]; scored: number } {
    const { lead, secondary } = DiscoveryIndex.retrievalText(intent);
    const leadQ = queryTerms(lead);
    const secQ = queryTerms(secondary);
    const measureText = [intent.attribute, ...intent.attributes].filter(Boolean).join(' ');
    const measureQ = measureText ? queryTerms(measureText) : leadQ;
    const runs: Array<[string[], number]> = [
      [leadQ.terms, 1],
      [leadQ.expansions, 0.5],
      [secQ.terms.filter((t) => !leadQ.terms.includes(t)), measureText && lead !== measureText ? 0.8 : 0.3],
      [secQ.expansions.filter((t) => !leadQ.terms.includes(t) && !leadQ.expansions.includes(t)), 0.3],
    ];
    const slotOf = new Map<string, number>();
    for (const [terms] of runs) for (const t of terms) if (!slotOf.has(t)) slotOf.set(t, slotOf.size);
    const T = this.tablesOf();
    if (slotOf.size > 62 || !T.strictOrder) {
      const all = this.discoverReference(intent, queryVector ? { queryVector } : {});
      return { candidates: limit < all.length ? all.slice(0, limit) : all, scored: all.length };
    }
    const q = ++T.stamp;
    const s = T.scratch;
    const { bm25, seen, candidates } = T;
    let nc = 0;
    for (const [terms, weight] of runs) {
      if (terms.length === 0) continue;
      this.postings.runInto(terms, terms.map((t) => slotOf.get(t)!), BOOST, s);
      for (let i = 0; i < s.touchedLength; i++) {
        const d = s.touched[i]!;
        const v = s.run[d]! * (s.count[d]! || 1) * weight;
        if (seen[d] !== q) { seen[d] = q; bm25[d] = 0 + v; candidates[nc++] = d; } else bm25[d] = bm25[d]! + v;
      }
    }
    const lexical = nc;
    // Meaning: as in discoverReference.
    if (queryVector && this.semantic) {
      const { floor, weight } = this.semantic.options;
      let top = 0;
      for (let i = 0; i < lexical; i++) top = Math.max(top, bm25[candidates[i]!]!);
      const scale = (top || 1) * weight;
      for (const [id, v] of this.semantic.vectors) {
        const sem = (dot(queryVector, v) - floor) / (1 - floor);
        if (sem <= 0) continue;
        const d = this.postings.docNumber(id);
        if (d === undefined) continue;
        T.sim[d] = sem;
        T.simSeen[d] = q;
        if (seen[d] !== q) { seen[d] = q; bm25[d] = 0 + scale * sem; candidates[nc++] = d; } else bm25[d] = bm25[d]! + scale * sem;
      }
    }

    const { groups, weights, totalWeight, typeTerms, wantedAll, wantsPercent, level, head, wantsRecords } = this.rankingInputs(intent, leadQ, measureQ, measureText);
    // the query's words as slot bits (what a card matched) and term numbers (what its title holds)
    const bits = (terms: readonly string[]) => {
      let lo = 0; let hi = 0;
      for (const t of terms) { const k = slotOf.get(t); if (k === undefined) continue; if (k < 31) lo |= 1 << k; else hi |= 1 << (k - 31); }
      return [lo, hi] as const;
    };
    const groupBits = groups.map((g) => bits([g.term, ...g.alts]));
    const wantedTerms = new Set<number>();
    for (const t of wantedAll) { const x = T.term(t); if (x !== undefined) wantedTerms.add(x); }
    const phraseTerms = Int32Array.from(measureQ.terms.map((t) => T.term(t) ?? -1));
    const headBits = head ? bits([head.term, ...head.alts]) : [0, 0] as const;
    const headTerms = head ? [head.term, ...head.alts].map((t) => T.term(t)).filter((x): x is number => x !== undefined) : [];
    const typed = T.publishers.map((p) => typeTerms.some((t) => this.sourceTerms.get(p)?.has(t)));
    let mismatch: Uint8Array | undefined;
    if (level) {
      mismatch = T.levelMismatch.get(level);
      if (!mismatch) {
        mismatch = new Uint8Array(T.cards.length);
        T.cards.forEach((card, d) => { if (card.operations.length > 0 && card.operations.every((o) => grainMismatch(level, o.grain, o.coverageOf, o.kind) !== null)) mismatch![d] = 1; });
        T.levelMismatch.set(level, mismatch);
      }
    }
    const { final, coverage: cov, head: headOk, titleStart, titleTerms: tt, headStart, headTerms: ht, kind, unitPercent, unitCount, publisher, mark } = T;
    for (const x of wantedTerms) mark[x] = 1;
    const { maskLo, maskHi } = s;
    const { idRank } = T;
    // best first; equal scores in id order (as discoverReference sorts)
    const before = (a: number, b: number) => final[b]! - final[a]! || idRank[a]! - idRank[b]!;
    // For the first `limit` only: a card whose score cannot reach the last one kept is not scored
    // further. Its score is at most bm25 × (0.25 + coverage)² × every factor that can exceed 1
    // (phrase ≤ 1.6, kind of source 1.5, percent unit 1.5; tightness and the other factors are ≤ 1),
    // with a margin far above the rounding of the few multiplications; so the cut is exact.
    const select = limit < nc;
    const most = 1.6 * (typed.some(Boolean) ? 1.5 : 1) * (wantsPercent ? 1.5 : 1) * (1 + 1e-9);
    const chosen: number[] = [];
    for (let i = 0; i < nc; i++) {
      const d = candidates[i]!;
      const lo = maskLo[d]!; const hi = maskHi[d]!;
      let coveredWeight = 0;
      for (let g = 0; g < groupBits.length; g++) coveredWeight = coveredWeight + ((lo & groupBits[g]![0]) !== 0 || (hi & groupBits[g]![1]) !== 0 ? weights[g]! : 0);
      const coverage = totalWeight > 0 ? coveredWeight / totalWeight : 0;
      if (select && (limit === 0 || (chosen.length === limit && bm25[d]! * (0.25 + coverage) ** 2 * most < final[chosen[limit - 1]!]!))) continue;
      const from = titleStart[d]!; const to = titleStart[d + 1]!;
      let inWanted = 0;
      for (let k = from; k < to; k++) inWanted += mark[tt[k]!]!;
      const tight = to > from ? inWanted / (to - from) : 0;
      let score = bm25[d]! * (0.25 + coverage) ** 2 * (0.4 + 0.6 * tight) * phraseBonusOf(phraseTerms, tt, from, to);
      const k = kind[d]!;
      if (k === 2 && !wantsRecords) score *= 0.5;
      if (k === 1 && wantsRecords) score *= 0.7;
      if (typed[publisher[d]!]) score *= 1.5;
      if (mismatch && mismatch[d]) score *= 0.5;
      if (wantsPercent && unitPercent[d]) score *= 1.5;
      if (wantsPercent && unitCount[d]) score *= 0.5;
      final[d] = score;
      cov[d] = coverage;
      if (head) {
        let has = false;
        if (k === 2) has = (lo & headBits[0]) !== 0 || (hi & headBits[1]) !== 0;
        else for (let h = headStart[d]!; h < headStart[d + 1]! && !has; h++) has = headTerms.includes(ht[h]!);
        headOk[d] = has ? 1 : 0;
      }
      if (select) {
        // kept sorted; a card enters only when it beats the last kept
        if (chosen.length === limit && before(d, chosen[limit - 1]!) >= 0) continue;
        let at = chosen.length;
        while (at > 0 && before(d, chosen[at - 1]!) < 0) at--;
        chosen.splice(at, 0, d);
        if (chosen.length > limit) chosen.pop();
      }
    }
    for (const x of wantedTerms) mark[x] = 0;
    if (!select) { for (let i = 0; i < nc; i++) chosen.push(candidates[i]!); chosen.sort(before); }
    // cards holding the same query terms list the same matched terms: made once per set of terms
    const lists = new Map<number, Map<number, string[]>>();
    const matchedOf = (lo: number, hi: number): string[] => {
      let byHi = lists.get(lo);
      if (!byHi) { byHi = new Map(); lists.set(lo, byHi); }
      let m = byHi.get(hi);
      if (!m) { m = matchedTerms(runs, slotOf, lo, hi); byHi.set(hi, m); }
      return m.slice();
    };
    const out: Candidate[] = chosen.map((d, i) => {
      const matched = matchedOf(maskLo[d]!, maskHi[d]!);
      const sim = T.simSeen[d] === q ? T.sim[d] : undefined;
      return { rank: i + 1, card: T.cards[d]!, score: final[d]!, coverage: cov[d]!, matched, ...(head ? { headCovered: headOk[d] === 1 } : {}), ...(sim === undefined ? {} : { similarity: sim }) };
    });
    for (let i = 0; i < nc; i++) { const d = candidates[i]!; maskLo[d] = 0; maskHi[d] = 0; }
    return { candidates: out, scored: nc };
  }

  async discoverAndRerank(intent: Intent, reranker?: Reranker, signal?: AbortSignal): Promise<Candidate[]> {
    const c = await this.discoverAsync(intent, signal);
    if (!reranker) return c;
    const r = await reranker.rerank(intent, c, signal);
    r.forEach((x, i) => { x.rank = i + 1; });
    return r;
  }
}

/** `phraseBonus` over term numbers: the measure's terms (−1: no card holds it) against a title's. */
function phraseBonusOf(terms: Int32Array, title: Int32Array, from: number, to: number): number {
  let pairs = 0;
  for (let i = 0; i + 1 < terms.length; i++) {
    const t = terms[i]!;
    if (t < 0) continue;
    let at = -1;
    for (let k = from; k < to; k++) if (title[k] === t) { at = k; break; }
    if (at >= 0 && at + 1 < to && title[at + 1] === terms[i + 1]) pairs++;
  }
  return Math.min(1.6, 1 + 0.3 * pairs);
}

/**
 * A card's matched terms as discoverReference lists them: run by run, each run's terms in query
 * order (integer-like terms first, ascending, as MiniSearch's object keys list them), first
 * occurrence kept.
 */
function matchedTerms(runs: ReadonlyArray<readonly [string[], number]>, slotOf: ReadonlyMap<string, number>, lo: number, hi: number): string[] {
  const out = new Set<string>();
  for (const [terms] of runs) {
    const here: string[] = [];
    for (const t of terms) {
      const k = slotOf.get(t)!;
      if (((k < 31 ? lo & (1 << k) : hi & (1 << (k - 31))) !== 0) && !here.includes(t)) here.push(t);
    }
    for (const t of here.some(isIndexLike) ? Object.keys(Object.fromEntries(here.map((x) => [x, 1]))) : here) out.add(t);
  }
  return [...out];
}

/** Adjacent query words found adjacent in the title ("net income" in "Net Income (Loss)"): up to ×1.6. */
function phraseBonus(terms: string[], title: string[]): number {
  let pairs = 0;
  for (let i = 0; i + 1 < terms.length; i++) {
    const at = title.indexOf(terms[i]!);
    if (at >= 0 && title[at + 1] === terms[i + 1]) pairs++;
  }
  return Math.min(1.6, 1 + 0.3 * pairs);
}

export { processTerm, tokenize };
