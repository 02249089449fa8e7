/**
 * The one seam every SPARQL generator sits behind. A generator gets the question, the prompt the
 * loop built (grounded or not) and, when grounded, the grounding and linking; it returns query
 * text or says plainly that the question is beyond it (a typed reason, worded at the end).
 *
 * Backends: the offline generator (no model), any OpenAI-compatible model (model.ts), a replay of
 * completions recorded by exact prompt, and a recording wrapper (replay.ts).
 */
import type { Grounding } from '../grounding.ts';
import type { Linking, Candidate } from '../link.ts';

export interface GenerateRequest {
  question: string;
  prompt: string;
  /** 0 for the first attempt, 1.. for repair rounds. */
  round: number;
  grounding?: Grounding;
  linking?: Linking;
  signal?: AbortSignal;
}

/** Why the offline generator will not write a query: data, worded by render.ts. */
export type BeyondReason =
  | { code: 'not-grounded' }
  | { code: 'unrecognised-form' }
  | { code: 'nothing-linked' }
  | { code: 'ambiguous-entity'; mention: string; candidates: Candidate[] }
  | { code: 'no-relation'; subject: string; hint?: string }
  | { code: 'no-join'; from: string; to: string }
  | { code: 'not-numeric'; predicate: string }
  | { code: 'unlinked-mention'; mention: string }
  | { code: 'zero-values'; predicate: string; zeros: number }
  | { code: 'guessed-join-empty'; predicate: string }
  | { code: 'cannot-repair' }
  /** The only query found leaves words of the question unused (a named thing dropped, or a word no term of the query carries): it would answer another question. */
  | { code: 'unused-words'; words: string[] };

export type Generation =
  /**
   * `tentative`: the query rests on a join the question did not name; when it finds nothing (no
   * rows, a zero count, ASK false) that is no evidence of absence, and the loop reports this reason.
   */
  | { kind: 'text'; text: string; notes?: string[]; tentative?: BeyondReason }
  | { kind: 'beyond'; reason: BeyondReason };

export interface SparqlGenerator {
  /** For the transcript and reports: "offline", "model:<name>", "replay:<file>". */
  readonly id: string;
  generate(req: GenerateRequest): Promise<Generation>;
}

/** A model behind a prompt: whole prompt in, completion text out (stateless). */
export interface Completer {
  readonly id: string;
  complete(prompt: string, signal?: AbortSignal): Promise<string>;
}

/** A generator that sends the prompt to a completer and takes its text as the query. */
export function completerGenerator(c: Completer): SparqlGenerator {
  return {
    id: c.id,
    async generate(req) {
      return { kind: 'text', text: await c.complete(req.prompt, req.signal) };
    },
  };
}

/** The query in a completion: a ```sparql fence, a bare ``` fence, or bare text from PREFIX/BASE/SELECT/ASK. */
export function extractSparql(completion: string): string | undefined {
  const fenced = /```(?:sparql|SPARQL|rq)?\s*\n([\s\S]*?)```/.exec(completion);
  if (fenced) return fenced[1]!.trim() || undefined;
  const bare = /(^|\n)\s*((?:PREFIX|BASE|SELECT|ASK|CONSTRUCT|DESCRIBE|INSERT|DELETE)\b[\s\S]*)$/i.exec(completion);
  return bare ? bare[2]!.trim() : undefined;
}
