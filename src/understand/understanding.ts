/**
 * The result of understanding a question: an intent, or an honest "cannot tell" with the reason.
 * Whichever producer made it (offline interpreter, model, caller) is recorded beside it.
 */
import type { Intent, ValidationIssue } from './intent.ts';

export type Interpreter = 'offline' | 'model' | 'caller';

export type Understanding =
  | { status: 'understood'; intent: Intent; interpreter: Interpreter; notes?: string[] }
  | { status: 'cannot_tell'; question: string; reason: string; interpreter: Interpreter; issues?: ValidationIssue[] };
