/**
 * The contract every shape executor implements (see README.md in this folder).
 *
 * Input: the intent, the plan's eligible candidates and the question's QueryContext. Output: a
 * `ShapeOutcome` — evidence (with the notes a reader must see), a refusal (the failure a search led
 * with, and every boundary reached), a clarification to ask, or `declined` (this executor does not
 * read this question; the next one registered for the shape tries). An executor never fetches on
 * its own: it supplies choice points to the engine (../engine.ts `search`) and decides, from the
 * engine's outcomes, what the shape's answer is. It never writes English for the reader beyond the
 * trace: what it concluded travels as typed values (`Failure`, `Note`), worded in src/answer.
 */
import type { Candidate, OperationRef } from '../../discover/index.ts';
import type { AnyEvidence } from '../../evidence/types.ts';
import type { Assessment, Plan } from '../../plan/plan.ts';
import type { Intent, Shape } from '../../understand/intent.ts';
import type { SemanticJudge } from '../../validate/adjudicate.ts';
import type { Attempt } from '../attempt.ts';
import type { GrantStore } from '../../grants/store.ts';
import type { AssayStore } from '../../rdf/backend.ts';
import type { GrantIris } from '../../grants/vocab.ts';
import type { QueryContext } from '../context.ts';
import type { Failure } from '../failure.ts';
import type { Note } from '../notes.ts';
import type { IdentityBundle } from '../../resolve/bundle.ts';
import type { PopulationAnswer } from '../../population/answer-types.ts';

/** What the planner handed the executor: the plan, its eligible candidates in priority order, units and second paths. */
export interface Planned {
  plan: Plan;
  candidates: Assessment[];
  /** Catalog unit per measure key (discovery cards). */
  units: Map<string, string>;
  /** Every catalog operation serving each discovered measure (cross-check second paths). */
  serving?: Map<string, OperationRef[]>;
  /** The discovery candidates the plan was made from. */
  found?: readonly Candidate[];
  /** Ratio and correlation: each component measure's eligible candidates, in planner priority. */
  components?: ReadonlyMap<string, Assessment[]>;
}

export interface ShapeInput {
  ctx: QueryContext;
  intent: Intent;
  planned: Planned;
  onAmbiguity: 'answer' | 'all' | 'ask';
  /** Attempt numbering shared across the run. */
  nextAttempt: () => number;
  /** The residual semantic check, when a model is configured (it may only reject). */
  judge?: SemanticJudge;
  /** A place settled before the read (ask/scope.ts: the state, not the county of the same name): the keyed read binds this geography only. */
  pinned?: ReadonlyArray<{ entity: string; bundle: IdentityBundle }>;
  /** The store holding the grant graph, for the grant_graph executor (a materialized index, not a publisher). */
  grantGraph?: { store: GrantStore; iris: GrantIris };
  /** The question's store, where population graphs are stored once and read back by later questions (src/population/materialize.ts). */
  populationStore?: { store: AssayStore; baseIri: string };
}

/** An admitted item before the run numbers it. */
export type Item = Omit<AnyEvidence, 'index'>;

/**
 * How complete a population read is (ranking, aggregate, subset, correlation): the members the
 * operation declares, how many were read, and every member left out with why. Required whenever an
 * answer stands for a whole population.
 */
export interface Completeness {
  declared: number | null;
  read: number;
  excluded: Array<{ key: string; reason: Note }>;
  /** The operation read the population to its declared end. */
  whole: boolean;
}

/** A result table a population shape answers with (rows keyed by entity; cells by column id). */
export interface ResultTable {
  columns: Array<{ id: string; label: string; unit?: string }>;
  rows: Array<{ key: string; label: string; cells: Record<string, number | string | boolean | null>; evidence: number[] }>;
}

export type ShapeOutcome =
  | {
    kind: 'evidence';
    attempts: Attempt[];
    /** Admitted items in the order the answer numbers them (E1, E2, …). */
    items: Item[];
    /** What the reader must be told about how the items were read. */
    notes: Note[];
    /** How the answer is assembled: measured values, records (status, lists), or a population table. */
    answer: 'values' | 'records' | 'population';
    /** Records the read holds in all (a list states its total even when it lists fewer). */
    total?: number;
    completeness?: Completeness;
    table?: ResultTable;
    /** Population shapes: the typed result, the read(s) and their result table (src/population/answer.ts words and grades it). */
    population?: PopulationAnswer;
  }
  | { kind: 'refused'; attempts: Attempt[]; failure: Failure; reached?: Failure[]; exhausted?: boolean; context: RefusalContext }
  | { kind: 'clarify'; attempts: Attempt[]; intent: Intent }
  | { kind: 'declined'; attempts: Attempt[] };

/** Words of the question a refusal is worded from. */
export interface RefusalContext {
  attribute?: string | null; entity?: string | null; period?: string | null; missing?: string;
  /** The branch of a comparison that failed (its refusal says it could not compare). */
  comparing?: string;
}

export interface ShapeExecutor {
  /** The shapes this executor reads. */
  readonly shapes: readonly Shape[];
  /** A short name for the trace. */
  readonly name: string;
  execute(input: ShapeInput): Promise<ShapeOutcome>;
}
