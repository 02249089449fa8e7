/**
 * Text handling shared by linking and the offline generator: normalisation, tokens with their
 * positions, a light stemmer, stopwords and number words. Deterministic and language-light
 * (English); nothing here knows any particular graph.
 */

/** Case- and whitespace-normalised, punctuation kept (the verbatim full-label key). */
export function normaliseLabel(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export interface Token {
  /** Lower-cased token without surrounding punctuation or a possessive 's. */
  norm: string;
  /** As written. */
  raw: string;
  /** Index in the token list. */
  i: number;
}

/** Split on whitespace; strip leading/trailing punctuation (inner hyphens, dots and slashes stay). */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const raw of text.normalize('NFKC').split(/\s+/)) {
    let t = raw.replace(/^[\s"'“”‘’(\[{<«,;:!?¿¡]+/, '').replace(/[\s"'“”‘’)\]}>»,;:!?.]+$/, '');
    t = t.replace(/['’]s$/i, '').replace(/s['’]$/i, 's');
    if (t === '') continue;
    out.push({ norm: t.toLowerCase(), raw: t, i: out.length });
  }
  return out;
}

/** The token key of a label: its tokens' norms joined by one space (punctuation around tokens dropped). */
export function tokenKey(text: string): string {
  return tokens(text).map((t) => t.norm).join(' ');
}

export const STOPWORDS: ReadonlySet<string> = new Set((
  'a an the of in on at to for from by with about as into onto over under than then and or but not no nor ' +
  'is are was were be been being am do does did done doing has have had having can could will would shall should may might must ' +
  'what which who whom whose where when why how that this these those there here it its it\'s they them their theirs he him his she her hers we us our you your i me my ' +
  'all any each every some many much more most less least few fewer one ones other others such same own ' +
  'list show give tell name find get me please also only just very too so'
).split(' '));

/** Words that never start an entity mention on their own (question scaffolding). */
export function isStopword(norm: string): boolean {
  return STOPWORDS.has(norm);
}

/** A light suffix stemmer (English): enough to meet "directed"/"director", "released"/"release", "planets"/"planet". */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ves') && w.length > 4) w = w.slice(0, -3) + 'f';
  else if (w.endsWith('es') && /(ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  for (const suf of ['ation', 'ings', 'ing', 'ers', 'ed', 'er', 'or', 'ion', 'ly', 'e']) {
    if (w.endsWith(suf) && w.length - suf.length >= 3) return w.slice(0, -suf.length);
  }
  return w;
}

/** Singular form of a plural noun, for class names ("planets" → "planet", "species" stays). */
export function singular(word: string): string {
  const w = word.toLowerCase();
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (/(ch|sh|x|z|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is') && w.length > 3) return w.slice(0, -1);
  return w;
}

/** Words of an IRI's local name: camelCase, snake_case and hyphens split ("releaseDate" → release, date). */
export function localName(iri: string): string {
  const m = /[#/:]([^#/:]*)$/.exec(iri);
  return decodeURIComponentSafe(m ? m[1]! : iri);
}

export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 0);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, billion: 1e9, bn: 1e9, b: 1e9, trillion: 1e12 };

/** A number written in the question ("1,000", "2.5 million", "10k"), with the tokens it spans. */
export interface NumberMention { value: number; start: number; end: number }

const WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, fifty: 50, hundred: 100, dozen: 12,
};

export function numbers(toks: readonly Token[]): NumberMention[] {
  const out: NumberMention[] = [];
  for (let i = 0; i < toks.length; i++) {
    const word = WORDS[toks[i]!.norm];
    if (word !== undefined) { out.push({ value: word, start: i, end: i + 1 }); continue; }
    const m = /^(-?\d[\d,]*(?:\.\d+)?)(k|m|bn|b)?$/i.exec(toks[i]!.norm);
    if (!m) continue;
    const digits = m[1]!.replace(/,/g, '');
    if (!/^-?\d+(\.\d+)?$/.test(digits)) continue;
    let value = Number(digits);
    let end = i + 1;
    if (m[2]) value *= SCALE[m[2].toLowerCase()] ?? 1;
    else if (i + 1 < toks.length && SCALE[toks[i + 1]!.norm] && toks[i + 1]!.norm.length > 2) { value *= SCALE[toks[i + 1]!.norm]!; end = i + 2; }
    out.push({ value, start: i, end });
  }
  return out;
}
