/**
 * Entity, class and relation linking against the graph's own labels.
 *
 * Entities: the store's label literals (see grounding.ts) and the local names of typed subjects.
 * 1. A verbatim full-label match first: when the whole question (case and whitespace normalised,
 *    punctuation kept) IS a label, that entity is bound exactly.
 * 2. Otherwise token n-grams, longest first: an n-gram equal to a whole label's tokens links that
 *    label's subject; several subjects with that label are reported as ambiguous with their
 *    candidates, never guessed.
 * 3. Then partial matches for what is left: an n-gram found inside labels, scored by the share of
 *    the label it covers; only the best-covered candidates count, and a tie is ambiguous.
 * Classes: n-grams equal to a class's local name or label (plural-insensitive).
 * Relations: predicates whose name words share stems with the question's remaining words
 *    (plus a few generic English adjective→dimension words, e.g. "tall" → height).
 *
 * Deterministic; knows nothing about any particular graph.
 */
import type { Introspection } from '../../introspect/index.ts';
import { isStopword, localName, nameWords, normaliseLabel, singular, stem, tokenKey, tokens, type Token } from './text.ts';

export interface LabelEntry { iri: string; label: string; via: string; lang?: string }

export interface Span { mention: string; start: number; end: number }
export interface Candidate { iri: string; label: string; types: readonly string[] }
export interface LinkedEntity extends Span, Candidate { exact: boolean; score: number }
export interface AmbiguousMention extends Span { candidates: Candidate[] }
export interface LinkedClass extends Span { iri: string; label: string; instances: number }
export interface LinkedRelation { iri: string; label: string; score: number; triples: number; tokens: number[] }

export interface Linking {
  question: string;
  tokens: Token[];
  /** True when the whole question was one label. */
  verbatim: boolean;
  entities: LinkedEntity[];
  ambiguous: AmbiguousMention[];
  classes: LinkedClass[];
  relations: LinkedRelation[];
  /** Token indexes taken by entity, class or ambiguous mentions. */
  consumed: ReadonlySet<number>;
}

/** Generic English words for dimensions, met in predicate names. */
const DIMENSIONS: Record<string, string[]> = {
  tall: ['height'], taller: ['height'], tallest: ['height'], short: ['height', 'length'], shortest: ['height', 'length'], shorter: ['height', 'length'],
  high: ['height', 'elevation'], highest: ['height', 'elevation'], higher: ['height', 'elevation'], low: ['height', 'elevation'], lower: ['height', 'elevation'], lowest: ['height', 'elevation'],
  heavy: ['mass', 'weight'], heavier: ['mass', 'weight'], heaviest: ['mass', 'weight'], weigh: ['mass', 'weight'], weighs: ['mass', 'weight'], light: ['mass', 'weight'], lightest: ['mass', 'weight'],
  long: ['length', 'duration'], longer: ['length', 'duration'], longest: ['length', 'duration'],
  populous: ['population'], people: ['population', 'resident'], inhabitants: ['population', 'resident'], live: ['resident', 'population'], lives: ['resident', 'population'], living: ['resident', 'population'],
  old: ['age', 'birth'], oldest: ['age', 'birth'], youngest: ['age', 'birth'], born: ['birth'],
  expensive: ['cost', 'price'], cheapest: ['cost', 'price'], cheap: ['cost', 'price'], costs: ['cost', 'price'],
  fast: ['speed'], fastest: ['speed'], slowest: ['speed'], wide: ['width', 'diameter'], widest: ['width', 'diameter'],
  last: ['length', 'duration'], lasts: ['length', 'duration'], seconds: ['length', 'duration'], minutes: ['length', 'duration', 'runtime'], hours: ['length', 'duration'],
  released: ['release'], directed: ['director'], wrote: ['writer', 'author'], written: ['writer', 'author'], write: ['writer', 'author'], writes: ['writer', 'author'],
  big: ['size', 'area', 'diameter', 'amount'], biggest: ['size', 'area', 'diameter', 'amount'], bigger: ['size', 'area', 'diameter', 'amount'], large: ['size', 'area', 'diameter', 'amount'], largest: ['size', 'area', 'diameter', 'amount'], larger: ['size', 'area', 'diameter', 'amount'],
  small: ['size', 'area', 'diameter', 'amount'], smallest: ['size', 'area', 'diameter', 'amount'], smaller: ['size', 'area', 'diameter', 'amount'], much: ['amount', 'price', 'cost', 'value'],
  // Verbs whose noun is a common property name: "published" → publication (date), "founded" → inception/founding, "headquartered" → headquarters.
  published: ['publication'], publish: ['publication'], founded: ['inception', 'founding'], established: ['inception', 'founding'], headquartered: ['headquarters'],
  give: ['funder', 'donor', 'grantor'], gave: ['funder', 'donor', 'grantor'], given: ['funder', 'donor', 'grantor'], donated: ['funder', 'donor'], awarded: ['funder', 'grantor'], granted: ['funder', 'grantor'],
};

/** Irregular English verb forms, so "sang"/"sung" meet "sings" and "wrote" meets "writer". */
const IRREGULAR: Record<string, string> = {
  sang: 'sing', sung: 'sing', wrote: 'write', written: 'write', won: 'win', led: 'lead', made: 'make', took: 'take', taken: 'take',
  gave: 'give', given: 'give', held: 'hold', began: 'begin', begun: 'begin', bought: 'buy', sold: 'sell', built: 'build', ran: 'run',
  drove: 'drive', driven: 'drive', flew: 'fly', flown: 'fly', taught: 'teach', spoke: 'speak', spoken: 'speak', chose: 'choose', chosen: 'choose',
  drew: 'draw', drawn: 'draw', grew: 'grow', grown: 'grow', knew: 'know', known: 'know', paid: 'pay', played: 'play', sent: 'send', wore: 'wear',
};

/** Words too generic to name a relation on their own. */
const WEAK_RELATION_WORDS = new Set(['has', 'have', 'is', 'of', 'type', 'value', 'id', 'uri', 'iri', 'data', 'info', 'property', 'by', 'to', 'in', 'on']);

/** Head nouns too generic to name a class alone ("IdentifierType" is not what "type" asks about). */
const GENERIC_HEADS = new Set(['type', 'kind', 'item', 'thing', 'entity', 'record', 'object', 'data', 'value', 'info', 'set', 'list', 'class', 'node', 'resource', 'concept', 'property', 'shape']);

interface LabelRec { iri: string; label: string; toks: string[] }

const MAX_CANDIDATES = 8;
const MAX_PARTIAL_DF = 300;
const MIN_PARTIAL_SCORE = 0.25;

export class Linker {
  readonly #full = new Map<string, Set<string>>();
  readonly #byTokens = new Map<string, Set<string>>();
  /** Names made from IRI local names: consulted only when no label matches. */
  readonly #byLocal = new Map<string, Set<string>>();
  /**
   * A label with a Wikipedia-style qualifier ("Queen (band)", "Mick Jones (Foreigner)") also names
   * its subject by the bare part, consulted after whole labels: one subject links, several are
   * ambiguous (the qualifiers tell them apart, so they are shown as candidates).
   */
  readonly #byBase = new Map<string, Set<string>>();
  readonly #records: LabelRec[] = [];
  readonly #inverted = new Map<string, number[]>();
  readonly #labelOf = new Map<string, string>();
  readonly #plainLabel = new Set<string>();
  readonly #types: ReadonlyMap<string, readonly string[]>;
  readonly #classKeys = new Map<string, { iri: string; label: string; instances: number }[]>();
  readonly #preds: { iri: string; label: string; words: string[]; allWords: string[]; stems: Set<string>; triples: number }[] = [];
  readonly #nameWordStems = new Set<string>();
  readonly #termStems = new Map<string, Set<string>>();

  private constructor(types: ReadonlyMap<string, readonly string[]>) {
    this.#types = types;
  }

  static build(input: { labels: readonly LabelEntry[]; types: ReadonlyMap<string, readonly string[]>; ix: Introspection; classes: ReadonlySet<string>; predicates: ReadonlySet<string> }): Linker {
    const l = new Linker(input.types);
    const instances = new Map(input.ix.classes.map((c) => [c.iri, c.instances]));
    const triples = new Map(input.ix.predicates.map((p) => [p.iri, p.triples]));
    const schemaTerms = new Set([...input.classes, ...input.predicates]);
    const termLabels = new Map<string, string[]>();
    for (const e of input.labels) {
      if (schemaTerms.has(e.iri)) termLabels.set(e.iri, [...(termLabels.get(e.iri) ?? []), e.label]);
      else l.#addLabel(e.iri, e.label, e.lang);
    }
    // Local names of typed subjects count as names too ("companyfacts", "Luke_Skywalker").
    for (const [s, ts] of input.types) {
      if (schemaTerms.has(s) || ts.length === 0) continue;
      const name = localName(s);
      if (!/[a-z]/i.test(name) || name.length < 3) continue;
      const words = nameWords(name).join(' ');
      for (const text of new Set([name, words])) {
        const key = tokenKey(text);
        if (key) add(l.#byLocal, key, s);
        if (!l.#labelOf.has(s)) l.#labelOf.set(s, name);
      }
      const spaced = name.replace(/_/g, ' ');
      const base = qualifiedBase(spaced);
      if (base) { const key = tokenKey(base); if (key) add(l.#byBase, key, s); }
    }
    for (const c of input.classes) {
      const label = termLabels.get(c)?.[0] ?? nameWords(localName(c)).join(' ');
      for (const text of [nameWords(localName(c)).join(' '), ...(termLabels.get(c) ?? [])]) {
        const key = tokens(text).map((t) => singular(t.norm)).join(' ');
        if (!key) continue;
        const list = l.#classKeys.get(key) ?? [];
        if (!list.some((x) => x.iri === c)) list.push({ iri: c, label, instances: instances.get(c) ?? 0 });
        l.#classKeys.set(key, list);
      }
    }
    // A compound class name is also named by its head noun ("MonetaryGrant" → "grants", "PostalAddress" →
    // "addresses") when no other class has that head or that whole name, and the head is not a generic word.
    const heads = new Map<string, { iri: string; label: string; instances: number }[]>();
    for (const list of l.#classKeys.values()) for (const c of list) {
      const words = nameWords(localName(c.iri));
      if (words.length < 2) continue;
      const head = singular(words.at(-1)!);
      if (GENERIC_HEADS.has(head) || isStopword(head)) continue;
      const hs = heads.get(head) ?? [];
      if (!hs.some((x) => x.iri === c.iri)) hs.push(c);
      heads.set(head, hs);
    }
    for (const [head, list] of heads) if (list.length === 1 && !l.#classKeys.has(head)) l.#classKeys.set(head, list);
    for (const p of input.predicates) {
      // An opaque identifier ("P1082") is no word of the predicate's name when the graph labels it.
      const opaque = /^[A-Za-z]{0,2}\d+$/.test(localName(p)) && (termLabels.get(p)?.length ?? 0) > 0;
      const words = new Set<string>(opaque ? [] : nameWords(localName(p)));
      for (const text of termLabels.get(p) ?? []) for (const t of tokens(text)) words.add(t.norm);
      const content = [...words].filter((w) => !WEAK_RELATION_WORDS.has(w) && !isStopword(w));
      const ws = content.length > 0 ? content : [...words];
      const stems = new Set(ws.map(stem));
      for (const s of stems) l.#nameWordStems.add(s);
      l.#preds.push({ iri: p, label: termLabels.get(p)?.[0] ?? nameWords(localName(p)).join(' '), words: ws, allWords: [...words], stems, triples: triples.get(p) ?? 0 });
    }
    return l;
  }

  #addLabel(iri: string, label: string, lang?: string): void {
    // Every language's label links; the one shown is untagged or English when the graph has one.
    const plain = !lang || /^en(-|$)/i.test(lang);
    if (!this.#labelOf.has(iri) || (plain && !this.#plainLabel.has(iri))) {
      this.#labelOf.set(iri, label);
      if (plain) this.#plainLabel.add(iri);
    }
    const full = normaliseLabel(label);
    if (!full) return;
    add(this.#full, full, iri);
    const base = qualifiedBase(label);
    if (base) { const key = tokenKey(base); if (key) add(this.#byBase, key, iri); }
    const toks = tokens(label).map((t) => t.norm);
    if (toks.length === 0) return;
    add(this.#byTokens, toks.join(' '), iri);
    const n = this.#records.push({ iri, label, toks }) - 1;
    for (const t of new Set(toks)) {
      if (isStopword(t)) continue;
      const list = this.#inverted.get(t);
      if (list) list.push(n); else this.#inverted.set(t, [n]);
    }
  }

  /** Stems of every word naming a predicate or class (its local name and labels, weak words included): what a query using it accounts for. */
  termStems(iri: string): ReadonlySet<string> {
    const had = this.#termStems.get(iri);
    if (had) return had;
    const out = new Set<string>(nameWords(localName(iri)).map(stem));
    for (const p of this.#preds) if (p.iri === iri) { for (const w of p.allWords) out.add(stem(w)); }
    for (const list of this.#classKeys.values()) for (const c of list) if (c.iri === iri) for (const t of tokens(c.label)) out.add(stem(t.norm));
    this.#termStems.set(iri, out);
    return out;
  }

  labelOf(iri: string): string | undefined {
    return this.#labelOf.get(iri);
  }

  typesOf(iri: string): readonly string[] {
    return this.#types.get(iri) ?? [];
  }

  #candidate(iri: string): Candidate {
    return { iri, label: this.#labelOf.get(iri) ?? localName(iri), types: this.typesOf(iri) };
  }

  link(question: string): Linking {
    const toks = tokens(question);
    const consumed = new Set<number>();
    const out: Linking = { question, tokens: toks, verbatim: false, entities: [], ambiguous: [], classes: [], relations: [], consumed };
    const whole = normaliseLabel(question.replace(/[?.!]+\s*$/, ''));
    const verbatim = this.#full.get(whole);
    if (verbatim && toks.length > 0) {
      const span = { mention: question.trim(), start: 0, end: toks.length };
      for (let i = 0; i < toks.length; i++) consumed.add(i);
      if (verbatim.size === 1) out.entities.push({ ...span, ...this.#candidate([...verbatim][0]!), exact: true, score: 1 });
      else out.ambiguous.push({ ...span, candidates: [...verbatim].slice(0, MAX_CANDIDATES).map((i) => this.#candidate(i)) });
      out.verbatim = true;
      return out;
    }
    const free = (s: number, e: number) => { for (let i = s; i < e; i++) if (consumed.has(i)) return false; return true; };
    const take = (s: number, e: number) => { for (let i = s; i < e; i++) consumed.add(i); };
    const mention = (s: number, e: number) => toks.slice(s, e).map((t) => t.raw).join(' ');
    // Exact n-grams, longest first: classes, then labels.
    for (let n = Math.min(10, toks.length); n >= 1; n--) {
      for (let s = 0; s + n <= toks.length; s++) {
        if (!free(s, s + n)) continue;
        const span = toks.slice(s, s + n);
        if (span.every((t) => isStopword(t.norm))) continue;
        if (isStopword(span[0]!.norm) && n > 1 && !/^[A-Z]/.test(span[0]!.raw)) continue;
        if (n <= 4) {
          const ckey = span.map((t) => singular(t.norm)).join(' ');
          const cls = this.#classKeys.get(ckey);
          if (cls) {
            const best = [...cls].sort((a, b) => b.instances - a.instances)[0]!;
            out.classes.push({ mention: mention(s, s + n), start: s, end: s + n, iri: best.iri, label: best.label, instances: best.instances });
            take(s, s + n);
            continue;
          }
        }
        const key = span.map((t) => t.norm).join(' ');
        if (n === 1 && (key.length < 2 || /^\d+$/.test(key))) continue;
        // A plural of a name ("Ewoks") names it too, when the plural itself is no name.
        const plural = span.at(-1)!.norm;
        const singularKey = plural.endsWith('s') ? [...span.slice(0, -1).map((t) => t.norm), singular(plural)].join(' ') : undefined;
        const hit = this.#byTokens.get(key) ?? (singularKey ? this.#byTokens.get(singularKey) : undefined)
          ?? this.#byLocal.get(key) ?? (singularKey ? this.#byLocal.get(singularKey) : undefined)
          // A qualified label's bare part names it only when written as a name (capitalised, not the question's opening words).
          ?? (s > 0 && span.every((t) => /^[\p{Lu}\p{N}]/u.test(t.raw) || isStopword(t.norm)) && /^[\p{Lu}\p{N}]/u.test(span[0]!.raw) ? this.#byBase.get(key) : undefined);
        if (!hit) continue;
        const m = { mention: mention(s, s + n), start: s, end: s + n };
        if (hit.size === 1) out.entities.push({ ...m, ...this.#candidate([...hit][0]!), exact: true, score: 1 });
        else out.ambiguous.push({ ...m, candidates: [...hit].slice(0, MAX_CANDIDATES).map((i) => this.#candidate(i)) });
        take(s, s + n);
      }
    }
    // Partial matches on what is left (content words only, not relation words).
    for (let n = Math.min(4, toks.length); n >= 1; n--) {
      for (let s = 0; s + n <= toks.length; s++) {
        if (!free(s, s + n)) continue;
        const span = toks.slice(s, s + n).map((t) => t.norm);
        if (span.some((t) => isStopword(t)) || span.some((t) => /^\d+([.,]\d+)?$/.test(t))) continue;
        if (n === 1 && (this.#nameWordStems.has(stem(span[0]!)) || DIMENSIONS[span[0]!])) continue;
        // A partial match needs a name-like word (capitalised, or with digits or inner punctuation): "Census", not "hold".
        if (!toks.slice(s, s + n).some((t) => /^[A-Z]|[0-9]|\w[-_.]\w/.test(t.raw))) continue;
        const lists = span.map((t) => this.#inverted.get(t) ?? []);
        const rarest = lists.reduce((a, b) => (a.length <= b.length ? a : b));
        if (rarest.length === 0 || rarest.length > MAX_PARTIAL_DF) continue;
        let best = 0;
        const at = new Map<string, number>();
        for (const r of rarest) {
          const rec = this.#records[r]!;
          if (!containsRun(rec.toks, span)) continue;
          const score = n / rec.toks.length;
          if (score > (at.get(rec.iri) ?? 0)) at.set(rec.iri, score);
          if (score > best) best = score;
        }
        if (best < MIN_PARTIAL_SCORE) continue;
        const top = [...at].filter(([, v]) => v === best).map(([k]) => k).sort();
        const m = { mention: mention(s, s + n), start: s, end: s + n };
        if (top.length === 1) out.entities.push({ ...m, ...this.#candidate(top[0]!), exact: false, score: best });
        else out.ambiguous.push({ ...m, candidates: top.slice(0, MAX_CANDIDATES).map((i) => this.#candidate(i)) });
        take(s, s + n);
      }
    }
    out.relations = this.#relations(toks, consumed);
    out.entities.sort((a, b) => a.start - b.start);
    out.classes.sort((a, b) => a.start - b.start);
    out.ambiguous.sort((a, b) => a.start - b.start);
    return out;
  }

  #relations(toks: readonly Token[], consumed: ReadonlySet<number>): LinkedRelation[] {
    // A word's own stem counts fully; a dimension it implies ("largest" → size, area, diameter) less,
    // so "the largest population" is about population, not diameter.
    const words: { i: number; stems: Map<string, number> }[] = [];
    for (const t of toks) {
      // "how much" asks an amount: "much" is a stopword everywhere else.
      const howMuch = t.norm === 'much' && toks[t.i - 1]?.norm === 'how';
      if (consumed.has(t.i) || (isStopword(t.norm) && !howMuch) || WEAK_RELATION_WORDS.has(t.norm)) continue;
      const stems = new Map<string, number>();
      for (const d of DIMENSIONS[t.norm] ?? []) stems.set(stem(d), 0.6);
      stems.set(stem(t.norm), 1);
      const base = IRREGULAR[t.norm];
      if (base) stems.set(stem(base), 1);
      words.push({ i: t.i, stems });
    }
    const out: LinkedRelation[] = [];
    for (const p of this.#preds) {
      const matched = new Map<string, number>();
      const at: number[] = [];
      for (const w of words) {
        let hit = false;
        for (const [s, weight] of w.stems) if (p.stems.has(s)) { matched.set(s, Math.max(matched.get(s) ?? 0, weight)); hit = true; }
        if (hit) at.push(w.i);
      }
      if (matched.size === 0) continue;
      const sum = [...matched.values()].reduce((a, b) => a + b, 0);
      out.push({ iri: p.iri, label: p.label, score: sum / p.stems.size, triples: p.triples, tokens: at });
    }
    return out.sort((a, b) => b.score - a.score || b.tokens.length - a.tokens.length || b.triples - a.triples || (a.iri < b.iri ? -1 : 1));
  }
}

/** "Queen (band)" → "Queen"; undefined when the label carries no trailing qualifier. */
export function qualifiedBase(label: string): string | undefined {
  const m = /^(.*\S)\s*\(([^()]+)\)\s*$/.exec(label);
  if (!m || !/[\p{L}\p{N}]/u.test(m[1]!)) return undefined;
  return m[1]!;
}

function add(map: Map<string, Set<string>>, key: string, iri: string): void {
  const set = map.get(key);
  if (set) set.add(iri); else map.set(key, new Set([iri]));
}

function containsRun(hay: readonly string[], needle: readonly string[]): boolean {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** The linking as a prompt section (undefined when nothing linked). */
export function linkingSection(l: Linking, short: (iri: string) => string = (i) => `<${i}>`): string | undefined {
  const lines: string[] = [];
  // types sorted: the prompt (and so a replay fixture keyed by it) must not depend on the store's iteration order
  for (const e of l.entities) lines.push(`- "${e.mention}" → ${short(e.iri)} (label "${e.label}"${e.types.length ? `, a ${[...e.types].sort().map(short).join(', ')}` : ''}${e.exact ? '' : ', partial match'})`);
  for (const a of l.ambiguous) lines.push(`- "${a.mention}" is ambiguous: ${a.candidates.map((c) => `${short(c.iri)} "${c.label}"`).join('; ')}`);
  for (const c of l.classes) lines.push(`- "${c.mention}" → class ${short(c.iri)} (${c.instances} instances)`);
  for (const r of l.relations.slice(0, 5)) lines.push(`- relation candidate ${short(r.iri)} ("${r.label}", ${r.triples} triples)`);
  return lines.length ? `Linked from the question:\n${lines.join('\n')}` : undefined;
}

export { tokenKey };
