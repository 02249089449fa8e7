/**
 * The offline interpreter: question → Intent, deterministically, from the question alone.
 *
 * Used when no model is configured. It reads periods, thresholds, limits, named entities and a
 * shape from the surface of the text, then the attribute as what is left once those are removed.
 * It never reads the catalog and names no source (a test enforces both). When it cannot tell —
 * no shape cue and no measure it can read — it returns `cannot_tell` with the reason, because a
 * wrong shape routes the question to the wrong access path and a refusal is the better outcome.
 */
import { intentSchema, toIssues, type Intent } from '../intent.ts';
import type { Understanding } from '../understanding.ts';
import { readName } from './ambiguous-names.ts';
import { findEntities } from './entities.ts';
import { findPeriods } from './periods.ts';
import { decideShape, RECORD_NOUNS } from './shape.ts';
import { findLimit, findThreshold } from './thresholds.ts';
import { codesNamedIn, formNamedIn, statusAskedIn } from './asked.ts';
import { grainWords, measureQuantity, quantityAsked, thresholdQuantity } from './quantity.ts';

const FRAME = [
  /^(?:what|which|who|how)\s+(?:is|was|were|are|had|has|have|did|does|do)\s+(?:the\s+)?/,
  /^how\s+(?:much|many)\s+/, /^how\s+high\s+is\s+(?:the\s+)?/, /^tell\s+me\s+/, /^(?:please\s+)?(?:show|list|find|give)\s+(?:me\s+)?(?:the\s+)?/,
  /^compare\s+(?:the\s+)?/, /^rank\s+(?:the\s+)?/, /^(?:is|are|was|did|does)\s+/,
];
const STOP = new Set([
  'the', 'a', 'an', 'of', 'in', 'for', 'at', 'on', 'to', 'by', 'with', 'and', 'or', 'vs', 'versus', 'me', 'is', 'was',
  'were', 'are', 'it', 'its', 'their', 'what', 'which', 'who', 'how', 'much', 'many', 'did', 'does', 'do', 'report',
  'reported', 'had', 'has', 'have', 'more', 'higher', 'lower', 'less', 'greater', 'larger', 'bigger', 'common', 'spend',
  'spent', 'compare', 'compared', 'comparing', 'comparison', 'between', 'from', 'than', 'there', 'that', 'this', 'year', 'show', 'list', 'tell', 'be',
  'highest', 'lowest', 'most', 'least', 'largest', 'biggest', 'smallest', 'top', 'rank', 'get', 'gets', 'got', 'came',
  'went', 'over', 'time', 'change', 'changed', 'trend', 'grown', 'evolve', 'track', 'through', 'since', 'each', 'by',
  'expensive', 'recorded', 'reported', 'levels', 'level', 'still', 'some', 'few', 'any', 'give', 'name', 'find',
  'correlated', 'associated', 'relationship', 'related', 'correlation', 'whose', 'than', 'combined', 'all', 'across',
  // how a value moved or is spread over time, said by a verb ("did revenue grow", "every year"), and
  // where people are counted ("how many people live in"): the measure is the noun
  'grow', 'grew', 'every', 'live', 'lives', 'living', 'lived', 'reside', 'resided',
  // what a named entity holds ("how much cash did X hold"): the measure is the noun
  'hold', 'holds', 'attend', 'attends',
]);
const POPULATION_NOUN = /^\s*(?:which|what\s+are(?:\s+the)?|what\s+were(?:\s+the)?|rank\s+the|top\s+\d+)\s+(?:\d+\s+)?([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+(?:have|has|had|with|by|reported|received|produce|is|are|gets?|paid|employs|in)\b/i;

/** Yes/no statuses the interpreter reads as a phrase, longest qualifier first. */
const STATUS_CUE = /501\(c\)\(\d+\)|tax[- ]exempt|public(?:ly supported)? charity|private (?:non-?operating |operating )?foundation|(?:large |non-)?accelerated filer|smaller reporting company|emerging growth company|active|open/i;
/** The kind of entity a status belongs to, by the status's own words (general knowledge, no source). */
const STATUS_KINDS: { words: RegExp; kind: string }[] = [
  { words: /501\(c\)|tax[- ]exempt|charity|foundation/i, kind: 'nonprofit' },
  { words: /filer|reporting company|growth company/i, kind: 'company' },
];

export function interpretOffline(question: string): Understanding {
  const q = question.trim().replace(/\s+/g, ' ');
  if (q.length < 3 || !/[a-z]{2}/i.test(q)) return cannot(q, 'the question has no words to read');

  const per = findPeriods(q);
  const thr = findThreshold(q);
  const lim = findLimit(q);
  const mentions = findEntities(q);
  const names = mentions.map((m) => m.text);
  // a place that only bounds a population: "in Texas", or naming its members ("DC nonprofits", "Texas counties")
  const scoped = mentions.filter((m) => /\bin\s+(?:the\s+)?$/i.test(q.slice(0, m.start)) || MEMBERS_AFTER.test(q.slice(m.end))).length;
  const perCapita = perCapitaOf(q, names);
  const decided = perCapita ? { shape: 'ratio' as const, rule: 'per-capita' } : decideShape({ q, entities: names, threshold: thr.threshold !== null, span: per.span, periodsCount: per.periods.length, limit: lim.limit !== null, scoped });

  const typeMatch = decided && ['ranking', 'filtered_subset', 'aggregate'].includes(decided.shape) ? q.match(POPULATION_NOUN) : null;
  const population = typeMatch ? typeMatch[1]!.toLowerCase() : null;
  // the whole country named as a place ("of the United States") bounds the question; its words are not the measure's
  const nationNamed = [...q.matchAll(/\b(?:the\s+)?(?:United States(?: of America)?|U\.S\.A?\.?|USA|US)(?![\w.])/g)].map((m) => m[0]);
  let attribute = readAttribute(q, [...per.consumed, ...thr.consumed, ...lim.consumed, ...nationNamed], mentions.map((m) => m.text), population);
  let shape = decided?.shape;
  if (!shape) {
    if (!attribute) return cannot(q, 'no shape cue (comparison, ranking, count, span, threshold, search, funding) and no measure could be read from the question');
    const asks = /^\s*(what|how|who|which|when|where|tell|show|give)\b/i.test(q) || q.endsWith('?');
    // a question naming the nation ("What is the national debt?", "the US unemployment rate") places
    // its measure there, as a named entity or period would
    if (mentions.length === 0 && !(asks && (per.period !== null || NATION_CUE.test(q) || FEDERAL_CUE.test(q)))) {
      return cannot(q, 'no shape cue (comparison, ranking, count, span, threshold, search, funding), and no named entity or period to read it as a point question');
    }
    shape = 'point';
  }

  // "the United States" names the nation, not a grain of states
  const geoQ = q.replace(/\bUnited States\b/gi, ' ');
  const geoLevel = /\bcount(?:y|ies)\b/i.test(q) ? 'county' : /\bstates?\b/i.test(geoQ) && shape !== 'status' ? 'state'
    : /\bmetro(?:politan)?\b/i.test(q) ? 'metro' : /\bcit(?:y|ies)\b/i.test(q) ? 'city' : null;
  // "in X" bounds a population; for a yes/no about one named entity it places that entity ("the Red Cross in DC").
  const placed = shape === 'status' && names.length >= 2;
  const populationShape = ['ranking', 'aggregate', 'filtered_subset', 'correlation', 'ratio'].includes(shape);
  let within = (shape === 'ranking' || shape === 'aggregate' || shape === 'filtered_subset' || perCapita !== null || placed || shape === 'grant_graph') ? (mentions.find((m) => /\bin\s+(?:the\s+)?$/.test(q.slice(0, m.start)))?.text ?? null) : null;
  // a place naming its members bounds the population too ("Texas counties", "Rhode Island organizations")
  // (a class code before its members, "501(c)(3) organizations", names the members, not a place)
  const boundBy = populationShape && !within ? mentions.find((m) => !CLASS_CODE.test(m.text) && MEMBERS_AFTER.test(q.slice(m.end))) : undefined;
  if (boundBy) within = boundBy.text;
  if (populationShape && !within && NATION_CUE.test(q)) within = 'United States';

  const isList = shape === 'comparison' || (shape === 'grant_graph' && decided?.direction === 'intersection');
  let entity: string | null = null;
  // a per-capita figure's place bounds both populations (the members counted, the residents): a scope, not an entity read by key
  if (!isList && !perCapita && !['ranking', 'aggregate', 'filtered_subset', 'topical', 'correlation'].includes(shape)) {
    // a ratio's class code ("501(c)(3) organizations") names members counted, not the entity
    const named = shape === 'ratio' ? names.filter((n) => !CLASS_CODE.test(n)) : names;
    entity = named.find((n) => n !== within) ?? named[0] ?? null;
  }
  if (shape === 'grant_graph' && decided?.direction === 'population') entity = null;
  if (shape === 'grant_graph' && decided?.named) entity = decided.named;
  if (shape === 'grant_graph' && !entity && decided?.subject) entity = decided.subject;
  // two funders a grant rule read by name: listed, none of them the question's one entity
  if (shape === 'grant_graph' && decided?.funders) entity = null;
  const entities = shape === 'grant_graph' && decided?.funders ? decided.funders : isList ? names : [];

  // "Which company earned more, A or B?": the noun before the verb is what the entities are, not the measure
  let typeNoun: string | null = null;
  if (attribute && (shape === 'comparison' || shape === 'point')) {
    const lead = TYPE_NOUN.exec(attribute);
    if (lead && attribute.length > lead[0].length) { typeNoun = singular(lead[1]!); attribute = attribute.slice(lead[0].length).trim(); }
  }
  // a measure named only by a verb ("earned", "spent", "employs") is its noun, with the readings it has
  let interpretations: string[] = [];
  const verb = attribute ? VERB_MEASURES.find(([re]) => re.test(/\bemploy/i.test(q) && attribute === 'people' ? 'employs' : attribute!)) : undefined;
  if (verb) { attribute = verb[1]; interpretations = [...verb[2]]; }
  // "spend on R&D": what is spent on a thing is its expense
  else if (attribute && /\bspen(?:d|ds|t|ding)\s+on\b/i.test(q) && !/\b(?:expenses?|spending|costs?)$/.test(attribute)) attribute = `${attribute} expense`;
  const attributes = perCapita ? perCapita.components : shape === 'ratio' || shape === 'correlation' ? splitComponents([...names.filter((n) => !CLASS_CODE.test(n)), ...per.consumed].filter(Boolean).reduce((acc, n) => acc.split(n).join(' '), q).replace(/\s+(?:in|for|during)\s+(?=\s|$|\?)/g, ' ').replace(/\s+/g, ' '), attribute) : [];
  if (perCapita) attribute = perCapita.attribute;
  else if (attributes.length >= 2) attribute = attributes.join(shape === 'ratio' ? ' / ' : ' vs ');
  // A list names its records: the attribute is the phrase ending at the record noun ("tax return"
  // of "every tax return filed"), without the quantifier before it or the participle after it.
  if (shape === 'entity_list' && attribute) {
    const ws = attribute.split(' ');
    let last = -1;
    ws.forEach((w, i) => { if (RECORD_NOUNS.test(w)) last = i; });
    if (last >= 0) attribute = ws.slice(0, last + 1).filter((w) => !/^(every|all|each|any)$/.test(w)).join(' ') || attribute;
  }
  if (populationShape && attribute && shape !== 'correlation' && shape !== 'ratio') attribute = populationAttribute(q, attribute, shape);
  // people named by the threshold ("with more than 10 million people") are the threshold's measure, not the one asked beside it
  if (populationShape && attribute && thr.threshold?.unit === 'count' && attribute !== 'total population') {
    const rest = attribute.split(' ').filter((w) => !PEOPLE.test(w));
    if (rest.length > 0) attribute = rest.join(' ');
  }
  // a threshold in one kind of quantity beside a measure of another ("states with more than 10 million people
  // have the highest poverty rate") selects by one measure and asks about another: not one population read
  const tested = thresholdQuantity(thr.threshold?.unit ?? null);
  const measured = populationShape && tested ? measureQuantity(attribute) : null;
  // (a percent of counted people, "more than 20 percent of people living in poverty", is their share: not another measure)
  if (tested && measured && measured !== tested && !(tested === 'percent' && measured === 'count')) {
    return cannot(q, `the threshold "${thr.threshold!.text}" is ${KIND_WORDS[tested]}, but ${attribute} is ${KIND_WORDS[measured]}: selecting members by one measure and asking about another is not combined into one answer (ask each on its own)`);
  }
  // a topical search keeps its record nouns ("education grant opportunities"): they say what is searched; the executor reads the topic words
  if (shape === 'topical') attribute = topicPhrase(attribute);
  let kind: string | null = boundBy ? singular(MEMBERS_AFTER.exec(q.slice(boundBy.end))![1]!.toLowerCase()) : null;
  const status = shape === 'status' ? statusAskedIn(q) : null;
  if (shape === 'status') {
    // the whole status phrase, qualifiers included: a large accelerated filer is not an accelerated filer
    const cue = q.match(STATUS_CUE);
    if (cue) {
      attribute = `${cue[0].toLowerCase().replace(/\s+/g, ' ')} status`;
      kind = STATUS_KINDS.find((k) => k.words.test(cue[0]))?.kind ?? null;
    }
  }
  // A bare name that is ambiguous in general ("Springfield") is reported, not guessed; a cue in the question may settle it.
  const reading = entity ? readName(entity, q) : { status: 'unknown' as const };
  const notes: string[] = [];
  if (reading.status === 'ambiguous') notes.push(`"${entity}" names several entities; candidates: ${reading.candidates.join('; ')}`);
  if (reading.status === 'resolved') notes.push(`"${entity}" read as ${reading.canonical} (cue: "${reading.cue}")`);
  const candidate: unknown = {
    question: q,
    shape,
    entity,
    canonical_entity: reading.status === 'resolved' ? reading.canonical : entity,
    entity_status: reading.status === 'ambiguous' ? 'ambiguous' : entity ? 'resolved' : 'none',
    entity_candidates: reading.status === 'ambiguous' ? reading.candidates : [],
    entities,
    type: ['ranking', 'filtered_subset', 'aggregate'].includes(shape) && population && !boundBy ? singular(population) : kind ?? typeNoun,
    direction: decided?.direction ?? null,
    geography: geoLevel || within ? { level: geoLevel, within } : null,
    attribute: shape === 'grant_graph' ? (decided?.attribute ?? 'grants') : attribute,
    attributes,
    interpretations,
    period: per.period,
    periods: per.periods,
    quantifier: decided?.quantifier ?? null,
    threshold: thr.threshold,
    order: decided?.order ?? null,
    limit: lim.limit,
    codes: codesNamedIn(q),
    quantity: quantityAsked(q, shape, shape === 'topical' ? null : attribute, thr.threshold?.unit ?? null),
    grain: grainOf(q, per.period, per.periods),
    span: per.spanOf ?? null,
    form: formNamedIn(q),
    status,
  };
  const parsed = intentSchema.safeParse(candidate);
  if (!parsed.success) {
    return cannot(q, `the reading does not hold together: ${toIssues(parsed.error).map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
  return { status: 'understood', intent: parsed.data as Intent, interpreter: 'offline', notes: [decided ? `shape rule: ${decided.rule}` : 'no shape cue: a single named measure read as a point question', ...notes] };
}

/** A kind of quantity, for a reader. */
const KIND_WORDS: Record<string, string> = { money: 'an amount of money', percent: 'a percentage', count: 'a count', ratio: 'a ratio', date: 'a date', yes_no: 'a yes/no', records: 'a list of records' };

/** Members named right after a place: "Texas counties", "Rhode Island organizations". */
const MEMBERS_AFTER = /^\s+(count(?:y|ies)|organi[sz]ations?|nonprofits?|non-profits?|charit(?:y|ies)|foundations?|compan(?:y|ies)|cit(?:y|ies)|towns?|hospitals?|schools?|universit(?:y|ies)|residents|churches)\b/i;
/** The population is national when the question says so ("Which US charity …", "in the United States"). */
const NATION_CUE = /\b(?:US|U\.S\.|USA|United States|nationwide|national(?:ly)?|in America|American)\b/;
/** The federal government's own finances named ("Treasury bills", "the federal debt"): a national figure, as "US" says. */
const FEDERAL_CUE = /\b(?:Treasury|federal)\b/i;
/** Words that name the members or the grain of a population, not its measure. */
const MEMBER_WORDS = /^(states?|count(?:y|ies)|cit(?:y|ies)|towns?|places?|organi[sz]ations?|nonprofits?|charit(?:y|ies)|compan(?:y|ies)|us|u\.s\.|usa|america|american|national|nationwide|nation|country|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty)$/;
/** Superlatives and aggregation words that order or combine the members, not name the measure. */
const ORDER_WORDS = /^(most|fewest|least|largest|smallest|highest|lowest|biggest)$/;
/** Words that name people as the measure itself: the total population. */
const PEOPLE = /^(people|persons|residents|inhabitants|population|populous)$/;
/** People in poverty, however said: the count below the poverty level, not the total population. */
const IN_POVERTY = /\b(?:people|persons|residents|population)\s+(?:living\s+)?(?:in|below|under)\s+(?:the\s+)?poverty(?:\s+(?:level|line))?\b/i;

/**
 * The measure of a population question, without its members and bound: "ten populous states" →
 * "population", "five counties people" → "population"; "how many X are there" counts X
 * ("number of private foundations"), the form a count of members is planned from.
 */
function populationAttribute(q: string, attribute: string, shape: string): string {
  const count = shape === 'aggregate' ? /^\s*how\s+many\s+(.+?)\s+(?:are|is|were|was|does|do|did|have|has|exist|existed|operate|registered|there|in)\b/i.exec(q) : null;
  // "how many people live in Rhode Island": a count of people of a place is its total population
  if (count && /^(?:people|persons|residents|inhabitants)(?:\s+(?:live|lived|living|reside|resided|residing))?$/i.test(count[1]!.trim())) return 'total population';
  if (count) return `number of ${count[1]!.toLowerCase().replace(/\b(?:US|U\.S\.)\s+/i, '').trim()}`;
  if (IN_POVERTY.test(q)) return 'people below poverty level';
  const words = attribute.trim().split(/\s+/).filter((w) => !MEMBER_WORDS.test(w) && !ORDER_WORDS.test(w));
  // only people named ("the most populous", "more than 10 million residents", "the fewest people"): the total population
  if (words.length > 0 && words.every((w) => PEOPLE.test(w) || w === 'total')) return 'total population';
  const out = [...new Set(words.filter((w) => !/^(populous)$/.test(w)))].join(' ').trim();
  return out.length >= 2 ? out : attribute;
}

/** A topical search's phrase: the topic and the record nouns, without search verbs and fillers. */
function topicPhrase(attribute: string | null): string | null {
  if (!attribute) return null;
  const out = attribute.replace(/\b(search(?:es)?|look(?:ing)?|currently|please)\b/gi, ' ').replace(/\s+/g, ' ').trim();
  return out.length >= 2 ? out : null;
}

/**
 * Per-capita phrasing: "How many private foundations per 100,000 residents are there in DC?",
 * "nonprofits per capita", "revenue per person" → a ratio of the thing counted or measured to the
 * total population, with the scale words kept in the attribute (the executor reads the scale).
 */
const PER_PEOPLE = /\bper\s+(capita|person|head|resident|inhabitant|(?:\d[\d,]*|thousand|hundred\s+thousand|million)\s+(?:residents|people|persons|inhabitants|population))\b/i;
function perCapitaOf(q: string, names: readonly string[]): { components: string[]; attribute: string } | null {
  const m = PER_PEOPLE.exec(q);
  if (!m) return null;
  let head = q.slice(0, m.index);
  for (const n of names) if (!CLASS_CODE.test(n)) head = head.split(n).join(' ');
  head = head.toLowerCase().replace(/['’]s\b/g, ' ').replace(/[?!.,]/g, ' ');
  const counted = /^\s*how\s+many\s+/.test(head) || /\b(?:number|count)\s+of\s+/.test(head);
  head = head.replace(/^\s*(?:how\s+many|what\s+(?:is|was|are|were)\s+(?:the\s+)?(?:number\s+of\s+)?|which\s+(?:is|was)\s+(?:the\s+)?)/, ' ')
    .replace(/\b(?:the|of|in|for|does|do|did|have|has|had|are|were|there)\b/g, ' ').replace(/\s+/g, ' ').trim();
  if (head.length < 2) return null;
  const numerator = counted || /^(?:[\w()-]+\s+)?(nonprofits|non-profits|charities|foundations|organi[sz]ations|companies|hospitals|churches)$/.test(head) ? `number of ${head}` : head;
  return { components: [numerator, 'total population'], attribute: `${numerator} ${m[0].toLowerCase()}` };
}

/** The grain asked: a named quarter is a quarter; else the words ("quarterly"); else a date's day or a year's year. */
function grainOf(q: string, p: Intent['period'], ps: Intent['periods']): Intent['grain'] {
  const first = p ?? ps[0] ?? null;
  if (first?.quarter) return 'quarter';
  const said = grainWords(q);
  if (said) return said;
  if (first?.date) return 'day';
  return first && first.year !== null ? 'year' : null;
}

/** Nouns for what the entities of a comparison are ("which company", "which state"), leading the attribute. */
const TYPE_NOUN = /^(compan(?:y|ies)|states?|count(?:y|ies)|cit(?:y|ies)|universit(?:y|ies)|colleges?|schools?|nonprofits?|organi[sz]ations?|foundations?|charit(?:y|ies)|one)\s+/;
/** Measures a question names by a verb: the noun, and its materially different readings (none when one). */
const VERB_MEASURES: ReadonlyArray<[RegExp, string, readonly string[]]> = [
  [/^(?:earn|earns|earned|made money|make money|makes money)$/, 'earnings', ['net income', 'revenue']],
  [/^(?:spend|spends|spent)$/, 'expenses', []],
  [/^(?:employ|employs|employed)(?: people)?$/, 'employees', []],
  [/^people$/, 'population', []],
];

function cannot(question: string, reason: string): Understanding {
  return { status: 'cannot_tell', question, reason, interpreter: 'offline' };
}

/** "rate on X": an "on" after a rate or yield word, before more words. */
const KEPT_ON = (all: readonly string[], i: number) => i > 0 && i < all.length - 1 && /^(?:rates?|yields?|returns?)$/.test(all[i - 1]!);

function readAttribute(q: string, consumed: string[], entityTexts: string[], population: string | null): string | null {
  let s = ` ${q} `;
  for (const frag of [...consumed, ...entityTexts].filter(Boolean).sort((a, b) => b.length - a.length)) {
    s = s.split(frag).join(' ');
  }
  s = s.toLowerCase().replace(/['’]s\b/g, ' ').replace(/[?!.,:;"]/g, ' ').replace(/\s+/g, ' ').trim();
  if (population) s = s.replace(POPULATION_NOUN, ' ');
  for (const re of FRAME) s = s.replace(re, '');
  const popWords = new Set(population ? population.split(' ') : []);
  // "on" between two words of the measure says what the rate is on ("interest rate on treasury bills"): kept, so the
  // measure's head stays before it; a leading or trailing "on" is a verb's ("spend on") or a date's
  const words = s.split(' ').filter((w, i, all) => w && (w === 'on' ? KEPT_ON(all, i) : !STOP.has(w)) && !/^\d+$/.test(w) && !popWords.has(w));
  while (words[0] === 'on') words.shift();
  while (words[words.length - 1] === 'on') words.pop();
  const out = words.map((w) => MEASURE_NOUN[w] ?? w).join(' ').trim();
  return out.length >= 2 ? out : null;
}

/** A behaviour or condition said as a verb or adjective ("adults who smoke", "obese"): the noun that names its measure. */
const MEASURE_NOUN: Readonly<Record<string, string>> = {
  smoke: 'smoking', smokes: 'smoking', smoker: 'smoking', smokers: 'smoking', obese: 'obesity', diabetic: 'diabetes', diabetics: 'diabetes',
};

/** "A vs B", "share of X's revenue came from government grants" → component measures, in order. */
function splitComponents(q: string, attribute: string | null): string[] {
  const lower = q.toLowerCase().replace(/[?.]/g, '');
  const between = lower.match(/\bbetween\s+(.+?)\s+and\s+(.+?)(?:\s+(?:across|by|in|among)\b|$)/);
  if (between) return grainKept([between[1]!, between[2]!]);
  const assoc = lower.match(/^(?:is|are|do|does)\s+(.+?)\s+(?:associated\s+with|correlated\s+with|related\s+to)\s+(.+?)$/)
    ?? lower.match(/^(?:are|do)\s+(.+?)\s+and\s+(.+?)\s+(?:correlated|associated|related)(?:\s+(?:across|among|by|in|for|over)\s+.+)?$/)
    ?? lower.match(/with\s+more\s+(.+?)\s+have\s+more\s+(.+?)$/);
  if (assoc) return grainKept([assoc[1]!, assoc[2]!]);
  const share = lower.match(/(?:share|fraction|percentage|proportion)\s+of\s+(.+?)\s+(?:came\s+from|went\s+to|is|are|were|was)\s+(.+?)$/);
  // a share of members that are of a class ("what share of nonprofits are private foundations") is a ratio of two counts
  // a bare class code ("… are 501(c)(3)") counts the organizations of that class
  if (share) return [share[2]!, share[1]!].map(clean).map((c) => (COUNTED_MEMBERS.test(c) ? `number of ${c}` : CLASS_CODE.test(c) ? `number of ${c} organizations` : c));
  const ratio = lower.match(/ratio\s+of\s+(.+?)\s+to\s+(.+?)$/);
  if (ratio) return [ratio[1]!, ratio[2]!].map(clean);
  // "net income as a percentage of revenue"
  const asShare = lower.match(/^(?:\s*(?:what|how\s+much)\s+(?:is|was|were|are)\s+)?(.+?)\s+as\s+an?\s+(?:percent(?:age)?|share|fraction|proportion)\s+of\s+(.+?)$/);
  if (asShare) return [asShare[1]!, asShare[2]!].map(clean).map((c) => c.replace(/^(?:what|how much)\s+(?:is|was|were|are)\s+/, '').trim());
  // a ratio named by its own word: its components, by general accounting usage
  const named = NAMED_RATIOS.find(([re]) => re.test(lower));
  if (named) return [named[1], named[2]];
  // "debt-to-assets ratio": the two words it names, numerator first
  const xToY = lower.match(/\b([a-z]+)[-\s]+to[-\s]+([a-z]+)\s+ratio\b/);
  if (xToY) return [xToY[1]!, xToY[2]!];
  return attribute ? [attribute] : [];
}

/**
 * Ratios named by their own word, as their components (numerator, denominator), in general
 * accounting usage — words a reader of any financial statement uses, not a publisher's fields.
 */
const NAMED_RATIOS: ReadonlyArray<readonly [RegExp, string, string]> = [
  [/\bgross\s+(?:profit\s+)?margin\b/, 'gross profit', 'revenue'],
  [/\boperating\s+(?:profit\s+)?margin\b/, 'operating income', 'revenue'],
  [/\b(?:net\s+)?(?:profit\s+)?margin\b/, 'net income', 'revenue'],
  [/\breturn\s+on\s+(?:total\s+)?assets\b/, 'net income', 'total assets'],
  [/\breturn\s+on\s+(?:shareholders'?\s+|stockholders'?\s+)?equity\b/, 'net income', 'stockholders equity'],
  [/\bdebt[-\s]+to[-\s]+equity\b/, 'total liabilities', 'stockholders equity'],
  [/\bcurrent\s+ratio\b/, 'current assets', 'current liabilities'],
  [/\b(?:dividend\s+)?payout\s+ratio\b/, 'dividends paid', 'net income'],
];

/** A class code named in a component ("501(c)(3) organizations"): part of the members counted, not a place or entity to remove. */
const CLASS_CODE = /^501\(c\)\(\d+\)$/i;
/** Members named as a plural noun: counted when they are a component of a share. */
const COUNTED_MEMBERS = /^(?:[\w()-]+\s+){0,2}(nonprofits|non-profits|charities|foundations|organi[sz]ations|companies|hospitals|churches|counties|states)$/;
const GRAIN_WORD = /\b(count(?:y|ies)|states?|cit(?:y|ies)|metro(?:politan)?)\b/i;
/**
 * Components of an association. Each is cleaned of the grain words the question's geography
 * carries ("county poverty"), unless the two name different grains ("county income with state
 * poverty"): then the grain words stay, so the correlation can refuse the mismatch instead of
 * silently reading both at one grain.
 */
function grainKept(parts: string[]): string[] {
  const parts2 = parts.map((p) => p.replace(/\b(?:at|on)\s+(?:the\s+)?(?:county|state|city|metro)\s+level\b|\b(?:across|among|by|for)\s+(?:all\s+)?(?:the\s+)?(?:us\s+|u\.s\.\s+)?(?:counties|states|county|state)\b/g, ' ').trim());
  const grains = parts2.map((p) => GRAIN_WORD.exec(p)?.[1]?.toLowerCase().replace(/ies$/, 'y').replace(/s$/, '') ?? null);
  if (grains[0] && grains[1] && grains[0] !== grains[1]) return parts2.map((p) => p.replace(/\b(the|a|an|its|their)\b/g, ' ').replace(/\s+/g, ' ').trim());
  return parts2.map(clean);
}

function clean(s: string): string {
  return s.replace(/\b[a-z]+(?:'s|’s)\s+/g, '').replace(/(?:^|\s)(?:'s|’s)\b/g, ' ').replace(/\b(the|a|an|its|their|county|state|across counties)\b/g, ' ').replace(/\s+/g, ' ').trim();
}

function singular(w: string): string {
  if (/ies$/.test(w)) return w.replace(/ies$/, 'y');
  if (/(ss|us)$/.test(w)) return w;
  return w.replace(/s$/, '');
}
