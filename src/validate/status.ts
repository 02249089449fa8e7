/**
 * Status questions, read on their own terms: which yes/no a question asks, which publisher field
 * answers it, and the declared table that turns the field's code into that boolean.
 *
 * Input: the status the intent asks (`intent.status`); a publisher entity record. Output: a
 * reading — `boolean` (the code is in the table: true, or a false that stands on its own, with the
 * code shown), `label` (the field holds a code or label the table does not map to the boolean
 * asked: a description is not an answer to a yes/no question, so it is never coerced), or
 * `missing` (the field is blank: no data, never false). A record that does not exist is not a
 * reading at all (the executor reports no data). Tables are the publishers' own documented codes
 * (the IRS EO BMF code tables, kept in that connector; Rule 12b-2 filer categories); nothing is
 * guessed. Which operations carry each field is declared by the connectors (`statusFields`).
 */
import type { EntityRecord } from '../connectors/records.ts';
import { EXEMPT_STATUS, FOUNDATION, NOT_501C3_FOUNDATION_CODE, PRIVATE_FOUNDATION_CODES, PUBLIC_CHARITY_CODES, STATUS, subsectionLabel } from '../connectors/irs-eo-bmf.ts';
import { filerCategoryParts } from '../connectors/sec-edgar.ts';
import { operationsCarrying } from '../connectors/registry.ts';
import type { StatusAsked } from '../understand/intent.ts';
import { statusAskedIn } from '../understand/offline/asked.ts';
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

/** Securities filer categories (Rule 12b-2), mutually exclusive, and the flags that may accompany one. */
const SEC_CATEGORIES = ['large accelerated filer', 'accelerated filer', 'non-accelerated filer'] as const;
const SEC_FLAGS = ['smaller reporting company', 'emerging growth company'] as const;

const attr = (rec: EntityRecord, name: string): string | null => {
  const v = rec.attributes[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;
};

function subsectionAsk(paragraph: number): StatusAsk {
  const code = String(paragraph).padStart(2, '0');
  return {
    id: `501c${paragraph}`, asked: `a 501(c)(${paragraph}) organization`, operations: operationsCarrying('subsection'),
    read(rec) {
      const got = attr(rec, 'subsection');
      if (!got) return { kind: 'missing', field: 'subsection' };
      return { kind: 'boolean', truth: got === code, field: 'subsection', code: got, meaning: subsectionLabel(got) };
    },
  };
}

function foundationAsk(id: 'private_foundation' | 'public_charity'): StatusAsk {
  const yes = id === 'private_foundation' ? PRIVATE_FOUNDATION_CODES : PUBLIC_CHARITY_CODES;
  const no = id === 'private_foundation' ? PUBLIC_CHARITY_CODES : PRIVATE_FOUNDATION_CODES;
  return {
    id, asked: id === 'private_foundation' ? 'a private foundation' : 'a public charity',
    operations: operationsCarrying('foundation'),
    read(rec) {
      const got = attr(rec, 'foundation');
      if (!got) return { kind: 'missing', field: 'foundation' };
      const meaning = FOUNDATION[got] ?? `foundation code ${got}`;
      // not a 501(c)(3): neither a private foundation nor a public charity, on its own terms
      if (yes.has(got)) return { kind: 'boolean', truth: true, field: 'foundation', code: got, meaning };
      if (no.has(got) || got === NOT_501C3_FOUNDATION_CODE) return { kind: 'boolean', truth: false, field: 'foundation', code: got, meaning };
      return { kind: 'label', field: 'foundation', code: got, meaning };
    },
  };
}

const exemptAsk = (): StatusAsk => ({
  id: 'tax_exempt', asked: 'tax-exempt', operations: operationsCarrying('status'),
  read(rec) {
    const got = attr(rec, 'status');
    if (!got) return { kind: 'missing', field: 'status' };
    const meaning = STATUS[got] ?? `exempt-organization status code ${got}`;
    const truth = EXEMPT_STATUS[got];
    return truth === undefined ? { kind: 'label', field: 'status', code: got, meaning } : { kind: 'boolean', truth, field: 'status', code: got, meaning };
  },
});

function secCategoryAsk(category: typeof SEC_CATEGORIES[number] | typeof SEC_FLAGS[number]): StatusAsk {
  return {
    id: category.replace(/[^a-z]+/g, '_'), asked: `${/^[aeiou]/.test(category) ? 'an' : 'a'} ${category}`, operations: operationsCarrying('category'),
    read(rec) {
      const got = attr(rec, 'category');
      if (!got) return { kind: 'missing', field: 'category' };
      const parts = filerCategoryParts(got);
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
 * The reader for the status an intent asks (`intent.status`, set by src/understand/): the declared
 * field, the operations whose records carry it (as each connector declares) and the code table
 * that turns it into the boolean asked. Null when no reader is declared for that status: the
 * executor refuses rather than guess a field. Nothing here reads the question.
 */
export function statusReader(asked: StatusAsked | null): StatusAsk | null {
  if (!asked) return null;
  const c = /^501c(\d{1,2})$/.exec(asked.id);
  if (c) return subsectionAsk(Number(c[1]));
  if (asked.id === 'private_foundation' || asked.id === 'public_charity') return foundationAsk(asked.id);
  if (asked.id === 'tax_exempt') return exemptAsk();
  const cat = [...SEC_CATEGORIES, ...SEC_FLAGS].find((x) => x.replace(/[^a-z]+/g, '_') === asked.id);
  return cat ? secCategoryAsk(cat) : null;
}

/**
 * @deprecated Reads words: kept only until src/ask/records.ts and test/execute/status-readers.test.ts
 * switch to `statusReader(intent.status)`. The words are read by src/understand/ (statusAskedIn).
 */
export function statusAsk(question: string, attribute: string | null): StatusAsk | null {
  return statusReader(statusAskedIn(question) ?? statusAskedIn(attribute ?? ''));
}

/** The polarity check of a reading: only a boolean from the declared table answers a yes/no. */
export function polarityCheck(ask: StatusAsk, r: StatusReading): Check {
  if (r.kind === 'boolean') return { name: 'polarity', passed: true, detail: `${r.field} ${r.code} (${r.meaning}) reads as ${r.truth ? 'yes' : 'no'} for "${ask.asked}"${r.truth ? '' : ': a false on its own terms, from the declared code table'}` };
  if (r.kind === 'label') return { name: 'polarity', passed: false, detail: `${r.field} is "${r.code}" (${r.meaning}): a descriptive label, not the boolean asked ("${ask.asked}"); it is not coerced into yes or no` };
  return { name: 'polarity', passed: false, detail: `${r.field} is blank: no data, not false` };
}
