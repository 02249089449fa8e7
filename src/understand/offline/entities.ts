/**
 * Named-entity mentions found from the surface of the question: capitalised spans ("Cook County",
 * "University of Michigan", "Apple's"), record numbers ("opportunity 362478") and currencies.
 *
 * Deterministic and deliberately modest: it finds the names a question spells out and does not
 * decide which real-world entity they denote (that needs knowledge this module does not have, so
 * it reports names as given). It knows nothing about any data source; a capitalised word directly
 * qualifying a record or money noun ("XYZ awards", "ABC-funded") is treated as a qualifier, not
 * as the subject, by grammar alone.
 */

export interface EntityMention {
  text: string;
  start: number;
  end: number;
  possessive: boolean;
}

/** Words that start a question or command and are capitalised for that reason only. */
const OPENERS = new Set([
  'what', 'which', 'who', 'whom', 'whose', 'how', 'is', 'are', 'was', 'were', 'did', 'does', 'do', 'show', 'list',
  'find', 'search', 'look', 'compare', 'rank', 'top', 'tell', 'give', 'name', 'where', 'when', 'the', 'track',
  'has', 'have', 'can', 'could', 'should', 'please', 'in', 'for', 'between', 'from', 'get',
]);
/** Acronyms that name a measure, not an entity. */
const MEASURE_ACRONYMS = new Set(['EPS', 'GDP', 'R&D', 'CEO', 'SAT', 'IPO', 'ROI', 'NTEE']);
/** Nouns after which a preceding capitalised word is a qualifier ("XYZ awards"). */
const QUALIFIED_NOUNS = new Set([
  'award', 'awards', 'grant', 'grants', 'project', 'projects', 'filing', 'filings', 'funding', 'funded', 'spending',
  'securities', 'security', 'debt', 'reporting', 'opportunity', 'opportunities', 'contracts', 'data', 'studies',
  'research', 'records', 'returns', 'return',
  // securities named by their issuer ("Treasury bills", "Treasury notes")
  'bills', 'bill', 'notes', 'bonds', 'bond', 'yields', 'yield',
]);
/** Names of the whole country: scope, not an entity. */
const NATIONAL = /^(?:the\s+)?(?:united states|us|u\.s\.?|usa|america|nation|country)$/i;
/** Common words that are capitalised only because they open the sentence ("Median income in X"). */
const COMMON_OPENERS = new Set([
  'median', 'per', 'share', 'housing', 'total', 'average', 'number', 'percent', 'percentage', 'population', 'net',
  'gross', 'annual', 'cash', 'debt', 'national', 'federal', 'adult', 'adults', 'unemployment', 'poverty', 'income',
  'revenue', 'obesity', 'diabetes', 'smoking', 'tuition', 'admission', 'grants', 'awards', 'public',
  'funders', 'donors', 'supporters', 'grantees', 'recipients',
]);
/**
 * Words that name what is measured, in general usage ("Obesity Rate", "Net Income", "Median
 * Household Income"): a capitalised run made only of these (and connectors) is the measure written
 * in Title Case, not a name. A run with any other word ("Public Health Institute") stays a name.
 */
const MEASURE_WORDS = new Set([
  ...COMMON_OPENERS, 'rate', 'rates', 'revenues', 'incomes', 'profit', 'profits', 'earnings', 'sales', 'assets', 'liabilities',
  'expenses', 'expense', 'spending', 'employees', 'household', 'households', 'interest', 'exchange', 'prevalence', 'smokers',
  'cost', 'costs', 'price', 'value', 'outstanding', 'held', 'holdings', 'graduation', 'enrollment', 'research', 'development',
  'operating', 'diluted', 'basic', 'shares', 'equity', 'dividends', 'insurance', 'uninsured', 'blood', 'pressure', 'high',
  'depression', 'arthritis', 'asthma', 'life', 'expectancy', 'deaths', 'mortality', 'wages', 'salary', 'compensation',
]);
const MONTH = /^(January|February|March|April|May|June|July|August|September|October|November|December)$/;
const CONNECTORS = new Set(['of', 'for', 'and', '&', 'de', 'on', 'at']);
/** Words that head an organization's name and take "for the …" after them ("Alliance for the Great Lakes", "Center for the Arts"). */
const ORG_HEADS = /^(Alliance|Center|Centre|Council|Coalition|Committee|Campaign|Fund|Foundation|Friends|Society|Institute|Association|League|Network|Partnership|Project|Federation|Trust|Museum|Academy|Habitat|Partners|Corps|Conservancy|Initiative|Collaborative)$/;
/** Nouns that end an institution's name, after which a possessive inside the name belongs to it. */
const INSTITUTION_HEADS = /^(?:Church|Cathedral|Chapel|Parish|Temple|Synagogue|Mosque|Hospital|Clinic|School|Academy|College|University|Library|Museum|Foundation|Fund|Center|Centre|Society|Home|Homes|Club|Institute|Association|Trust|Alliance|Council|Mission|Ministries|Hospice|Shelter)$/;
const CURRENCY = /\b((?:[A-Z][a-z]+\s+)?(?:euro|yen|peso|pound|franc|won|yuan|rupee|real|rand|krona|dollar))s?\b/;

/** A number (and its scale word) right before a currency word: an amount in it. */
const AMOUNT_BEFORE = /(?:\d|\b(?:thousand|million|billion|trillion|hundred))\s*(?:US\s+)?$/i;

interface Token { text: string; start: number; end: number }

function tokenize(q: string): Token[] {
  const out: Token[] = [];
  const re = /[A-Za-z0-9][A-Za-z0-9.&'’()\-]*[A-Za-z0-9)]|[A-Za-z0-9]|[,:;?!]/g;
  for (const m of q.matchAll(re)) out.push({ text: m[0], start: m.index!, end: m.index! + m[0].length });
  return out;
}

const isCap = (t: string) => /^[A-Z0-9]/.test(t) && /[A-Za-z]/.test(t) && !/^\d{4}$/.test(t);

export function findEntities(question: string): EntityMention[] {
  const toks = tokenize(question);
  const mentions: EntityMention[] = [];

  // Record numbers: "opportunity 362478", "award 1547580".
  for (const m of question.matchAll(/\b(opportunity|award|project|grant)\s+(?:number\s+|no\.\s*|#)?(\d{4,})\b/gi)) {
    mentions.push({ text: `${m[1]!.toLowerCase()} ${m[2]}`, start: m.index!, end: m.index! + m[0].length, possessive: false });
  }
  const cur = question.match(CURRENCY);
  // "50 million dollars" is an amount's unit, not a currency named as the entity
  if (cur && !AMOUNT_BEFORE.test(question.slice(0, cur.index))) mentions.push({ text: cur[1]!, start: cur.index!, end: cur.index! + cur[0].length, possessive: false });

  let i = 0;
  while (i < toks.length) {
    const t = toks[i]!;
    const atStart = i === 0 || [':', ','].includes(toks[i - 1]!.text);
    if (MONTH.test(t.text) && /^\d/.test(toks[i + 1]?.text ?? '')) { i++; continue; }
    if (/^(Form|Schedule|Part)$/.test(t.text) && /^\d/.test(toks[i + 1]?.text ?? '')) { i += 2; continue; }
    if (i === 0 && COMMON_OPENERS.has(t.text.toLowerCase())) { i++; continue; }
    if (!isCap(t.text) || (atStart && OPENERS.has(t.text.toLowerCase().replace(/['’]s$/, ''))) || MEASURE_ACRONYMS.has(t.text.replace(/('s|’s)$/, ''))) { i++; continue; }
    // Grow the span over capitalised words and inner connectors.
    let j = i;
    while (j + 1 < toks.length) {
      const nx = toks[j + 1]!;
      if (isCap(nx.text) && !/'s$|’s$/.test(toks[j]!.text)) { j++; continue; }
      // a possessive inside an institution's name ("St. Paul's Episcopal Church", "Boston Children's Hospital"):
      // the capitalised run after it ends in a noun that heads such a name, so the place is part of the name
      if (isCap(nx.text) && /'s$|’s$/.test(toks[j]!.text)) {
        let k = j + 1;
        while (k + 1 < toks.length && isCap(toks[k + 1]!.text) && !/'s$|’s$/.test(toks[k]!.text)) k++;
        if (INSTITUTION_HEADS.test(toks[k]!.text)) { j = k; continue; }
      }
      if (CONNECTORS.has(nx.text.toLowerCase()) && nx.text !== 'and' && j + 2 < toks.length && isCap(toks[j + 2]!.text)) { j += 2; continue; }
      // "Friends of the Earth", "Alliance for the Great Lakes": a lowercase "the" inside a name, after
      // "of" anywhere, after "for" only when the span so far ends in a word that heads an organization's name
      if (toks[j + 2]?.text === 'the' && j + 3 < toks.length && isCap(toks[j + 3]!.text) && !/['’]s$/.test(toks[j]!.text)
        && (nx.text === 'of' || (nx.text === 'for' && ORG_HEADS.test(toks[j]!.text)))) { j += 3; continue; }
      if (nx.text.toLowerCase() === 'and' && j + 2 < toks.length && isCap(toks[j + 2]!.text) && /^(Foundation|Company|Co|Sons|Services)$/.test(toks[j + 3]?.text ?? '')) { j += 2; continue; }
      break;
    }
    // "Jefferson County, Alabama": county, state.
    if (/^(County|Parish)$/.test(toks[j]!.text) && toks[j + 1]?.text === ',' && toks[j + 2] && isCap(toks[j + 2]!.text)) j += 2;
    const start = t.start;
    const end = toks[j]!.end;
    let text = question.slice(start, end);
    const next = toks[j + 1]?.text ?? '';
    i = j + 1;
    const possessive = /('s|’s|s')$/.test(text);
    text = text.replace(/('s|’s|')$/, '');
    if (MEASURE_ACRONYMS.has(text)) continue;
    // the measure in Title Case ("the Obesity Rate in Los Angeles County"), not a name
    if (!possessive && text.split(/\s+/).every((w) => MEASURE_WORDS.has(w.toLowerCase()) || CONNECTORS.has(w.toLowerCase()) || MEASURE_ACRONYMS.has(w))) continue;
    if (/-(funded|backed|sponsored)$/i.test(text)) continue;
    // "X funded research" qualifies a noun; "has the Joyce Foundation funded?" ends on a verb
    const verbAtEnd = /^(funded|funding)$/i.test(next) && /^(?:[?.!]|in|by|during|since|)$/i.test(toks[j + 2]?.text ?? '');
    if (!possessive && QUALIFIED_NOUNS.has(next.toLowerCase()) && !verbAtEnd) continue;
    if (NATIONAL.test(text) || /^(US|U\.S\.)$/.test(text)) continue;
    if (mentions.some((m) => start < m.end && end > m.start)) continue;
    mentions.push({ text, start, end, possessive });
  }
  return mentions.sort((a, b) => a.start - b.start);
}
