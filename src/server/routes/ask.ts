/**
 * `POST /ask` → the JSON result (answered, needs_clarification or refused: all 200, the status is
 * in the body); `POST /ask/stream` → NDJSON: one line per progress event ({"event": …}) as the
 * question runs, then one line {"result": …}. Body: {question | intent | resume:{run, option},
 * on_ambiguity?, strict?, timeout_ms?, interpreter?, conversation?}. Every result carries a `conversation` id; sending it
 * back makes the next question a turn of that conversation, read as a follow-up when it is one
 * (src/conversation/ask.ts). The question's AbortSignal follows the client connection: a
 * client that disconnects stops the work.
 *
 * Questions run in ask worker threads (src/server/ask/host.ts), never on this event loop, so
 * /sparql and /health answer while questions are worked on. (Services passed in `opts.services`
 * run in-process instead: for tests that inject a scripted model or runtime.)
 *
 * Limits, in order: per-client rate limit (app.ts), a store near its ceiling refuses with 507
 * (every question writes its run), a full ask queue is 503 with Retry-After.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { askTurn, type TurnRequest, type TurnResult } from '../../conversation/ask.ts';
import { CONVERSATION_ID } from '../../conversation/turns.ts';
import type { AskServices } from '../../ask/services.ts';
import { AskBusyError } from '../ask/host.ts';
import { DurableStore } from '../../rdf/durable.ts';
import { modelEnv, type Config } from '../../config.ts';
import { modelConfigFromEnv } from '../../llm/config.ts';

/** Whether the gateway's ask workers have a model client (a live model or a replay of one). */
function modelConfigured(config: Config): boolean {
  const env = modelEnv(config);
  return Boolean(env.ASSAY_LLM_REPLAY) || modelConfigFromEnv(env) !== undefined;
}

/** The body's fields, shared with the MCP tools (src/mcp/tools.ts) so both validate alike. */
export const askBodyFields = {
  question: z.string().min(1).max(2000).optional(),
  intent: z.record(z.string(), z.unknown()).optional(),
  resume: z.object({ run: z.string().min(1).max(64), option: z.number().int().min(1) }).optional(),
  on_ambiguity: z.enum(['answer', 'all', 'ask']).optional(),
  strict: z.boolean().optional(),
  timeout_ms: z.number().int().min(1).max(300_000).optional(),
  /** Who reads the question: the offline interpreter (default) or the configured model. */
  interpreter: z.enum(['offline', 'model']).optional(),
  /** Continue this conversation (the "conversation" of an earlier result); omitted: a new one. */
  conversation: z.string().regex(CONVERSATION_ID, 'a conversation id is the "conversation" of an earlier ask result').optional(),
};

const bodySchema = z.object(askBodyFields).strict().refine((b) => [b.question, b.intent, b.resume].filter((x) => x !== undefined).length === 1, { message: 'send exactly one of question, intent or resume' });

/** The first "__proto__" or "constructor" key anywhere in a parsed JSON value (iteratively). */
function prototypeKey(root: unknown): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    for (const k of Object.keys(v)) {
      if (k === '__proto__' || k === 'constructor') return k;
      stack.push((v as Record<string, unknown>)[k]);
    }
  }
  return undefined;
}

export interface AskRouteOptions { services?: Promise<AskServices> }

class AskRefusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

export async function askRoutes(app: FastifyInstance, opts: AskRouteOptions = {}): Promise<void> {
  const { config, store } = app.assay;
  const rate = config.limits.rateLimit.askPerMinute;
  const routeConfig = { rateLimit: rate > 0 ? { max: rate, timeWindow: 60_000 } : false as const };

  const run = async (req: TurnRequest, how: { signal: AbortSignal; onProgress?: (e: unknown) => void }): Promise<TurnResult> => {
    const { maxQuads, refuseWritesAt } = config.limits.store;
    const at = Math.floor(maxQuads * refuseWritesAt);
    if (store.rdf.sizeBound >= at && store.rdf.size >= at) {
      throw new AskRefusal(507, 'store-full', `the store holds ${store.rdf.size} quads and refuses new runs from ${at} (limits.store.refuseWritesAt = ${refuseWritesAt} of limits.store.maxQuads = ${maxQuads}); reads keep working. An operator frees space with retention (limits.runs) or by clearing graphs.`);
    }
    // every question writes its run: a data directory that refused a write (full, read-only) refuses new runs, saying why
    const unwritable = () => {
      const fault = store instanceof DurableStore ? store.writeFault : null;
      return fault ? new AskRefusal(507, 'store-unwritable', `${fault.message}. Reads (/sparql, /runs) keep working.`) : undefined;
    };
    const before = unwritable();
    if (before) throw before;
    try {
      if (opts.services) return await askTurn(await opts.services, req, { signal: how.signal, ...(how.onProgress ? { onProgress: how.onProgress } : {}) });
      return await app.askHost().ask(req, how);
    } catch (e) {
      if (e instanceof AskBusyError) throw new AskRefusal(503, 'busy', e.message, { 'Retry-After': '2' });
      throw unwritable() ?? e;
    }
  };

  const refuse = (reply: FastifyReply, e: AskRefusal) => {
    for (const [k, v] of Object.entries(e.headers)) void reply.header(k, v);
    return reply.code(e.status).send({ statusCode: e.status, error: e.code, message: e.message });
  };

  const parse = (request: FastifyRequest, reply: FastifyReply): TurnRequest | undefined => {
    const r = bodySchema.safeParse(request.body ?? {});
    if (!r.success) {
      void reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: `invalid ask request: ${r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}. Send JSON like {"question": "What was Apple's total revenue in 2023?"}` });
      return undefined;
    }
    const b = r.data;
    if (b.interpreter === 'model' && !modelConfigured(config)) {
      void reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: 'invalid ask request: interpreter "model" asked, but this gateway has no model configured. Send "interpreter": "offline" (the default), or have the operator set ASSAY_LLM_URL and ASSAY_LLM_MODEL.' });
      return undefined;
    }
    return {
      ...(b.interpreter ? { interpreter: b.interpreter } : {}),
      ...(b.question ? { question: b.question } : {}), ...(b.intent ? { intent: b.intent } : {}), ...(b.resume ? { resume: b.resume } : {}),
      ...(b.on_ambiguity ? { on_ambiguity: b.on_ambiguity } : {}), ...(b.strict !== undefined ? { strict: b.strict } : {}),
      ...(b.timeout_ms ? { timeoutMs: b.timeout_ms } : {}),
      ...(b.conversation ? { conversation: b.conversation } : {}),
    };
  };

  const disconnectSignal = (request: FastifyRequest, reply: FastifyReply) => {
    const c = new AbortController();
    reply.raw.on('close', () => { if (!reply.raw.writableFinished) c.abort(new Error('the client disconnected')); });
    return c.signal;
  };

  // JSON is read here so that a body that cannot be used says why: not JSON, or a key that
  // names an object's prototype ("__proto__", "constructor"), which is refused outright.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    let value: unknown;
    try {
      value = JSON.parse(body as string);
    } catch (e) {
      done(Object.assign(new Error(`the body is not valid JSON (${(e as Error).message}); send JSON like {"question": "…"}`), { statusCode: 400 }), undefined);
      return;
    }
    const bad = prototypeKey(value);
    if (bad) {
      done(Object.assign(new Error(`the JSON body has a "${bad}" key, which this endpoint refuses (it names an object's prototype); remove it`), { statusCode: 400 }), undefined);
      return;
    }
    done(null, value);
  });

  app.setErrorHandler((err: { statusCode?: number; code?: string; message: string }, request, reply) => {
    if (err.statusCode === 429) return reply.code(429).send(err);
    // fastify's own refusals of the body, said as what to send instead
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ statusCode: 413, error: 'Payload Too Large', message: `the body is larger than the ${request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit} bytes ${request.url} takes; send JSON like {"question": "…"} (a question is at most 2,000 characters)` });
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(415).send({ statusCode: 415, error: 'Unsupported Media Type', message: `${request.url} takes a JSON body: send Content-Type: application/json with JSON like {"question": "…"}` });
    if (err.statusCode && err.statusCode < 500) return reply.code(err.statusCode).send({ statusCode: err.statusCode, error: err.code ?? 'Bad Request', message: err.message });
    reply.log.error({ err }, 'ask failed');
    return reply.code(500).send({ statusCode: 500, error: 'internal', message: `the question failed unexpectedly: ${err.message}; this is a bug in Assay` });
  });

  app.post('/ask', { config: routeConfig }, async (request, reply) => {
    const req = parse(request, reply);
    if (!req) return reply;
    try {
      return reply.send(await run(req, { signal: disconnectSignal(request, reply) }));
    } catch (e) {
      if (e instanceof AskRefusal) return refuse(reply, e);
      throw e;
    }
  });

  app.post('/ask/stream', { config: routeConfig }, async (request, reply) => {
    const req = parse(request, reply);
    if (!req) return reply;
    const signal = disconnectSignal(request, reply);
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
    };
    try {
      const result = await run(req, { signal, onProgress: (e) => { start(); reply.raw.write(JSON.stringify({ event: e }) + '\n'); } });
      start();
      reply.raw.write(JSON.stringify({ result }) + '\n');
    } catch (e) {
      if (!started && e instanceof AskRefusal) return refuse(reply, e);
      start();
      reply.raw.write(JSON.stringify({ error: (e as Error).message }) + '\n');
    }
    reply.raw.end();
    return reply;
  });
}
