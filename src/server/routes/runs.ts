/**
 * `GET /runs/{id}`: a question's run graph (intent, plan, every attempt, answer and figure grades),
 * content-negotiated (Turtle, N-Triples, JSON-LD, N-Quads, TriG), plus the evidence it admitted and
 * their provenance from the evidence graph. 404 for a run that does not exist.
 */
import type { FastifyInstance } from 'fastify';
import { runIris, RUN_ID } from '../../evidence/iris.ts';
import { factory, type Quad } from '../../rdf/store.ts';
import { ALL_RDF_OUTPUT } from '../../rdf/serialize.ts';
import { PREFIXES } from '../../rdf/vocab.ts';
import { notFound, sendRdf } from './rdf-reply.ts';

export async function runsRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { id: string } }>('/runs/:id', async (request, reply) => {
    const { id } = request.params;
    if (!RUN_ID.test(id)) return notFound(reply, `"${id}" is not a run id (runs are named by the "run_id" of an ask result)`);
    const { store, config } = app.assay;
    const iris = runIris(config.baseIri, id);
    const run = store.rdf.match(null, null, null, factory.namedNode(iris.runGraph)) as Quad[];
    if (run.length === 0) return notFound(reply, `no run ${id} in this store; ask a question with POST /ask first`);
    const prefix = `${config.baseIri}evidence/${encodeURIComponent(id)}/`;
    const evidence = (store.rdf.match(null, null, null, factory.namedNode(iris.evidenceGraph)) as Quad[]).filter((q) => q.subject.value.startsWith(prefix));
    return sendRdf(request, reply, [...run, ...evidence], ALL_RDF_OUTPUT, { prefixes: PREFIXES });
  });
}
