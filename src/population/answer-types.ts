/**
 * What a population shape hands the answer side: the shape, the population read(s), the typed
 * result of the computation, the result table, and which admitted item (by its position in the
 * outcome's `items`) each shown row is. Worded and graded in src/population/answer.ts.
 */
import type { Aggregate } from './compute/aggregate.ts';
import type { Correlation } from './compute/correlation.ts';
import type { Ranking } from './compute/ranking.ts';
import type { Ratio } from './compute/ratio.ts';
import type { Subset } from './compute/subset.ts';
import type { TopicalResult } from './topical.ts';
import type { PopulationRead } from './types.ts';
import type { OperationRef } from '../discover/index.ts';

export type PopulationResult =
  | { kind: 'ranking'; ranking: Ranking }
  | { kind: 'aggregate'; aggregate: Aggregate }
  | { kind: 'filtered_subset'; subset: Subset }
  | { kind: 'ratio'; ratio: Ratio }
  | { kind: 'correlation'; correlation: Correlation }
  | { kind: 'topical'; topical: TopicalResult };

export interface PopulationAnswer {
  shape: PopulationResult['kind'];
  /** The population read(s) the answer stands on (two for a correlation or a ratio). */
  reads: Array<PopulationRead & { attemptN: number }>;
  result: PopulationResult;
  /** Row key (per read, `<readIndex>:<key>`) → index of its admitted item in the outcome's items. */
  itemOf: Record<string, number>;
  /**
   * Keyed components (an entity's ratio): the catalog operations serving each component's measure,
   * the second paths each admitted component is cross-checked against (src/execute/corroborate.ts),
   * as a keyed point read's value is.
   */
  crossCheck?: ReadonlyMap<string, readonly OperationRef[]>;
}
