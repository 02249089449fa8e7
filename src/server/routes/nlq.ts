/**
 * Questions over any graph of the store, through the NL→SPARQL loop (src/nlq).
 *
 *   POST /nlq  {"question": "…", "graph"?: IRI, "ground"?: bool, "max_repairs"?: n, "check_dictionary"?: bool}
 *     → 200 with the outcome (status answered | not_answered, the executed query, rows labelled as
 *       the unverified generated-query lane, transcript, citations, qualification); 404 when the
 *       graph is empty or unknown; 400 for a bad body; 503 when the query workers are busy.
 *   GET /text2sparql?question=…&dataset=<IRI>
 *     → 200 {"dataset", "question", "query"}: the TEXT2SPARQL challenge contract. The query is
 *       written against the dataset (the named graph with that IRI, loaded with
 *       `assay load FILE --graph IRI`) as its default graph — no FROM, no GRAPH — and was executed
 *       here once to validate it. A question the generator cannot answer gives "query": "" and the
 *       reason in "assay"; an unknown dataset is 404 with a message.
 *
 * Generated SPARQL and all grounding reads run in the app's query pool. Groundings are cached per
 * graph and dropped on every store write. The generator comes from the environment (offline by
 * default; src/nlq/generate/from-env.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  askGraph, DEFAULT_NLQ_CONFIG, failureText, generatorFromEnv, groundingCutText, GroundingCache, outcomeJson, poolRunner,
  type NlqConfig, type NlqDeps, type NlqOutcome, type SparqlGenerator,
} from '../../nlq/index.ts';
import { SparqlError } from '../sparql/errors.ts';

export const bodySchema = z.object({
  question: z.string().min(1).max(2000),
  graph: z.string().url().optional(),
  ground: z.boolean().optional(),
  max_repairs: z.number().int().min(0).max(5).optional(),
  check_dictionary: z.boolean().optional(),
}).strict();

export interface NlqRouteOptions { generator?: SparqlGenerator }

export async function nlqRoutes(app: FastifyInstance, opts: NlqRouteOptions = {}): Promise<void> {
  const { config, store } = app.assay;
  const runner = poolRunner(app.queryPool, { baseIri: config.baseIri, allowedRemoteHosts: [] });
  const groundings = new GroundingCache(runner, { timeoutMs: config.sparql.voidTimeoutMs, maxLabelRows: 1_000_000 });
  const unsubscribe = store.onWrite(groundings.onWrite);
  app.addHook('onClose', async () => unsubscribe());
  let generator: Promise<SparqlGenerator> | undefined = opts.generator ? Promise.resolve(opts.generator) : undefined;
  const deps = async (): Promise<NlqDeps> => {
    generator ??= generatorFromEnv().then((g) => g.generator);
    generator.catch(() => { generator = undefined; });
    return { runner, groundings, generator: await generator };
  };
  const base: NlqConfig = { ...DEFAULT_NLQ_CONFIG, timeoutMs: config.sparql.timeoutMs, maxRows: config.sparql.maxRows };

  const run = async (reply: FastifyReply, question: string, graph: string | undefined, cfg: NlqConfig): Promise<NlqOutcome | undefined> => {
    try {
      return await askGraph(question, graph, await deps(), cfg);
    } catch (e) {
      if (!(e instanceof SparqlError)) throw e;
      for (const [k, v] of Object.entries(e.headers)) void reply.header(k, v);
      void reply.code(e.status).send({ error: e.code, message: `the question could not be grounded or run: ${e.message}`, fix: 'retry after the seconds in Retry-After, or ask an operator to raise the limits' });
      return undefined;
    }
  };

  app.post('/nlq', async (request, reply) => {
    const r = bodySchema.safeParse(request.body ?? {});
    if (!r.success) {
      return reply.code(400).send({ error: 'bad-request', message: `invalid nlq request: ${r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`, fix: 'send JSON like {"question": "How many films are there?", "graph": "http://example.org/swapi"}' });
    }
    const b = r.data;
    const cfg: NlqConfig = {
      ...base,
      ...(b.ground !== undefined ? { ground: b.ground } : {}),
      ...(b.max_repairs !== undefined ? { maxRepairRounds: b.max_repairs } : {}),
      ...(b.check_dictionary !== undefined ? { checkDictionary: b.check_dictionary } : {}),
    };
    const out = await run(reply, b.question, b.graph, cfg);
    if (!out) return reply;
    if (out.status === 'not_answered' && (out.reason.code === 'unknown-graph' || out.reason.code === 'empty-graph')) {
      return reply.code(404).send({ error: 'unknown-graph', message: failureText(out), fix: 'load the graph with `assay load FILE --graph IRI`, or name a graph the store holds' });
    }
    return reply.send(outcomeJson(out));
  });

  app.get('/text2sparql', async (request, reply) => {
    const q = request.query as Record<string, string | string[] | undefined>;
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    const question = one(q.question)?.trim();
    const dataset = one(q.dataset)?.trim();
    if (!question || !dataset) {
      return reply.code(400).send({ error: 'bad-request', message: 'both `question` and `dataset` parameters are required', fix: 'GET /text2sparql?question=…&dataset=<graph IRI>' });
    }
    try { new URL(dataset); } catch {
      return reply.code(400).send({ error: 'bad-request', message: `dataset must be an absolute IRI, not "${dataset}"`, fix: 'name the dataset by the IRI of the graph it was loaded into' });
    }
    const out = await run(reply, question, dataset, base);
    if (!out) return reply;
    if (out.status === 'not_answered' && (out.reason.code === 'unknown-graph' || out.reason.code === 'empty-graph')) {
      return reply.code(404).send({ error: 'unknown-dataset', message: `no dataset <${dataset}> is loaded here`, fix: 'load it with `assay load FILE --graph <dataset IRI>` and ask again' });
    }
    const query = out.status === 'answered' ? out.sparql : '';
    const cuts = out.groundingCuts.length > 0 ? { grounding_cuts: out.groundingCuts.map((c) => ({ ...c, text: groundingCutText(c) })) } : {};
    return reply.send({ dataset, question, query, ...(out.status === 'answered' ? (out.groundingCuts.length > 0 ? { assay: cuts } : {}) : { assay: { status: out.status, reason: out.reason, text: failureText(out), ...cuts } }) });
  });
}
