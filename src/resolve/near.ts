/**
 * Near names: the words of a question that could be a registered name the question did not spell
 * as one — written in lower case ("apple's revenue"), mistyped ("Appel"), or with a letter of
 * another script that looks Latin ("Teslа", a Cyrillic "а"). Pure functions over text; the
 * registry lookups and the decision to ask are src/ask/names.ts.
 *
 * Bounded on purpose, so common words do not turn into names: a typo is at most one edit (two from
 * nine letters) on a word of at least five letters, and a lower-case word after an article ("the
 * amazon rainforest", "the target rate") is a common noun, never a name. What these find is only
 * ever offered back as a question; nothing is read on it.
 */

/** Optimal string alignment distance (edits: insert, delete, substitute, swap two neighbours), or max + 1 when above max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    rows.push(row);
  }
  const d = rows[a.length]![b.length]!;
  return d > max ? max + 1 : d;
}

/** The edits a word of this length may be from a registered word and still be offered as a typo of it (0: none). */
export function typoBound(word: string): number {
  if (word.length < 5) return 0;
  return word.length >= 9 ? 2 : 1;
}

/** Letters of other scripts drawn like Latin ones (Cyrillic, Greek), by their Latin look-alike. */
const LOOKALIKE: ReadonlyMap<string, string> = new Map(Object.entries({
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S',
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', τ: 't', Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
}));

/** A word mixing Latin letters with look-alikes of another script, written in Latin; undefined when it mixes none. */
export function latinLookalike(word: string): string | undefined {
  if (!/[A-Za-z]/.test(word)) return undefined;
  let changed = false;
  const out = [...word].map((ch) => { const l = LOOKALIKE.get(ch); if (l) changed = true; return l ?? ch; }).join('');
  return changed && /^[A-Za-z0-9.&'’-]+$/.test(out) ? out : undefined;
}

/** A word of the question as written: its text, where it is, whether it is possessive, and what came before it. */
export interface QuestionWord {
  text: string;
  /** Lower case, the possessive dropped. */
  bare: string;
  start: number;
  end: number;
  possessive: boolean;
  capitalised: boolean;
  /** Whether an article ("the", "a", "an") comes right before it. */
  afterArticle: boolean;
}

/**
 * Words that never start or make up a name offered back: question and function words, and the
 * general words questions measure by (the measure the question asks for is not an entity).
 */
const NOT_NAMES = new Set([
  'what', 'which', 'who', 'whom', 'whose', 'how', 'much', 'many', 'is', 'are', 'was', 'were', 'be', 'been', 'did', 'does', 'do', 'has', 'have', 'had',
  'show', 'list', 'find', 'tell', 'give', 'get', 'compare', 'report', 'reported', 'reports', 'say', 'said', 'file', 'filed', 'earn', 'earned', 'make', 'made',
  'cost', 'costs', 'pay', 'paid', 'receive', 'received', 'spend', 'spent', 'me', 'us', 'its', 'their', 'his', 'her', 'our', 'your', 'my',
  'the', 'a', 'an', 'of', 'in', 'on', 'at', 'for', 'to', 'from', 'by', 'with', 'as', 'and', 'or', 'vs', 'versus', 'than', 'about', 'over', 'per',
  'this', 'that', 'these', 'those', 'there', 'it', 'they', 'year', 'years', 'fiscal', 'calendar', 'quarter', 'latest', 'last', 'current', 'recent', 'most',
  'total', 'net', 'gross', 'revenue', 'revenues', 'income', 'profit', 'profits', 'earnings', 'sales', 'assets', 'liabilities', 'debt', 'equity', 'cash',
  'expenses', 'operating', 'shares', 'share', 'dividends', 'employees', 'rate', 'rates', 'price', 'value', 'tuition', 'population', 'median', 'average',
  'number', 'count', 'percent', 'percentage', 'amount', 'funding', 'grants', 'grant', 'awards', 'award', 'company', 'companies', 'organization', 'school',
]);

/** Whether a word may be, or begin, a name offered back. */
export const mayName = (w: QuestionWord): boolean => w.bare.length >= 3 && !NOT_NAMES.has(w.bare) && !/^\d+$/.test(w.bare);

/** The question's words, in order (letters of any script, digits, inner apostrophes, dots, hyphens and ampersands). */
export function questionWords(question: string): QuestionWord[] {
  const out: QuestionWord[] = [];
  let prev = '';
  for (const m of question.matchAll(/[\p{L}\p{N}][\p{L}\p{N}.&'’-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu)) {
    const text = m[0];
    const possessive = /['’]s$/i.test(text);
    out.push({
      text, bare: text.replace(/['’]s$/i, '').toLowerCase(), start: m.index!, end: m.index! + text.length, possessive,
      capitalised: /^\p{Lu}/u.test(text), afterArticle: /^(the|a|an)$/i.test(prev),
    });
    prev = text;
  }
  return out;
}

/** A run of one to `max` neighbouring words (the longest first from each start) that may be a name. */
export interface WordRun { words: QuestionWord[]; text: string; possessive: boolean }

export function wordRuns(words: readonly QuestionWord[], max = 3): WordRun[] {
  const out: WordRun[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(max, words.length - i); n >= 1; n--) {
      const run = words.slice(i, i + n);
      // a name ends at a possessive; its words are all words a name may hold
      if (!run.every(mayName) || run.slice(0, -1).some((w) => w.possessive)) continue;
      out.push({ words: run, text: run.map((w) => w.bare).join(' '), possessive: run[run.length - 1]!.possessive });
    }
  }
  return out;
}

/** The question with one run of words replaced by `name`, its possessive kept ("apple's" → "Apple's"). */
export function respelled(question: string, run: Pick<WordRun, 'words' | 'possessive'>, name: string): string {
  const first = run.words[0]!;
  const last = run.words[run.words.length - 1]!;
  return `${question.slice(0, first.start)}${name}${run.possessive ? '\'s' : ''}${question.slice(last.end)}`;
}

/** A registered word as a question would write a name: each word capitalised ("apple" → "Apple"). */
export const asName = (words: string): string => words.replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, ch: string) => `${sep}${ch.toUpperCase()}`);
