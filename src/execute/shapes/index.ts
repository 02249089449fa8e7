/**
 * The shape executors, by shape, in the order they are tried: the first that does not decline
 * answers. A new shape is one file exporting a ShapeExecutor and one line here.
 */
import type { Period, Shape } from '../../understand/intent.ts';
import type { Note } from '../notes.ts';
import { codeReads } from './codes.ts';
import { comparison } from './comparison.ts';
import { point } from './point.ts';
import { records } from './records.ts';
import { timeseries } from './timeseries.ts';
import { grantGraph } from './grant-graph.ts';
import { ranking } from './ranking.ts';
import { aggregate } from './aggregate.ts';
import { filteredSubset } from './filtered-subset.ts';
import { ratio } from './ratio.ts';
import { correlation } from './correlation.ts';
import { topical } from './topical.ts';
import type { Attempt } from '../attempt.ts';
import type { ShapeExecutor, ShapeInput, ShapeOutcome } from './types.ts';

const EXECUTORS: readonly ShapeExecutor[] = [codeReads, point, comparison, timeseries, records, grantGraph, ranking, aggregate, filteredSubset, ratio, correlation, topical];

const BY_SHAPE: ReadonlyMap<Shape, readonly ShapeExecutor[]> = (() => {
  const m = new Map<Shape, ShapeExecutor[]>();
  for (const e of EXECUTORS) for (const s of e.shapes) m.set(s, [...(m.get(s) ?? []), e]);
  return m;
})();

export function executorsFor(shape: Shape): readonly ShapeExecutor[] {
  return BY_SHAPE.get(shape) ?? [];
}

export type { ShapeExecutor, ShapeInput, ShapeOutcome, Planned, Item } from './types.ts';

/**
 * Runs the executors registered for the intent's shape in order; an executor that declines hands
 * the question to the next, its attempts kept in the trace.
 */
export async function executeShape(input: ShapeInput): Promise<ShapeOutcome> {
  const attempts: Attempt[] = [];
  const { i, note } = relativeYears(input);
  for (const e of executorsFor(i.intent.shape)) {
    const out = await e.execute(i);
    if (out.kind === 'declined') { attempts.push(...out.attempts); continue; }
    if (out.kind === 'evidence' && note) return { ...out, notes: [note, ...out.notes], attempts: [...attempts, ...out.attempts] };
    return { ...out, attempts: [...attempts, ...out.attempts] };
  }
  return { kind: 'declined', attempts };
}

/** Shapes that read a measure for a period: a year named relative to the clock is resolved here for them (records.ts resolves its own). */
const MEASURE_READS = new Set<Shape>(['point', 'comparison', 'timeseries', 'ratio']);

/**
 * "Last year", "this year": the interpreter has no clock, so the period carries an offset and no
 * year; the year is the question's clock year plus the offset, set on the intent the executors read
 * and said to the reader (`relative_year`).
 */
function relativeYears(i: ShapeInput): { i: ShapeInput; note?: Note } {
  const today = new Date(i.ctx.clock.now()).toISOString().slice(0, 10);
  const resolve = (p: Period): Period => (p.year === null && !p.latest && p.offset !== undefined ? { ...p, year: Number(today.slice(0, 4)) + p.offset } : p);
  const { period, periods } = i.intent;
  if (!MEASURE_READS.has(i.intent.shape) || ![period, ...periods].some((p) => p && p.year === null && !p.latest && p.offset !== undefined)) return { i };
  const resolved = period ? resolve(period) : null;
  const all = periods.map(resolve);
  const first = resolved ?? all[0]!;
  return { i: { ...i, intent: { ...i.intent, period: resolved, periods: all } }, note: { code: 'relative_year', words: first.text, year: first.year!, today } };
}
