/**
 * Status questions, read on their own terms: which yes/no a question asks, which publisher field
 * answers it, and the declared table that turns the field's code into that boolean.
 *
 * Input: the question (and the interpreter's attribute); a publisher entity record. Output: a
 * reading — `boolean` (the code is in the table: true, or a false that stands on its own, with the
 * code shown), `label` (the field holds a code or label the table does not map to the boolean
 * asked: a description is not an answer to a yes/no question, so it is never coerced), or
 * `missing` (the field is blank: no data, never false). A record that does not exist is not a
 * reading at all (the executor reports no data). Tables are the publishers' own documented codes
 * (IRS EO BMF instructions; SEC Rule 12b-2 filer categories); nothing is guessed.
 */
import type { EntityRecord } from '../connectors/records.ts';
import { subsectionLabel } from '../connectors/irs-eo-bmf.ts';
import type { Check } from './structural.ts';

export type StatusReading =
  | { kind: 'boolean'; truth: boolean; field: string; code: string; meaning: string }
  | { kind: 'label'; field: string; code: string; meaning: string }
  | { kind: 'missing'; field: string };

export interface StatusAsk {
  /** Stable id of the asked status (501c3, private_foundation, large_accelerated_filer…). */
  id: string;
  /** The yes/no as a phrase ("a 501(c)(3) organization"). */
  asked: string;
  /** Operations (publisher/operationId) that carry the field. */
  operations: readonly string[];
  read(rec: EntityRecord): StatusReading;
}

/** IRS BMF FOUNDATION codes (EO BMF instructions): which are private foundations, which public charities. */
const PRIVATE_FOUNDATION = new Set(['02', '03', '04']);
const PUBLIC_CHARITY = new Set(['10', '11', '12', '13', '14', '15', '16', '17', '18', '21', '22', '23', '24']);
const FOUNDATION_MEANING: Readonly<Record<string, string>> = {
  '00': 'not a 501(c)(3) organization', '02': 'private operating foundation exempt from excise tax', '03': 'private operating foundation',
  '04': 'private non-operating foundation', '09': 'suspense (foundation status not determined)', '10': 'church', '11': 'school', '12': 'hospital or medical research organization',
  '13': 'organization operated for a governmental college or university', '14': 'governmental unit', '15': 'publicly supported organization (170(b)(1)(A)(vi))',
  '16': 'publicly supported organization (509(a)(2))', '17': 'supporting organization (509(a)(3))', '18': 'organization testing for public safety (509(a)(4))',
  '21': 'supporting organization, Type I', '22': 'supporting organization, Type II', '23': 'supporting organization, Type III functionally integrated', '24': 'supporting organization, Type III not functionally integrated',
};
/** IRS BMF STATUS codes that answer "is it exempt" by themselves; 12 and 25 describe a situation, not a yes/no. */
const EXEMPT_STATUS: Readonly<Record<string, boolean>> = { '01': true, '02': true };
const STATUS_MEANING: Readonly<Record<string, string>> = {
  '01': 'unconditional exemption', '02': 'conditional exemption', '12': 'trust described in section 4947(a)(2)', '25': 'organization terminating its private foundation status',
};
/** SEC filer categories (Rule 12b-2), mutually exclusive; SEC joins secondary flags with <br>. */
const SEC_CATEGORIES = ['large accelerated filer', 'accelerated filer', 'non-accelerated filer'] as const;
const SEC_FLAGS = ['smaller reporting company', 'emerging growth company'] as const;

const BMF_OPS = ['irs-eo-bmf/eo-bmf-ein-lookup', 'irs-eo-bmf/eo-bmf-state'];
const NONPROFIT_OPS = [...BMF_OPS, 'propublica-nonprofits/organization'];
const SEC_OPS = ['sec-edgar/submissions-identity', 'sec-edgar/submissions'];

const attr = (rec: EntityRecord, name: string): string | null => {
  const v = rec.attributes[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;
};

function subsectionAsk(paragraph: number): StatusAsk {
  const code = String(paragraph).padStart(2, '0');
  return {
    id: `501c${paragraph}`, asked: `a 501(c)(${paragraph}) organization`, operations: NONPROFIT_OPS,
    read(rec) {
      const got = attr(rec, 'subsection');
      if (!got) return { kind: 'missing', field: 'subsection' };
      return { kind: 'boolean', truth: got === code, field: 'subsection', code: got, meaning: subsectionLabel(got) };
    },
  };
}

function foundationAsk(id: 'private_foundation' | 'public_charity'): StatusAsk {
  const yes = id === 'private_foundation' ? PRIVATE_FOUNDATION : PUBLIC_CHARITY;
  const no = id === 'private_foundation' ? PUBLIC_CHARITY : PRIVATE_FOUNDATION;
  return {
    id, asked: id === 'private_foundation' ? 'a private foundation' : 'a public charity',
    // ProPublica's organization record carries the BMF foundation code too (foundation_code), keyed by EIN alone
    operations: NONPROFIT_OPS,
    read(rec) {
      const got = attr(rec, 'foundation');
      if (!got) return { kind: 'missing', field: 'foundation' };
      const meaning = FOUNDATION_MEANING[got] ?? `foundation code ${got}`;
      // 00 = not a 501(c)(3): neither a private foundation nor a public charity, on its own terms
      if (yes.has(got)) return { kind: 'boolean', truth: true, field: 'foundation', code: got, meaning };
      if (no.has(got) || got === '00') return { kind: 'boolean', truth: false, field: 'foundation', code: got, meaning };
      return { kind: 'label', field: 'foundation', code: got, meaning };
    },
  };
}

const exemptAsk: StatusAsk = {
  id: 'tax_exempt', asked: 'tax-exempt', operations: NONPROFIT_OPS,
  read(rec) {
    const got = attr(rec, 'status');
    if (!got) return { kind: 'missing', field: 'status' };
    const meaning = STATUS_MEANING[got] ?? `exempt-organization status code ${got}`;
    const truth = EXEMPT_STATUS[got];
    return truth === undefined ? { kind: 'label', field: 'status', code: got, meaning } : { kind: 'boolean', truth, field: 'status', code: got, meaning };
  },
};

function secCategoryAsk(category: typeof SEC_CATEGORIES[number] | typeof SEC_FLAGS[number]): StatusAsk {
  return {
    id: category.replace(/[^a-z]+/g, '_'), asked: `${/^[aeiou]/.test(category) ? 'an' : 'a'} ${category}`, operations: SEC_OPS,
    read(rec) {
      const got = attr(rec, 'category');
      if (!got) return { kind: 'missing', field: 'category' };
      const parts = got.split(/<br\s*\/?>/i).map((p) => p.trim().toLowerCase()).filter(Boolean);
      const known = parts.filter((p) => (SEC_CATEGORIES as readonly string[]).includes(p) || (SEC_FLAGS as readonly string[]).includes(p));
      if (known.length !== parts.length) return { kind: 'label', field: 'category', code: got, meaning: `filer category "${got}"` };
      const isFlag = (SEC_FLAGS as readonly string[]).includes(category);
      // a flag is present or absent; a primary category is exactly one of the three (they exclude each other)
      const decidable = isFlag || known.some((p) => (SEC_CATEGORIES as readonly string[]).includes(p));
      if (!decidable) return { kind: 'label', field: 'category', code: got, meaning: `filer category "${got}"` };
      return { kind: 'boolean', truth: parts.includes(category), field: 'category', code: got, meaning: `filer category "${got.replace(/<br\s*\/?>/gi, '; ')}"` };
    },
  };
}

/**
 * The status a question asks, from the question's own words first (the interpreter's attribute
 * can drop a qualifier: "large accelerated filer" → "accelerated filer status"), longest phrase
 * first. Null when no declared reader exists: the executor refuses rather than guess a field.
 */
export function statusAsk(question: string, attribute: string | null): StatusAsk | null {
  for (const text of [question, attribute ?? '']) {
    const t = text.toLowerCase();
    const c = /501\s*\(\s*c\s*\)\s*\(\s*(\d{1,2})\s*\)/.exec(t) ?? /\b501c(\d{1,2})\b/.exec(t);
    if (c) return subsectionAsk(Number(c[1]));
    if (/\bprivate (non-?operating |operating )?foundation\b/.test(t)) return foundationAsk('private_foundation');
    if (/\bpublic(ly supported)? charit/.test(t)) return foundationAsk('public_charity');
    for (const cat of [...SEC_CATEGORIES].sort((a, b) => b.length - a.length)) if (t.includes(cat)) return secCategoryAsk(cat);
    for (const flag of SEC_FLAGS) if (t.includes(flag)) return secCategoryAsk(flag);
    if (/\btax[- ]exempt\b|\bexempt status\b/.test(t)) return exemptAsk;
  }
  return null;
}

/** The polarity check of a reading: only a boolean from the declared table answers a yes/no. */
export function polarityCheck(ask: StatusAsk, r: StatusReading): Check {
  if (r.kind === 'boolean') return { name: 'polarity', passed: true, detail: `${r.field} ${r.code} (${r.meaning}) reads as ${r.truth ? 'yes' : 'no'} for "${ask.asked}"${r.truth ? '' : ': a false on its own terms, from the declared code table'}` };
  if (r.kind === 'label') return { name: 'polarity', passed: false, detail: `${r.field} is "${r.code}" (${r.meaning}): a descriptive label, not the boolean asked ("${ask.asked}"); it is not coerced into yes or no` };
  return { name: 'polarity', passed: false, detail: `${r.field} is blank: no data, not false` };
}
