/**
 * The JSON shape of an NL→SPARQL outcome (for `assay nlq --json` and `POST /nlq`): plain data,
 * snake_case keys like the rest of Assay's HTTP surface, with the English rendered once.
 */
import type { NlqOutcome } from './loop.ts';
import { failureText, footnotes, groundingCutText, LANE_LABEL, outcomeText, qualificationText } from './render.ts';

export function outcomeJson(o: NlqOutcome, options: { prompts?: boolean } = {}): Record<string, unknown> {
  const transcript = o.transcript.map((t) => ({
    round: t.round, generator: t.generator, ...(options.prompts ? { prompt: t.prompt } : {}),
    completion: t.completion, sparql: t.sparql, outcome: t.outcome, outcome_text: outcomeText(t.outcome), notes: t.notes, ms: Math.round(t.ms),
  }));
  const common = {
    question: o.question, graph: o.graph, generator: o.generator, repairs: o.repairs, linking: o.linking, transcript,
    grounding_cuts: o.groundingCuts.map((c) => ({ ...c, text: groundingCutText(c) })),
  };
  if (o.status === 'not_answered') return { status: o.status, text: failureText(o), reason: o.reason, ...(o.sparql ? { sparql: o.sparql } : {}), ...common };
  const r = o.result;
  return {
    status: o.status,
    lane: o.lane, verified: o.verified, lane_label: LANE_LABEL,
    sparql: o.sparql,
    result: r.kind === 'ask' ? { kind: 'ask', boolean: r.value } : { kind: 'select', vars: r.vars, rows: r.rows },
    citations: o.citations ? { footnotes: footnotes(o.citations), items: o.citations.citations, no_source_recorded: o.citations.noSourceRecorded } : null,
    qualification: o.qualification ? { ...o.qualification, statement: qualificationText(o.qualification) } : null,
    ...common,
  };
}
