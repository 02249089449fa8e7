/**
 * The labelled question corpus (fixtures/questions/*.jsonl): one question per line with its gold
 * shape, entity, attribute, period(s), the acceptable answering sources / measures / operations
 * (sets, not one right answer) and the expected plan verdict. `goldIntent` turns a record into
 * the intent a perfect interpreter would produce, so discovery and planning can be measured alone.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { intentSchema, SHAPES, thresholdSchema, geographySchema, type Intent, type Period } from './intent.ts';

export const corpusRecordSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  shape: z.enum(SHAPES),
  entity: z.string().nullable(),
  entity_status: z.enum(['resolved', 'ambiguous', 'none']),
  entity_candidates: z.array(z.string()),
  entities: z.array(z.string()),
  type: z.string().nullable(),
  attribute: z.string().nullable(),
  attributes: z.array(z.string()),
  interpretations: z.array(z.string()),
  /** Period label: "2023" (unspecified), "FY2023", "CY2023", "2023Q2", "2024-03-31", "latest", "now" (latest, as of today). */
  period: z.string().nullable(),
  periods: z.array(z.string()),
  quantifier: z.enum(['exhaustive', 'existential']).nullable(),
  threshold: thresholdSchema.nullable(),
  direction: z.enum(['forward', 'reverse', 'intersection', 'population']).nullable(),
  geography: geographySchema.nullable(),
  order: z.enum(['asc', 'desc']).nullable(),
  limit: z.number().int().positive().nullable(),
  acceptable_sources: z.array(z.string()),
  /** Measure keys `<publisher>/<group>/<name>`. */
  acceptable_measures: z.array(z.string()),
  /** Operation keys `<publisher>/<operationId>`, for questions that ask for records, not a measure. */
  acceptable_operations: z.array(z.string()),
  expected_verdict: z.enum(['exact', 'composed', 'infeasible']),
  tags: z.array(z.string()),
}).strict();
export type CorpusRecord = z.infer<typeof corpusRecordSchema>;

export const DEFAULT_CORPUS_DIR = 'fixtures/questions';

export async function loadCorpus(dir = DEFAULT_CORPUS_DIR): Promise<CorpusRecord[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
  const out: CorpusRecord[] = [];
  for (const f of files) {
    const lines = (await readFile(join(dir, f), 'utf8')).split('\n');
    lines.forEach((line, n) => {
      if (!line.trim()) return;
      const r = corpusRecordSchema.safeParse(JSON.parse(line));
      if (!r.success) throw new Error(`${join(dir, f)} line ${n + 1}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      out.push(r.data);
    });
  }
  return out;
}

/** Parses a gold period label back into a Period. */
export function periodFromLabel(label: string): Period {
  const base = { text: label, basis: 'unspecified' as Period['basis'], year: null as number | null, quarter: null as number | null, date: null as string | null, latest: false };
  if (label === 'latest') return { ...base, latest: true };
  // "now": the newest value as of today ("right now", "today"), which only day-dated data holds.
  if (label === 'now') return { ...base, text: 'right now', latest: true };
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(label);
  if (m) return { ...base, basis: 'calendar', year: Number(m[1]), date: label };
  m = /^(FY|CY)?(\d{4})(?:Q([1-4]))?$/.exec(label);
  if (m) return { ...base, basis: m[1] === 'FY' ? 'fiscal' : m[1] === 'CY' ? 'calendar' : 'unspecified', year: Number(m[2]), quarter: m[3] ? Number(m[3]) : null };
  return base;
}

export function goldIntent(r: CorpusRecord): Intent {
  return intentSchema.parse({
    question: r.question,
    shape: r.shape,
    entity: r.entity,
    canonical_entity: r.entity,
    entity_status: r.entity_status,
    entity_candidates: r.entity_candidates,
    entities: r.entities,
    type: r.type,
    direction: r.direction,
    geography: r.geography,
    attribute: r.attribute,
    attributes: r.attributes,
    interpretations: r.interpretations,
    period: r.period === null ? null : periodFromLabel(r.period),
    periods: r.periods.map(periodFromLabel),
    quantifier: r.quantifier,
    threshold: r.threshold,
    order: r.order,
    limit: r.limit,
  });
}
