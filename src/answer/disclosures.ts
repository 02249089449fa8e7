import type { Note } from '../execute/notes.ts';

/**
 * Disclosures as a reader sees them: said once. A series or comparison reads the same way for
 * every period ("2021 read as its last record, dated 2021-12-31", the same DERIVED cassette note
 * for each year), and listing each one buries the disclosures that differ. Disclosures that are the
 * same sentence but for their numbers and dates are written once, followed by the values that differ
 * for the others ("…; likewise for 2022 (2022-12-30), 2023 (2023-12-29)"). Nothing is dropped: every
 * differing number of every merged disclosure is still written.
 *
 * This applies only to sentences other layers wrote as text (validator and connector warnings,
 * per-period and per-response). The executor's and the answer's own decisions are typed notes
 * (src/execute/notes.ts), compared by code and worded once in wording.ts; when the validators and
 * connectors emit typed warnings too, this template merge goes away.
 */

/** Dates, date spans and numbers (with thousands separators or decimals). */
const TOKEN = /\d{4}-\d{2}-\d{2}(?:…\d{4}-\d{2}-\d{2})?|\d+(?:[,.]\d+)*/g;

const templateOf = (d: string) => d.replace(TOKEN, '#');
const tokensOf = (d: string) => d.match(TOKEN) ?? [];

/**
 * "incomplete by construction: replayed from TRIMMED sample(s) S" when another disclosure already
 * describes the TRIMMED sample S: the two are one note, the description marked incomplete.
 */
function foldTrimmed(disclosures: readonly string[]): string[] {
  const out = [...disclosures];
  for (const d of disclosures) {
    const m = /^incomplete by construction: replayed from TRIMMED sample\(s\) (.+)$/.exec(d);
    if (!m) continue;
    const samples = m[1]!.split(', ');
    const described = samples.map((x) => out.findIndex((o) => o !== d && /TRIMMED/.test(o) && o.includes(x)));
    if (described.some((i) => i < 0)) continue;
    for (const i of new Set(described)) if (!out[i]!.startsWith('incomplete by construction')) out[i] = `incomplete by construction: ${out[i]}`;
    out.splice(out.indexOf(d), 1);
  }
  return out;
}

export function mergeDisclosures(disclosures: readonly string[]): string[] {
  const unique = foldTrimmed([...new Set(disclosures)]);
  const groups = new Map<string, string[]>();
  for (const d of unique) {
    const t = templateOf(d);
    groups.set(t, [...(groups.get(t) ?? []), d]);
  }
  const out: string[] = [];
  const done = new Set<string>();
  for (const d of unique) {
    const t = templateOf(d);
    if (done.has(t)) continue;
    done.add(t);
    const members = groups.get(t)!;
    if (members.length === 1) { out.push(...members); continue; }
    const first = tokensOf(members[0]!);
    const others = members.slice(1).map((m) => {
      const toks = tokensOf(m);
      // the values of this member where it differs from the first, each written once, in order
      const differing = [...new Set(toks.filter((v, i) => v !== first[i]))];
      return differing.length > 1 ? `${differing[0]} (${differing.slice(1).join(', ')})` : differing[0] ?? '';
    });
    out.push(`${members[0]!.replace(/\.$/, '')}; likewise for ${others.join(', ')}${members[0]!.endsWith('.') ? '.' : ''}`);
  }
  return out;
}

/**
 * What a reader must know before reading a comparison's difference: the values are different
 * published measures, or periods of the same name that end on different dates (one filer's FY2023
 * ends in September, another's in December).
 */
export function comparisonNotes(items: readonly { entity: { label: string }; measureLabel: string; period: { label: string; end?: string } }[]): Note[] {
  if (new Set(items.map((e) => e.entity.label)).size < 2) return [];
  const out: Note[] = [];
  if (new Set(items.map((e) => e.measureLabel)).size > 1) out.push({ code: 'measures_differ', items: items.map((e) => ({ entity: e.entity.label, measure: e.measureLabel })) });
  const labels = new Set(items.map((e) => e.period.label));
  const ends = new Set(items.map((e) => e.period.end ?? ''));
  if (labels.size === 1 && ends.size > 1) out.push({ code: 'period_ends_differ', period: [...labels][0]!, items: items.map((e) => ({ entity: e.entity.label, end: e.period.end ?? null })) });
  return out;
}
