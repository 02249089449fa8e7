/**
 * What a question asks of a record, in words that are general vocabulary rather than any
 * publisher's: the yes/no status (a 501(c)(N) subsection, a private foundation, a filer category
 * under the securities rules), the form type named ("10-K", "Form 990"), and codes a publisher
 * defines that the question names (a currency, a record number). Interpretation reads these once,
 * here; the executor and validators read the intent's fields, never the question again.
 */
import type { Code, StatusAsked } from '../intent.ts';

/** Filer categories (securities rules), longest first so a qualifier is never dropped. */
const FILER_CATEGORIES = ['large accelerated filer', 'non-accelerated filer', 'accelerated filer', 'smaller reporting company', 'emerging growth company'] as const;

/**
 * The status a text asks about, as a stable id, longest phrase first ("large accelerated filer"
 * is not "accelerated filer"); null when it names none of the statuses this vocabulary knows.
 */
export function statusAskedIn(text: string): StatusAsked | null {
  const t = text.toLowerCase();
  const c = /501\s*\(\s*c\s*\)\s*\(\s*(\d{1,2})\s*\)/.exec(t) ?? /\b501c(\d{1,2})\b/.exec(t);
  if (c) return { id: `501c${Number(c[1])}`, text: c[0] };
  const pf = /\bprivate (?:non-?operating |operating )?foundation\b/.exec(t);
  if (pf) return { id: 'private_foundation', text: pf[0] };
  const pc = /\bpublic(?:ly supported)? charit(?:y|ies)\b/.exec(t);
  if (pc) return { id: 'public_charity', text: pc[0] };
  for (const cat of FILER_CATEGORIES) if (t.includes(cat)) return { id: cat.replace(/[^a-z]+/g, '_'), text: cat };
  const ex = /\btax[- ]exempt\b|\bexempt status\b/.exec(t);
  if (ex) return { id: 'tax_exempt', text: ex[0] };
  return null;
}

/** A form type named, as its issuer spells it ("10-K", "10-K/A", "DEF 14A", "Form 4" → "4"). */
export function formNamedIn(text: string): string | null {
  const m = /\b(10-K|10-Q|8-K|20-F|40-F|6-K|S-1|S-3|S-4|S-8|11-K|DEF 14A|SC 13G|SC 13D|990-EZ|990-PF|990-T|990)(\/A)?\b/i.exec(text) ?? /\bform (\d{1,3})\b/i.exec(text);
  return m ? `${m[1]!.toUpperCase()}${m[2] ?? ''}` : null;
}

const CURRENCY = /\b((?:[A-Z][a-z]+\s+)?(?:euro|yen|peso|pound|franc|won|yuan|rupee|real|rand|krona|krone|dollar|ruble|rupiah|shekel|lira|zloty|forint|koruna|dinar|dirham|riyal|baht|ringgit))s?\b/;

/**
 * Codes a publisher defines that the question names: record numbers with the noun they number
 * ("opportunity 362478", "award no. 1547580") and currencies ("the Mexican peso"). A currency is
 * named only when the question is about a currency's price or a "dollar" is qualified ("Canadian
 * dollar"): a bare "dollars" is a unit of money, not a code.
 */
export function codesNamedIn(text: string): Code[] {
  const out: Code[] = [];
  for (const m of text.matchAll(/\b(opportunity|award|project|grant|contract|application)\s+(?:number\s+|no\.\s*|id\s+|#)?(\d{4,})\b/gi)) {
    out.push({ kind: 'record_id', value: m[2]!, noun: m[1]!.toLowerCase(), text: m[0] });
  }
  const cur = CURRENCY.exec(text);
  if (cur) {
    const value = cur[1]!.trim();
    const bareDollar = /^dollar$/i.test(value) || /^(?:US|U\.S\.)\s+dollar$/i.test(value);
    const opener = /^(?:What|Which|How|Is|Was|Show|List|Find|Give|Tell|Compare)\s/.test(value);
    const named = opener ? value.replace(/^\w+\s+/, '') : value;
    if (!bareDollar && !/^dollar$/i.test(named)) out.push({ kind: 'currency', value: named, noun: null, text: cur[0] });
  }
  return out;
}
