/**
 * Clarification requests: the caller is asked, with options that carry values (for a measure) and
 * every assumption needed to resume; the run records the intent and options so `resume` binds them.
 */
import { formatValue } from '../answer/factsheet.ts';
import { evidenceOut } from '../answer/assemble.ts';
import type { OperationRef } from '../discover/index.ts';
import type { AdmittedEvidence } from '../evidence/types.ts';
import { periodLabel, type Intent } from '../understand/index.ts';
import type { ResumeState } from './resume.ts';
import type { RunState } from './state.ts';
import type { AskResult, Assumptions, ClarificationOption } from './types.ts';
import { nameClarificationQuestion, offeredLabel, type NameClarification } from '../answer/wording.ts';
import type { IdentityBundle } from '../resolve/bundle.ts';

/** One registered entity offered for a name, and how picking it resumes: the bundle bound, the question re-read respelled when the words asked were not read as a name. */
export interface NameOffer { bundle: IdentityBundle; asked: string; question?: string }

/**
 * A name Assay will not guess (names.ts): the registered entities offered, each option binding its
 * bundle on resume (resume.ts) — read as picked, never re-resolved by name. Worded from its code
 * (answer/wording.ts).
 */
export function clarifyName(s: RunState, intent: Intent, c: NameClarification, offers: readonly NameOffer[]): AskResult {
  const options: ClarificationOption[] = offers.map((o, i) => ({
    n: i + 1, id: o.bundle.id, label: offeredLabel(c.offered[i]!), value: null, unit: null, currency: null, period: periodLabel(intent.period), evidence: null,
    assumptions: { measure: intent.attribute, measure_key: null, concept: null, operation: null, entity: o.bundle.label, period: periodLabel(intent.period) },
    entity: c.offered[i]!,
  }));
  s.resumeState = JSON.stringify({ intent, ...(s.interpreter === 'model' ? { interpreter: 'model' } : {}), options: offers.map((o, i) => ({ assumptions: options[i]!.assumptions, bundle: o.bundle, asked: o.asked, ...(o.question ? { question: o.question } : {}) })) } satisfies ResumeState);
  const question = nameClarificationQuestion(c);
  return { ...s.base('needs_clarification'), text: [question, ...options.map((o) => `${o.n}. ${o.label}`)].join('\n'), clarification: { question, options, code: c.code, asked: c.asked } };
}

/** A name several entities share: which one is meant? */
export function clarifyEntity(s: RunState, intent: Intent): AskResult {
  const options: ClarificationOption[] = intent.entity_candidates.map((c, i) => ({
    n: i + 1, id: c, label: c, value: null, unit: null, currency: null, period: null, evidence: null,
    assumptions: { measure: intent.attribute, measure_key: null, concept: null, operation: null, entity: c, period: periodLabel(intent.period) },
  }));
  s.resumeState = JSON.stringify({ intent, options: options.map((o) => ({ assumptions: o.assumptions })) } satisfies ResumeState);
  const question = `"${intent.entity}" could mean several entities. Which one do you mean?`;
  s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `entity "${intent.entity}": ${intent.entity_candidates.length} candidates; asking` });
  return { ...s.base('needs_clarification'), text: [question, ...options.map((o) => `${o.n}. ${o.label}`)].join('\n'), clarification: { question, options } };
}

const cap = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/**
 * A comparison of a measure with several readings ("earned": net income or revenue), under `ask`:
 * which reading are both sides compared on? The chosen reading is bound on resume (the
 * interpretations cleared), never re-interpreted. Under `answer` the first reading is compared and
 * said (ambiguity.ts comparedReading).
 */
export function clarifyComparedReading(s: RunState, intent: Intent, readings: readonly string[]): AskResult {
  const entity = intent.entities.join(' and ');
  const options: ClarificationOption[] = readings.map((reading, i) => ({
    n: i + 1, id: reading, label: cap(reading), value: null, unit: null, currency: null, period: periodLabel(intent.period), evidence: null,
    assumptions: { measure: reading, measure_key: null, concept: null, operation: null, entity, period: periodLabel(intent.period) },
  }));
  s.resumeState = JSON.stringify({ intent, options: options.map((o) => ({ assumptions: o.assumptions, reading: o.id })) } satisfies ResumeState);
  const question = `"${intent.attribute}" can be compared as ${readings.join(' or ')} for ${entity}. Which one do you mean?`;
  s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `comparison of "${intent.attribute}": ${readings.length} readings; asking` });
  return { ...s.base('needs_clarification'), text: [question, ...options.map((o) => `${o.n}. ${o.label}`)].join('\n'), clarification: { question, options } };
}

/** Readings of a measure that differ materially: which one is meant? Each option carries its value. */
export function clarifyReadings(s: RunState, intent: Intent, lead: ReadonlyArray<{ reading: string; e: AdmittedEvidence; operation: OperationRef }>): AskResult {
  const options: ClarificationOption[] = lead.map((g, i) => {
    const [, group, name] = g.e.measure.split('/');
    const assumptions: Assumptions = { measure: g.reading, measure_key: g.e.measure, concept: `${group}:${name}`, operation: `${g.operation.publisherId}/${g.operation.operationId}`, entity: g.e.entity.label, period: periodLabel(intent.period) };
    return { n: i + 1, id: `${group}:${name}`, label: `${cap(g.reading)} — ${g.e.measureLabel}`, value: g.e.value, unit: g.e.unit, currency: g.e.currency ?? null, period: g.e.period.label, evidence: s.iris.evidence(g.e.index), assumptions };
  });
  s.resumeState = JSON.stringify({ intent, options: lead.map((g, i) => ({ assumptions: options[i]!.assumptions, operation: g.operation, unit: g.e.unit })) } satisfies ResumeState);
  const entity = lead[0]!.e.entity.label;
  const question = `"${intent.attribute}" has ${options.length} materially different published meanings for ${entity.endsWith('.') ? entity.slice(0, -1) : entity}. Which one do you mean?`;
  const text = [question, ...options.map((o) => `${o.n}. ${o.label}: ${formatValue(o.value!, o.unit!, o.currency ?? undefined)} (${o.period})`)].join('\n');
  return { ...s.base('needs_clarification'), text, clarification: { question, options }, evidence: lead.map((g) => evidenceOut(s, g.e)) };
}
