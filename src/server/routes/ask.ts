/**
 * `POST /ask` → the JSON result (answered, needs_clarification or refused: all 200, the status is
 * in the body); `POST /ask/stream` → NDJSON: one line per progress event ({"event": …}) as the
 * question runs, then one line {"result": …}. Body: {question | intent | resume:{run, option},
 * on_ambiguity?, strict?, timeout_ms?}. The question's AbortSignal follows the client connection: a
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
import { ask } from '../../ask/run.ts';
import type { AskServices } from '../../ask/services.ts';
import type { AskRequest, AskResult } from '../../ask/types.ts';
import { AskBusyError } from '../ask/host.ts';

const bodySchema = z.object({
  question: z.string().min(1).max(2000).optional(),
  intent: z.record(z.string(), z.unknown()).optional(),
  resume: z.object({ run: z.string().min(1).max(64), option: z.number().int().min(1) }).optional(),
  on_ambiguity: z.enum(['answer', 'all', 'ask']).optional(),
  strict: z.boolean().optional(),
  timeout_ms: z.number().int().min(1).max(300_000).optional(),
}).strict().refine((b) => [b.question, b.intent, b.resume].filter((x) => x !== undefined).length === 1, { message: 'send exactly one of question, intent or resume' });

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

  const run = async (req: AskRequest, how: { signal: AbortSignal; onProgress?: (e: unknown) => void }): Promise<AskResult> => {
    const { maxQuads, refuseWritesAt } = config.limits.store;
    const at = Math.floor(maxQuads * refuseWritesAt);
    if (store.rdf.size >= at) {
      throw new AskRefusal(507, 'store-full', `the store holds ${store.rdf.size} quads and refuses new runs from ${at} (limits.store.refuseWritesAt = ${refuseWritesAt} of limits.store.maxQuads = ${maxQuads}); reads keep working. An operator frees space with retention (limits.runs) or by clearing graphs.`);
    }
    if (opts.services) return ask(await opts.services, req, { signal: how.signal, ...(how.onProgress ? { onProgress: how.onProgress } : {}) });
    try {
      return await app.askHost().ask(req, how);
    } catch (e) {
      if (e instanceof AskBusyError) throw new AskRefusal(503, 'busy', e.message, { 'Retry-After': '2' });
      throw e;
    }
  };

  const refuse = (reply: FastifyReply, e: AskRefusal) => {
    for (const [k, v] of Object.entries(e.headers)) void reply.header(k, v);
    return reply.code(e.status).send({ statusCode: e.status, error: e.code, message: e.message });
  };

  const parse = (request: FastifyRequest, reply: FastifyReply): AskRequest | undefined => {
    const r = bodySchema.safeParse(request.body ?? {});
    if (!r.success) {
      void reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: `invalid ask request: ${r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}. Send JSON like {"question": "What was Apple's total revenue in 2023?"}` });
      return undefined;
    }
    const b = r.data;
    return {
      ...(b.question ? { question: b.question } : {}), ...(b.intent ? { intent: b.intent } : {}), ...(b.resume ? { resume: b.resume } : {}),
      ...(b.on_ambiguity ? { on_ambiguity: b.on_ambiguity } : {}), ...(b.strict !== undefined ? { strict: b.strict } : {}),
      ...(b.timeout_ms ? { timeoutMs: b.timeout_ms } : {}),
    };
  };

  const disconnectSignal = (request: FastifyRequest, reply: FastifyReply) => {
    const c = new AbortController();
    reply.raw.on('close', () => { if (!reply.raw.writableFinished) c.abort(new Error('the client disconnected')); });
    return c.signal;
  };

  // A body fastify cannot read says why in the ask's own terms (e.g. a "__proto__" key).
  app.setErrorHandler((err: { statusCode?: number; code?: string; message: string }, _req, reply) => {
    if (err.statusCode === 429) return reply.code(429).send(err);
    if (err.statusCode === 400 && /prototype/i.test(err.message)) {
      return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: 'the JSON body has a "__proto__" or "constructor.prototype" key, which this endpoint refuses; remove it' });
    }
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
