/**
 * The ask request and result. Results are first-class whatever the outcome: `answered`,
 * `needs_clarification` (options with values and the assumptions to resume) or `refused` (a typed
 * boundary and what would make the question answerable). Field meanings: README, "assay ask".
 */
import type { Intent } from '../understand/intent.ts';
import type { ProgressEvent } from '../execute/progress.ts';
import type { CorroborationRef, Grade } from '../answer/figures.ts';
import type { CrossCheckOut } from '../answer/corroboration.ts';
import type { Citation } from '../answer/citations.ts';
import type { ResultTable } from '../population/table.ts';

export type OnAmbiguity = 'answer' | 'all' | 'ask';

export interface AskRequest {
  question?: string;
  /** A caller's own intent (validated like the interpreters' output). */
  intent?: unknown;
  on_ambiguity?: OnAmbiguity;
  strict?: boolean;
  /** Resume a clarification: the run id that asked, and the chosen option (1-based). */
  resume?: { run: string; option: number };
  interpreter?: 'offline' | 'model';
  timeoutMs?: number;
  /**
   * In a conversation, the previous turn's intent (null: no earlier understood turn): the question
   * is then read as a possible follow-up (understand/followup.ts). Set by conversation/ask.ts.
   */
  previous?: Intent | null;
}

export type RefusalBoundary =
  | 'no_access_path' | 'no_candidate_source' | 'entity_unresolved' | 'no_data' | 'operationally_blocked'
  | 'not_understood' | 'unsupported_shape' | 'unverified_figures' | 'low_assurance' | 'cancelled' | 'bad_resume';

export interface Refusal {
  boundary: RefusalBoundary; reason: string; answerable_if: string; code?: string;
  /** Every boundary the search reached, by source, each code once with a count (after a search). */
  reached?: Array<{ source: string; boundaries: Array<{ boundary: string; code: string; count: number; request?: string }> }>;
  /** Whether every choice point was tried (false: stopped by the deadline, budget, cancellation or a cap first). */
  exhausted?: boolean;
  /** How the question was read before the search (the scope reading taken), worded: a refusal says it as an answer would. */
  disclosures?: string[];
}

export interface ClarificationOption {
  n: number;
  id: string;
  label: string;
  value: number | null;
  unit: string | null;
  currency: string | null;
  period: string | null;
  evidence: string | null;
  /** Every binding needed to resume without re-interpreting. */
  assumptions: Assumptions;
  /** A registered entity offered for a name (src/ask/names.ts): who it is, and whether the sources planned can read it. */
  entity?: OfferedEntity;
}

/** A registry candidate offered in a clarification of a name. */
export interface OfferedEntity {
  /** The registry's id (a Wikidata QID when known) and label. */
  id: string;
  label: string;
  /** What the registry says it is (company, organization, school, state, county …). */
  kinds: string[];
  /** Its identifiers by kind (cik, ein, ipeds_unitid, fips …), as the registry holds them. */
  identifiers: Record<string, string[]>;
  /** The identifiers it carries that a source planned for the question is read by (empty: none can read it; null: nothing planned yet). */
  readable_by: string[] | null;
}

export interface Assumptions {
  measure: string | null;
  /** Catalog measure key (publisher/group/name), bound: no reselection on resume (null for an entity choice). */
  measure_key: string | null;
  concept: string | null;
  operation: string | null;
  entity: string;
  period: string | null;
}

export interface FigureOut {
  text: string; value: number; unit: string | null; grade: Grade; evidence: string[]; arithmetic?: string; note?: string;
  /** Recorded second reads that reproduced the value: the cross-check (an attempt IRI), its publisher response, operation and URL. */
  corroborated_by?: CorroborationRef[];
}

export interface EvidenceOut {
  iri: string; entity: string; entity_key: string; measure: string; measure_label: string;
  /** A number; a boolean for a status; null for a listed record without an amount. */
  value: number | boolean | null; unit: string;
  currency: string | null; period: string; period_end: string | null; source: string; assurance: string; warnings: string[];
  /** Status evidence: the publisher field, its code as published and what it means. */
  status?: { field: string; code: string; meaning: string };
  /** Record evidence: the listed record's kind, key and label. */
  record?: { kind: string; key: string; label: string };
}

export interface AttemptOut {
  n: number; source: string; operation: string; measure: string | null; disposition: string; reason?: string; elapsed_ms: number;
  /** The typed code an unsuccessful attempt ended with (`offline`, `not_found`, `period` …). */
  failure?: string;
  /** The period the reading asked for, when the binder chose it (a survey vintage a "latest" read descends through). */
  vintage?: string;
}

export interface AskResult {
  status: 'answered' | 'needs_clarification' | 'refused';
  run: string;
  run_id: string;
  question: string;
  text: string;
  rendering: 'plain' | 'model' | null;
  rendering_label: string | null;
  figures: FigureOut[];
  guarded_figures: FigureOut[];
  citations: Citation[];
  qualification: { level: number; statement: string; disclosures: string[] } | null;
  evidence: EvidenceOut[];
  alternatives?: Array<{ interpretation: string; value: number; unit: string; period: string; evidence: string }>;
  answers?: Array<{ interpretation: string; text: string; figures: FigureOut[]; evidence: string[] }>;
  clarification?: {
    question: string; options: ClarificationOption[];
    /** A clarification of the name asked: several registered names start with it, or it was not written as a registered name is. */
    code?: 'entity_candidates' | 'did_you_mean';
    /** The words of the question the clarification is about. */
    asked?: string;
  };
  refusal?: Refusal;
  intent: Intent | null;
  interpreter: string | null;
  plan: { verdict: string; reason: string } | null;
  attempts: AttemptOut[];
  /** Population answers (ranking, subset, correlation, topical …): columns with units, rows whose cells cite evidence, derived figures. */
  table?: ResultTable;
  /** Population answers: how complete each population read was (rows declared, read, members, usable, exclusions, verdict). */
  populations?: Array<{ attempt: string; operation: string; grain: string; scope: string; period: string; declared: number | null; read: number; members: number; usable: number; excluded: Array<{ code: string; count: number; detail?: string }>; verdict: string }>;
  /** Independent cross-checks of the admitted evidence (README, "Asking questions"). */
  cross_checks?: CrossCheckOut[];
  resumed_from?: string;
}

export type { ProgressEvent };
