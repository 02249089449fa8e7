/**
 * Qualification: how strongly the graph asserts what supports an answer, weakest link first.
 * The weakest asserted assurance among the supporting bindings sets the verb hedge, the lowest
 * asserted confidence sets the band, and below a configurable floor the answer abstains. A binding
 * with no provenance counts as the weakest rung, so an extra unsourced binding can only lower the
 * qualification. This states asserted assurance, not a calibrated probability, and says so.
 */
export const RUNGS = ['missing', 'conjectured', 'claimed', 'proven'] as const;
export type Rung = (typeof RUNGS)[number];
export type Band = 'unknown' | 'low' | 'medium' | 'high';

export interface SupportRecord {
  subject: string;
  /** Sources the graph asserts for it (after the provenance join). */
  sources: number;
  /** Asserted assurance values (e.g. Assay's "key_match"/"name_match"), as the graph writes them. */
  assurance: string[];
  /** Asserted confidences in 0..1. */
  confidence: number[];
}

export interface QualifyConfig {
  /** Abstain when the lowest asserted confidence is below this (undefined = never on confidence). */
  minConfidence?: number;
  /** Abstain when the weakest assurance is below this rung (undefined = never on assurance). */
  minAssurance?: Rung;
  lowBand: number;
  highBand: number;
}

export const DEFAULT_QUALIFY: QualifyConfig = { lowBand: 0.5, highBand: 0.8 };

export interface Qualification {
  assurance: Rung;
  band: Band;
  minConfidence: number | null;
  abstain: boolean;
  abstainReason: 'confidence-below-floor' | 'assurance-below-floor' | null;
  supporting: number;
  unprovenanced: number;
  /** Always true: the figures are what the graph asserts, not calibrated probabilities. */
  assertedNotCalibrated: true;
}

/** Map an asserted assurance value onto the ladder (unknown values count as claimed when sourced). */
export function rungOf(value: string | undefined, sourced: boolean): Rung {
  const v = (value ?? '').toLowerCase().replace(/^.*[#/]/, '');
  if (/^(key_?match|proven|verified|exact)$/.test(v)) return 'proven';
  if (/^(name_?match|conjectured|inferred|approximate|fuzzy)$/.test(v)) return 'conjectured';
  if (/^(claimed|asserted|reported)$/.test(v)) return 'claimed';
  if (v === '') return sourced ? 'claimed' : 'missing';
  return sourced ? 'claimed' : 'conjectured';
}

const rank = (r: Rung) => RUNGS.indexOf(r);

export function qualify(records: readonly SupportRecord[], config: QualifyConfig = DEFAULT_QUALIFY): Qualification {
  let assurance: Rung = 'proven';
  let minConf: number | null = null;
  let unprovenanced = 0;
  for (const r of records) {
    const sourced = r.sources > 0;
    if (!sourced && r.assurance.length === 0) unprovenanced++;
    const rungs = r.assurance.length > 0 ? r.assurance.map((a) => rungOf(a, sourced)) : [rungOf(undefined, sourced)];
    for (const x of rungs) if (rank(x) < rank(assurance)) assurance = x;
    for (const c of r.confidence) if (minConf === null || c < minConf) minConf = c;
  }
  if (records.length === 0) assurance = 'missing';
  const band: Band = minConf === null ? 'unknown' : minConf < config.lowBand ? 'low' : minConf < config.highBand ? 'medium' : 'high';
  let abstainReason: Qualification['abstainReason'] = null;
  if (config.minConfidence !== undefined && (minConf === null || minConf < config.minConfidence)) abstainReason = 'confidence-below-floor';
  else if (config.minAssurance !== undefined && rank(assurance) < rank(config.minAssurance)) abstainReason = 'assurance-below-floor';
  return { assurance, band, minConfidence: minConf, abstain: abstainReason !== null, abstainReason, supporting: records.length, unprovenanced, assertedNotCalibrated: true };
}
