/**
 * `POST /ask` → the JSON result (answered, needs_clarification or refused: all 200, the status is
 * in the body); `POST /ask/stream` → NDJSON: one line per progress event ({"event": …}) as the
 * question runs, then one line {"result": …}. Body: {question | intent | resume:{run, option},
 * on_ambiguity?, strict?, timeout_ms?, conversation?}. Every result carries a `conversation` id; sending it
 * back makes the next question a turn of that conversation, read as a follow-up when it is one
 * (src/conversation/ask.ts). The question's AbortSignal follows the client connection: a
 * client that disconnects stops the work. Ask services (catalog index, connectors, registry,
 * shapes) are loaded once per app on first use.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { askTurn, type TurnRequest } from '../../conversation/ask.ts';
import { CONVERSATION_ID } from '../../conversation/turns.ts';
import { loadAskServices, type AskServices } from '../../ask/services.ts';
import { modelClientFromEnv } from '../../llm/index.ts';

/** The body's fields, shared with the MCP tools (src/mcp/tools.ts) so both validate alike. */
export const askBodyFields = {
  question: z.string().min(1).max(2000).optional(),
  intent: z.record(z.string(), z.unknown()).optional(),
  resume: z.object({ run: z.string().min(1).max(64), option: z.number().int().min(1) }).optional(),
  on_ambiguity: z.enum(['answer', 'all', 'ask']).optional(),
  strict: z.boolean().optional(),
  timeout_ms: z.number().int().min(1).max(300_000).optional(),
  /** Continue this conversation (the "conversation" of an earlier result); omitted: a new one. */
  conversation: z.string().regex(CONVERSATION_ID, 'a conversation id is the "conversation" of an earlier ask result').optional(),
};

const bodySchema = z.object(askBodyFields).strict().refine((b) => [b.question, b.intent, b.resume].filter((x) => x !== undefined).length === 1, { message: 'send exactly one of question, intent or resume' });

export interface AskRouteOptions { services?: Promise<AskServices> }

export async function askRoutes(app: FastifyInstance, opts: AskRouteOptions = {}): Promise<void> {
  let services: Promise<AskServices> | undefined = opts.services;
  const getServices = () => {
    services ??= (async () => {
      const model = await modelClientFromEnv();
      return loadAskServices({ store: app.assay.store, baseIri: app.assay.config.baseIri, ...(model ? { model } : {}) });
    })();
    services.catch(() => { services = undefined; }); // a failed load is retried on the next request
    return services;
  };

  const parse = (request: FastifyRequest, reply: FastifyReply): TurnRequest | undefined => {
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
      ...(b.conversation ? { conversation: b.conversation } : {}),
    };
  };

  const disconnectSignal = (request: FastifyRequest, reply: FastifyReply) => {
    const c = new AbortController();
    reply.raw.on('close', () => { if (!reply.raw.writableFinished) c.abort(new Error('the client disconnected')); });
    return c.signal;
  };

  app.post('/ask', async (request, reply) => {
    const req = parse(request, reply);
    if (!req) return reply;
    const result = await askTurn(await getServices(), req, { signal: disconnectSignal(request, reply) });
    return reply.send(result);
  });

  app.post('/ask/stream', async (request, reply) => {
    const req = parse(request, reply);
    if (!req) return reply;
    const s = await getServices();
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
    const signal = disconnectSignal(request, reply);
    try {
      const result = await askTurn(s, req, { signal, onProgress: (e) => reply.raw.write(JSON.stringify({ event: e }) + '\n') });
      reply.raw.write(JSON.stringify({ result }) + '\n');
    } catch (e) {
      reply.raw.write(JSON.stringify({ error: (e as Error).message }) + '\n');
    } finally {
      reply.raw.end();
    }
  });
}
