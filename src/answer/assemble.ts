/**
 * Answer assembly: admitted evidence → the answered result. The fact sheet (or record sheet) is
 * written by code; the text is drafted by the model from it, or rendered plainly; code grades every
 * figure, resolves citations from the graph, and qualifies the answer by the weakest asserted
 * assurance. Notes arrive typed and are worded here (wording.ts); sentences other layers already
 * wrote (validator and connector warnings) are merged when they differ only in their numbers.
 */
import type { RunState } from '../ask/state.ts';
import type { AskResult, FigureOut } from '../ask/types.ts';
import type { Note } from '../execute/notes.ts';
import type { AdmittedEvidence, AnyEvidence } from '../evidence/types.ts';
import { resolveCitations } from './citations.ts';
import { corroboratedDisclosures, crossCheckDisclosures, crossCheckSheetLines, crossChecksOut, secondPathsFor } from './corroboration.ts';
import { comparisonNotes, mergeDisclosures } from './disclosures.ts';
import { factSheet, factSheetText, type Derived } from './factsheet.ts';
import { gradeText, strictBlockers, type Figure } from './figures.ts';
import { qualify } from './qualification.ts';
import { recordSheet, recordSheetText, renderRecords } from './records.ts';
import { PLAIN_LABEL, renderPlain } from './render.ts';
import { draftWithModel } from './synthesise.ts';
import { ModelTransportError } from '../llm/types.ts';
import { renderNote } from './wording.ts';
import { variantNotes } from './variants.ts';

export interface Drafted { text: string; rendering: 'plain' | 'model'; figures: Figure[]; guarded: Figure[]; blockers: Figure[]; /** Why the words are not the model's, when it was asked and could not give them. */ notes: Note[] }

export const figureOut = (f: Figure): FigureOut => ({ text: f.text, value: f.value, unit: f.unit, grade: f.grade, evidence: f.facts, ...(f.arithmetic ? { arithmetic: f.arithmetic } : {}), ...(f.note ? { note: f.note } : {}), ...(f.corroboratedBy ? { corroborated_by: f.corroboratedBy } : {}) });

/** Typed notes worded once each; foreign sentences merged when they differ only in their numbers. */
function disclosuresOf(warnings: readonly string[], notes: readonly Note[]): string[] {
  const text = notes.flatMap((n) => n.code === 'text' ? [n.text] : []);
  const typed = [...new Set(notes.filter((n) => n.code !== 'text').map(renderNote))];
  return [...mergeDisclosures([...warnings, ...text]), ...typed];
}

const renderingLabel = (s: RunState, rendering: 'plain' | 'model') => rendering === 'plain' ? PLAIN_LABEL : `drafted by ${s.services.model!.modelFor('synthesise')} from the fact sheet; figures graded by code`;

export async function draft(s: RunState, items: readonly AdmittedEvidence[], hedge: boolean): Promise<Drafted> {
  const sheet = factSheet(items);
  const { text, rendering, notes } = await worded(s, () => factSheetText(sheet, s.question, crossCheckSheetLines(sheet, s.crossChecks)), () => renderPlain(sheet, { hedge }));
  const g = gradeText(text, sheet, secondPathsFor(sheet, s.crossChecks, s.iris));
  const idToIri = new Map(sheet.facts.map((f) => [f.id, s.iris.evidence(f.evidence.index)]));
  const withIris = (f: Figure): Figure => ({ ...f, facts: f.facts.map((id) => idToIri.get(id) ?? id) });
  return { text, rendering, figures: g.figures.map(withIris), guarded: g.guarded.map(withIris), blockers: strictBlockers(g), notes };
}

/**
 * The answer's words: the drafting model's, when one is configured and answers; the plain
 * rendering otherwise. The evidence is admitted and graded by then, so a drafting model that fails
 * in transport (or drafts nothing) does not cost the answer: the plain rendering is given and a
 * note says why. A deadline or a caller stopping the question still ends it (rethrown).
 */
export async function worded(s: RunState, sheetText: () => string, plain: () => string): Promise<{ text: string; rendering: 'plain' | 'model'; notes: Note[] }> {
  const model = s.services.model;
  if (!model) return { text: plain(), rendering: 'plain', notes: [] };
  let why: 'failed' | 'empty';
  try {
    const d = await draftWithModel(model, s.question, sheetText(), s.ctx.signal);
    s.ctx.usage.push({ role: 'synthesise', model: d.model, ...(d.usage ?? {}) });
    if (d.text) return { text: d.text, rendering: 'model', notes: [] };
    why = 'empty';
  } catch (e) {
    if (!(e instanceof ModelTransportError) || s.ctx.signal.aborted) throw e;
    why = 'failed';
    s.ctx.emit({ stage: 'answer', by: 'plain renderer', message: `the drafting model failed (${e.message}); the plain rendering is given` });
  }
  return { text: plain(), rendering: 'plain', notes: [{ code: 'drafting_fallback', model: model.modelFor('synthesise'), why }] };
}

const strictRefusal = (s: RunState, blockers: readonly Figure[]) => s.refuse({ boundary: 'unverified_figures', code: 'unverified_figures', detail: `strict mode: ${blockers.map((f) => `"${f.text}" is ${f.grade}`).join('; ')}`, params: { figures: blockers.map((f) => f.text) } });

/** Measured values (point, comparison, timeseries, readings). */
export async function answerValues(s: RunState, items: AdmittedEvidence[], notes: readonly Note[], extra: Partial<AskResult> = {}): Promise<AskResult> {
  const q = qualify(items, s.services.assuranceFloor ?? 1);
  if (q.abstain) return s.refuse({ boundary: 'low_assurance', code: 'low_assurance', detail: q.statement, params: { level: q.level } });
  const d = await draft(s, items, q.hedge);
  s.ctx.emit({ stage: 'answer', by: d.rendering === 'model' ? `model (${s.services.model!.modelFor('synthesise')})` : 'plain renderer', message: `${d.figures.length} figure(s): ${d.figures.map((f) => `${f.text} ${f.grade}`).join(', ') || 'none'}` });
  if (s.req.strict && d.blockers.length > 0) return strictRefusal(s, d.blockers);
  const citations = resolveCitations(s.services.store.rdf, s.iris.evidenceGraph, items.map((e) => s.iris.evidence(e.index)));
  const disclosures = [
    ...disclosuresOf(q.disclosures, [...notes, ...comparisonNotes(items), ...variantNotes(items, s.plan?.assessments ?? [], (k) => s.services.index.unitOf(k)), ...d.notes]),
    ...crossCheckDisclosures(items, s.crossChecks), ...corroboratedDisclosures(d.figures),
  ]
    // a note that is only a figure's period label is already in the sentence
    .filter((x) => !items.some((e) => e.period.label === x));
  return {
    ...s.base('answered'), text: d.text, rendering: d.rendering, rendering_label: renderingLabel(s, d.rendering),
    figures: d.figures.map(figureOut), guarded_figures: d.guarded.map(figureOut), citations,
    qualification: { level: q.level, statement: q.statement, disclosures },
    evidence: items.map((e) => evidenceOut(s, e)), ...(s.crossChecks.length ? { cross_checks: crossChecksOut(s.crossChecks, s.iris) } : {}), ...extra,
  };
}

/** Status and list answers: the same grading, citations and qualification as measured values. */
export async function answerRecords(s: RunState, items: AnyEvidence[], total: number, notes: readonly Note[], plainText?: string, derived: readonly Derived[] = []): Promise<AskResult> {
  const q = qualify(items, s.services.assuranceFloor ?? 1);
  if (q.abstain) return s.refuse({ boundary: 'low_assurance', code: 'low_assurance', detail: q.statement, params: { level: q.level } });
  const sheet = recordSheet(items, total, derived);
  const { text, rendering, notes: wordingNotes } = await worded(s, () => recordSheetText(sheet, s.question), () => plainText ?? renderRecords(sheet, { hedge: q.hedge }));
  const g = gradeText(text, sheet);
  const idToIri = new Map(sheet.items.map((f) => [f.id, s.iris.evidence(f.evidence.index)]));
  const withIris = (f: Figure): Figure => ({ ...f, facts: f.facts.map((id) => idToIri.get(id) ?? id) });
  const figures = g.figures.map(withIris);
  s.ctx.emit({ stage: 'answer', by: rendering === 'model' ? `model (${s.services.model!.modelFor('synthesise')})` : 'plain renderer', message: `${sheet.layout}: ${sheet.items.length} evidence item(s); ${figures.length} figure(s): ${figures.map((f) => `${f.text} ${f.grade}`).join(', ') || 'none'}` });
  const blockers = strictBlockers(g);
  if (s.req.strict && blockers.length > 0) return strictRefusal(s, blockers);
  // a listed record cites the one response it came from (its attempt may have read several pages)
  const own = new Map(items.map((e) => [s.iris.evidence(e.index), e.raw.sha256]));
  const citations = resolveCitations(s.services.store.rdf, s.iris.evidenceGraph, items.map((e) => s.iris.evidence(e.index)))
    .filter((c) => c.content_hash === null || c.content_hash === own.get(c.evidence));
  return {
    ...s.base('answered'), text, rendering, rendering_label: renderingLabel(s, rendering),
    figures: figures.map(figureOut), guarded_figures: g.guarded.map(withIris).map(figureOut), citations,
    qualification: { level: q.level, statement: q.statement, disclosures: [...disclosuresOf(q.disclosures, [...notes, ...wordingNotes]), ...corroboratedDisclosures(figures)] },
    evidence: items.map((e) => evidenceOut(s, e)),
  };
}

export function evidenceOut(s: RunState, e: AnyEvidence): AskResult['evidence'][number] {
  return {
    iri: s.iris.evidence(e.index), entity: e.entity.label, entity_key: `${e.entity.keyType}=${e.entity.key}`, measure: e.measure, measure_label: e.measureLabel,
    value: e.value, unit: e.unit, currency: e.currency ?? null, period: e.period.label, period_end: e.period.end ?? null, source: e.source,
    assurance: e.assurance.match === 'key' ? 'key_match' : 'name_match', warnings: e.assurance.warnings,
    ...(e.status ? { status: { field: e.status.field, code: e.status.code, meaning: e.status.meaning } } : {}),
    ...(e.record ? { record: { kind: e.record.kind, key: e.record.key, label: e.record.label } } : {}),
  };
}
