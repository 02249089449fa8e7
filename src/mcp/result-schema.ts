/**
 * Output schemas of the MCP tools, as zod, checked against the TypeScript types the HTTP API
 * returns: a compile-time assertion below fails when AskResult gains, loses or changes a field
 * these schemas require, so the two cannot drift apart silently. Objects are loose (`.loose()`):
 * a field added to the result reaches agents without a schema change; a field an agent may rely
 * on is listed and typed.
 */
import { z } from 'zod';
import type { AskResult } from '../ask/types.ts';

const grade = z.enum(['verified', 'derived', 'corroborated', 'conflict', 'unverified']);

export const figureSchema = z.object({
  text: z.string().describe('the number as written in the text'),
  value: z.number(),
  unit: z.string().nullable(),
  grade: grade.describe('decided by code: verified equals an admitted value; derived is computed from verified values (see arithmetic); corroborated is reproduced a second way; conflict differs from its fact; unverified is found nowhere trusted'),
  evidence: z.array(z.string()).describe('evidence IRIs behind the figure'),
  arithmetic: z.string().optional(),
  note: z.string().optional(),
}).loose();

export const citationSchema = z.object({
  evidence: z.string(),
  publisher: z.string().nullable(),
  url: z.string().nullable().describe("the publisher's request URL"),
  retrieved_at: z.string().nullable(),
  content_hash: z.string().nullable(),
  response: z.string().nullable(),
  note: z.string().optional(),
}).loose();

export const askResultSchema = z.object({
  status: z.enum(['answered', 'needs_clarification', 'refused']),
  run: z.string().describe("the run's IRI"),
  run_id: z.string().describe('pass to resume (with an option) or read the run graph resource'),
  question: z.string(),
  text: z.string(),
  rendering: z.enum(['plain', 'model']).nullable(),
  rendering_label: z.string().nullable(),
  figures: z.array(figureSchema),
  guarded_figures: z.array(figureSchema),
  citations: z.array(citationSchema),
  qualification: z.object({ level: z.number(), statement: z.string(), disclosures: z.array(z.string()) }).loose().nullable(),
  evidence: z.array(z.object({ iri: z.string(), entity: z.string(), measure: z.string(), period: z.string(), source: z.string() }).loose()),
  clarification: z.object({
    question: z.string(),
    options: z.array(z.object({ n: z.number().int(), id: z.string(), label: z.string(), value: z.number().nullable() }).loose()),
  }).loose().optional(),
  refusal: z.object({ boundary: z.string(), reason: z.string(), answerable_if: z.string(), code: z.string().optional() }).loose().optional(),
  intent: z.record(z.string(), z.unknown()).nullable(),
  interpreter: z.string().nullable(),
  plan: z.object({ verdict: z.string(), reason: z.string() }).loose().nullable(),
  attempts: z.array(z.object({ n: z.number(), source: z.string(), operation: z.string(), disposition: z.string() }).loose()),
  conversation: z.string().optional().describe('the conversation this turn belongs to; send it back to ask a follow-up'),
  followup: z.object({
    from_run: z.string(), from_question: z.string(), parts: z.array(z.string()),
    carried: z.array(z.object({ field: z.string(), value: z.unknown() })), replaced: z.array(z.object({ field: z.string(), value: z.unknown() })),
  }).loose().optional().describe('present when the question was read as a follow-up: the turn it follows and the intent fields carried over'),
}).loose();

// AskResult (what /ask returns) must satisfy the schema's required fields. Loose objects carry an
// index signature that a TypeScript interface has not; the check compares the named fields only.
type Named<T> = T extends readonly (infer U)[] ? Named<U>[] : T extends object ? { [K in keyof T as string extends K ? never : K]: Named<T[K]> } : T;
type Satisfies<T extends U, U> = T;
export type AskResultChecked = Satisfies<Named<AskResult>, Named<z.input<typeof askResultSchema>>>;

export const sparqlResultSchema = z.object({
  kind: z.enum(['select', 'ask', 'graph']),
  vars: z.array(z.string()).optional().describe('SELECT: the projected variables'),
  rows: z.array(z.record(z.string(), z.object({ type: z.string(), value: z.string() }).loose())).optional().describe('SELECT: SPARQL JSON bindings'),
  boolean: z.boolean().optional().describe('ASK: the answer'),
  turtle: z.string().optional().describe('CONSTRUCT/DESCRIBE: the graph as Turtle'),
  truncated: z.boolean().describe("true when the endpoint's row limit cut the result"),
});

export const sourceSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  iri: z.string(),
  operations: z.number().int(),
  measures: z.number().int(),
  access_path_kinds: z.array(z.string()),
});

export const sourceDetailSchema = sourceSummarySchema.extend({
  operation_list: z.array(z.object({ id: z.string(), kind: z.string(), title: z.string(), description: z.string().nullable(), measures: z.number().int() })),
  measure_sample: z.array(z.object({ key: z.string(), label: z.string(), unit: z.string().nullable() })).describe('up to 25 of the source\'s measures; search them with ask or sparql'),
});

export const candidateSchema = z.object({
  id: z.string(),
  label: z.string(),
  types: z.array(z.string()),
  identifiers: z.record(z.string(), z.array(z.string())),
  match: z.string(),
}).loose();

/** POST /nlq's outcome (src/nlq/json.ts): the generated query and its rows are the unverified lane. */
export const nlqResultSchema = z.object({
  status: z.enum(['answered', 'not_answered']),
  question: z.string(),
  graph: z.string().nullable(),
  generator: z.string().describe('what wrote the query (the offline generator or a model)'),
  sparql: z.string().optional().describe('the query that was run (unverified: read it before trusting the rows)'),
  verified: z.literal(false).optional().describe('always false: generated SPARQL is never graded evidence'),
  lane: z.string().optional(),
  result: z.object({
    kind: z.enum(['select', 'ask']),
    vars: z.array(z.string()).optional(),
    rows: z.array(z.record(z.string(), z.unknown())).optional(),
    boolean: z.boolean().optional(),
  }).loose().optional(),
  text: z.string().optional().describe('not_answered: why'),
  reason: z.unknown().optional(),
  transcript: z.array(z.object({ round: z.number(), sparql: z.string().nullable().optional() }).loose()),
}).loose();
