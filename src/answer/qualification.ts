/**
 * The qualification: a hedge from the weakest asserted assurance of the evidence an answer rests
 * on. Levels are asserted from how values were obtained (canonical key vs name match, exact vs
 * composed operation, disclosed warnings) — not calibrated probabilities, and the text says so.
 * Below the configured floor the answer abstains.
 */
import type { AnyEvidence } from '../evidence/types.ts';

export interface Qualification {
  /** 3 key match + exact + no warnings; 2 key match with disclosures or composed; 1 name match. */
  level: 1 | 2 | 3;
  hedge: boolean;
  abstain: boolean;
  statement: string;
  disclosures: string[];
}

export function levelOf(e: AnyEvidence): 1 | 2 | 3 {
  if (e.assurance.match === 'name') return 1;
  if (e.assurance.planVerdict === 'composed' || e.assurance.warnings.length > 0) return 2;
  return 3;
}

export function qualify(evidence: readonly AnyEvidence[], floor: 1 | 2 | 3 = 1): Qualification {
  const levels = evidence.map(levelOf);
  const level = (levels.length ? Math.min(...levels) : 1) as 1 | 2 | 3;
  const disclosures = [...new Set(evidence.flatMap((e) => e.assurance.warnings))];
  const how = level === 3 ? 'every value matched on a canonical identifier through an exact operation'
    : level === 2 ? 'values matched on canonical identifiers, with the disclosures listed'
    : 'at least one value is tied to its entity by name only';
  return {
    level, hedge: level === 1, abstain: level < floor,
    statement: `Asserted assurance ${level}/3: ${how}. This level states how the values were obtained; it is not a calibrated probability.`,
    disclosures,
  };
}
