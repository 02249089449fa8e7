/**
 * Feedback on answers.
 *
 *   POST /feedback {"run": "<run_id>", "rating": "helpful" | "wrong", "comment"?: "…"}
 *     → 201 {iri, run, rating, comment, created}
 *   GET /feedback?run=<run_id> → 200 {run, feedback: [...]} (newest first)
 *
 * Stored as RDF in the run's own graph in the runs graph family (`<base>graph/runs/<id>`), so it
 * travels with the run (GET /runs/{id}) and is queryable over SPARQL. Vocabulary: schema.org — the
 * feedback is a `schema:Review` whose `schema:itemReviewed` is the run, with a `schema:Rating`
 * (ratingValue 1 helpful / 0 wrong, bestRating 1, worstRating 0, rdfs:label the rating's code),
 * `schema:reviewBody` for the comment and `schema:dateCreated`. Nothing about who sent it is kept.
 *
 * Validation: a malformed body is 400 saying what to send; a comment over MAX_COMMENT characters
 * (or a body over the route's byte limit) is 413; a run the store does not hold is 404. Rate limit:
 * `@fastify/rate-limit`, configured on the route (per client address, default 20 a minute) → 429
 * with Retry-After. The plugin is registered here only when the app has not registered it
 * already, so an app-wide registration takes over without a second one.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { z } from 'zod';
import { runIris, RUN_ID } from '../../evidence/iris.ts';
import { factory, type Quad } from '../../rdf/store.ts';
import { RDF_OUTPUT, serializeRdf } from '../../rdf/serialize.ts';
import { RDF, RDFS, SCHEMA, XSD } from '../../rdf/vocab.ts';

export const MAX_COMMENT = 2000;
const BODY_LIMIT = 16 * 1024;
const RATINGS = { helpful: 1, wrong: 0 } as const;
type Rating = keyof typeof RATINGS;

export interface FeedbackOptions {
  /** Requests per client address per window (default 20). */
  max?: number;
  /** Window length, ms (default one minute). */
  timeWindowMs?: number;
}

const bodySchema = z.object({
  run: z.string().regex(RUN_ID, 'a run id is the "run_id" of an ask result (6–64 letters, digits, "-" or "_")'),
  rating: z.enum(['helpful', 'wrong']),
  comment: z.string().optional(),
}).strict();

export interface FeedbackItem { iri: string; run: string; rating: Rating; comment: string | null; created: string }

function fail(reply: FastifyReply, status: number, error: string, message: string): FastifyReply {
  return reply.code(status).send({ statusCode: status, error, message });
}

export async function feedbackRoutes(app: FastifyInstance, options: FeedbackOptions = {}): Promise<void> {
  const { store, config } = app.assay;
  if (!app.hasDecorator('rateLimit')) await app.register(rateLimit, { global: false });

  const runExists = (graph: string) => store.rdf.match(null, null, null, factory.namedNode(graph)).length > 0;

  app.setErrorHandler((err: { code?: string; statusCode?: number; message: string }, _request, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return fail(reply, 413, 'Payload Too Large', `the feedback body is over ${BODY_LIMIT} bytes; send a comment of at most ${MAX_COMMENT} characters`);
    if (err.statusCode === 429) return reply.code(429).send({ statusCode: 429, error: 'Too Many Requests', message: err.message });
    if (err.statusCode && err.statusCode < 500) return fail(reply, err.statusCode, 'Bad Request', `${err.message}. Send JSON like {"run": "<run_id>", "rating": "helpful", "comment": "…"}`);
    throw err;
  });

  app.post('/feedback', {
    bodyLimit: BODY_LIMIT,
    config: { rateLimit: { max: options.max ?? 20, timeWindow: options.timeWindowMs ?? 60_000 } },
  }, async (request, reply) => {
    const raw = request.body as { comment?: unknown } | undefined;
    if (typeof raw?.comment === 'string' && raw.comment.length > MAX_COMMENT) {
      return fail(reply, 413, 'Payload Too Large', `the comment is ${raw.comment.length} characters; at most ${MAX_COMMENT} are kept. Shorten it and send it again.`);
    }
    const r = bodySchema.safeParse(raw ?? {});
    if (!r.success) {
      return fail(reply, 400, 'Bad Request', `invalid feedback: ${r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}. Send JSON like {"run": "<run_id>", "rating": "helpful" or "wrong", "comment": "…"}`);
    }
    const { run, rating } = r.data;
    const comment = r.data.comment?.trim() ? r.data.comment.trim() : null;
    const iris = runIris(config.baseIri, run);
    if (!runExists(iris.runGraph)) return fail(reply, 404, 'Not Found', `no run ${run} in this store; feedback is given on the "run_id" of an ask result`);
    const iri = `${iris.run}/feedback/${randomUUID()}`;
    const created = createdAt();
    const g = factory.namedNode(iris.runGraph);
    const fb = factory.namedNode(iri);
    const ratingNode = factory.namedNode(`${iri}/rating`);
    const n = (v: string) => factory.namedNode(v);
    const int = (v: number) => factory.literal(String(v), n(XSD.integer));
    const quads: Quad[] = [
      factory.quad(fb, n(RDF.type), n(SCHEMA.Review), g),
      factory.quad(fb, n(SCHEMA.itemReviewed), n(iris.run), g),
      factory.quad(fb, n(SCHEMA.reviewRating), ratingNode, g),
      factory.quad(fb, n(SCHEMA.dateCreated), factory.literal(created, n(XSD.dateTime)), g),
      factory.quad(ratingNode, n(RDF.type), n(SCHEMA.Rating), g),
      factory.quad(ratingNode, n(SCHEMA.ratingValue), int(RATINGS[rating]), g),
      factory.quad(ratingNode, n(SCHEMA.bestRating), int(1), g),
      factory.quad(ratingNode, n(SCHEMA.worstRating), int(0), g),
      factory.quad(ratingNode, n(RDFS.label), factory.literal(rating), g),
      ...(comment ? [factory.quad(fb, n(SCHEMA.reviewBody), factory.literal(comment), g)] : []),
    ];
    await store.apply({ kind: 'load', format: RDF_OUTPUT.nquads, data: await serializeRdf(quads, RDF_OUTPUT.nquads) });
    const item: FeedbackItem = { iri, run, rating, comment, created };
    return reply.code(201).send(item);
  });

  app.get<{ Querystring: { run?: string } }>('/feedback', async (request, reply) => {
    const run = request.query.run ?? '';
    if (!RUN_ID.test(run)) return fail(reply, 400, 'Bad Request', 'name the run: GET /feedback?run=<run_id>');
    const iris = runIris(config.baseIri, run);
    if (!runExists(iris.runGraph)) return fail(reply, 404, 'Not Found', `no run ${run} in this store`);
    return reply.send({ run, feedback: feedbackOn(app, run) });
  });
}

let lastCreated = 0;
/**
 * When a feedback is recorded: never equal to or before this process's previous one (two posted
 * within one millisecond would otherwise tie, and "newest first" would not say which came last).
 */
function createdAt(): string {
  lastCreated = Math.max(Date.now(), lastCreated + 1);
  return new Date(lastCreated).toISOString();
}

/** The feedback recorded on a run, newest first. */
export function feedbackOn(app: FastifyInstance, run: string): FeedbackItem[] {
  const { store, config } = app.assay;
  const iris = runIris(config.baseIri, run);
  const g = factory.namedNode(iris.runGraph);
  const n = (v: string) => factory.namedNode(v);
  const one = (s: Quad['subject'], p: string) => store.rdf.match(s, n(p), null, g)[0]?.object;
  const out: FeedbackItem[] = [];
  for (const q of store.rdf.match(null, n(SCHEMA.itemReviewed), n(iris.run), g)) {
    const rating = one(q.subject, SCHEMA.reviewRating);
    const label = rating && rating.termType !== 'Literal' ? one(rating as Quad['subject'], RDFS.label)?.value : undefined;
    if (label !== 'helpful' && label !== 'wrong') continue;
    out.push({ iri: q.subject.value, run, rating: label, comment: one(q.subject, SCHEMA.reviewBody)?.value ?? null, created: one(q.subject, SCHEMA.dateCreated)?.value ?? '' });
  }
  // by instant, not by text: the store writes an xsd:dateTime in its canonical form, which drops a zero
  // fraction ("…:05Z" for "…:05.000Z"), and "Z" sorts after "." as text. Equal instants (another
  // gateway on the same store, same millisecond): by IRI, so every reader sees one order
  const at = (x: FeedbackItem) => Date.parse(x.created) || 0;
  return out.sort((a, b) => at(b) - at(a) || a.iri.localeCompare(b.iri));
}
