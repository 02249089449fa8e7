/**
 * Variants the question did not choose. A publisher's label "Head, Qualifier" ("Earnings Per Share,
 * Diluted", "Property, Plant and Equipment, Net") names one variant of a family whose other members
 * share the head ("Earnings Per Share, Basic"). When the words asked are the head alone and the plan
 * held another variant of it, the answer says which variant it read and which others exist: a
 * typed note (`variant_read`), worded in wording.ts.
 *
 * Input: the admitted evidence (its label and the words asked) and the plan's assessed candidates.
 * Output: notes. Decided by code from labels only; it never changes what was read (the executor's
 * order did), and a question naming a variant ("basic EPS") reads that one and gets no note.
 */
import type { AdmittedEvidence } from '../evidence/types.ts';
import type { Note } from '../execute/notes.ts';
import type { Assessment } from '../plan/plan.ts';
import { comparableWords } from '../validate/structural.ts';

/** The label split at a comma into the family the words asked name and the qualifier after it, or undefined. */
export function variantOf(label: string, asked: string): { family: string; qualifier: string } | undefined {
  const want = comparableWords(asked).join(' ');
  if (!want) return undefined;
  // a catalog title may end in its taxonomy ("Earnings Per Share, Basic (us-gaap)"): not part of the qualifier
  const parts = label.replace(/\s*\([^)]*\)\s*$/, '').split(/,\s*/);
  for (let k = 1; k < parts.length; k++) {
    const family = parts.slice(0, k).join(', ');
    if (comparableWords(family).join(' ') === want) return { family, qualifier: parts.slice(k).join(', ') };
  }
  return undefined;
}

/**
 * `unitOf` gives a measure's declared unit by its key: a variant is another way of stating the same
 * quantity, so a sibling in another unit ("Property, Plant and Equipment, Useful Life, Maximum", in
 * years) is not one; nor is a deprecated concept.
 */
export function variantNotes(items: readonly Pick<AdmittedEvidence, 'measureLabel' | 'attribute' | 'source' | 'measure'>[], assessments: readonly Pick<Assessment, 'title' | 'publisherId' | 'candidateKey'>[], unitOf: (measureKey: string) => string | undefined = () => undefined): Note[] {
  const out: Note[] = [];
  for (const e of items) {
    if (!e.attribute) continue;
    const read = variantOf(e.measureLabel, e.attribute);
    if (!read) continue;
    const same = (q: string) => comparableWords(q).join(' ') === comparableWords(read.qualifier).join(' ');
    const others = [...new Set(assessments
      .filter((a) => a.publisherId === e.source && !/\(deprecated\b/i.test(a.title) && unitOf(a.candidateKey) === unitOf(e.measure))
      .map((a) => variantOf(a.title, e.attribute!))
      .filter((v): v is NonNullable<typeof v> => !!v && !same(v.qualifier))
      .map((v) => v.qualifier))];
    if (others.length) out.push({ code: 'variant_read', attribute: e.attribute, family: read.family, read: read.qualifier, others });
  }
  return out;
}
