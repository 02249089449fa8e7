/** Refusals as data: the boundary reached, in words, and what would make the question answerable. */
import type { Boundary } from '../execute/leaf.ts';
import { ERROR_CODES } from '../http/errors.ts';
import type { Refusal, RefusalBoundary } from './types.ts';

export function refusalFrom(boundary: Boundary | RefusalBoundary, reason: string, context: { attribute?: string | null; entity?: string | null; period?: string | null; missing?: string; code?: string } = {}): Refusal {
  const what = `${context.attribute ?? 'the value'}${context.entity ? ` for ${context.entity}` : ''}${context.period ? ` in ${context.period}` : ''}`;
  const fix = context.code && context.code in ERROR_CODES ? ERROR_CODES[context.code as keyof typeof ERROR_CODES].fix : undefined;
  const answerable: Record<string, string> = {
    no_access_path: `a source declaring ${context.missing ?? 'the operation this shape needs'}`,
    no_candidate_source: `a catalogued source publishing ${context.attribute ?? 'this measure'}`,
    entity_unresolved: 'the entity named unambiguously (its full legal name), or an intent naming the canonical entity',
    no_data: `a publisher response holding ${what} (the source has the measure, but not for this entity and period)`,
    operationally_blocked: fix ? `${fix}` : 'the blocked call succeeding (credential, rate limit or snapshot)',
    not_understood: `${context.missing ?? 'a rephrased question'}, or an intent sent with --intent`,
    unsupported_shape: 'an executor for this shape (this build runs point, status, entity list, comparison and timeseries reads)',
    unverified_figures: 'a draft whose every figure is found in the evidence, or a non-strict request',
    low_assurance: 'evidence matched on a canonical identifier, or a lower assurance floor',
    cancelled: 'asking again without cancelling',
    bad_resume: 'a run id that returned a clarification and an option number it listed',
  };
  // an unresolved name says which entities would do: the candidates to choose from, or the kind the read takes
  const among = /is ambiguous: \d+ \S+ have that name \(([^)]*)\)/.exec(reason);
  const kind = /could not be resolved as an? ([a-z ]+): no candidate/.exec(reason);
  if (boundary === 'entity_unresolved' && among) answerable.entity_unresolved = `the one meant named in full: ${among[1]!.split('; ').map((x) => `"${x}"`).join(' or ')}`;
  else if (boundary === 'entity_unresolved' && kind) answerable.entity_unresolved = `${/^[aeiou]/i.test(kind[1]!) ? 'an' : 'a'} ${kind[1]} the identity registry holds, named as registered (this read is keyed by ${kind[1]}), or an intent naming the canonical entity`;
  // a record was found but its label does not plainly say it is what was asked, and nothing may settle that
  if (context.code === 'residual') answerable.no_data = `a configured model to settle whether the publisher's label means ${context.attribute ? `"${context.attribute}"` : 'what was asked'} (it is consulted only after every structural check has passed), or the question asked in the publisher's own wording`;
  return { boundary: boundary as RefusalBoundary, reason, answerable_if: answerable[boundary] ?? 'more evidence', ...(context.code ? { code: context.code } : {}) };
}
