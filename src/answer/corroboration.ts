/**
 * What the cross-checks (src/execute/corroborate.ts) mean for an answer, written by code:
 *  - for grading: the recorded second reads that reproduced each fact, and values only second reads
 *    hold (SecondPaths, see figures.ts);
 *  - for the drafting prompt: a line per fact a cross-check disputed (the model is told not to
 *    restate the second value; code discloses it);
 *  - for the qualification: agreement (naming the second publisher and operation, and whether it
 *    shares an upstream with the primary read), disagreement (both values and both sources, never
 *    smoothed over), "no cross-check available" with the reason, and for corroborated figures that
 *    corroboration is agreement, not primary provenance;
 *  - for the JSON result: one entry per cross-check.
 */
import type { CrossCheck } from '../execute/corroborate.ts';
import type { RunIris } from '../evidence/iris.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import { formatValue, type FactSheet } from './factsheet.ts';
import type { CorroborationRef, Figure, SecondPaths, SecondValue } from './figures.ts';
import { publisherName } from './render.ts';
import { allOf } from './wording.ts';

export interface CrossCheckOut {
  /** The cross-check activity (an attempt IRI), when one was attempted. */
  iri: string | null;
  /** Attempt number (shared numbering with the search's attempts). */
  n: number | null;
  /** The evidence checked. */
  evidence: string;
  source: string;
  operation: string;
  outcome: CrossCheck['outcome'];
  value: number | null;
  primary_value: number;
  url: string | null;
  /** The second publisher response (in the evidence graph when the outcome is agrees or disagrees). */
  response: string | null;
  detail: string;
  /** Why the second path is not independent of the primary read, when it is not. */
  shared_upstream?: string;
  /** Wall-clock time of the second read (null when nothing was attempted). */
  elapsed_ms: number | null;
}

const refOf = (c: CrossCheck, iris: RunIris): CorroborationRef => ({
  check: iris.attempt(c.attempt!.n), response: c.response ? iris.response(c.response.sha256) : null,
  source: c.source, operation: c.operation, url: c.response?.url ?? null, ...(c.sharedUpstream ? { note: c.sharedUpstream } : {}),
});

/** Fact id (E…) of each evidence index on the sheet. */
const factIds = (sheet: FactSheet) => new Map(sheet.facts.map((f) => [f.evidence.index, f.id]));

export function secondPathsFor(sheet: FactSheet, checks: readonly CrossCheck[], iris: RunIris): SecondPaths {
  const ids = factIds(sheet);
  const agreements = new Map<string, CorroborationRef[]>();
  const byValue = new Map<string, { value: number; fact: string; refs: CorroborationRef[]; sources: string[] }>();
  for (const c of checks) {
    const id = ids.get(c.evidenceIndex);
    if (!id || !c.attempt || c.value === undefined) continue;
    if (c.outcome === 'agrees') agreements.set(id, [...(agreements.get(id) ?? []), refOf(c, iris)]);
    if (c.outcome === 'disagrees') {
      const k = `${id}|${c.value}`;
      const v = byValue.get(k) ?? { value: c.value, fact: id, refs: [], sources: [] };
      v.refs.push(refOf(c, iris)); v.sources.push(`${c.source}/${c.operation}`);
      byValue.set(k, v);
    }
  }
  const values = new Map<number, SecondValue>();
  for (const v of byValue.values()) {
    const primary = sheet.facts.find((f) => f.id === v.fact)!.evidence;
    const detail = v.refs.length >= 2
      ? `${v.value} is held by ${v.refs.length} recorded second reads (${v.sources.join(', ')}) for the same entity, measure and period as ${v.fact}, whose admitted value is ${primary.value}`
      : `${v.fact} is ${primary.value} (${primary.source}/${primary.operation}); ${v.value} is what a disagreeing cross-check read (${v.sources[0]})`;
    values.set(v.value, { value: v.value, refs: v.refs, fact: v.fact, detail });
  }
  return { agreements, values };
}

/** Lines for the drafting prompt: which facts a cross-check disputed (the value itself is not offered). */
export function crossCheckSheetLines(sheet: FactSheet, checks: readonly CrossCheck[]): string[] {
  const ids = factIds(sheet);
  const out: string[] = [];
  for (const c of checks) {
    const id = ids.get(c.evidenceIndex);
    if (id && c.outcome === 'disagrees') out.push(`[${id}] an independent cross-check (${publisherName(c.source)} ${c.operation}) DISAGREES with this value; code discloses both values separately — say the figure is disputed, do not restate the other value.`);
    if (id && c.outcome === 'agrees') out.push(`[${id}] a cross-check (${publisherName(c.source)} ${c.operation}) reproduced this exact value.`);
  }
  return out;
}

/** The second path's independence in the reader's terms: what it replays (never the sample's file path). */
function independence(c: CrossCheck): string {
  switch (c.sharedUpstreamCode) {
    case undefined: return '';
    case 'synthetic': return ` Independence: the second path replays a SYNTHETIC response${c.sharedUpstreamNote ? ` (${c.sharedUpstreamNote})` : ''}, not publisher data.`;
    case 'derived_second': return ' Independence: the second path replays a DERIVED sample built from other publisher data rather than recorded, so it may agree with the primary read by construction.';
    case 'derived_primary': return ' Independence: the second path is compared with a primary read that replays a DERIVED sample, so they may agree by construction.';
  }
}

/** "Apple Inc.'s Gross Profit for FY2022", or for several periods of one entity and measure, "… for FY2019, FY2020". */
function whatOf(items: readonly AdmittedEvidence[]): string {
  const by = new Map<string, AdmittedEvidence[]>();
  for (const e of items) { const k = `${e.entity.label}|${e.measureLabel}`; by.set(k, [...(by.get(k) ?? []), e]); }
  return [...by.values()].map((g) => `${g[0]!.entity.label}'s ${g[0]!.measureLabel} for ${g.map((e) => e.period.label).join(', ')}`).join('; ');
}

/** Why one second path gave no comparison, in the reader's terms: [what, singular verb phrase, plural verb phrase]. */
function unavailableReason(c: CrossCheck): [string, string, string] {
  const name = `${publisherName(c.source)} ${c.operation}`;
  switch (c.reason) {
    case 'no_other_operation': return ['', 'no other source in the catalog publishes this measure', ''];
    case 'read_failed': case 'bug': return [name, 'could not be read', 'could not be read'];
    case 'no_recording': return [name, 'has no recorded response for it', 'have no recorded response for it'];
    case 'no_same_record': return [name, 'holds no value for the same entity and period', 'hold no value for the same entity and period'];
    case 'not_attempted': return [name, `was not tried (${c.stop})`, `were not tried (${c.stop})`];
    case 'same_response': case 'own_read': return [name, "is the answer's own read, not a second one", "are the answer's own read, not second ones"];
    case 'no_binder': return [name, 'is not yet read as a cross-check', 'are not yet read as cross-checks'];
    default: return [name, 'does not read it for this entity', 'do not read it for this entity'];
  }
}

/** "SEC EDGAR companyconcept and SEC EDGAR frames have no recorded response for it; …" */
function reasonsText(checks: readonly CrossCheck[]): string {
  const by = new Map<string, { names: string[]; plural: string }>();
  for (const c of checks) {
    const [name, one, many] = unavailableReason(c);
    const g = by.get(one) ?? { names: [], plural: many };
    if (name && !g.names.includes(name)) g.names.push(name);
    by.set(one, g);
  }
  return [...by].map(([one, { names, plural }]) => names.length === 0 ? one
    : names.length === 1 ? `${names[0]} ${one}` : `${allOf(names)} ${plural}`).join('; ');
}

/**
 * The qualification's disclosures for the cross-checks of the admitted evidence: an agreement once
 * per second path (the periods it covers listed), a disagreement per figure with both values and
 * both sources, and "no cross-check available" once for every figure with the same reasons.
 */
export function crossCheckDisclosures(items: readonly AdmittedEvidence[], checks: readonly CrossCheck[]): string[] {
  const out: string[] = [];
  const agreed = new Map<string, { c: CrossCheck; items: AdmittedEvidence[]; urls: Set<string> }>();
  const none = new Map<string, AdmittedEvidence[]>();
  for (const e of items) {
    const mine = checks.filter((c) => c.evidenceIndex === e.index);
    if (mine.length === 0) continue;
    const what = `${e.entity.label}'s ${e.measureLabel} for ${e.period.label}`;
    const primary = `${formatValue(e.value, e.unit, e.currency)} from ${publisherName(e.source)} ${e.operation} (${e.raw.url})`;
    const compared = mine.filter((c) => c.outcome === 'agrees' || c.outcome === 'disagrees');
    for (const c of compared) {
      if (c.outcome === 'agrees') {
        const k = `${c.source}/${c.operation}|${independence(c)}`;
        const g = agreed.get(k) ?? { c, items: [], urls: new Set<string>() };
        g.items.push(e); if (c.response?.url) g.urls.add(c.response.url);
        agreed.set(k, g);
        continue;
      }
      const second = `${publisherName(c.source)} ${c.operation} (${c.response?.url ?? 'no URL recorded'})`;
      out.push(`Cross-check DISAGREES for ${what}: the answer's value is ${primary}; ${second} holds ${formatValue(c.value!, e.unit, e.currency)} for the same entity, measure, unit and period. The disagreement is not resolved; the answer states the primary read.${independence(c)}`);
    }
    if (compared.length === 0) {
      const why = reasonsText(mine);
      none.set(why, [...(none.get(why) ?? []), e]);
    }
  }
  for (const { c, items: agreeing, urls } of agreed.values()) {
    const one = agreeing.length === 1 ? agreeing[0]! : undefined;
    const value = one ? `the same ${formatValue(one.value, one.unit, one.currency)}` : 'the same values';
    out.push(`Cross-check agrees: ${publisherName(c.source)} ${c.operation}${urls.size === 1 ? ` (${[...urls][0]})` : ''} holds ${value} for ${whatOf(agreeing)}.${independence(c)}`);
  }
  const numeric = items.filter((e) => typeof e.value === 'number').length;
  for (const [why, missing] of none) {
    const scope = missing.length > 1 && missing.length === numeric && none.size === 1 ? `any of the ${missing.length} figures` : whatOf(missing);
    out.push(`No cross-check available for ${scope}: ${why}.`);
  }
  return out;
}

/** The qualification says what a corroborated figure is: agreement, not primary provenance. */
export function corroboratedDisclosures(figures: readonly Figure[]): string[] {
  return figures.filter((f) => f.grade === 'corroborated').map((f) => `"${f.text}" is corroborated, not verified: no admitted value states it; ${f.arithmetic ?? 'an independent path reproduced it'}. Corroboration is agreement between two independent computations or reads, not primary provenance.`);
}

export function crossChecksOut(checks: readonly CrossCheck[], iris: RunIris): CrossCheckOut[] {
  return checks.map((c) => ({
    iri: c.attempt ? iris.attempt(c.attempt.n) : null, n: c.attempt?.n ?? null, evidence: iris.evidence(c.evidenceIndex),
    source: c.source, operation: c.operation, outcome: c.outcome, value: c.value ?? null, primary_value: c.primaryValue,
    url: c.response?.url ?? c.attempt?.requests[0] ?? null, response: c.response && (c.outcome === 'agrees' || c.outcome === 'disagrees') ? iris.response(c.response.sha256) : null,
    detail: c.detail, ...(c.sharedUpstream ? { shared_upstream: c.sharedUpstream } : {}), elapsed_ms: c.attempt ? Math.round(c.attempt.elapsedMs) : null,
  }));
}
