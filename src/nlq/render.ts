/**
 * Every reader-facing sentence of the NL→SPARQL lane, rendered once from typed codes.
 */
import type { Cited } from './cite.ts';
import type { BeyondReason } from './generate/types.ts';
import type { NlqFailure, TurnOutcome } from './loop.ts';
import type { GroundingCut } from './grounding.ts';
import type { Qualification, Rung } from './qualify.ts';
import { localName } from './text.ts';

const short = (iri: string) => `<${iri}>`;

export function beyondText(r: BeyondReason): string {
  switch (r.code) {
    case 'not-grounded': return 'the offline generator needs the graph\'s grounding (labels, classes, predicates), and this run is ungrounded';
    case 'unrecognised-form': return 'the offline generator does not recognise this form of question (it handles: a property of a named entity, the entities of a class related to a named entity, counts, superlatives, yes/no questions and simple filters); configure a model (ASSAY_LLM_URL, ASSAY_NLQ_MODEL) for other questions';
    case 'nothing-linked': return 'nothing in the question matches a label, class or entity of this graph';
    case 'ambiguous-entity': return `"${r.mention}" names several things in this graph: ${r.candidates.map((c) => `${c.label} (${short(c.iri)})`).join('; ')}; name the one you mean`;
    case 'no-relation': return `no predicate of ${r.subject ? short(r.subject) : 'the entities asked about'} matches the words of the question${r.hint ? ` (needed for the ${r.hint})` : ''}`;
    case 'no-join': return `the graph links no ${localName(r.from)} to ${short(r.to)} through any predicate`;
    case 'not-numeric': return `${short(r.predicate)} does not hold numbers or dates, so it cannot be ordered or compared`;
    case 'unlinked-mention': return `"${r.mention}" names nothing this graph holds under that name (no label, local name or qualified name matches), and a query without it would answer a different question`;
    case 'zero-values': return `${short(r.predicate)} holds ${r.zeros} zero value${r.zeros === 1 ? '' : 's'}, and the graph does not say whether a zero is a measurement or a placeholder for an unknown one, so the smallest values cannot be ranked safely`;
    case 'guessed-join-empty': return `the question names no relation, the join the generator chose (${short(r.predicate)}) found nothing, and an empty answer from a guessed join is no evidence of absence`;
    case 'cannot-repair': return 'the offline generator writes one query per question and cannot repair it';
    case 'unused-words': return `the only query the offline generator found leaves ${r.words.map((w) => `"${w}"`).join(', ')} of the question unused, so it would answer a different question`;
  }
}

export function outcomeText(o: TurnOutcome): string {
  switch (o.kind) {
    case 'rows': return `${o.rows} row${o.rows === 1 ? '' : 's'}`;
    case 'boolean': return `ASK → ${o.value}`;
    case 'no-sparql': return 'the completion held no SPARQL query';
    case 'invalid': return `invalid: ${o.message}`;
    case 'exec-error': return `execution failed (${o.code}): ${o.message}`;
    case 'row-budget': return `more than ${o.maxRows} rows: the row budget was exceeded`;
    case 'beyond': return `not attempted: ${beyondText(o.reason)}`;
    case 'generator-error': return `the generator failed: ${o.message}`;
  }
}

export function failureText(f: NlqFailure): string {
  switch (f.reason.code) {
    case 'beyond': return `Not answered: ${beyondText(f.reason.beyond)}.`;
    case 'exhausted': return `Not answered: no valid query after ${f.reason.rounds} round${f.reason.rounds === 1 ? '' : 's'} (last: ${outcomeText(f.reason.last)}).`;
    case 'abstained': return `Not answered: the supporting bindings are asserted too weakly (${f.reason.why === 'confidence-below-floor' ? 'confidence below the configured floor' : 'assurance below the configured floor'}).`;
    case 'unknown-graph': return `Not answered: the store holds no graph <${f.reason.graph}>; load one with \`assay load FILE --graph IRI\`.`;
    case 'empty-graph': return 'Not answered: the graph is empty.';
  }
}

const HEDGE: Record<Rung, string> = {
  proven: 'the graph asserts this with a key match',
  claimed: 'the graph reports this from a recorded source',
  conjectured: 'this appears to hold (the graph asserts it with a weak match)',
  missing: 'no source recorded: this is what the graph says, unsourced',
};

export function qualificationText(q: Qualification): string {
  const band = q.band === 'unknown' ? 'no confidence asserted' : `lowest asserted confidence ${q.minConfidence} (${q.band})`;
  return `${HEDGE[q.assurance]}; ${band}; weakest link over ${q.supporting} supporting binding${q.supporting === 1 ? '' : 's'}${q.unprovenanced ? `, ${q.unprovenanced} with no source recorded` : ''}. This states asserted assurance, not a calibrated probability.`;
}

export function footnotes(c: Cited): string[] {
  const lines: string[] = [];
  const byN = new Map<number, Cited['citations']>();
  for (const x of c.citations) byN.set(x.n, [...(byN.get(x.n) ?? []), x]);
  for (const [n, list] of [...byN].sort((a, b) => a[0] - b[0])) {
    const x = list[0]!;
    const extra = [x.title ? `"${x.title}"` : undefined, x.url ?? undefined, x.retrievedAt ? `retrieved ${x.retrievedAt}` : undefined].filter(Boolean).join(', ');
    lines.push(`[${n}] <${x.source}>${extra ? ` — ${extra}` : ''} (${x.via}; supports ${list.length} binding${list.length === 1 ? '' : 's'})`);
  }
  if (c.noSourceRecorded.length > 0) lines.push(`no source recorded for ${c.noSourceRecorded.length} binding${c.noSourceRecorded.length === 1 ? '' : 's'}${c.noSourceRecorded.length <= 5 ? `: ${c.noSourceRecorded.map(short).join(', ')}` : ''}`);
  return lines;
}

export function groundingCutText(c: GroundingCut): string {
  const what = c.code === 'labels-cut' ? 'labels' : c.code === 'types-cut' ? 'rdf:type statements' : 'predicates';
  return `grounding read only the first ${c.read} ${what} (limit ${c.limit}; raise nlq.maxLabelRows): names beyond them were not linked`;
}

export const LANE_LABEL = 'generated-query lane: rows from a generated SPARQL query, unverified (not graded evidence)';
