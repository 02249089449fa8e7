/**
 * A plan as RDF, for the question's run graph: the plan node (shape, verdict, reason, required
 * operation kinds, missing operation) and one assessment node per assessed candidate, linked to
 * the catalog's measure and access-path IRIs so SPARQL can join a plan to the descriptors.
 * Terms are Assay's vocabulary (src/rdf/vocab.ts, documented in shapes/assay-vocab.ttl).
 */
import { catalogIris } from '../ard/rdf/iris.ts';
import { jsFactory as factory, type Quad } from '../rdf/store.ts';
import { ASSAY, PROV, RDF, XSD } from '../rdf/vocab.ts';
import type { Assessment, Plan } from './plan.ts';

const KIND: Record<string, string> = {
  keyed_read: ASSAY.KeyedRead, search: ASSAY.Search, records_by_entity: ASSAY.RecordsByEntity, ordered_top_n: ASSAY.OrderedTopN,
  population_scan: ASSAY.PopulationScan, server_aggregate: ASSAY.ServerAggregate, period_read: ASSAY.PeriodRead,
  join_key: ASSAY.JoinKey, edges_forward: ASSAY.EdgesForward, edges_reverse: ASSAY.EdgesReverse,
};

/** Assessments written per plan by default (besides the selected one and those the executor tried). */
export const RECORDED_ASSESSMENTS = 40;

/**
 * `planIri` names the plan (e.g. `<run>/plan`); `runGraph` is the question's run graph.
 *
 * A broad measure ("population") can leave thousands of eligible candidates; writing each into every
 * run graph cost ~10,000 quads per question (a durable store capped at 12 M quads would fill after
 * about a thousand questions). So the run graph keeps the selected assessment, every assessment
 * whose candidate the executor tried (`tried`, candidate keys), and the first `maxAssessments` in
 * priority order, with `assay:assessmentCount` saying how many were assessed in all; the full
 * list is recomputable from the recorded intent and the catalog (and `assay plan --json` prints it).
 */
export function planToQuads(plan: Plan, options: { planIri: string; runGraph: string; baseIri: string; tried?: ReadonlySet<string>; maxAssessments?: number }): Quad[] {
  const { namedNode: nn, literal: lit, quad } = factory;
  const g = nn(options.runGraph);
  const iris = catalogIris(options.baseIri);
  const p = nn(options.planIri);
  const out: Quad[] = [];
  const add = (s: ReturnType<typeof nn>, pred: string, o: Parameters<typeof quad>[2]) => out.push(quad(s, nn(pred), o, g));
  add(p, RDF.type, nn(ASSAY.Plan));
  add(p, RDF.type, nn(PROV.Entity));
  add(p, ASSAY.question, lit(plan.question));
  add(p, ASSAY.shape, lit(plan.shape));
  add(p, ASSAY.verdict, lit(plan.verdict));
  add(p, ASSAY.reason, lit(plan.reason));
  for (const k of plan.required.exact) add(p, ASSAY.exactKind, nn(KIND[k]!));
  for (const k of plan.required.composed) add(p, ASSAY.composedKind, nn(KIND[k]!));
  if (plan.verdict === 'infeasible') add(p, ASSAY.missingOperation, lit(plan.required.missing));

  const candidateIri = (a: Assessment) => {
    const rest = a.candidateKey.slice(a.publisherId.length + 1);
    return a.kind === 'measure' ? iris.measure(a.publisherId, rest) : iris.accessPath(a.publisherId, rest);
  };
  const max = options.maxAssessments ?? RECORDED_ASSESSMENTS;
  add(p, ASSAY.assessmentCount, lit(String(plan.assessments.length), nn(XSD.integer)));
  plan.assessments.forEach((a, i) => {
    if (i >= max && plan.selected !== a && !options.tried?.has(a.candidateKey)) return;
    const node = nn(`${options.planIri}/assessment/${i + 1}`);
    add(p, ASSAY.assessment, node);
    if (plan.selected === a) add(p, ASSAY.selected, node);
    add(node, RDF.type, nn(ASSAY.CandidateAssessment));
    add(node, ASSAY.candidate, nn(candidateIri(a)));
    add(node, ASSAY.verdict, lit(a.verdict));
    add(node, ASSAY.reason, lit(a.reason));
    add(node, ASSAY.discoveryRank, lit(String(a.discoveryRank), nn(XSD.integer)));
    if (a.operation && a.verdict !== 'infeasible') add(node, ASSAY.viaAccessPath, nn(iris.accessPath(a.operation.publisherId, a.operation.operationId)));
  });
  return out;
}
