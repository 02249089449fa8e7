/**
 * The MCP tools: each a name, a description for the agent, an input schema, an output schema and a
 * handler. Input schemas are built from the same zod definitions the HTTP API validates with (the
 * /ask body fields in src/server/routes/ask.ts, the intent schema in src/understand/intent.ts);
 * output schemas are in result-schema.ts, checked against the API's TypeScript types.
 *
 * A handler either returns structured content or throws ToolError, which the server turns into a
 * tool result with isError and the message (what was wrong and what to send instead).
 *
 * Every handler gets a ToolContext: the call's AbortSignal (the client cancelled the call or
 * closed its connection), a progress callback when the client asked for progress, and the
 * client's address, so the per-client limits of /ask and /sparql count the agent, not the gateway.
 */
import { z } from 'zod';
import sparqljs from 'sparqljs';
import { askBodyFields } from '../server/routes/ask.ts';
import { bodySchema as nlqBodySchema } from '../server/routes/nlq.ts';
import { intentSchema } from '../understand/intent.ts';
import type { EntityType } from '../resolve/bundle.ts';
import { resolveContext, resolveName } from '../resolve/registry.ts';
import { catalogIris } from '../ard/rdf/iris.ts';
import type { Catalog, Publisher } from '../ard/catalog.ts';
import type { Gateway } from './gateway.ts';
import { askResultSchema, candidateSchema, nlqResultSchema, sourceDetailSchema, sourceSummarySchema, sparqlResultSchema } from './result-schema.ts';

function isUpdate(text: string): boolean {
  try { return new sparqljs.Parser().parse(text).type === 'update'; } catch { return false; }
}

export class ToolError extends Error {
  constructor(message: string, readonly status?: number, readonly code?: string) { super(message); }
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  /** Registered only when this is true for the gateway (optional surfaces). */
  available?: (g: Gateway) => boolean;
  run(g: Gateway, args: Record<string, unknown>, ctx: ToolContext): Promise<{ structured: Record<string, unknown>; text: string }>;
}

export interface ToolContext {
  signal: AbortSignal;
  /** Called once per progress event of a running question; set when the client sent a progressToken. */
  progress?: (message: string) => void;
  /** The agent's address (the /mcp request's client; loopback for stdio). */
  remoteAddress?: string;
}

/** One in-process request to the gateway; a non-2xx status becomes a ToolError with its message. */
async function call(g: Gateway, ctx: ToolContext, req: { method: 'GET' | 'POST'; url: string; payload?: unknown; headers?: Record<string, string>; body?: string }): Promise<{ body: string; headers: Record<string, unknown> }> {
  const res = await g.app.inject({
    method: req.method, url: req.url, headers: req.headers ?? {}, ...(ctx.remoteAddress ? { remoteAddress: ctx.remoteAddress } : {}),
    ...(req.payload !== undefined ? { payload: req.payload as object } : {}), ...(req.body !== undefined ? { body: req.body } : {}),
  });
  if (res.statusCode >= 400) throw statusError(req.method, req.url, res.statusCode, res.body, res.headers);
  return { body: res.body, headers: res.headers as Record<string, unknown> };
}

/** A non-2xx answer of the gateway as a tool error: the route's own message and fix, and when to retry. */
function statusError(method: string, url: string, status: number, body: string, headers: Record<string, unknown>): ToolError {
  let message = body;
  let code: string | undefined;
  try {
    const j = JSON.parse(body) as { message?: string; fix?: string; error?: string };
    message = `${j.message ?? body}${j.fix ? ` Fix: ${j.fix}.` : ''}`;
    code = j.error;
  } catch { /* not JSON: the body is the message */ }
  const retry = headers['retry-after'] !== undefined ? ` Retry after ${String(headers['retry-after'])} s.` : '';
  return new ToolError(`${method} ${url.split('?')[0]} answered ${status}: ${message}${retry}`, status, code);
}

/** The answer as an agent reads it in plain text: the text, then each figure with its grade and evidence. */
function answerText(r: z.infer<typeof askResultSchema>): string {
  const lines = [r.text];
  if (r.figures.length) lines.push('', 'Figures (graded by code):', ...r.figures.map((f) => `- ${f.text}: ${f.grade}${f.arithmetic ? ` (${f.arithmetic})` : ''} [${f.evidence.join(', ')}]`));
  if (r.citations.length) lines.push('', 'Citations:', ...[...new Set(r.citations.map((c) => `- ${c.url ?? c.note ?? 'no source recorded'} (evidence ${c.evidence})`))]);
  if (r.clarification) lines.push('', `To choose, call resume with run "${r.run_id}" and an option number (${r.clarification.options.map((o) => `${o.n}: ${o.label}`).join('; ')}).`);
  if (r.refusal) lines.push('', `Refused (${r.refusal.boundary}): ${r.refusal.reason}. Answerable if: ${r.refusal.answerable_if}`);
  if (r.qualification) lines.push('', r.qualification.statement);
  if (typeof r.conversation === 'string') lines.push('', `Conversation: ${r.conversation} (pass it as "conversation" to ask a follow-up).`);
  return lines.join('\n');
}

/** A progress event of /ask/stream as one line, the way the CLI and the page show it. */
function progressLine(e: { stage?: unknown; by?: unknown; message?: unknown }): string {
  return `${String(e.stage ?? 'progress')} [${String(e.by ?? 'ask')}] ${String(e.message ?? '')}`;
}

/**
 * A question through POST /ask/stream, in process: the route's validation, per-client rate limit,
 * store and queue limits apply as they do to any client; each NDJSON progress line becomes a
 * progress report; the last line is the result. Cancelling closes the response, which the route
 * reads as a client disconnect and aborts the question in its ask worker. (The response object
 * exists once the route writes its first line; a call cancelled while its question still waits
 * for a worker is closed as soon as it starts.)
 */
async function askVia(g: Gateway, body: Record<string, unknown>, ctx: ToolContext) {
  let response: { destroy(): void } | undefined;
  let stream: import('node:stream').Readable | undefined;
  const cancel = () => {
    response?.destroy();
    stream?.destroy(new ToolError('the call was cancelled; the question was stopped', undefined, 'cancelled'));
  };
  ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    const res = await g.app.inject({
      method: 'POST', url: '/ask/stream', payload: body, payloadAsStream: true,
      ...(ctx.remoteAddress ? { remoteAddress: ctx.remoteAddress } : {}),
    });
    response = res.raw.res;
    stream = res.stream();
    if (ctx.signal.aborted) cancel();
    let buffered = '';
    let result: unknown;
    let failure: string | undefined;
    const take = (line: string) => {
      if (!line.trim()) return;
      const j = JSON.parse(line) as { event?: Record<string, unknown>; result?: unknown; error?: string };
      if (j.event) ctx.progress?.(progressLine(j.event));
      else if (j.result !== undefined) result = j.result;
      else if (j.error !== undefined) failure = j.error;
    };
    const chunks: string[] = [];
    for await (const chunk of stream) {
      const text = String(chunk);
      if (res.statusCode >= 400) { chunks.push(text); continue; }
      buffered += text;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        take(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    }
    if (res.statusCode >= 400) throw statusError('POST', '/ask/stream', res.statusCode, chunks.join(''), res.headers);
    take(buffered);
    if (failure !== undefined) throw new ToolError(`the question failed: ${failure}`, 500);
    if (result === undefined) throw new ToolError('the question ended without a result', 500);
    const parsed = askResultSchema.parse(result);
    return { structured: parsed as Record<string, unknown>, text: answerText(parsed) };
  } catch (e) {
    if (ctx.signal.aborted) throw new ToolError('the call was cancelled; the question was stopped', undefined, 'cancelled');
    throw e;
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
  }
}

const askInput = z.object({
  question: askBodyFields.question.describe('the question in plain English, e.g. "What was Apple\'s total revenue in 2023?"'),
  intent: intentSchema.optional().describe('instead of a question: the intent itself (shape, entity, attribute, period, ...), validated like the interpreters\' output'),
  on_ambiguity: askBodyFields.on_ambiguity.describe('answer (default): the preferred reading, others in alternatives; all: every reading; ask: a clarification with options to resume'),
  strict: askBodyFields.strict.describe('refuse an answer that contains an unverified figure'),
  timeout_ms: askBodyFields.timeout_ms.describe('question deadline in milliseconds (default 30000)'),
  conversation: askBodyFields.conversation.describe('continue a conversation: the "conversation" of an earlier result. A follow-up ("and in 2022?", "what about Microsoft?", "and its net income?", "compare that with Alphabet") is then read against the previous turn, and the fields carried over are listed in "followup"'),
}).strict().refine((a) => (a.question === undefined) !== (a.intent === undefined), { message: 'send exactly one of question or intent' });

const resumeFields = askBodyFields.resume.unwrap().shape;

function sourceSummary(catalog: Catalog, p: Publisher, baseIri: string): z.infer<typeof sourceSummarySchema> {
  const paths = catalog.accessPaths.filter((a) => a.publisherId === p.id);
  return {
    id: p.id,
    title: p.data.title,
    description: p.data.description ?? null,
    iri: catalogIris(baseIri).source(p.id),
    operations: paths.length,
    measures: catalog.measures.filter((m) => m.publisherId === p.id).length,
    access_path_kinds: [...new Set(paths.map((a) => a.data.kind))],
  };
}

const ENTITY_TYPES = ['company', 'organization', 'person', 'state', 'county', 'place', 'school'] as const satisfies readonly EntityType[];

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'ask',
    title: 'Ask a question of US public data',
    description: 'Answer a question from the publishers\' own APIs (SEC EDGAR, Census, IRS, Treasury, CDC, NSF, …). Every number in the answer is graded by code (verified, derived, corroborated, conflict, unverified) and cited to the publisher response it came from. An ambiguous question returns a clarification (call resume with an option); an unanswerable one a typed refusal saying why and what would make it answerable. Numbers never come from a model.',
    input: askInput as unknown as z.ZodObject,
    output: askResultSchema,
    run: (g, a, ctx) => askVia(g, a, ctx),
  },
  {
    name: 'resume',
    title: 'Resume a clarification',
    description: 'Answer the clarification a previous ask returned (status needs_clarification) with the option chosen. The option\'s bindings are used as they are; the choice is never re-interpreted.',
    input: z.object({
      run: resumeFields.run.describe('the run_id of the result that asked'),
      option: resumeFields.option.describe('the option number (n) chosen'),
      strict: askBodyFields.strict,
      conversation: askBodyFields.conversation,
    }).strict(),
    output: askResultSchema,
    run: (g, a, ctx) => askVia(g, { resume: { run: a.run, option: a.option }, ...(a.strict !== undefined ? { strict: a.strict } : {}), ...(a.conversation ? { conversation: a.conversation } : {}) }, ctx),
  },
  {
    name: 'sparql',
    title: 'Run a read-only SPARQL query',
    description: 'Run a SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE) over everything Assay knows: the catalog of publishers (DCAT and access paths), admitted evidence with PROV-O provenance, question runs and feedback. The default graph is the union of all graphs. Runs under the endpoint\'s time and row limits in its query sandbox; updates are refused.',
    input: z.object({ query: z.string().min(1).describe('the SPARQL query text') }).strict(),
    output: sparqlResultSchema,
    async run(g, a, ctx) {
      const query = String(a.query);
      const { body, headers } = await call(g, ctx, {
        method: 'POST', url: '/sparql', body: query,
        headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json, text/turtle;q=0.9' },
      }).catch((e: unknown) => {
        // The endpoint refused it as a query; if its syntax tree is an update, say what this tool is
        // (the text already passed the endpoint's size and nesting checks, so parsing it is bounded).
        if (e instanceof ToolError && e.code === 'syntax-error' && isUpdate(query)) {
          throw new ToolError('the sparql tool is read-only: this text is a SPARQL Update. Send a SELECT, ASK, CONSTRUCT or DESCRIBE query; updates go to the /sparql endpoint with the operator\'s credential.', 400, 'read-only');
        }
        throw e;
      });
      const truncated = headers['assay-truncated'] === 'true';
      const type = String(headers['content-type'] ?? '');
      if (type.startsWith('application/sparql-results+json')) {
        const j = JSON.parse(body) as { head: { vars?: string[] }; boolean?: boolean; results?: { bindings: Record<string, { type: string; value: string }>[] } };
        if (typeof j.boolean === 'boolean') return { structured: { kind: 'ask', boolean: j.boolean, truncated }, text: `ASK: ${j.boolean}` };
        const rows = j.results?.bindings ?? [];
        const vars = j.head.vars ?? [];
        const preview = rows.slice(0, 20).map((r) => vars.map((v) => r[v]?.value ?? '').join('\t'));
        return { structured: { kind: 'select', vars, rows, truncated }, text: [`${rows.length} row(s)${truncated ? ' (cut at the row limit)' : ''}`, vars.join('\t'), ...preview].join('\n') };
      }
      return { structured: { kind: 'graph', turtle: body, truncated }, text: body };
    },
  },
  {
    name: 'nlq',
    title: 'Write SPARQL for a question about the graph',
    description: 'Write and run a SPARQL query over the store\'s graphs (or one named graph) from a question, grounded in the graph\'s own schema and labels, repaired when it fails. The generated query and its rows are unverified (not graded evidence): read the query before trusting them.',
    input: nlqBodySchema,
    output: nlqResultSchema,
    available: (g) => g.serves('POST', '/nlq'),
    async run(g, a, ctx) {
      const { body } = await call(g, ctx, { method: 'POST', url: '/nlq', payload: a });
      const j = JSON.parse(body) as Record<string, unknown>;
      const query = typeof j.sparql === 'string' ? j.sparql : typeof j.query === 'string' ? j.query : null;
      return { structured: j, text: query ? `Generated SPARQL (unverified):\n${query}` : body };
    },
  },
  {
    name: 'schema_card',
    title: 'Schema card of the store',
    description: 'A compact text description of the store\'s (or one graph\'s) classes, predicates, value types and join hints, mined from the data, within a character budget — for writing SPARQL against it.',
    input: z.object({
      graph: z.string().optional().describe('a named graph IRI, or "default"; omitted: every graph together'),
      budget: z.number().int().min(1).max(100_000).optional().describe('characters (default 4000)'),
      seed: z.array(z.string()).max(20).optional().describe('class or predicate IRIs to scope the card to'),
    }).strict(),
    output: z.object({ card: z.string() }),
    async run(g, a, ctx) {
      const q = new URLSearchParams();
      if (a.graph) q.set('graph', String(a.graph));
      if (a.budget) q.set('budget', String(a.budget));
      for (const s of (a.seed as string[] | undefined) ?? []) q.append('seed', s);
      const { body } = await call(g, ctx, { method: 'GET', url: `/schema-card${q.size ? `?${q}` : ''}`, headers: { accept: 'text/plain' } });
      return { structured: { card: body }, text: body };
    },
  },
  {
    name: 'list_sources',
    title: 'List the publishers Assay can read',
    description: 'Every source in the catalog with its operations, measure count and the kinds of access path it declares (keyed read, search, population scan, …).',
    input: z.object({}).strict(),
    output: z.object({ sources: z.array(sourceSummarySchema) }),
    async run(g) {
      const catalog = await g.catalog();
      const sources = catalog.publishers.map((p) => sourceSummary(catalog, p, g.baseIri));
      return { structured: { sources }, text: sources.map((s) => `${s.id}: ${s.title} — ${s.operations} operations, ${s.measures} measures (${s.access_path_kinds.join(', ')})`).join('\n') };
    },
  },
  {
    name: 'describe_source',
    title: 'Describe one publisher',
    description: 'One source\'s operations (kind, what each returns, how many measures each serves) and a sample of its measures with units.',
    input: z.object({ id: z.string().min(1).describe('a source id, as list_sources gives it') }).strict(),
    output: sourceDetailSchema,
    async run(g, a) {
      const catalog = await g.catalog();
      const p = catalog.publisher(String(a.id));
      if (!p) throw new ToolError(`no source "${String(a.id)}" in the catalog; the sources are ${catalog.publishers.map((x) => x.id).join(', ')}`);
      const measures = catalog.measures.filter((m) => m.publisherId === p.id);
      const detail = {
        ...sourceSummary(catalog, p, g.baseIri),
        operation_list: catalog.accessPaths.filter((x) => x.publisherId === p.id).map((x) => ({
          id: x.data.operationId, kind: x.data.kind, title: x.data.title, description: x.data.description ?? null,
          measures: measures.filter((m) => m.data.servedBy.includes(x.data.operationId)).length,
        })),
        measure_sample: measures.slice(0, 25).map((m) => ({ key: m.key, label: m.data.title, unit: m.data.unit ?? null })),
      };
      return { structured: detail, text: [`${detail.id}: ${detail.title}`, detail.description ?? '', ...detail.operation_list.map((o) => `- ${o.id} (${o.kind}): ${o.title}; ${o.measures} measures`)].join('\n') };
    },
  },
  {
    name: 'resolve_entity',
    title: 'Resolve an entity name',
    description: 'The identity registry\'s candidates for a name (offline snapshot), each with every identifier known for it (Wikidata QID, CIK, EIN, ticker, FIPS, …), ranked by how the name matched. The registry never chooses among candidates.',
    input: z.object({
      name: z.string().min(1).max(200).describe('e.g. "Apple" or "Cook County"'),
      type: z.enum(ENTITY_TYPES).optional(),
    }).strict(),
    output: z.object({ name: z.string(), type: z.string().nullable(), registry: z.string(), candidates: z.array(candidateSchema) }),
    async run(g, a, ctx) {
      const registry = await g.registry();
      const type = a.type as EntityType | undefined;
      const candidates = await resolveName(registry, String(a.name), { ...(type ? { type } : {}) }, resolveContext(ctx.signal));
      const out = candidates.map((c) => ({ id: c.id, label: c.label, types: c.types, identifiers: c.identifiers as Record<string, string[]>, match: c.match }));
      return {
        structured: { name: String(a.name), type: type ?? null, registry: registry.kind, candidates: out },
        text: out.length ? out.map((c) => `${c.label} [${c.types.join(', ')}; ${c.match} match] ${Object.entries(c.identifiers).map(([k, v]) => `${k}=${v.join('|')}`).join(' ')}`).join('\n') : `no candidates for "${String(a.name)}" in the ${registry.kind} registry`,
      };
    },
  },
];
