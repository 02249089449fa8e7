/**
 * The offline generator: SPARQL for the question forms it recognises, with no model, grounded in
 * whatever graph is loaded (its labels, classes, predicates and the introspection join hints).
 *
 * Forms (checked in this order):
 * - yes/no (ASK): "Is E a C?", "Is/Does E … E2?", "Is the P of E greater than N?", "Is E's P X?"
 * - counts: "How many C [related to E | with P above N | whose P is X]?", "How many P does E have?"
 * - superlatives (ORDER BY … LIMIT): "Which C has the highest P?", "the N largest C", and by count:
 *   "Which C has the most C2?"
 * - simple filters: "Which C have P greater than N?", "Which C have X P?" (a word of a text value)
 * - entities of a class related to a named entity: "Which C appear in E?"
 * - a property of a named entity: "What is the P of E?", "Who directed E?"
 * - the members of a class: "List all C."
 * Anything else is answered with a typed reason (beyond it), never a guess: an ambiguous name is
 * reported with its candidates, a missing relation or join is named.
 *
 * Projection follows the question: the entities asked for (?x), the value asked for (?v), a count
 * (?count), or a boolean. Queries are built as syntax trees (sparql-build.ts).
 */
import type { ClassProfile, Introspection, PredicateProfile } from '../../../introspect/index.ts';
import type { Grounding } from '../grounding.ts';
import { RDF_TYPE } from '../grounding.ts';
import type { LinkedClass, LinkedEntity, LinkedRelation, Linking } from '../link.ts';
import { aggregateAs, ask, bgp, bool, containsWord, countAs, countExpr, equalsText, filter, iri, num, op, select, subquery, toText, triple, union, v } from '../sparql-build.ts';
import { isStopword, localName, nameWords, numbers, stem, type Token } from '../text.ts';

const nameWordsOfIri = (i: string) => nameWords(localName(i));
import type { BeyondReason, Generation, GenerateRequest, SparqlGenerator } from './types.ts';
import type { Pattern, Query } from 'sparqljs';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMERIC = new Set(['integer', 'decimal', 'float', 'double', 'int', 'long', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger', 'negativeInteger', 'nonPositiveInteger', 'unsignedInt', 'unsignedLong', 'unsignedShort', 'gYear'].map((t) => XSD + t));
const TEMPORAL = new Set(['date', 'dateTime', 'gYear', 'gYearMonth', 'time'].map((t) => XSD + t));
const TEXTUAL = new Set([XSD + 'string', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString']);

const ASK_WORDS = new Set(['is', 'are', 'was', 'were', 'does', 'do', 'did', 'has', 'have', 'had', 'can', 'could']);
const DESC_WORDS = new Set(['highest', 'largest', 'biggest', 'greatest', 'maximum', 'max', 'tallest', 'longest', 'heaviest', 'fastest', 'widest', 'deepest', 'most', 'top', 'richest', 'costliest', 'priciest', 'populous']);
const ASC_WORDS = new Set(['lowest', 'smallest', 'least', 'fewest', 'minimum', 'min', 'shortest', 'lightest', 'cheapest', 'slowest', 'narrowest', 'shallowest', 'bottom']);
const EARLY_WORDS = new Set(['earliest', 'oldest', 'first']);
const LATE_WORDS = new Set(['latest', 'newest', 'recent', 'last', 'youngest']);
/** Words that never carry the value a text filter looks for. */
const LIGHT_WORDS = new Set(['many', 'number', 'count', 'total', 'exist', 'exists', 'there', 'appear', 'appears', 'known', 'called', 'named',
  'use', 'uses', 'used', 'using', 'make', 'makes', 'made', 'get', 'gets', 'take', 'takes', 'go', 'goes', 'come', 'comes', 'belong', 'belongs',
  'graph', 'dataset', 'catalog', 'catalogue', 'database', 'data', 'describe', 'describes', 'hold', 'holds', 'contain', 'contains', 'include', 'includes']);
/** Aggregates beyond this generator (it writes AVG, SUM, MIN, MAX and COUNT). */
const AGGREGATE_WORDS = new Set(['median', 'percentage', 'percent', 'proportion', 'ratio', 'difference', 'altogether', 'variance', 'deviation']);
const AGGREGATES: Record<string, 'avg' | 'sum' | 'min' | 'max'> = {
  average: 'avg', mean: 'avg', avg: 'avg', sum: 'sum', total: 'sum', combined: 'sum', maximum: 'max', max: 'max', minimum: 'min', min: 'min',
};
const EQ = ['equal to', 'equals', 'exactly', 'of', 'is', 'with', '='];
const GT = ['more than', 'greater than', 'larger than', 'bigger than', 'higher than', 'taller than', 'longer than', 'heavier than', 'over', 'above', 'exceeds', 'exceeding', 'exceed', 'after', 'beyond'];
const GE = ['at least', 'no less than', 'or more'];
const LT = ['less than', 'fewer than', 'smaller than', 'lower than', 'shorter than', 'lighter than', 'under', 'below', 'before', 'cheaper than'];
const LE = ['at most', 'no more than', 'or less', 'or fewer', 'up to'];

interface Ctx {
  /** Set when a join was chosen without the question naming it (see Generation.tentative). */
  guessed?: string;
  ix: Introspection;
  g: Grounding;
  l: Linking;
  toks: Token[];
  norms: string[];
  notes: string[];
  /** Token indexes a form accounted for without a term of the query (see unusedWords). */
  covered: Set<number>;
}

export function offlineGenerator(): SparqlGenerator {
  return {
    id: 'offline',
    async generate(req: GenerateRequest): Promise<Generation> {
      if (req.round > 0) return { kind: 'beyond', reason: { code: 'cannot-repair' } };
      if (!req.grounding || !req.linking) return { kind: 'beyond', reason: { code: 'not-grounded' } };
      return generateOffline(req.grounding, req.linking);
    },
  };
}

export function generateOffline(g: Grounding, l: Linking): Generation {
  const toks = l.tokens;
  const ctx: Ctx = { ix: g.ix, g, l, toks, norms: toks.map((t) => t.norm), notes: [], covered: new Set() };
  const r = plan(ctx);
  if ('code' in r) return { kind: 'beyond', reason: r };
  const unused = unusedWords(ctx, r);
  if (unused.length > 0) return { kind: 'beyond', reason: { code: 'unused-words', words: unused } };
  return { kind: 'text', text: toText(r), ...(ctx.notes.length ? { notes: ctx.notes } : {}), ...(ctx.guessed ? { tentative: { code: 'guessed-join-empty', predicate: ctx.guessed } } : {}) };
}

type Planned = Query | BeyondReason;

function plan(c: Ctx): Planned {
  const { l } = c;
  if (l.verbatim) return { code: 'unrecognised-form' };
  // An ambiguous mention that no class in the question settles is reported, not guessed.
  const entities = [...l.entities];
  for (const a of l.ambiguous) {
    const fits = l.classes.length > 0 ? a.candidates.filter((cand) => l.classes.some((cl) => joinPredicates(c, cl.iri, cand.types).length > 0 || cand.types.includes(cl.iri))) : [];
    if (fits.length === 1) {
      entities.push({ mention: a.mention, start: a.start, end: a.end, ...fits[0]!, exact: false, score: 0.5 });
      c.notes.push(`"${a.mention}" read as <${fits[0]!.iri}>: the only candidate related to the class asked about`);
    } else {
      return { code: 'ambiguous-entity', mention: a.mention, candidates: a.candidates };
    }
  }
  entities.sort((a, b) => a.start - b.start);
  // A name the question gives that the graph does not hold must not be dropped: a query without it
  // answers a different question ("How many songs has Prince sung?" is not "How many songs?").
  // …unless it is the value a text relation named right next to it holds ("the POST method", "George Lucas direct").
  const unlinked = unlinkedName(c);
  const textValue = unlinked && c.l.relations.some((r) => isTextual(c, r.iri) && r.tokens.some((t) => t >= unlinked.start - 2 && t < unlinked.end + 2));
  if (unlinked && !textValue) return { code: 'unlinked-mention', mention: unlinked.mention };
  // "the companyfacts access path": a class mention next to an entity of that class only qualifies it.
  const classes = l.classes.filter((cl) => !entities.some((e) => e.types.includes(cl.iri) && (cl.start === e.end || cl.end === e.start)));
  // "How many funders are there?": a noun that is the whole name of an object-valued relation counts what that relation reaches.
  const roleCount = entities.length === 0 && classes.length === 0 && (has(c, 'how many') || has(c, 'number of')) ? roleNoun(c, c.norms.indexOf(has(c, 'how many') ? 'many' : 'of') + 1) : undefined;
  if (roleCount) return select({ variables: [countAs(v('x'), 'count')], where: [bgp(triple(v('s'), iri(roleCount.iri), v('x')))] });
  if (entities.length === 0 && classes.length === 0) return { code: 'nothing-linked' };
  // Aggregates other than counting (average, sum, …) are beyond this generator: say so rather than list.
  const unsupported = c.norms.find((w) => AGGREGATE_WORDS.has(w));
  if (unsupported) return { code: 'unrecognised-form' };
  // "… on average", "the sum": an aggregate word this generator cannot place on a numeric relation.
  // (Unless the word is part of a relation's name the question spells out in full: "an average height above 200" → averageHeight.)
  const aggWordAt = c.norms.findIndex((w) => ['average', 'mean', 'avg', 'sum', 'combined'].includes(w));
  const spelledOut = aggWordAt >= 0 && c.l.relations.some((r) => r.score >= 1 && r.tokens.includes(aggWordAt));
  if (aggWordAt >= 0 && !spelledOut && !aggregate(c)) return { code: 'unrecognised-form' };
  const first = c.norms[0] ?? '';
  const isAsk = ASK_WORDS.has(first);
  const isCount = has(c, 'how many') || has(c, 'number of') || has(c, 'count of') || first === 'count';
  const sup = superlative(c);
  const cmp = comparison(c);

  const F = classes[0];
  const negated = negation(c);
  if (negated === 'unhandled' || (negated && (isAsk || sup))) return { code: 'unrecognised-form' };
  if (F && negated) {
    const rel = classRelation(c, F.iri, {}) ?? incomingRelation(c, F.iri);
    if (!rel) return { code: 'no-relation', subject: F.iri, hint: 'negation' };
    const inner = bgp(rel.forward ? triple(v('x'), iri(rel.iri), v('any')) : triple(v('any'), iri(rel.iri), v('x')));
    const where: Pattern[] = [bgp(typeTriple(c, v('x'), F.iri))];
    const scoped = scope(c, F, entities, where);
    if (typeof scoped === 'object') return scoped;
    where.push(filter({ type: 'operation', operator: 'notexists', args: [{ type: 'group', patterns: [inner] }] } as never));
    return isCount ? select({ variables: [countAs(v('x'), 'count')], where }) : select({ variables: [v('x')], where, distinct: true });
  }
  // "What kind of place is E?", "What type of thing is E?": E's own class.
  if ((first === 'what' || first === 'which') && ['kind', 'type', 'sort'].includes(c.norms[1] ?? '') && c.norms[2] === 'of' && entities.length === 1 && !isCount && !sup) {
    for (let i = 0; i < 4 && i < c.toks.length; i++) c.covered.add(i); // "what kind of place": the category word only hints at the answer
    return select({ variables: [v('v')], where: [bgp(triple(iri(entities[0]!.iri), iri(c.g.typing?.instanceOf ?? RDF_TYPE), v('v')))], distinct: true });
  }
  // "What is a capital city a subclass of?": a class's parents, in a graph that states subclass-of itself.
  const subclassOf = c.g.typing?.subclassOf;
  if (subclassOf && classes.length === 1 && entities.length === 0 && c.l.relations.some((r) => r.iri === subclassOf && r.tokens.length > 0) && !isCount && !isAsk) {
    return select({ variables: [v('v')], where: [bgp(triple(iri(classes[0]!.iri), iri(subclassOf), v('v')))], distinct: true });
  }
  if (isAsk) return askForm(c, entities, classes, cmp);
  const agg = aggregate(c);
  if (agg) return aggregateForm(c, entities, classes, agg, cmp);
  if (isCount) return countForm(c, entities, classes, cmp);
  if (sup) return superlativeForm(c, entities, classes, sup);
  // "What <relation> …" asks for values of that relation, not for members of a class.
  const asked = askedRelation(c);
  if (F && asked) {
    const rel = classRelation(c, F.iri, {});
    if (!rel || rel.iri !== asked.iri) return { code: 'no-relation', subject: F.iri };
    const where: Pattern[] = [bgp(typeTriple(c, v('x'), F.iri))];
    const scoped = scope(c, F, entities, where);
    if (typeof scoped === 'object') return scoped;
    where.push(bgp(triple(v('x'), iri(rel.iri), v('v'))));
    return select({ variables: [v('v')], where, distinct: true });
  }
  if (F) {
    const where: Pattern[] = [bgp(typeTriple(c, v('x'), F.iri))];
    const scoped = scope(c, F, entities, where);
    if (typeof scoped === 'object') return scoped;
    const having = cmp ? countFilter(c, F.iri, cmp, where) : undefined;
    if (having) return having;
    const filtered = valueFilter(c, F.iri, cmp, where, 'x');
    if (typeof filtered === 'object') return filtered;
    const flag = !scoped && !filtered ? booleanFlag(c, F.iri) : undefined;
    if (flag) {
      where.push(bgp(triple(v('x'), iri(flag), bool(true))));
      return select({ variables: [v('x')], where, distinct: true });
    }
    if (!scoped && !filtered && entities.length === 0 && classes.length > 1) {
      // "Which C have C2?" — members of C related to some C2.
      const F2 = classes[1]!;
      const joined = classJoin(c, F.iri, F2.iri, where);
      if (typeof joined === 'object') return joined;
    }
    return select({ variables: [v('x')], where, distinct: true });
  }
  // "How much did F give to G?": a value of the one class that links two named entities (see bridge).
  if (entities.length === 2 && classes.length === 0) {
    const b = bridge(c, entities[0]!, entities[1]!);
    const held = b ? c.l.relations.filter((r) => r.iri !== b.p1 && r.iri !== b.p2 && classProfile(c, b.mid)?.predicates.some((p) => p.predicate === r.iri)) : [];
    const r = bestRelation(held, (x) => x.triples);
    if (b && r) {
      return select({ variables: [v('v')], distinct: true, where: [bgp(typeTriple(c, v('m'), b.mid), triple(v('m'), iri(b.p1), iri(entities[0]!.iri)), triple(v('m'), iri(b.p2), iri(entities[1]!.iri)), triple(v('m'), iri(r.iri), v('v')))] });
    }
  }
  // No class: a property of a named entity.
  const E = entities[0]!;
  return propertyOf(c, E);
}

/**
 * The relation a noun at token `at` names in full ("funders" → schema:funder, "directors" →
 * director), when it holds IRIs: the things it reaches are what the noun means.
 */
function roleNoun(c: Ctx, at: number): LinkedRelation | undefined {
  const t = c.toks[at];
  if (!t || c.l.consumed.has(t.i)) return undefined;
  const hits = c.l.relations.filter((r) => r.score >= 1 && r.tokens.length === 1 && r.tokens[0] === t.i && (profile(c, r.iri)?.kinds.iri ?? 0) > 0);
  return hits.length === 1 ? hits[0] : undefined;
}

/**
 * A capitalised run of words (not the question's first word) that no entity, class or ambiguous
 * mention took: a name the graph does not hold under that spelling.
 */
function unlinkedName(c: Ctx): { mention: string; start: number; end: number } | undefined {
  const taken = c.l.consumed;
  const nums = new Set(numbers(c.toks).flatMap((n) => Array.from({ length: n.end - n.start }, (_, k) => n.start + k)));
  let run: Token[] = [];
  const flush = () => ({ mention: run.map((t) => t.raw).join(' '), start: run[0]!.i, end: run.at(-1)!.i + 1 });
  for (const t of c.toks) {
    const nameLike = t.i > 0 && /^\p{Lu}/u.test(t.raw) && !taken.has(t.i) && !nums.has(t.i) && t.raw !== 'I' && !isStopword(t.norm);
    if (nameLike) { run.push(t); continue; }
    if (run.length > 0) return flush();
  }
  return run.length > 0 ? flush() : undefined;
}

// ——— what the query leaves out ———

/** Words that shape a query without naming a term of it: comparisons, units after a number, ranking and counting words. */
const SHAPE_WORDS = new Set(['greater', 'larger', 'bigger', 'higher', 'taller', 'longer', 'heavier', 'smaller', 'lower', 'shorter', 'lighter', 'cheaper',
  'exceeds', 'exceeding', 'exceed', 'above', 'below', 'beyond', 'after', 'before', 'equal', 'equals', 'exactly', 'least', 'number', 'count', 'total',
  'first', 'last', 'top', 'bottom', 'ever', 'recorded', 'listed', 'stated', 'available', 'feature', 'features', 'featured', 'featuring', 'allow', 'allows', 'allowed',
  'people', 'persons', 'things', 'entities', 'receive', 'received', 'receives', 'receiving', 'got', 'get', 'yes', 'true', 'false', 'ones', 'both', 'either', 'neither', 'between', 'among', 'ascending', 'descending', 'order', 'sorted', 'ranked', 'all', 'every']);

/**
 * Content words of the question that no part of the query accounts for: a linked entity whose IRI
 * the query does not hold (the named thing was dropped), or a word that is no mention, no word of
 * a relation the query uses, no value it filters on, and no word that only shapes the query. A query
 * that leaves such words out answers another question ("How many people are citizens of V?" is not
 * V's population; "What kind of place is O?" is not who was born there).
 */
function unusedWords(c: Ctx, q: Query): string[] {
  const used = new Set<string>();
  const literals: string[] = [];
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) { for (const x of n) visit(x); return; }
    if (n === null || typeof n !== 'object') return;
    const t = n as { termType?: string; value?: string };
    if (t.termType === 'NamedNode' && t.value) used.add(t.value);
    if (t.termType === 'Literal' && t.value) literals.push(t.value.toLowerCase());
    for (const x of Object.values(n)) if (x !== null && typeof x === 'object') visit(x);
  };
  visit(q);
  const covered = new Set<number>(c.covered);
  const out: string[] = [];
  for (const e of c.l.entities) {
    if (used.has(e.iri)) { for (let i = e.start; i < e.end; i++) covered.add(i); continue; }
    // A mention of an entity of the class asked about ("Which organizations … the X Foundation") that the query left out.
    out.push(e.mention);
  }
  for (const a of c.l.ambiguous) for (let i = a.start; i < a.end; i++) covered.add(i);
  for (const cl of c.l.classes) {
    if (used.has(cl.iri) || c.l.entities.some((e) => used.has(e.iri) && e.types.includes(cl.iri))) for (let i = cl.start; i < cl.end; i++) covered.add(i);
  }
  for (const r of c.l.relations) if (used.has(r.iri)) for (const i of r.tokens) covered.add(i);
  const termStems = [...used].map((i) => c.g.linker.termStems(i));
  // A number of the question is a value the query compares or filters on, or its LIMIT; the word after it may be its unit.
  const numeric = new Set(literals.map(Number).filter(Number.isFinite));
  const limit = (q as { limit?: number }).limit;
  for (const n of numbers(c.toks)) {
    if (covered.has(n.start)) continue;
    if (!numeric.has(n.value) && n.value !== limit) { out.push(c.toks.slice(n.start, n.end).map((t) => t.raw).join(' ')); continue; }
    for (let i = n.start; i <= n.end && i < c.toks.length; i++) covered.add(i);
  }
  for (const t of c.toks) {
    if (covered.has(t.i) || isStopword(t.norm) || /^[^\p{L}]*$/u.test(t.norm)) continue;
    if (LIGHT_WORDS.has(t.norm) || SHAPE_WORDS.has(t.norm) || ASK_WORDS.has(t.norm) || DESC_WORDS.has(t.norm) || ASC_WORDS.has(t.norm) || EARLY_WORDS.has(t.norm) || LATE_WORDS.has(t.norm) || AGGREGATES[t.norm]) continue;
    if (literals.some((l) => l.includes(t.norm))) continue;
    if (termStems.some((st) => st.has(stem(t.norm)))) continue;
    out.push(t.raw);
  }
  return [...new Set(out)];
}

// ——— aggregates (AVG, SUM, MIN, MAX) ———

interface Aggregate { fn: 'avg' | 'sum' | 'min' | 'max'; word: number }

/** "the average height", "the total length", "the maximum length of …": an aggregate word right before a numeric relation. */
function aggregate(c: Ctx): Aggregate | undefined {
  const first = c.norms[0];
  if (first === 'which' || first === 'who' || first === 'whom') return undefined;
  for (let i = 0; i < c.norms.length; i++) {
    const fn = AGGREGATES[c.norms[i]!];
    if (!fn) continue;
    // The relation may follow a class word: "the average song length".
    const next = c.toks.slice(i + 1).filter((t) => !isStopword(t.norm)).slice(0, 2);
    const classWord = (t: Token) => c.l.classes.some((cl) => t.i >= cl.start && t.i < cl.end);
    const cand = next[0] && classWord(next[0]) ? next.slice(0, 2) : next.slice(0, 1);
    const numeric = cand.some((t) => c.l.relations.some((r) => r.tokens.includes(t.i) && isNumericProfile(profile(c, r.iri) ?? ({} as PredicateProfile))));
    if (numeric) return { fn, word: i };
  }
  return undefined;
}

function aggregateForm(c: Ctx, entities: LinkedEntity[], classes: readonly LinkedClass[], agg: Aggregate, cmp: Comparison | undefined): Planned {
  const F = classes[0];
  const where: Pattern[] = [];
  let rel: Directed | undefined;
  if (F) {
    where.push(bgp(typeTriple(c, v('x'), F.iri)));
    const scoped = scope(c, F, entities, where);
    if (typeof scoped === 'object') return scoped;
    rel = classRelation(c, F.iri, { numeric: true });
  } else if (entities.length === 1) {
    // "the total amount granted by E": the things that hold the numeric relation and are joined to E
    // (one class and one predicate, as the data has them); anything else — "the total length of what
    // E sings" with no such class, or an entity's own single value — is beyond this generator.
    const E = entities[0]!;
    const num = globalRelation(c, { numeric: true });
    if (!num) return { code: 'unrecognised-form' };
    const holders = c.ix.classes.filter((k) => k.predicates.some((p) => p.predicate === num.iri));
    const joins = holders.flatMap((k) => reachedBy(c, E.iri, joinPredicates(c, k.iri, E.types)).filter((p) => p.forward).map((p) => ({ k: k.iri, p })));
    const named = joins.filter((j) => c.l.relations.some((r) => r.iri === j.p.iri));
    const pick = named.length > 0 ? named : joins;
    if (pick.length !== 1) return { code: 'unrecognised-form' };
    where.push(bgp(typeTriple(c, v('x'), pick[0]!.k), triple(v('x'), iri(pick[0]!.p.iri), iri(E.iri))));
    rel = num;
  } else {
    rel = globalRelation(c, { numeric: true });
  }
  if (!rel) return c.l.relations[0] ? { code: 'not-numeric', predicate: c.l.relations[0].iri } : { code: 'no-relation', subject: F?.iri ?? '', hint: 'aggregate' };
  if (cmp) return { code: 'unrecognised-form' };
  const st = c.g.numeric.get(rel.iri);
  if (agg.fn === 'min' && st && st.zeros > 0 && st.negatives === 0) return { code: 'zero-values', predicate: rel.iri, zeros: st.zeros };
  where.push(bgp(triple(v('x'), iri(rel.iri), v('v'))));
  const numericOnly = numericGuard(c, rel.iri);
  if (numericOnly) where.push(numericOnly);
  return select({ variables: [aggregateAs(agg.fn, v('v'), agg.fn)], where });
}

/** FILTER(isNumeric(?v)) when the predicate also holds non-numeric values (the data says so: its datatypes). */
function numericGuard(c: Ctx, p: string): Pattern | undefined {
  const prof = profile(c, p);
  if (!prof) return undefined;
  const mixed = prof.kinds.iri + prof.kinds.bnode > 0 || prof.rangeDatatypes.some((d) => !NUMERIC.has(d.iri));
  return mixed && !TEMPORAL.has(topDatatype(prof) ?? '') ? filter(op('isnumeric', v('v'))) : undefined;
}

/** "Which C have more than N R?" where R is an object relation of C: a count per member, compared in HAVING. */
function countFilter(c: Ctx, cls: string, cmp: Comparison, where: Pattern[]): Query | undefined {
  if (classRelation(c, cls, { numeric: true })) return undefined;
  const after = c.l.relations.filter((r) => r.tokens.some((t) => t > cmp.start));
  if (after.length === 0) return undefined;
  const rel = classRelation({ ...c, l: { ...c.l, relations: after } }, cls, { objects: true });
  if (!rel) return undefined;
  const pattern = bgp(rel.forward ? triple(v('x'), iri(rel.iri), v('o')) : triple(v('o'), iri(rel.iri), v('x')));
  return select({ variables: [v('x')], where: [...where, pattern], group: [v('x')], having: [op(cmp.op, countExpr(v('o')), num(cmp.value))] });
}

/**
 * A yes/no property of the class that the question spells out in full ("require a credential" →
 * requiresCredential): every content word of its name is a word of the question.
 */
function booleanFlag(c: Ctx, cls: string): string | undefined {
  const words = new Set(c.norms.map(stem));
  const hits = (classProfile(c, cls)?.predicates ?? []).filter((cp) => {
    const p = profile(c, cp.predicate);
    if (!p || topDatatype(p) !== XSD + 'boolean') return false;
    const name = nameWordsOfIri(cp.predicate).filter((w) => !['is', 'has', 'have', 'can', 'does'].includes(w));
    return name.length > 0 && name.every((w) => words.has(stem(w)));
  });
  return hits.length === 1 ? hits[0]!.predicate : undefined;
}

/** "no P", "without P", "lacking P": a negated relation (handled); other negations are beyond this generator. */
function negation(c: Ctx): boolean | 'unhandled' {
  for (let i = 0; i < c.norms.length; i++) {
    const w = c.norms[i]!;
    if (w === 'no' || w === 'without' || w === 'lacking' || w === 'lack') {
      const near = new Set([i + 1, i + 2, i + 3]);
      if (c.l.relations.some((r) => r.tokens.some((t) => near.has(t)))) return true;
      return 'unhandled';
    }
    if (w === 'not' || w === 'never' || w === 'none' || w.endsWith("n't")) return 'unhandled';
  }
  return false;
}

/** The relation named right after the question word ("What language …", "Which color …"). */
function askedRelation(c: Ctx): LinkedRelation | undefined {
  const first = c.norms[0];
  if (first !== 'what' && first !== 'which') return undefined;
  const next = c.toks[1];
  if (!next || c.l.consumed.has(next.i)) return undefined;
  return c.l.relations.find((r) => r.tokens.includes(next.i) && r.score >= 1);
}

function incomingRelation(c: Ctx, cls: string): Directed | undefined {
  const incoming = c.l.relations.filter((r) => c.ix.joinHints.hints.some((h) => h.predicate === r.iri && h.to === cls));
  const inc = bestRelation(incoming, (r) => r.triples);
  return inc ? { iri: inc.iri, forward: false, tokens: inc.tokens } : undefined;
}

/**
 * "S is of class C": `S rdf:type C`, or, in a graph that types with its own predicates
 * (grounding.ts `Typing`), `S instanceOf/subclassOf* C` for one of its classes.
 */
function typeTriple(c: Ctx, s: ReturnType<typeof v> | ReturnType<typeof iri>, cls: string): ReturnType<typeof triple> {
  const t = c.g.typing;
  if (!t || !t.classes.has(cls)) return triple(s, iri(RDF_TYPE), iri(cls));
  const path = t.subclassOf
    ? { type: 'path', pathType: '/', items: [iri(t.instanceOf), { type: 'path', pathType: '*', items: [iri(t.subclassOf)] }] }
    : iri(t.instanceOf);
  return triple(s, path as never, iri(cls));
}

function has(c: Ctx, phrase: string): boolean {
  return ` ${c.norms.join(' ')} `.includes(` ${phrase} `);
}

// ——— yes/no ———

function askForm(c: Ctx, entities: LinkedEntity[], classes: readonly LinkedClass[], cmp: Comparison | undefined): Planned {
  const E = entities[0];
  if (!E) return { code: 'nothing-linked' };
  const e = iri(E.iri);
  if (entities.length >= 2) {
    const E2 = entities[1]!;
    const preds = linkPredicates(c, E.types, E2.types);
    if (preds.length === 0) {
      // "Did F fund G?": no predicate links them, but one class does, each side by the predicate that reaches it in the data.
      const b = bridge(c, E, E2);
      if (!b || !c.l.relations.some((r) => r.iri === b.p1 || r.iri === b.p2)) return { code: 'no-join', from: E.iri, to: E2.iri };
      return ask([bgp(typeTriple(c, v('m'), b.mid), triple(v('m'), iri(b.p1), e), triple(v('m'), iri(b.p2), iri(E2.iri)))]);
    }
    const groups: Pattern[][] = [];
    for (const p of preds) groups.push([bgp(triple(p.forward ? e : iri(E2.iri), iri(p.iri), p.forward ? iri(E2.iri) : e))]);
    return ask(groups.length === 1 ? groups[0]! : [union(...groups)]);
  }
  const rel = relationFor(c, E, { numeric: cmp !== undefined });
  if (cmp && rel) {
    return ask([bgp(triple(e, iri(rel.iri), v('v'))), filter(op(cmp.op, v('v'), num(cmp.value)))]);
  }
  const C = classes[0];
  if (C && (!rel || c.l.classes.length > 0)) return ask([bgp(typeTriple(c, e, C.iri))]);
  if (rel) {
    const words = leftoverWords(c, rel);
    if (words.length > 0 && isTextual(c, rel.iri)) {
      return ask([bgp(triple(e, iri(rel.iri), v('v'))), ...textFilters(c, rel.iri, words)]);
    }
    return ask([bgp(triple(e, iri(rel.iri), v('v')))]);
  }
  return { code: 'no-relation', subject: E.iri };
}

// ——— counts ———

function countForm(c: Ctx, entities: LinkedEntity[], classes: readonly LinkedClass[], cmp: Comparison | undefined): Planned {
  const F = classes[0];
  if (F) {
    const where: Pattern[] = [bgp(typeTriple(c, v('x'), F.iri))];
    const scoped = scope(c, F, entities, where);
    if (typeof scoped === 'object') return scoped;
    const having = cmp ? countFilter(c, F.iri, cmp, where) : undefined;
    if (having) return having;
    const filtered = valueFilter(c, F.iri, cmp, where, 'x');
    if (typeof filtered === 'object') return filtered;
    return select({ variables: [countAs(v('x'), 'count')], where });
  }
  const E = entities[0];
  if (!E) return { code: 'nothing-linked' };
  const rel = relationFor(c, E, {});
  if (!rel) return { code: 'no-relation', subject: E.iri, hint: 'count' };
  const p = profile(c, rel.iri);
  if (p && isNumericProfile(p)) return propertyOf(c, E, rel);
  const e = iri(E.iri);
  const pattern = rel.forward ? triple(e, iri(rel.iri), v('x')) : triple(v('x'), iri(rel.iri), e);
  return select({ variables: [countAs(v('x'), 'count')], where: [bgp(pattern)] });
}

// ——— superlatives ———

interface Superlative { descending: boolean; limit: number; byCount: boolean; temporal?: 'early' | 'late'; word: number; nested?: boolean }

function superlative(c: Ctx): Superlative | undefined {
  for (let i = 0; i < c.norms.length; i++) {
    const w = c.norms[i]!;
    let descending: boolean | undefined;
    let temporal: 'early' | 'late' | undefined;
    if (DESC_WORDS.has(w)) descending = true;
    else if (ASC_WORDS.has(w)) descending = false;
    else if (EARLY_WORDS.has(w)) { descending = false; temporal = 'early'; } else if (LATE_WORDS.has(w)) { descending = true; temporal = 'late'; }
    if (descending === undefined) continue;
    if (w === 'most' && c.norms[i - 1] !== 'the' && c.norms[i - 1] !== 'has' && c.norms[i - 1] !== 'have' && c.norms[i - 1] !== 'with') {
      // "most" as "most of the …" is not a superlative; "the most", "has the most" are.
      if (c.norms[i - 1] !== undefined && !['which', 'who', 'what'].includes(c.norms[i - 1]!)) continue;
    }
    if ((w === 'first' || w === 'last') && comparisonAt(c, i + 1)) continue; // "songs that last less than 60 seconds"
    // "the maximum length of …" with a question asking for a value is an aggregate, not a ranking.
    if ((w === 'max' || w === 'maximum' || w === 'min' || w === 'minimum') && aggregate(c)) continue;
    let limit = 1;
    const counts = numbers(c.toks);
    // "the five longest", "top 3", or a count of the class asked for ("Which three bands have the most …").
    const n = counts.find((m) => m.end === i)?.value ?? ((w === 'top' || w === 'bottom') ? counts.find((m) => m.start === i + 1)?.value : undefined)
      ?? counts.find((m) => m.end < i && c.l.classes.some((cl) => cl.start === m.end) && !comparisonBefore(c, m.start))?.value;
    if (n !== undefined && n > 0 && n <= 1000) limit = n;
    const byCount = (w === 'most' || w === 'fewest' || w === 'least') && !isAdjectiveNext(c, i);
    return { descending, limit, byCount, word: i, ...(temporal ? { temporal } : {}) };
  }
  return undefined;
}

function comparisonBefore(c: Ctx, i: number): boolean {
  const before = c.norms.slice(Math.max(0, i - 3), i).join(' ');
  return [...GT, ...GE, ...LT, ...LE].some((p) => before.endsWith(p));
}

function comparisonAt(c: Ctx, i: number): boolean {
  const two = c.norms.slice(i, i + 2).join(' ');
  return [...GT, ...GE, ...LT, ...LE].some((p) => two.startsWith(p));
}

/** "the most populous" — "most" followed by an adjective-like word that names a literal-valued relation ("the most members" counts). */
function isAdjectiveNext(c: Ctx, i: number): boolean {
  const next = c.toks[i + 1];
  if (!next) return false;
  return c.l.relations.some((r) => r.tokens.includes(next.i) && isNumericProfile(profile(c, r.iri) ?? ({} as PredicateProfile)))
    && !c.l.classes.some((cl) => cl.start === next.i);
}

function superlativeForm(c: Ctx, entities: LinkedEntity[], classes: readonly LinkedClass[], sup: Superlative): Planned {
  // "Who sang the most songs?": the class right after "most" is what is counted, not what is asked for.
  const counted = sup.byCount ? classes.find((cl) => cl.start === sup.word + 1) : undefined;
  if (counted) {
    const asked = classes.find((cl) => cl !== counted && cl.start < sup.word);
    // "Which funder made the most grants?": the asked noun is a relation of the counted class; rank what it reaches.
    const role = !asked && entities.length === 0 ? roleNoun(c, 1) : undefined;
    if (role && classProfile(c, counted.iri)?.predicates.some((p) => p.predicate === role.iri)) {
      const inner = select({ variables: [v('x'), countAs(v('o'), 'n')], where: [bgp(typeTriple(c, v('o'), counted.iri), triple(v('o'), iri(role.iri), v('x')))], group: [v('x')] });
      return select({ variables: [v('x')], where: [subquery(inner)], order: [{ expression: v('n'), descending: sup.descending }], limit: sup.limit });
    }
    if (!asked && c.norms[0] !== 'who' && c.norms[0] !== 'whom') return { code: 'unrecognised-form' };
    return countedSuperlative(c, asked, counted, entities, sup);
  }
  const F = classes[0];
  // "Who sings the longest song?": rank the class, then ask who is related to the top one.
  const verbBetween = c.l.relations.some((r) => r.tokens.some((t) => t > 0 && t < sup.word) && !isNumericProfile(profile(c, r.iri) ?? ({} as PredicateProfile)));
  if (F && !sup.nested && verbBetween && (c.norms[0] === 'who' || c.norms[0] === 'whom') && F.start > sup.word && !sup.byCount) {
    const inner = superlativeForm(c, entities, classes, { ...sup, nested: true });
    if ('code' in inner) return inner;
    const into = c.l.relations.filter((r) => c.ix.joinHints.hints.some((h) => h.predicate === r.iri && h.to === F.iri) && !isNumericProfile(profile(c, r.iri) ?? ({} as PredicateProfile)));
    const preds = [...new Set(into.map((r) => r.iri))];
    if (preds.length !== 1) return { code: 'no-relation', subject: F.iri, hint: 'who' };
    return select({ variables: [v('y')], where: [bgp(triple(v('y'), iri(preds[0]!), v('x'))), subquery(inner)], distinct: true });
  }
  const focus = F?.iri;
  const where: Pattern[] = focus ? [bgp(typeTriple(c, v('x'), focus))] : [];
  if (F) {
    const scoped = scope(c, F, entities.filter((e) => !(focus && e.types.includes(focus))), where);
    if (typeof scoped === 'object') return scoped;
  }
  if (sup.byCount) {
    // By count: a second class joined to the first, or an object-valued relation of the first.
    let pattern: Pattern | undefined;
    const F2 = classes[1];
    if (focus && F2) {
      const preds = joinPredicatesBetween(c, focus, F2.iri);
      const p = pickRelated(c, preds);
      if (p) pattern = bgp(triple(p.forward ? v('x') : v('o'), iri(p.iri), p.forward ? v('o') : v('x')), typeTriple(c, v('o'), F2.iri));
    }
    if (!pattern) {
      const rel = focus ? classRelation(c, focus, { objects: true }) : c.l.relations[0] ? { iri: c.l.relations[0].iri, forward: true } : undefined;
      if (rel) pattern = bgp(rel.forward ? triple(v('x'), iri(rel.iri), v('o')) : triple(v('o'), iri(rel.iri), v('x')));
    }
    if (!pattern) return { code: 'no-relation', subject: focus ?? '', hint: 'most' };
    const inner = select({ variables: [v('x'), countAs(v('o'), 'n')], where: [...where, pattern], group: [v('x')] });
    return select({ variables: [v('x')], where: [subquery(inner)], order: [{ expression: v('n'), descending: sup.descending }], limit: sup.limit });
  }
  const rel = focus ? classRelation(c, focus, { numeric: true, temporal: sup.temporal !== undefined }) : globalRelation(c, { numeric: true });
  if (!rel) {
    const named = c.l.relations[0];
    if (named) return { code: 'not-numeric', predicate: named.iri };
    return { code: 'no-relation', subject: focus ?? '', hint: 'superlative' };
  }
  // Ascending ranks meet zeros first; whether a zero is a measurement or a placeholder the data does
  // not say, so a rank that would start at zeros is declined rather than guessed.
  const st = c.g.numeric.get(rel.iri);
  if (!sup.descending && !sup.temporal && st && st.zeros > 0 && st.negatives === 0) return { code: 'zero-values', predicate: rel.iri, zeros: st.zeros };
  where.push(bgp(triple(v('x'), iri(rel.iri), v('v'))));
  const guard = numericGuard(c, rel.iri);
  if (guard) where.push(guard);
  // "How much was the largest grant …" asks for the amount, not for the grant.
  const value = has(c, 'how much') || has(c, 'how long') || has(c, 'how big') || has(c, 'how large') || has(c, 'how high') || has(c, 'how tall');
  return select({ variables: [v(value ? 'v' : 'x')], where, order: [{ expression: v('v'), descending: sup.descending }], limit: sup.limit });
}

/** Members of `asked` (or anything, for "who") ranked by how many `counted` they relate to. */
function countedSuperlative(c: Ctx, asked: LinkedClass | undefined, counted: LinkedClass, entities: LinkedEntity[], sup: Superlative): Planned {
  const where: Pattern[] = asked ? [bgp(typeTriple(c, v('x'), asked.iri))] : [];
  if (asked) {
    const scoped = scope(c, asked, entities, where);
    if (typeof scoped === 'object') return scoped;
  } else if (entities.length > 0) return { code: 'unrecognised-form' };
  const hints = c.ix.joinHints.hints.filter((h) => h.predicate !== RDF_TYPE && (asked ? (h.from === asked.iri && h.to === counted.iri) || (h.from === counted.iri && h.to === asked.iri) : h.to === counted.iri));
  const options = new Map<string, Directed>();
  for (const h of hints) options.set(`${h.to === counted.iri}${h.predicate}`, { iri: h.predicate, forward: h.to === counted.iri });
  const list = [...options.values()];
  const named = list.filter((d) => c.l.relations.some((r) => r.iri === d.iri));
  if (list.length === 0) return { code: 'no-join', from: asked?.iri ?? '', to: counted.iri };
  // Named by the question: that one (several named: beyond); none named: the most used join, said in a note.
  if (named.length > 1) return { code: 'unrecognised-form' };
  const d = named[0] ?? (asked ? pickRelated(c, joinPredicatesBetween(c, asked.iri, counted.iri).map((j) => ({ ...j, forward: j.forward }))) : undefined);
  if (!d) return { code: 'unrecognised-form' };
  const pattern = bgp(d.forward ? triple(v('x'), iri(d.iri), v('o')) : triple(v('o'), iri(d.iri), v('x')), typeTriple(c, v('o'), counted.iri));
  const inner = select({ variables: [v('x'), countAs(v('o'), 'n')], where: [...where, pattern], group: [v('x')] });
  return select({ variables: [v('x')], where: [subquery(inner)], order: [{ expression: v('n'), descending: sup.descending }], limit: sup.limit });
}

// ——— filters ———

interface Comparison { op: '>' | '>=' | '<' | '<=' | '='; value: number; start: number }

function comparison(c: Ctx): Comparison | undefined {
  const nums = numbers(c.toks).filter((n) => !c.l.consumed.has(n.start));
  for (const n of nums) {
    const before = c.norms.slice(Math.max(0, n.start - 3), n.start).join(' ');
    const after = c.norms.slice(n.end, n.end + 2).join(' ');
    const endsWith = (list: string[]) => list.some((p) => before === p || before.endsWith(` ${p}`));
    if (endsWith(GE) || /^or more/.test(after)) return { op: '>=', value: n.value, start: n.start };
    if (endsWith(LE) || /^or (less|fewer)/.test(after)) return { op: '<=', value: n.value, start: n.start };
    if (endsWith(GT)) return { op: '>', value: n.value, start: n.start };
    if (endsWith(LT)) return { op: '<', value: n.value, start: n.start };
    if (endsWith(EQ) || c.l.relations.some((r) => r.tokens.includes(n.start - 1))) return { op: '=', value: n.value, start: n.start };
  }
  return undefined;
}

/** ?v, or YEAR(?v) when ?v holds dates and the number compared is a year ("founded before 1950"). */
function yearOf(c: Ctx, p: string, value: number): ReturnType<typeof op> | ReturnType<typeof v> {
  const d = profile(c, p);
  const dated = d !== undefined && ['date', 'dateTime'].some((t) => topDatatype(d) === XSD + t);
  return dated && Number.isInteger(value) && value >= 1000 && value <= 2999 ? op('year', v('v')) : v('v');
}

/** Add a value filter on a relation of `cls` to `where` (numeric comparison or a word of a text value). */
function valueFilter(c: Ctx, cls: string, cmp: Comparison | undefined, where: Pattern[], subject: string): Query | BeyondReason | boolean {
  if (cmp) {
    const rel = classRelation(c, cls, { numeric: true });
    if (!rel) return c.l.relations[0] ? { code: 'not-numeric', predicate: c.l.relations[0].iri } : { code: 'no-relation', subject: cls, hint: 'filter' };
    where.push(bgp(triple(v(subject), iri(rel.iri), v('v'))), filter(op(cmp.op, yearOf(c, rel.iri, cmp.value), num(cmp.value))));
    return true;
  }
  const rel = classRelation(c, cls, { textual: true });
  if (!rel) return false;
  const words = leftoverWords(c, rel);
  if (words.length === 0) return false;
  where.push(bgp(triple(v(subject), iri(rel.iri), v('v'))), ...textFilters(c, rel.iri, words));
  return true;
}

/**
 * How a word of the question matches a text value: a categorical predicate (few distinct values,
 * each repeated) holds whole values, so "blue" means the value "blue", not "blue-gray"; a free-text
 * predicate (names, titles) is matched by whole words, not substrings ("love" is not "lover").
 */
function textFilters(c: Ctx, p: string, words: readonly string[]): Pattern[] {
  const prof = profile(c, p);
  const categorical = prof?.objects !== undefined && prof.objects <= 100 && prof.objects * 3 <= prof.triples;
  if (categorical) return [filter(equalsText(v('v'), words.join(' ')))];
  return words.map((w) => filter(containsWord(v('v'), w)));
}

/** Content words not taken by a mention, a relation or a number: the value a text filter looks for. */
function leftoverWords(c: Ctx, rel: { tokens?: readonly number[] }): string[] {
  const used = new Set<number>([...c.l.consumed, ...(rel.tokens ?? [])]);
  for (const r of c.l.relations) for (const t of r.tokens) used.add(t);
  const out: string[] = [];
  for (const t of c.toks) {
    if (used.has(t.i) || isStopword(t.norm) || /^\d/.test(t.norm)) continue;
    if (DESC_WORDS.has(t.norm) || ASC_WORDS.has(t.norm) || EARLY_WORDS.has(t.norm) || LATE_WORDS.has(t.norm)) continue;
    if (LIGHT_WORDS.has(t.norm)) continue;
    out.push(t.raw);
  }
  return out;
}

// ——— relations and joins ———

function profile(c: Ctx, p: string): PredicateProfile | undefined {
  return c.ix.predicates.find((x) => x.iri === p);
}

function classProfile(c: Ctx, cls: string): ClassProfile | undefined {
  return c.ix.classes.find((x) => x.iri === cls);
}

function topDatatype(p: PredicateProfile): string | undefined {
  return p.rangeDatatypes[0]?.iri;
}

function isNumericProfile(p: PredicateProfile): boolean {
  const d = topDatatype(p);
  return d !== undefined && (NUMERIC.has(d) || TEMPORAL.has(d)) && p.kinds.literal >= p.kinds.iri;
}

function isTextual(c: Ctx, p: string): boolean {
  const prof = profile(c, p);
  const d = prof && topDatatype(prof);
  return d !== undefined && TEXTUAL.has(d);
}

interface Directed { iri: string; forward: boolean; tokens?: readonly number[] }

/** The linked relation best fitting a class's own predicates (outgoing), by score, then use. */
function classRelation(c: Ctx, cls: string, want: { numeric?: boolean; temporal?: boolean; textual?: boolean; objects?: boolean }): Directed | undefined {
  const cp = classProfile(c, cls);
  const own = new Map((cp?.predicates ?? []).map((p) => [p.predicate, p.subjects]));
  const candidates = c.l.relations.filter((r) => own.has(r.iri) && r.iri !== RDF_TYPE).filter((r) => {
    const p = profile(c, r.iri);
    if (!p) return false;
    if (want.numeric) return isNumericProfile(p) && (!want.temporal || TEMPORAL.has(topDatatype(p) ?? ''));
    if (want.textual) return isTextual(c, r.iri);
    if (want.objects) return p.kinds.iri + p.kinds.bnode > 0;
    return true;
  });
  const best = bestRelation(candidates, (r) => own.get(r.iri) ?? 0);
  if (best) return { iri: best.iri, forward: true, tokens: best.tokens };
  if (want.objects) {
    // Incoming: "the most X" where X points at the class (e.g. films of a character counted from the film side).
    const incoming = c.l.relations.filter((r) => c.ix.joinHints.hints.some((h) => h.predicate === r.iri && h.to === cls));
    const inc = bestRelation(incoming, (r) => r.triples);
    if (inc) return { iri: inc.iri, forward: false, tokens: inc.tokens };
  }
  return undefined;
}

function globalRelation(c: Ctx, want: { numeric?: boolean }): Directed | undefined {
  const candidates = c.l.relations.filter((r) => { const p = profile(c, r.iri); return p !== undefined && (!want.numeric || isNumericProfile(p)); });
  const best = bestRelation(candidates, (r) => r.triples);
  return best ? { iri: best.iri, forward: true, tokens: best.tokens } : undefined;
}

function bestRelation(list: LinkedRelation[], use: (r: LinkedRelation) => number): LinkedRelation | undefined {
  return [...list].sort((a, b) => b.score - a.score || b.tokens.length - a.tokens.length || use(b) - use(a) || (a.iri < b.iri ? -1 : 1))[0];
}

/** A relation of a named entity: among the linked relations, one its classes use (outgoing) or point to it (incoming). */
function relationFor(c: Ctx, E: LinkedEntity, want: { numeric?: boolean; temporal?: boolean }): (Directed & { iri: string }) | undefined {
  const outgoing = new Map<string, number>();
  for (const t of E.types) for (const p of classProfile(c, t)?.predicates ?? []) outgoing.set(p.predicate, Math.max(outgoing.get(p.predicate) ?? 0, p.subjects));
  const incoming = new Set(c.ix.joinHints.hints.filter((h) => E.types.includes(h.to)).map((h) => h.predicate));
  const ok = (r: LinkedRelation) => {
    const p = profile(c, r.iri);
    if (want.temporal) return p !== undefined && TEMPORAL.has(topDatatype(p) ?? '');
    return !want.numeric || (p !== undefined && isNumericProfile(p));
  };
  const out = bestRelation(c.l.relations.filter((r) => (outgoing.has(r.iri) || E.types.length === 0) && ok(r) && r.iri !== RDF_TYPE), (r) => outgoing.get(r.iri) ?? r.triples);
  const inc = want.numeric || want.temporal ? undefined : bestRelation(c.l.relations.filter((r) => incoming.has(r.iri) && r.iri !== RDF_TYPE), (r) => r.triples);
  if (out && (!inc || out.score >= inc.score)) return { iri: out.iri, forward: true, tokens: out.tokens };
  if (inc) return { iri: inc.iri, forward: false, tokens: inc.tokens };
  return undefined;
}

/** Predicates joining class `from` to any of `to` (forward: ?x p E) or back (reverse: E p ?x). */
function joinPredicates(c: Ctx, from: string, to: readonly string[]): (Directed & { triples: number; specificity: number })[] {
  // Each join carries the instance count of the entity's class it goes through: a join observed on
  // the entity's most specific class says more about this entity than one on a broad super-class.
  const size = (cls: string) => classProfile(c, cls)?.instances ?? Number.MAX_SAFE_INTEGER;
  const best = new Map<string, Directed & { triples: number; specificity: number }>();
  const keep = (key: string, d: Directed & { triples: number; specificity: number }) => {
    const had = best.get(key);
    if (!had || d.specificity < had.specificity) best.set(key, d);
  };
  for (const h of c.ix.joinHints.hints) {
    if (h.predicate === RDF_TYPE) continue;
    if (h.from === from && to.includes(h.to)) keep(`f${h.predicate}`, { iri: h.predicate, forward: true, triples: h.triples, specificity: size(h.to) });
    if (to.includes(h.from) && h.to === from) keep(`r${h.predicate}`, { iri: h.predicate, forward: false, triples: h.triples, specificity: size(h.from) });
  }
  return [...best.values()];
}

function joinPredicatesBetween(c: Ctx, from: string, to: string): (Directed & { triples: number })[] {
  const out: (Directed & { triples: number })[] = [];
  for (const h of c.ix.joinHints.hints) {
    if (h.predicate === RDF_TYPE) continue;
    if (h.from === from && h.to === to) out.push({ iri: h.predicate, forward: true, triples: h.triples });
    else if (h.from === to && h.to === from) out.push({ iri: h.predicate, forward: false, triples: h.triples });
  }
  return out;
}

/** Among join predicates, the one the question names (a linked relation), else the most used. */
function pickRelated(c: Ctx, preds: (Directed & { triples?: number; specificity?: number })[]): Directed | undefined {
  if (preds.length === 0) return undefined;
  const named = preds.filter((p) => c.l.relations.some((r) => r.iri === p.iri));
  if (named.length > 0) {
    const rank = (p: Directed) => c.l.relations.findIndex((r) => r.iri === p.iri);
    return [...named].sort((a, b) => rank(a) - rank(b) || Number(b.forward) - Number(a.forward))[0];
  }
  const best = [...preds].sort((a, b) => (a.specificity ?? 0) - (b.specificity ?? 0) || (b.triples ?? 0) - (a.triples ?? 0) || Number(b.forward) - Number(a.forward) || (a.iri < b.iri ? -1 : 1))[0]!;
  if (preds.length > 1) c.notes.push(`joined through <${best.iri}>, the most used of ${preds.length} predicates linking the classes (the question names none of them)`);
  c.guessed ??= best.iri;
  return best;
}

/** Predicates linking two entities' classes, narrowed by the linked relations. */
function linkPredicates(c: Ctx, fromTypes: readonly string[], toTypes: readonly string[]): Directed[] {
  const all: (Directed & { triples: number })[] = [];
  for (const h of c.ix.joinHints.hints) {
    if (h.predicate === RDF_TYPE) continue;
    if (fromTypes.includes(h.from) && toTypes.includes(h.to)) all.push({ iri: h.predicate, forward: true, triples: h.triples });
    if (toTypes.includes(h.from) && fromTypes.includes(h.to)) all.push({ iri: h.predicate, forward: false, triples: h.triples });
  }
  const named = all.filter((p) => c.l.relations.some((r) => r.iri === p.iri));
  const chosen = named.length > 0 ? named : all;
  const seen = new Set<string>();
  return chosen.filter((p) => { const k = `${p.forward}${p.iri}`; if (seen.has(k)) return false; seen.add(k); return true; });
}

/** Restrict ?x (of class F) to what is related to the named entities. Returns whether it added a constraint. */
function scope(c: Ctx, F: LinkedClass, entities: readonly LinkedEntity[], where: Pattern[]): BeyondReason | boolean {
  let added = false;
  for (const E of entities) {
    if (E.types.includes(F.iri) && entities.length === 1 && c.l.classes.length === 1) {
      // "Is E a C"-like mention inside a list question: the entity is itself of the class.
      continue;
    }
    const e = iri(E.iri);
    if (E.types.length === 0) {
      where.push(union([bgp(triple(v('x'), v('p'), e))], [bgp(triple(e, v('p'), v('x')))]));
      c.notes.push(`<${E.iri}> has no type in the graph: any predicate linking it to a ${F.label} counts`);
      added = true;
      continue;
    }
    const preds = reachedBy(c, E.iri, joinPredicates(c, F.iri, E.types));
    // Two hops (F — p1 — M — p2 — E) when they carry more of the relations the question names than
    // any direct link: "songs sung by members of Queen" is not "songs Queen sings".
    const named = (p: string) => c.l.relations.some((r) => r.iri === p);
    const directScore = Math.max(0, ...preds.map((p) => (named(p.iri) ? 1 : 0)));
    const hop = twoHop(c, F.iri, E.types, named);
    if (hop && hop.score > directScore) {
      const m = v(`m${where.length}`);
      where.push(bgp(
        hop.first.forward ? triple(v('x'), iri(hop.first.iri), m) : triple(m, iri(hop.first.iri), v('x')),
        hop.second.forward ? triple(m, iri(hop.second.iri), e) : triple(e, iri(hop.second.iri), m),
      ));
      c.notes.push(`joined in two steps, through <${hop.first.iri}> and <${hop.second.iri}> (both named by the question)`);
      added = true;
      continue;
    }
    const through = preds.length === 0 ? throughNamedClass(c, F, E) : undefined;
    if (through) {
      const m = v(`m${where.length}`);
      where.push(bgp(typeTriple(c, m, through.mid), triple(m, iri(through.toE), e), triple(m, iri(through.toF), v('x'))));
      c.notes.push(`joined through the ${through.label} the question names: <${through.toE}> reaches <${E.iri}> in the data, <${through.toF}> the ${F.label} asked for`);
      added = true;
      continue;
    }
    const p = pickRelated(c, preds) as (Directed & { specificity?: number }) | undefined;
    if (!p) return { code: 'no-join', from: F.iri, to: E.iri };
    // A join seen only on a broader class of the entity than its most specific one is a guess about this entity.
    const narrowest = Math.min(...E.types.map((t) => classProfile(c, t)?.instances ?? Number.MAX_SAFE_INTEGER));
    if (p.specificity !== undefined && p.specificity > narrowest) c.guessed ??= p.iri;
    where.push(bgp(p.forward ? triple(v('x'), iri(p.iri), e) : triple(e, iri(p.iri), v('x'))));
    added = true;
  }
  return added;
}

/** A linked relation of the classes E's own object predicates reach (one predicate, one relation), for propertyOf. */
function nestedRelation(c: Ctx, E: LinkedEntity): { via: string; iri: string } | undefined {
  const found = new Map<string, { via: string; iri: string }>();
  for (const h of c.ix.joinHints.hints) {
    if (h.predicate === RDF_TYPE || !E.types.includes(h.from)) continue;
    const held = classProfile(c, h.to)?.predicates ?? [];
    for (const r of c.l.relations) if (r.score >= 1 && held.some((p) => p.predicate === r.iri) && r.iri !== h.predicate) found.set(`${h.predicate} ${r.iri}`, { via: h.predicate, iri: r.iri });
  }
  return found.size === 1 ? [...found.values()][0] : undefined;
}

/**
 * The one class whose members reach both entities, each by exactly one predicate in the data
 * (Roles), the two predicates different: a grant's funder F and fundedItem G. Undefined unless unique.
 */
function bridge(c: Ctx, E1: LinkedEntity, E2: LinkedEntity): { mid: string; p1: string; p2: string } | undefined {
  if (!c.g.roles) return undefined;
  const found: { mid: string; p1: string; p2: string }[] = [];
  for (const k of c.ix.classes) {
    const a = reachedBy(c, E1.iri, joinPredicates(c, k.iri, E1.types).filter((p) => p.forward)).filter((p) => c.g.roles!.into.get(E1.iri)?.has(p.iri));
    const b = reachedBy(c, E2.iri, joinPredicates(c, k.iri, E2.types).filter((p) => p.forward)).filter((p) => c.g.roles!.into.get(E2.iri)?.has(p.iri));
    if (a.length === 1 && b.length === 1 && a[0]!.iri !== b[0]!.iri) found.push({ mid: k.iri, p1: a[0]!.iri, p2: b[0]!.iri });
  }
  return found.length === 1 ? found[0] : undefined;
}

/**
 * F and E not linked directly, but through a class M the question names ("organizations that
 * received grants from E"): M reaches E by exactly one predicate in the data (Roles) and F by
 * exactly one other. Anything less certain is no join.
 */
function throughNamedClass(c: Ctx, F: LinkedClass, E: LinkedEntity): { mid: string; label: string; toE: string; toF: string } | undefined {
  const mids = c.l.classes.filter((m) => m.iri !== F.iri && !E.types.includes(m.iri));
  if (mids.length !== 1) return undefined;
  const M = mids[0]!;
  const toE = reachedBy(c, E.iri, joinPredicates(c, M.iri, E.types).filter((p) => p.forward));
  if (toE.length !== 1 || !c.g.roles?.predicates.has(toE[0]!.iri)) return undefined;
  const toF = joinPredicates(c, M.iri, [F.iri]).filter((p) => p.forward && p.iri !== toE[0]!.iri);
  if (toF.length !== 1) return undefined;
  return { mid: M.iri, label: M.label, toE: toE[0]!.iri, toF: toF[0]!.iri };
}

/**
 * Of several join predicates, those that actually reach the entity (grounding.ts Roles): "grants
 * the Joyce Foundation made" joins through `funder` because the foundation is the funder of grants
 * and the funded item of none. The data decides; when it cannot (no roles read), all stay.
 */
function reachedBy<D extends Directed>(c: Ctx, e: string, preds: D[]): D[] {
  const roles = c.g.roles;
  if (!roles || preds.length < 2) return preds;
  const fits = preds.filter((p) => !roles.predicates.has(p.iri) || (p.forward ? roles.into.get(e)?.has(p.iri) : roles.outOf.get(e)?.has(p.iri)));
  return fits.length > 0 ? fits : preds;
}

/** The two-step join F — p1 — M — p2 — (one of `to`) naming the most linked relations; undefined when none or tied. */
function twoHop(c: Ctx, from: string, to: readonly string[], named: (p: string) => boolean): { first: Directed; second: Directed; score: number } | undefined {
  const hints = c.ix.joinHints.hints.filter((h) => h.predicate !== RDF_TYPE);
  const found = new Map<string, { first: Directed; second: Directed; score: number }>();
  for (const h1 of hints) {
    const firsts: [string, Directed][] = [];
    if (h1.from === from) firsts.push([h1.to, { iri: h1.predicate, forward: true }]);
    if (h1.to === from) firsts.push([h1.from, { iri: h1.predicate, forward: false }]);
    for (const [mid, first] of firsts) {
      for (const h2 of hints) {
        if (h2 === h1) continue;
        let second: Directed | undefined;
        if (h2.from === mid && to.includes(h2.to)) second = { iri: h2.predicate, forward: true };
        else if (to.includes(h2.from) && h2.to === mid) second = { iri: h2.predicate, forward: false };
        if (!second || second.iri === first.iri) continue;
        const score = (named(first.iri) ? 1 : 0) + (named(second.iri) ? 1 : 0);
        found.set(`${first.forward}${first.iri} ${second.forward}${second.iri}`, { first, second, score });
      }
    }
  }
  const best = Math.max(0, ...[...found.values()].map((f) => f.score));
  const top = [...found.values()].filter((f) => f.score === best && best > 0);
  return top.length === 1 ? top[0] : undefined;
}

function classJoin(c: Ctx, from: string, to: string, where: Pattern[]): BeyondReason | boolean {
  const p = pickRelated(c, joinPredicatesBetween(c, from, to));
  if (!p) return false;
  where.push(bgp(p.forward ? triple(v('x'), iri(p.iri), v('o')) : triple(v('o'), iri(p.iri), v('x')), typeTriple(c, v('o'), to)));
  return true;
}

function propertyOf(c: Ctx, E: LinkedEntity, rel?: Directed): Planned {
  // "When …" asks for a date: only a relation holding dates or times answers it.
  const when = c.norms[0] === 'when';
  const r = rel ?? relationFor(c, E, when ? { temporal: true } : {});
  if (!r) {
    // "the postal code of G": a value held one step away, on the one node G's classes reach that holds the relation (an address, a contact point).
    const nested = nestedRelation(c, E);
    if (nested) return select({ variables: [v('v')], distinct: true, where: [bgp(triple(iri(E.iri), iri(nested.via), v('m')), triple(v('m'), iri(nested.iri), v('v')))] });
    return { code: 'no-relation', subject: E.iri };
  }
  const e = iri(E.iri);
  return select({ variables: [v('v')], where: [bgp(r.forward ? triple(e, iri(r.iri), v('v')) : triple(v('v'), iri(r.iri), e))], distinct: true });
}

export { stem };
