/**
 * The validation ladder: structural checks decide; a model is consulted only when every structural
 * check passed AND the structural verdict marked a residual semantic question. The model can reject;
 * it cannot admit — a structural rejection is returned unchanged, and the judge is never called for it.
 */
import type { StructuralVerdict } from './structural.ts';

export interface SemanticJudge {
  /** Answers whether the record semantically answers the question; `false` rejects. */
  judge(question: string, residual: string, signal: AbortSignal): Promise<{ answers: boolean; reason: string }>;
}

export interface FinalVerdict extends StructuralVerdict {
  /** Who decided: code alone, or code then the model (which only ever rejects). */
  decidedBy: 'code' | 'code+model';
}

export async function adjudicate(structural: StructuralVerdict, question: string, signal: AbortSignal, judge?: SemanticJudge): Promise<FinalVerdict> {
  if (!structural.passed) return { ...structural, decidedBy: 'code' };
  if (!structural.residual) return { ...structural, decidedBy: 'code' };
  // No model to settle it: an unsettled semantic question is not admitted (a refusal beats a wrong number).
  if (!judge) return { ...structural, passed: false, prune: false, reason: `residual semantic question, and no model is configured to settle it: ${structural.residual}`, decidedBy: 'code' };
  const r = await judge.judge(question, structural.residual, signal);
  if (r.answers) return { ...structural, decidedBy: 'code+model' };
  return { ...structural, passed: false, prune: false, reason: `the model judged the record does not answer the question: ${r.reason}`, decidedBy: 'code+model' };
}
