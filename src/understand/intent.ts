/**
 * The intent: what a question asks, decided before any source is examined.
 *
 * One zod schema serves three producers — the model (two calls: structure, then measure), the
 * offline interpreter, and callers who send an intent themselves — so all three are validated the
 * same way. `intentJsonSchema()` exports it as JSON Schema for structured model output and for
 * agents. The intent never names a source: there is no sources field, on purpose (interpretation
 * is blind to the corpus; discovery decides which sources could serve it).
 *
 * `type` is an open noun phrase; no code branches on its value. `period.basis` keeps fiscal and
 * calendar years apart: FY2023 and 2023 are different questions to most publishers.
 */
import { z } from 'zod';

export const SHAPES = [
  'point', 'status', 'entity_list', 'comparison', 'timeseries', 'ranking', 'aggregate',
  'filtered_subset', 'ratio', 'correlation', 'topical', 'grant_graph',
] as const;
export type Shape = (typeof SHAPES)[number];

export const periodSchema = z.object({
  /** The words the question used ("2023", "fiscal 2022", "last year", "latest"). */
  text: z.string(),
  /** fiscal: a fiscal year was named; calendar: a calendar year or date; unspecified: a bare year. */
  basis: z.enum(['fiscal', 'calendar', 'unspecified']),
  year: z.number().int().min(1800).max(2200).nullable().default(null),
  quarter: z.number().int().min(1).max(4).nullable().default(null),
  /** ISO date when a day was named. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable().default(null),
  /** "latest", "current", "most recent": the newest period the publisher has. */
  latest: z.boolean().default(false),
  /**
   * A year named relative to the question's clock ("this year" 0, "last year" -1). The interpreter
   * has no clock, so `year` stays null; the executor resolves it against the run's clock and says so.
   */
  offset: z.number().int().min(-50).max(0).optional(),
}).strict();
export type Period = z.infer<typeof periodSchema>;

export const thresholdSchema = z.object({
  op: z.enum(['>', '>=', '<', '<=', '=']),
  value: z.number(),
  /** USD, %, count, ... or null when the question gives no unit. */
  unit: z.string().nullable().default(null),
  text: z.string(),
}).strict();
export type Threshold = z.infer<typeof thresholdSchema>;

export const geographySchema = z.object({
  /** The geographic grain the question ranges over or names (state, county, city, nation, ...); open. */
  level: z.string().nullable().default(null),
  /** An enclosing place that bounds the population ("in Texas"), when one is named. */
  within: z.string().nullable().default(null),
}).strict();
export type Geography = z.infer<typeof geographySchema>;

/**
 * The kind of quantity the question asks for, decided from its words alone: a count ("how many
 * employees"), money ("how much revenue", "$"), a percent or rate ("poverty rate"), a ratio
 * ("debt-to-equity ratio", an exchange rate), a date ("when"), a yes/no, or records (a list or a
 * search). Null when the words do not say. A candidate whose unit cannot be this kind is rejected
 * structurally (src/validate/quantity.ts), before any model looks at it.
 */
export const QUANTITY_KINDS = ['count', 'money', 'percent', 'ratio', 'date', 'yes_no', 'records'] as const;
export type QuantityKind = (typeof QUANTITY_KINDS)[number];

/** Period grains a question can ask at ("quarterly", "Q3 2023" → quarter; "annual", "in 2023" → year). */
export const GRAINS = ['day', 'month', 'quarter', 'year'] as const;
export type Grain = (typeof GRAINS)[number];

/**
 * A span named relative to the question's clock or open at one end: "the last five years" (last 5,
 * unit year), "over the past decade" (last 10, unit year), "since 2025" (since 2025, through the
 * latest), "over time" (neither). The interpreter expands no calendar it does not have; the
 * executor chooses the periods from what the publisher holds and says which it took.
 */
export const spanSchema = z.object({
  text: z.string(),
  /** How many units back from the newest period ("the last five years" → 5); null when unstated. */
  last: z.number().int().positive().max(200).nullable().default(null),
  unit: z.enum(GRAINS).nullable().default(null),
  /** The first year of an open span ("since 2025"). */
  since: z.number().int().min(1800).max(2200).nullable().default(null),
  basis: z.enum(['fiscal', 'calendar', 'unspecified']).default('unspecified'),
}).strict();
export type Span = z.infer<typeof spanSchema>;

/**
 * A yes/no status the question asks about, as a stable id from general (legal, regulatory)
 * vocabulary — `501c3` (any paragraph: `501c<N>`), `private_foundation`, `public_charity`,
 * `tax_exempt`, `large_accelerated_filer`, `accelerated_filer`, `non_accelerated_filer`,
 * `smaller_reporting_company`, `emerging_growth_company`, `active` — with the words used. An id no
 * reader declares is refused by the executor, never mapped to a guessed field.
 */
export const statusAskedSchema = z.object({
  id: z.string().regex(/^[a-z0-9_]+$/),
  text: z.string(),
}).strict();
export type StatusAsked = z.infer<typeof statusAskedSchema>;

/**
 * A code the question names that a publisher defines, not a registry: a currency ("euro", "Mexican
 * peso"), or a record number with the noun it numbers ("opportunity 362478", "award 1547580").
 */
export const codeSchema = z.object({
  kind: z.enum(['currency', 'record_id']),
  /** The code as named ("Mexican peso", "362478"). */
  value: z.string().min(1),
  /** For a record id, the noun it numbers ("opportunity", "award", "project", "grant"). */
  noun: z.string().nullable().default(null),
  text: z.string(),
}).strict();
export type Code = z.infer<typeof codeSchema>;

/** Fields the *structure* call decides: shape and who the question is about. */
export const structureShape = {
  shape: z.enum(SHAPES),
  /** The entity as the question names it, or null. */
  entity: z.string().nullable().default(null),
  /** Its full commonly used name, disambiguated from the question's context. */
  canonical_entity: z.string().nullable().default(null),
  entity_status: z.enum(['resolved', 'ambiguous', 'none']).default('none'),
  /** 2–5 full names, most likely first, when entity_status is ambiguous; otherwise empty. */
  entity_candidates: z.array(z.string().min(1)).max(5).default([]),
  /** Named entities for comparisons and intersections ("Apple or Microsoft"). */
  entities: z.array(z.string().min(1)).default([]),
  /** Open noun phrase: company, university, nonprofit, county, ... */
  type: z.string().nullable().default(null),
  /** Grant questions: forward (what X funds), reverse (who funds X), intersection (whom X and Y both fund), population (largest funders). */
  direction: z.enum(['forward', 'reverse', 'intersection', 'population']).nullable().default(null),
  geography: geographySchema.nullable().default(null),
  /** Publisher-defined codes the question names (a currency, an opportunity id), in order. */
  codes: z.array(codeSchema).default([]),
} as const;

/** Fields the *measure* call decides: which quantity, over which span. */
export const measureShape = {
  /** The measure or attribute asked for ("total revenue"), or null for topical/list questions. */
  attribute: z.string().nullable().default(null),
  /** Component measures of a ratio or a correlation, in order (numerator first). */
  attributes: z.array(z.string().min(1)).default([]),
  /** Materially different readings of an ambiguous measure ("net income", "operating income"). */
  interpretations: z.array(z.string().min(1)).default([]),
  period: periodSchema.nullable().default(null),
  /** Every period a timeseries spans, in order. */
  periods: z.array(periodSchema).default([]),
  quantifier: z.enum(['exhaustive', 'existential']).nullable().default(null),
  threshold: thresholdSchema.nullable().default(null),
  /** Ranking direction: desc for highest/largest, asc for lowest/smallest. */
  order: z.enum(['desc', 'asc']).nullable().default(null),
  /** "top 5" → 5. */
  limit: z.number().int().positive().nullable().default(null),
  /** The kind of quantity asked (count, money, percent, ratio, date, yes_no, records), or null. */
  quantity: z.enum(QUANTITY_KINDS).nullable().default(null),
  /** The period grain asked: quarter when a quarter is named or "quarterly", year for a year, …; null when unstated. */
  grain: z.enum(GRAINS).nullable().default(null),
  /** A relative or open span ("the last five years", "since 2025"); null when none. */
  span: spanSchema.nullable().default(null),
  /** A form type the question names, as its issuer spells it ("10-K", "8-K", "DEF 14A", "990"); null when none. */
  form: z.string().min(1).nullable().default(null),
  /** The yes/no status asked, for status questions; null otherwise. */
  status: statusAskedSchema.nullable().default(null),
} as const;

export const structureSchema = z.object(structureShape).strict();
export const measureSchema = z.object(measureShape).strict();

export const intentSchema = z.object({
  question: z.string().min(1),
  ...structureShape,
  ...measureShape,
}).strict().superRefine((i, ctx) => {
  if (i.entity_status === 'ambiguous' && (i.entity_candidates.length < 2 || i.entity_candidates.length > 5)) {
    ctx.addIssue({ code: 'custom', path: ['entity_candidates'], message: 'an ambiguous entity needs 2 to 5 candidates (full names, most likely first)' });
  }
  if (i.entity_status !== 'ambiguous' && i.entity_candidates.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['entity_candidates'], message: 'entity_candidates is only for entity_status "ambiguous"; empty it or change the status' });
  }
  if (i.entity_status === 'none' && i.entity !== null) {
    ctx.addIssue({ code: 'custom', path: ['entity_status'], message: 'an entity is named, so entity_status cannot be "none"; use "resolved" or "ambiguous"' });
  }
  if (i.entity_status !== 'none' && i.entity === null) {
    ctx.addIssue({ code: 'custom', path: ['entity'], message: `entity_status "${i.entity_status}" needs the entity as the question names it` });
  }
  if (i.shape === 'comparison' && i.entities.length < 2) {
    ctx.addIssue({ code: 'custom', path: ['entities'], message: 'a comparison names at least two entities; if the engine must find them, the shape is ranking or filtered_subset' });
  }
  if (i.period?.quarter && i.grain !== null && i.grain !== 'quarter') {
    ctx.addIssue({ code: 'custom', path: ['grain'], message: `a quarter is named (Q${i.period.quarter}), so the grain is "quarter", not "${i.grain}"` });
  }
  if (i.shape === 'filtered_subset' && i.threshold === null && i.quantifier === null) {
    ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'a filtered subset needs a threshold or a quantifier saying how many members are wanted' });
  }
});
export type Intent = z.infer<typeof intentSchema>;
/** What a caller may send: defaults fill the fields it leaves out. */
export type IntentInput = z.input<typeof intentSchema>;
export type StructurePart = z.infer<typeof structureSchema>;
export type MeasurePart = z.infer<typeof measureSchema>;

export interface ValidationIssue { code: string; path: string; message: string }

export type IntentParse = { ok: true; intent: Intent } | { ok: false; issues: ValidationIssue[] };

/** Validates an intent from any producer; issues are collected in zod's {code, path, message} form. */
export function parseIntent(value: unknown): IntentParse {
  const r = intentSchema.safeParse(value);
  return r.success ? { ok: true, intent: r.data } : { ok: false, issues: toIssues(r.error) };
}

export function toIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((i) => ({ code: i.code, path: i.path.map(String).join('.') || '(root)', message: i.message }));
}

/** JSON Schema (draft 2020-12) of a full intent as a caller sends it (defaulted fields optional). */
export function intentJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(intentSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/** JSON Schemas of the two model calls' answers. */
export function partJsonSchemas(): { structure: Record<string, unknown>; measure: Record<string, unknown> } {
  return {
    structure: z.toJSONSchema(structureSchema, { io: 'input' }) as Record<string, unknown>,
    measure: z.toJSONSchema(measureSchema, { io: 'input' }) as Record<string, unknown>,
  };
}

/** A stable short label for a period: FY2023, CY2023, 2023, 2023Q2, 2024-03-31, latest. */
export function periodLabel(p: Period | null): string | null {
  if (p === null) return null;
  if (p.latest) return 'latest';
  if (p.date) return p.date;
  if (p.year === null) return p.text;
  const prefix = p.basis === 'fiscal' ? 'FY' : p.basis === 'calendar' ? 'CY' : '';
  return `${prefix}${p.year}${p.quarter ? `Q${p.quarter}` : ''}`;
}

/** The grain an intent asks at: its explicit grain, else a quarter when one is named, a day for a date, a year for a year. */
export function grainAsked(intent: Pick<Intent, 'grain' | 'period'>): Grain | null {
  if (intent.grain) return intent.grain;
  const p = intent.period;
  if (!p || p.latest) return null;
  if (p.date) return 'day';
  if (p.quarter) return 'quarter';
  return p.year !== null ? 'year' : null;
}

/** Whether a latest period is worded as the present day ("right now", "today", "at the moment", "live"). */
export function asksForNow(p: Period): boolean {
  return p.latest && /\b(right now|now|today|at the moment|real[- ]?time|live)\b/i.test(p.text);
}
