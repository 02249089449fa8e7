/**
 * The parts of Assay's ask result the page reads (README, "Asking questions"). A client's view:
 * fields the page does not use are not listed, and every optional field is treated as optional.
 */
export type Grade = 'verified' | 'derived' | 'corroborated' | 'conflict' | 'unverified';
export const GRADES: readonly Grade[] = ['verified', 'derived', 'corroborated', 'conflict', 'unverified'];

export interface Figure {
  text: string;
  value: number;
  unit: string | null;
  grade: Grade;
  evidence: string[];
  arithmetic?: string;
  note?: string;
  corroborated_by?: Array<{ check: string; response: string | null; source: string; operation: string; url: string | null; note?: string }>;
}

export interface Citation {
  evidence: string;
  publisher: string | null;
  url: string | null;
  retrieved_at: string | null;
  content_hash: string | null;
  response: string | null;
  note?: string;
}

export interface Evidence {
  iri: string;
  entity: string;
  entity_key: string;
  measure: string;
  measure_label: string;
  value: number | boolean | null;
  unit: string;
  currency: string | null;
  period: string;
  period_end: string | null;
  source: string;
  assurance: string;
  warnings: string[];
  record?: { kind: string; key: string; label: string };
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
}

export interface Attempt { n: number; source: string; operation: string; measure: string | null; disposition: string; reason?: string; elapsed_ms: number }

export interface CrossCheck {
  iri: string | null; n?: number; evidence: string; source: string; operation: string; outcome: string;
  value?: number | null; primary_value?: number | null; url?: string | null; response?: string | null; detail?: string; shared_upstream?: boolean;
}

export interface AskResult {
  status: 'answered' | 'needs_clarification' | 'refused';
  run: string;
  run_id: string;
  question: string;
  text: string;
  rendering: 'plain' | 'model' | null;
  rendering_label: string | null;
  figures: Figure[];
  guarded_figures?: Figure[];
  citations: Citation[];
  qualification: { level: number; statement: string; disclosures: string[] } | null;
  evidence: Evidence[];
  alternatives?: Array<{ interpretation: string; value: number; unit: string; period: string; evidence: string }>;
  answers?: Array<{ interpretation: string; text: string; figures: Figure[]; evidence: string[] }>;
  clarification?: { question: string; options: ClarificationOption[] };
  refusal?: { boundary: string; reason: string; answerable_if: string; code?: string };
  intent: Record<string, unknown> | null;
  interpreter: string | null;
  plan: { verdict: string; reason: string } | null;
  attempts: Attempt[];
  cross_checks?: CrossCheck[];
  resumed_from?: string;
  /** Population shapes: columns with units, rows with each cell's evidence IRI. */
  table?: unknown;
  /** The conversation this run belongs to (send it back to ask a follow-up). */
  conversation?: string;
  /** Present when the question was read as a follow-up: the turn it follows and the fields carried over. */
  followup?: { from_run: string; from_question: string; parts: string[]; carried: Array<{ field: string; value: unknown }>; replaced: Array<{ field: string; value: unknown }> };
}

export interface ProgressEvent { stage: string; by: string; message: string; data?: Record<string, unknown> }

/** What the gateway tells the page when it serves it (inlined into index.html). */
export interface PageConfig { nlq: boolean; feedback: boolean; conversations: boolean }
