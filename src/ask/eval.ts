/**
 * End-to-end outcome mix over the corpus's keyed-read questions on whatever services are given
 * (offline default: cassettes, registry snapshot, no model): how many were answered, asked for a
 * clarification or refused, and on which boundary. Used by `assay eval ask`.
 */
import type { CorpusRecord } from '../understand/corpus.ts';
import { ask } from './run.ts';
import type { AskServices } from './services.ts';

export const KEYED_SHAPES = ['point', 'status', 'entity_list', 'comparison', 'timeseries'];
/** Population shapes (src/population), asked end to end as well. */
export const POPULATION_SHAPES = ['ranking', 'aggregate', 'filtered_subset', 'ratio', 'correlation', 'topical'];

export interface AskOutcome {
  id: string;
  question: string;
  shape: string;
  status: string;
  boundary: string | null;
  reason: string | null;
  attempts: number;
  /** Grades of the answer's figures, in order. */
  grades: string[];
  ms: number;
}

export interface AskMetrics {
  questions: number;
  byStatus: Record<string, number>;
  byBoundary: Record<string, number>;
  byShape: Record<string, Record<string, number>>;
  outcomes: AskOutcome[];
}

export async function askMetrics(services: AskServices, corpus: CorpusRecord[], onEach?: (o: AskOutcome) => void): Promise<AskMetrics> {
  const outcomes: AskOutcome[] = [];
  for (const r of corpus.filter((x) => KEYED_SHAPES.includes(x.shape) || POPULATION_SHAPES.includes(x.shape))) {
    const t0 = performance.now();
    const res = await ask(services, { question: r.question });
    const o: AskOutcome = {
      id: r.id, question: r.question, shape: r.shape, status: res.status,
      boundary: res.refusal?.boundary ?? null, reason: res.refusal?.reason ?? null,
      attempts: res.attempts.length, grades: res.figures.map((f) => f.grade), ms: performance.now() - t0,
    };
    outcomes.push(o);
    onEach?.(o);
  }
  const count = (key: (o: AskOutcome) => string | null) => {
    const m: Record<string, number> = {};
    for (const o of outcomes) { const k = key(o); if (k) m[k] = (m[k] ?? 0) + 1; }
    return m;
  };
  const byShape: Record<string, Record<string, number>> = {};
  for (const o of outcomes) (byShape[o.shape] ??= {})[o.status] = (byShape[o.shape]![o.status] ?? 0) + 1;
  return { questions: outcomes.length, byStatus: count((o) => o.status), byBoundary: count((o) => o.boundary), byShape, outcomes };
}
