/**
 * The answer to a population question, inside `ask`: the shown rows admitted as evidence (SHACL
 * checked, as every evidence), each population read's completeness and the result table written
 * to the run graph, the text drafted (model) or rendered (plain) from the population fact sheet and
 * graded against it by code, citations resolved from the graph. Called by src/ask/run.ts for an
 * outcome whose answer is `population`.
 */
import type { AdmittedEvidence } from '../evidence/types.ts';
import { factSheetText } from '../answer/factsheet.ts';
import { gradeText, strictBlockers, type Figure } from '../answer/figures.ts';
import { resolveCitations } from '../answer/citations.ts';
import { qualify } from '../answer/qualification.ts';
import { mergeDisclosures } from '../answer/disclosures.ts';
import { PLAIN_LABEL } from '../answer/render.ts';
import { toNQuads } from '../ask/record.ts';
import type { RunState } from '../ask/state.ts';
import { evidenceOut, figureOut, worded } from '../answer/assemble.ts';
import { renderNote } from '../answer/wording.ts';
import type { AskResult } from '../ask/types.ts';
import type { PopulationAnswer } from './answer-types.ts';
import { composePopulation } from './answer.ts';
import { crossCheck, type CrossCheck } from '../execute/corroborate.ts';
import { corroboratedDisclosures, crossCheckDisclosures, crossChecksOut, secondPathsFor } from '../answer/corroboration.ts';
import { disputedComponentText } from './wording.ts';
import { populationReadQuads, tableQuads } from './rdf.ts';
import { rowIriOf } from './materialize.ts';
import type { PopulationRead, PopulationRow } from './types.ts';

export async function answerPopulation(s: RunState, items: AdmittedEvidence[], pa: PopulationAnswer, notes: string[]): Promise<AskResult> {
  const q = qualify(items, s.services.assuranceFloor ?? 1);
  if (items.length > 0 && q.abstain) return s.refuse({ boundary: 'low_assurance', code: 'low_assurance', detail: q.statement, params: { level: q.level } });
  // an entity's ratio: each keyed component cross-checked against its declared second paths, as a point read's value is
  if (pa.crossCheck) s.crossChecks = await crossCheck(s.ctx, items.filter((e): e is typeof e & { value: number } => typeof e.value === 'number'), { serving: pa.crossCheck, nextAttempt: s.nextAttempt });
  await s.writeEvidence(items);
  const base = s.services.baseIri;
  // a population too large for one answer's evidence is stored once as a population graph (at its read,
  // src/population/choices.ts); the cells of a correlation's aligned pairs without evidence cite its rows
  const rowIri = (r: PopulationRead, row: PopulationRow) => (pa.shape === 'correlation' && r.graph ? rowIriOf(r.graph, row.key) : undefined);
  const c = composePopulation(pa, items, (index) => s.iris.evidence(index), rowIri);
  const tableIri = `${s.iris.answer}/table`;
  const quads = [
    ...pa.reads.flatMap((r) => populationReadQuads(s.iris.attempt(r.attemptN), r, s.iris.runGraph, base, s.iris.response)),
    ...(c.table ? tableQuads(tableIri, s.iris.answer, c.table, s.iris.runGraph, base) : []),
  ];
  if (quads.length > 0) await s.services.store.apply({ kind: 'load', data: toNQuads(quads), format: 'application/n-quads' });
  const { text, rendering, notes: wordingNotes } = await worded(s, () => factSheetText(c.sheet, s.question), () => c.text);
  const g = gradeText(text, c.sheet, secondPathsFor(c.sheet, s.crossChecks, s.iris));
  const idToIri = new Map(c.sheet.facts.map((f) => [f.id, s.iris.evidence(f.evidence.index)]));
  // a derived figure's operands may be other derived figures (a count in a ratio): they cite the evidence those rest on
  const derivedOf = new Map(c.sheet.derived.map((d) => [d.id, d.operands]));
  const expand = (id: string, seen = new Set<string>()): string[] => (idToIri.has(id) ? [idToIri.get(id)!] : seen.has(id) ? [] : (derivedOf.get(id) ?? []).flatMap((x) => expand(x, new Set([...seen, id]))));
  const withIris = (f: Figure): Figure => ({ ...f, facts: [...new Set(f.facts.flatMap((id) => expand(id)))] });
  const figures = g.figures.map(withIris);
  s.ctx.emit({ stage: 'answer', by: rendering === 'model' ? `model (${s.services.model!.modelFor('synthesise')})` : 'plain renderer', message: `${pa.shape}: ${items.length} evidence item(s); ${figures.length} figure(s): ${figures.map((f) => `${f.text} ${f.grade}`).join(', ') || 'none'}` });
  const blockers = strictBlockers(g);
  if (s.req.strict && blockers.length > 0) return s.refuse({ boundary: 'unverified_figures', code: 'unverified_figures', detail: `strict mode: ${blockers.map((f) => `"${f.text}" is ${f.grade}`).join('; ')}`, params: { figures: blockers.map((f) => f.text) } });
  const citations = resolveCitations(s.services.store.rdf, s.iris.evidenceGraph, items.map((e) => s.iris.evidence(e.index)));
  const table = c.table ? { ...c.table, populations: c.table.populations } : undefined;
  return {
    ...s.base('answered'), text, rendering, rendering_label: rendering === 'plain' ? PLAIN_LABEL : `drafted by ${s.services.model!.modelFor('synthesise')} from the fact sheet; figures graded by code`,
    figures: figures.map(figureOut), guarded_figures: g.guarded.map(withIris).map(figureOut), citations,
    qualification: { level: q.level, statement: q.statement, disclosures: mergeDisclosures([...q.disclosures, ...notes, ...c.disclosures, ...wordingNotes.map(renderNote), ...(pa.crossCheck ? [...crossCheckDisclosures(items, s.crossChecks), ...corroboratedDisclosures(figures), ...disputedComponents(items, s.crossChecks)] : [])]) },
    evidence: items.map((e) => evidenceOut(s, e)),
    ...(s.crossChecks.length ? { cross_checks: crossChecksOut(s.crossChecks, s.iris) } : {}),
    ...(table ? { table } : {}),
    populations: pa.reads.map((r) => ({
      attempt: s.iris.attempt(r.attemptN), operation: `${r.source}/${r.operation}`, grain: r.grain, scope: r.scope.kind === 'nation' ? 'US' : r.scope.fips, period: r.period.label,
      declared: r.completeness.declared, read: r.completeness.read, members: r.completeness.members, usable: r.completeness.usable,
      excluded: r.completeness.excluded.map((e) => ({ code: e.code, count: e.count, ...(e.detail ? { detail: e.detail } : {}) })), verdict: r.completeness.verdict,
    })),
  };
}

/** A ratio computed from a component a cross-check disputes: it stands on the primary read, and says so. */
function disputedComponents(items: readonly AdmittedEvidence[], checks: readonly CrossCheck[]): string[] {
  const disputed = items.filter((e) => checks.some((c) => c.evidenceIndex === e.index && c.outcome === 'disagrees'));
  return disputed.length ? [disputedComponentText(disputed.map((e) => e.measureLabel))] : [];
}

