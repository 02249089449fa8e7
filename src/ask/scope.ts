/**
 * Scope ambiguity (issue 10, rule 3), a step before any fetch: a place name that designates
 * geographies of different grain ("New York": the state and New York County) is settled exactly as
 * entity ambiguity is. Words that name the grain settle it ("New York County", "the state of New
 * York"); otherwise the caller is asked (`on_ambiguity: ask`) or the most likely reading is answered
 * and disclosed with the alternatives (`answer`). A grain the registry holds no geography of ("New
 * York City": no city is registered) is refused, never read as another grain.
 *
 * The geography settled travels to the keyed read pinned (its registry bundle, so its FIPS code), so
 * a county table can never silently bind the county for a state asked (resolve/scope.ts decides the
 * reading; this step only acts on it).
 */
import type { RefusalDecision } from '../answer/wording.ts';
import type { Note } from '../execute/notes.ts';
import type { IdentityBundle } from '../resolve/bundle.ts';
import { resolveScope, type ScopeCandidate } from '../resolve/scope.ts';
import type { Intent } from '../understand/index.ts';
import type { RunState } from './state.ts';

export type ScopeStep =
  | { kind: 'none' }
  | { kind: 'pinned'; entity: string; bundle: IdentityBundle; note: Note }
  | { kind: 'clarify'; intent: Intent }
  | { kind: 'refuse'; refusal: RefusalDecision };

/** The shapes read for one entity by key: the others name no single place to settle. */
const SINGLE_ENTITY = new Set(['point', 'timeseries']);

/** A label that settles the grain when resumed: "New York (state)" for a state whose name is bare. */
export function settlingLabel(c: ScopeCandidate): string {
  if (c.grain === 'state' && !/\bstate\b/i.test(c.label)) return `${c.label} (state)`;
  return c.label;
}

export async function settleScope(s: RunState, intent: Intent): Promise<ScopeStep> {
  const entity = intent.canonical_entity ?? intent.entity;
  if (!entity || !SINGLE_ENTITY.has(intent.shape)) return { kind: 'none' };
  const reading = await resolveScope(s.ctx.registry, entity, { level: intent.geography?.level ?? null, type: intent.type }, s.ctx);
  switch (reading.status) {
    case 'not_scope': return { kind: 'none' };
    case 'grain_missing': {
      s.ctx.emit({ stage: 'structure', by: 'ask', message: `"${entity}" asks for a ${reading.asked} (${reading.words}); the registry holds ${reading.available.map((c) => c.label).join('; ')} only` });
      return {
        kind: 'refuse',
        refusal: {
          boundary: 'entity_unresolved', code: 'grain_missing',
          params: { entity, asked: reading.asked, words: reading.words, available: reading.available.map((c) => c.label) },
          detail: `"${entity}" names a ${reading.asked}; no ${reading.asked} of that name is in the identity registry, and ${reading.available.map((c) => c.label).join(' and ')} ${reading.available.length === 1 ? 'is' : 'are'} not it`,
          context: { attribute: intent.attribute, entity },
        },
      };
    }
    case 'settled': {
      const note: Note = { code: 'scope_reading', entity, chosen: reading.chosen.label, grain: reading.chosen.grain, by: reading.by.words, alternatives: reading.alternatives.map((c) => c.label) };
      s.ctx.emit({ stage: 'structure', by: 'ask', message: `"${entity}" read as ${reading.chosen.label} (${reading.by.words}); also the name of ${reading.alternatives.map((c) => c.label).join('; ')}` });
      return { kind: 'pinned', entity, bundle: reading.chosen.bundle, note };
    }
    case 'ambiguous': {
      if (s.onAmbiguity === 'ask') {
        s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `"${entity}" names ${reading.candidates.length} geographies of different grain; asking` });
        return { kind: 'clarify', intent: { ...intent, entity_status: 'ambiguous', entity_candidates: reading.candidates.map(settlingLabel) } };
      }
      const [chosen, ...rest] = reading.candidates as [ScopeCandidate, ...ScopeCandidate[]];
      s.ctx.emit({ stage: 'structure', by: 'ask', message: `"${entity}" names ${reading.candidates.length} geographies (${reading.candidates.map((c) => c.label).join('; ')}); answered for the most likely, ${chosen.label} (${chosen.grain})` });
      return { kind: 'pinned', entity, bundle: chosen.bundle, note: { code: 'scope_reading', entity, chosen: chosen.label, grain: chosen.grain, alternatives: rest.map((c) => c.label) } };
    }
  }
}
