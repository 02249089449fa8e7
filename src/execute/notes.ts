/**
 * Notes as data: what an executor tells the reader about how a value was read, as a typed code with
 * parameters. They travel with the outcome to the answer, where src/answer/wording.ts writes each
 * one in English — the one place that does. Code compares notes by code and parameters; nothing
 * reads a note's words back.
 *
 * `text` carries a sentence another layer already wrote (a validator's warning, a connector's note
 * about its response) until that layer emits typed notes too.
 */
import type { LatestDisclosure } from '../validate/latest.ts';

export type Note =
  /** The name fits several entities; the most likely one was read. */
  | { code: 'entity_ambiguous_answered'; entity: string; candidates: readonly string[]; chosen: string }
  /** A place name several geographies of different grain share: the one read, why (the grain words, when they settled it), and the others. */
  | { code: 'scope_reading'; entity: string; chosen: string; grain: string; by?: string; alternatives: readonly string[] }
  /** "Latest" read: the newest declared period was read, or an older one was, and every newer declared one with why it was not read. */
  | { code: 'latest'; disclosure: LatestDisclosure }
  /** "Latest" within one response: the candidate concept holding the newest period was read, and the ones passed over for it (each with the period it ends). */
  | { code: 'latest_concept'; read: string; end: string; passedOver: ReadonlyArray<{ measure: string; end: string }> }
  /** No entity named: the value is the dataset's own scope. */
  | { code: 'scope_read'; scope: string; source: string }
  /** Read by a code the publisher defines, as the question names it. */
  | { code: 'code_read'; keyType: string; key: string }
  /** A name the question uses, bound to a code the publisher defines. */
  | { code: 'code_bound'; asked: string; keyType: string; key: string }
  /** One period of a series has no value (the others are answered). */
  | { code: 'period_missing'; measure: string; period: string; detail: string }
  /** The drafting model failed in transport or drafted nothing, after the evidence was admitted: the plain rendering is given. */
  | { code: 'drafting_fallback'; model: string; why: 'failed' | 'empty' }
  /** Several readings of the measure returned the same value. */
  | { code: 'readings_aliases'; groups: ReadonlyArray<readonly string[]> }
  /** Every materially different reading is answered. */
  | { code: 'readings_all'; attribute: string; readings: readonly string[] }
  /** The preferred reading is answered; the others are alternatives in the data. */
  | { code: 'reading_chosen'; attribute: string; reading: string }
  /** A comparison of a measure with several readings, compared on the preferred one (both sides the same measure). */
  | { code: 'reading_compared'; attribute: string; reading: string; readings: readonly string[] }
  /** The values compared are different published measures. */
  | { code: 'measures_differ'; items: ReadonlyArray<{ entity: string; measure: string }> }
  /** Periods of the same name that end on different dates. */
  | { code: 'period_ends_differ'; period: string; items: ReadonlyArray<{ entity: string; end: string | null }> }
  /** A year named relative to the question's clock ("last year"), read as that clock year plus the offset. */
  | { code: 'relative_year'; words: string; year: number; today: string }
  /** A sentence written by another layer (validator, connector, registry), carried as written. */
  | { code: 'text'; text: string }
  /** The registered entity the asker chose in a clarification of the name asked (src/ask/names.ts): read as chosen, never re-resolved. */
  | { code: 'entity_chosen'; asked: string; chosen: string; key: { keyType: string; value: string } | null }
  /** The words asked name a measure family ("earnings per share") whose variants the question did not choose: the variant read ("Diluted") and the others the publisher has ("Basic"). */
  | { code: 'variant_read'; attribute: string; family: string; read: string; others: readonly string[] };

export type NoteCode = Note['code'];

export const text = (t: string): Note => ({ code: 'text', text: t });
