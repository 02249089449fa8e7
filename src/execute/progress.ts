/**
 * Progress events: one per decision, attributed to the stage (and call) that made it. Messages
 * never claim more than was established (a crosswalk that found no usable key says so).
 */
export type ProgressStage =
  | 'structure' | 'measure' | 'discovery' | 'plan' | 'crosswalk' | 'execution_plan'
  | 'attempt' | 'validation' | 'evidence' | 'ambiguity' | 'answer' | 'refusal';

export interface ProgressEvent {
  stage: ProgressStage;
  /** Who decided: offline interpreter, model (role), planner, executor, validator, renderer… */
  by: string;
  message: string;
  data?: Record<string, unknown>;
}
