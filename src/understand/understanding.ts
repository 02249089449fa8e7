/**
 * The result of understanding a question: an intent, or an honest "cannot tell" with the reason.
 * Whichever producer made it (offline interpreter, model, caller) is recorded beside it.
 */
import type { Intent, ValidationIssue } from './intent.ts';
import type { FollowupRead } from './followup.ts';

export type Interpreter = 'offline' | 'model' | 'caller';

export type Understanding =
  | { status: 'understood'; intent: Intent; interpreter: Interpreter; notes?: string[]; followup?: FollowupRead }
  /** code and answerable_if: set when the reason is a typed one (a follow-up with no previous turn). */
  | { status: 'cannot_tell'; question: string; reason: string; interpreter: Interpreter; issues?: ValidationIssue[]; code?: string; answerable_if?: string };
