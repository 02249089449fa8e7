/**
 * "Latest" means latest: when the question asks for the latest period (or names none), the answer
 * is read from the newest period any eligible candidate declares, and "latest available" is
 * written only when no eligible candidate declares a newer one.
 *
 * Input: the eligible candidates' declared periods (each candidate's dataset `temporal.end` in the
 * catalog, or a vintage a binder derives from it), and, after the search, the candidate read and
 * why each newer one was not. Output: the newest candidates to try first (`byNewest`), and the one
 * disclosure the answer carries (`latestDisclosure`): `latest_available` when what was read is the
 * newest declared, or `older_vintage_read` naming every newer candidate and the typed reason it was
 * not read. `checkLatestOrder` refuses (`newer_not_tried`) a read that skipped a newer candidate
 * no attempt was made for: that is a search-order bug, not an answer.
 */

export interface DeclaredPeriod {
  /** The candidate's key (source/operation/measure), as the search engine names it. */
  candidate: string;
  source: string;
  /** ISO date (or year) the candidate's newest period ends: 2021-12-31, 2021. */
  end: string;
  /** The publisher's name for that period ("ACS 5-year 2017–2021"), when known. */
  label?: string;
}

/** Why a newer candidate was not read: a failure code from its attempts (`not_found`, `offline`, …) or `not_attempted`. */
export type NotReadReason = string;

export type LatestDisclosure =
  | { code: 'latest_available'; period: string; source: string }
  | { code: 'older_vintage_read'; read: { candidate: string; source: string; period: string }; newer: Array<{ candidate: string; source: string; period: string; reason: NotReadReason }> };

export type LatestOrder =
  | { ok: true }
  | { ok: false; code: 'newer_not_tried'; read: string; newer: string[] };

/** Comparable key of an end: a year alone counts as its last day. */
const endKey = (end: string) => (/^\d{4}$/.test(end) ? `${end}-12-31` : end.slice(0, 10));
const spell = (d: DeclaredPeriod) => d.label ?? d.end;

/** Candidates newest first; equal ends keep their given (discovery) order. */
export function byNewest<T extends DeclaredPeriod>(eligible: readonly T[]): T[] {
  return eligible.map((d, i) => ({ d, i })).sort((a, b) => endKey(b.d.end).localeCompare(endKey(a.d.end)) || a.i - b.i).map((x) => x.d);
}

/** The newest declared end among the eligible candidates, or undefined when none declares one. */
export function newestEnd(eligible: readonly DeclaredPeriod[]): string | undefined {
  return byNewest(eligible)[0]?.end;
}

/**
 * The disclosure for a latest read: what was read, and — when a newer period is declared — every
 * newer candidate with the reason it was not read (from the search's attempts, by candidate).
 */
export function latestDisclosure(read: DeclaredPeriod, eligible: readonly DeclaredPeriod[], reasons: ReadonlyMap<string, NotReadReason> = new Map()): LatestDisclosure {
  const newer = byNewest(eligible).filter((d) => d.candidate !== read.candidate && endKey(d.end) > endKey(read.end));
  if (newer.length === 0) return { code: 'latest_available', period: spell(read), source: read.source };
  return {
    code: 'older_vintage_read',
    read: { candidate: read.candidate, source: read.source, period: spell(read) },
    newer: newer.map((d) => ({ candidate: d.candidate, source: d.source, period: spell(d), reason: reasons.get(d.candidate) ?? 'not_attempted' })),
  };
}

/** A latest read is in order only when every newer eligible candidate was attempted first. */
export function checkLatestOrder(read: DeclaredPeriod, eligible: readonly DeclaredPeriod[], attempted: ReadonlySet<string>): LatestOrder {
  const skipped = eligible.filter((d) => d.candidate !== read.candidate && endKey(d.end) > endKey(read.end) && !attempted.has(d.candidate)).map((d) => d.candidate);
  return skipped.length === 0 ? { ok: true } : { ok: false, code: 'newer_not_tried', read: read.candidate, newer: skipped };
}
