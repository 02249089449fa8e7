/**
 * The shape executors, by shape, in the order they are tried: the first that does not decline
 * answers. A new shape is one file exporting a ShapeExecutor and one line here.
 */
import type { Shape } from '../../understand/intent.ts';
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
export async function executeShape(i: ShapeInput): Promise<ShapeOutcome> {
  const attempts: Attempt[] = [];
  for (const e of executorsFor(i.intent.shape)) {
    const out = await e.execute(i);
    if (out.kind === 'declined') { attempts.push(...out.attempts); continue; }
    return { ...out, attempts: [...attempts, ...out.attempts] };
  }
  return { kind: 'declined', attempts };
}
