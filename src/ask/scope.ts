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
  | { kind: 'pinned'; pins: ReadonlyArray<{ entity: string; bundle: IdentityBundle }>; notes: Note[] }
  | { kind: 'clarify'; intent: Intent }
  | { kind: 'refuse'; refusal: RefusalDecision };

/** The shapes read for one entity by key (each entity of a comparison too): the others name no single place to settle. */
const KEYED_SHAPES = new Set(['point', 'timeseries', 'comparison']);

/** A label that settles the grain when resumed: "New York (state)" for a state whose name is bare. */
export function settlingLabel(c: ScopeCandidate): string {
  if (c.grain === 'state' && !/\bstate\b/i.test(c.label)) return `${c.label} (state)`;
  return c.label;
}

/** The entities whose scope is settled: each entity of a comparison, else the one entity. */
function entitiesOf(intent: Intent): string[] {
  if (intent.shape === 'comparison') return intent.entities;
  const entity = intent.canonical_entity ?? intent.entity;
  return entity ? [entity] : [];
}

/**
 * Every entity's scope, in order: a grain missing refuses the question, an ambiguity under `ask`
 * asks about that entity (a comparison's resume replaces it among the entities), and every other
 * reading is pinned for the keyed read and disclosed.
 */
export async function settleScope(s: RunState, intent: Intent): Promise<ScopeStep> {
  if (!KEYED_SHAPES.has(intent.shape)) return { kind: 'none' };
  const pins: Array<{ entity: string; bundle: IdentityBundle }> = [];
  const notes: Note[] = [];
  for (const entity of entitiesOf(intent)) {
    const step = await settleOne(s, intent, entity);
    if (step.kind === 'refuse' || step.kind === 'clarify') return step;
    if (step.kind === 'pinned') { pins.push(step.pin); notes.push(step.note); }
  }
  return pins.length ? { kind: 'pinned', pins, notes } : { kind: 'none' };
}

type OneStep = { kind: 'none' } | { kind: 'pinned'; pin: { entity: string; bundle: IdentityBundle }; note: Note } | { kind: 'clarify'; intent: Intent } | { kind: 'refuse'; refusal: RefusalDecision };

async function settleOne(s: RunState, intent: Intent, entity: string): Promise<OneStep> {
  // the question's grain word belongs to one entity of a comparison ("New York and Los Angeles County"): only the kind of entity compared settles each
  const level = intent.shape === 'comparison' ? null : intent.geography?.level ?? null;
  const reading = await resolveScope(s.ctx.registry, entity, { level, type: intent.type }, s.ctx);
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
      return { kind: 'pinned', pin: { entity, bundle: reading.chosen.bundle }, note };
    }
    case 'ambiguous': {
      if (s.onAmbiguity === 'ask') {
        s.ctx.emit({ stage: 'ambiguity', by: 'ask', message: `"${entity}" names ${reading.candidates.length} geographies of different grain; asking` });
        return { kind: 'clarify', intent: { ...intent, entity, entity_status: 'ambiguous', entity_candidates: reading.candidates.map(settlingLabel) } };
      }
      const [chosen, ...rest] = reading.candidates as [ScopeCandidate, ...ScopeCandidate[]];
      s.ctx.emit({ stage: 'structure', by: 'ask', message: `"${entity}" names ${reading.candidates.length} geographies (${reading.candidates.map((c) => c.label).join('; ')}); answered for the most likely, ${chosen.label} (${chosen.grain})` });
      return { kind: 'pinned', pin: { entity, bundle: chosen.bundle }, note: { code: 'scope_reading', entity, chosen: chosen.label, grain: chosen.grain, alternatives: rest.map((c) => c.label) } };
    }
  }
}
