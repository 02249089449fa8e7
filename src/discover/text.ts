/**
 * Term processing shared by the index and the queries: lower-case, stop words out, a light
 * English stem (plural and possessive endings only, so "rates" meets "rate" without the
 * over-stemming that merges unrelated measures), and a small table of general-English
 * synonyms and abbreviations that financial and statistical questions use.
 */
const STOP = new Set([
  'a', 'an', 'the', 'of', 'in', 'for', 'to', 'by', 'on', 'at', 'and', 'or', 'with', 'from', 'as', 'is', 'are', 'was',
  'were', 'be', 'been', 'what', 'which', 'who', 'whom', 'how', 'much', 'many', 'did', 'does', 'do', 'has', 'have',
  'had', 'its', 'it', 'this', 'that', 'these', 'those', 'their', 'there', 'me', 'show', 'list', 'tell', 'give', 'find',
  'than', 'into', 'per', 'each', 'any', 'some', 'all', 'most', 'more', 'highest', 'lowest', 'largest', 'top', 'which',
  'estimate', 'total', 'e', 'pe', 'year', 'years', 'latest', 'compare', 'between', 'about',
]);

/** Query-side expansions: a word → extra terms that the catalog is likely to use. */
const SYNONYMS: Record<string, string[]> = {
  profit: ['income', 'net'], earnings: ['income', 'net'], earn: ['income', 'net'], sales: ['revenue'],
  'r&d': ['research', 'development'], rd: ['research', 'development'], capex: ['payments', 'acquire', 'property', 'plant', 'equipment'],
  eps: ['earnings', 'share'], buyback: ['repurchase', 'stock'], buybacks: ['repurchase', 'stock'], repurchases: ['repurchase'],
  'capital': ['capital'], expenditures: ['payments', 'acquire', 'property', 'plant', 'equipment'],
  uninsured: ['no', 'health', 'insurance', 'coverage'], insurance: ['insurance', 'coverage'],
  graduation: ['completion'], enrollment: ['enrollment', 'size'], tuition: ['tuition'],
  poverty: ['poverty', 'below'], rent: ['rent'], home: ['housing', 'value'], homes: ['housing', 'value'],
  debt: ['debt'], national: ['public'], spending: ['obligation', 'amount'], obligations: ['obligation', 'amount'],
  money: ['amount', 'obligation'], funding: ['award', 'amount'], funded: ['award'], grants: ['grant'],
  employees: ['employee'], staff: ['employee'], expenses: ['expense'], outflow: ['payment'],
  'foreign-born': ['foreign', 'born'], 'in-state': ['in', 'state'], 'out-of-state': ['out', 'state'],
  smoking: ['smoking', 'smoker'], diabetes: ['diabetes'], obesity: ['obesity'],
  bachelor: ['bachelor', 'degree'], vacant: ['vacant'], exchange: ['exchange'],
  rate: ['percent', 'percentage'], rates: ['rate', 'percent', 'percentage'], share: ['percent', 'percentage'], prevalence: ['percent'],
  lacking: ['lack'], without: ['no', 'lack'],
};

export function stem(w: string): string {
  if (w.length <= 3) return w;
  if (/ies$/.test(w) && w.length > 4) return w.slice(0, -3) + 'y';
  if (/(ss|us|is)$/.test(w)) return w;
  if (/sses$|xes$|ches$|shes$/.test(w)) return w.slice(0, -2);
  if (/s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** Index-side term processing (MiniSearch `processTerm`). */
export function processTerm(term: string): string | null {
  const t = term.toLowerCase().replace(/['’]s$/, '').replace(/^['’"(]+|['’")]+$/g, '');
  if (!t || STOP.has(t)) return null;
  return stem(t);
}

/** Words of a title that say nothing about the quantity (taxonomy tags, table codes). */
const TITLE_NOISE = new Set(['us', 'gaap', 'dei', 'ifrs', 'full', 'srt', 'eo', 'bmf', 'acs', '990', 'part', 'line', 'col', 'column', 'selected', 'characteristic', 'united', 'state', 'estimate', 'total']);

/** Content terms of a title, for judging how tightly a card matches the query. */
export function titleTerms(title: string): string[] {
  const head = title.replace(/\s*\([^)]*\)\s*$/, '').replace(/^[A-Z0-9]+_[0-9A-Z]+:\s*/, '');
  const out: string[] = [];
  for (const t of tokenize(head)) {
    const p = processTerm(t);
    if (p && !TITLE_NOISE.has(p) && !/^\d+$/.test(p) && !out.includes(p)) out.push(p);
  }
  return out;
}

/** Splits text into terms the way the index does (MiniSearch's default tokenizer: space and punctuation). */
export function tokenize(text: string): string[] {
  return text.split(/[\n\r\s\-–—_,.;:!?'"()[\]{}/\\|*+=<>~`@#$%^]+/u).filter(Boolean);
}

/** Query terms: processed terms plus synonym expansions (expansions weigh less), and per-term alternatives. */
export function queryTerms(text: string): { terms: string[]; expansions: string[]; groups: { term: string; alts: string[] }[] } {
  const terms: string[] = [];
  const expansions: string[] = [];
  const groups: { term: string; alts: string[] }[] = [];
  const synonymsOf = (word: string): string[] => (SYNONYMS[word.toLowerCase().replace(/[?.,!;:'"]/g, '')] ?? []).map(processTerm).filter((x): x is string => !!x);
  // Whole words first ("r&d", "in-state"), so their expansions are kept even if the tokenizer splits them.
  for (const raw of text.split(/\s+/)) {
    const alts = synonymsOf(raw);
    if (alts.length > 0 && /[&-]/.test(raw)) groups.push({ term: raw.toLowerCase(), alts });
    for (const a of alts) if (!expansions.includes(a)) expansions.push(a);
  }
  for (const t of tokenize(text)) {
    const p = processTerm(t);
    const alts = synonymsOf(t);
    for (const a of alts) if (!expansions.includes(a)) expansions.push(a);
    if (p && !terms.includes(p)) { terms.push(p); groups.push({ term: p, alts }); }
  }
  return { terms, expansions: expansions.filter((e) => !terms.includes(e)), groups };
}

/**
 * Words that name the kind of quantity rather than what is measured ("inflation *rate*", "total
 * *amount* of grants"): the head noun of an attribute is its last word that is not one of these.
 */
const MEASURE_WORDS = new Set(['rate', 'ratio', 'amount', 'number', 'count', 'level', 'value', 'percent', 'percentage', 'share', 'figure', 'size', 'sum', 'average', 'mean', 'median', 'total', 'per', 'capita', 'change', 'growth', 'prevalence', 'status']);

/** Words after which an attribute only qualifies its head ("earnings *of graduates*", "debt *held by* the public"). */
const POSTMODIFIER = /^(of|on|in|for|after|before|per|by|from|to|at|with|among|under|over|held|paid|owed|received|made|awarded|reported|filed)$/i;

/**
 * The head noun of an attribute: the last word before any postmodifier that names what is measured
 * (not a measure word, not a number), with its synonym alternatives; undefined when there is none.
 */
export function headOf(attribute: string): { term: string; alts: string[] } | undefined {
  const words = attribute.split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && POSTMODIFIER.test(w));
  const groups = queryTerms((cut > 0 ? words.slice(0, cut) : words).join(' ')).groups;
  return headGroup(groups);
}

/** The last group that names what is measured, or undefined. */
export function headGroup(groups: { term: string; alts: string[] }[]): { term: string; alts: string[] } | undefined {
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i]!;
    if (!MEASURE_WORDS.has(g.term) && !/^\d+$/.test(g.term) && g.term.length > 1) return g;
  }
  return undefined;
}

/** Every processed term of a title outside its parentheticals: what the card says it measures. */
export function headTerms(title: string): Set<string> {
  const bare = title.replace(/\([^)]*\)/g, ' ');
  return new Set(tokenize(bare).map(processTerm).filter((t): t is string => !!t));
}
