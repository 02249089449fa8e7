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

/** The qualification's disclosures for the cross-checks of the admitted evidence. */
export function crossCheckDisclosures(items: readonly AdmittedEvidence[], checks: readonly CrossCheck[]): string[] {
  const out: string[] = [];
  for (const e of items) {
    const mine = checks.filter((c) => c.evidenceIndex === e.index);
    if (mine.length === 0) continue;
    const what = `${e.entity.label}'s ${e.measureLabel} for ${e.period.label}`;
    const primary = `${formatValue(e.value, e.unit, e.currency)} from ${publisherName(e.source)} ${e.operation} (${e.raw.url})`;
    const compared = mine.filter((c) => c.outcome === 'agrees' || c.outcome === 'disagrees');
    for (const c of compared) {
      const second = `${publisherName(c.source)} ${c.operation} (${c.response?.url ?? 'no URL recorded'})`;
      const upstream = c.sharedUpstream ? ` Independence: the second path ${c.sharedUpstream}.` : '';
      if (c.outcome === 'agrees') out.push(`Cross-check agrees: ${second} holds the same ${formatValue(e.value, e.unit, e.currency)} for ${what} as the primary read, ${publisherName(e.source)} ${e.operation} (${e.raw.url}).${upstream}`);
      else out.push(`Cross-check DISAGREES for ${what}: the answer's value is ${primary}; ${second} holds ${formatValue(c.value!, e.unit, e.currency)} for the same entity, measure, unit and period. The disagreement is not resolved; the answer states the primary read.${upstream}`);
    }
    if (compared.length === 0) {
      const why = [...new Set(mine.map((c) => `${c.operation === '(none)' ? '' : `${c.source}/${c.operation}: `}${c.outcome === 'failed' ? `failed (recorded as attempt ${c.attempt?.n ?? '-'}; the answer is unaffected) — ` : ''}${c.detail.replace(/^no cross-check available: /, '')}`))];
      out.push(`No cross-check available for ${what}: ${why.join('; ')}.`);
    }
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
