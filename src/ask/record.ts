/**
 * Writing a run to the store: the evidence graph gets admitted evidence with its provenance; the
 * run's own graph gets the run node, the intent (JSON), the plan, every attempt, the answer with its
 * figure grades, the clarification (with the state needed to resume) or the refusal. One journaled
 * write per run, as N-Quads.
 */
import { Writer } from 'n3';
import type { Quad } from '../rdf/store.ts';
import { jsFactory as factory } from '../rdf/store.ts';
import { ASSAY, PROV, RDF, XSD } from '../rdf/vocab.ts';
import type { RunIris } from '../evidence/iris.ts';
import type { AskResult } from './types.ts';

const { namedNode: nn, literal: lit, quad } = factory;

export function runQuads(result: AskResult, iris: RunIris, extra: { intentJson: string | null; resumeState?: string; startedAt: string; endedAt: string }): Quad[] {
  const g = nn(iris.runGraph);
  const out: Quad[] = [];
  const add = (s: string, p: string, o: Parameters<typeof quad>[2]) => out.push(quad(nn(s), nn(p), o, g));
  add(iris.run, RDF.type, nn(ASSAY.Run));
  add(iris.run, RDF.type, nn(PROV.Activity));
  add(iris.run, ASSAY.question, lit(result.question));
  add(iris.run, ASSAY.runStatus, lit(result.status));
  add(iris.run, PROV.startedAtTime, lit(extra.startedAt, nn(XSD.dateTime)));
  add(iris.run, PROV.endedAtTime, lit(extra.endedAt, nn(XSD.dateTime)));
  if (extra.intentJson) add(iris.run, ASSAY.intentJson, lit(extra.intentJson));
  if (result.interpreter) add(iris.run, ASSAY.interpreter, lit(result.interpreter));
  if (result.plan) add(iris.run, ASSAY.planNode, nn(iris.plan));
  const a = iris.answer;
  add(iris.run, ASSAY.answer, nn(a));
  add(a, RDF.type, nn(result.status === 'answered' ? ASSAY.Answer : result.status === 'refused' ? ASSAY.Refusal : ASSAY.Clarification));
  add(a, ASSAY.text, lit(result.text));
  for (const e of result.evidence) add(iris.run, ASSAY.evidence, nn(e.iri));
  if (result.qualification) add(a, ASSAY.qualification, lit(result.qualification.statement));
  result.figures.forEach((f, i) => {
    const fi = iris.figure(i + 1);
    add(a, ASSAY.figure, nn(fi));
    add(fi, RDF.type, nn(ASSAY.Figure));
    add(fi, ASSAY.asWritten, lit(f.text));
    if (Number.isFinite(f.value)) add(fi, ASSAY.value, lit(String(f.value), nn(XSD.decimal)));
    add(fi, ASSAY.grade, lit(f.grade));
    for (const e of f.evidence) add(fi, ASSAY.supportedBy, nn(e));
    if (f.arithmetic) add(fi, ASSAY.arithmetic, lit(f.arithmetic));
    for (const c of f.corroborated_by ?? []) add(fi, ASSAY.corroboratedBy, nn(c.check));
  });
  if (result.refusal) {
    add(a, ASSAY.boundary, lit(result.refusal.boundary));
    add(a, ASSAY.reason, lit(result.refusal.reason));
  }
  if (extra.resumeState) add(a, ASSAY.resumeState, lit(extra.resumeState));
  return out;
}

export function toNQuads(quads: readonly Quad[]): string {
  const w = new Writer({ format: 'N-Quads' });
  return w.quadsToString(quads as never);
}
