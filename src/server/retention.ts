/**
 * Retention of run graphs: every question writes a run graph (and its admitted evidence into
 * the shared evidence graph), so without a policy the store grows with traffic until it hits
 * its ceiling. A sweep, every limits.runs.sweepEveryMs, removes the runs older than
 * limits.runs.maxAgeHours and, beyond limits.runs.maxCount, the oldest ones, together with their
 * evidence, in one journaled write, then compacts so the snapshot no longer holds them. Both the
 * planning (a scan of the evidence graph) and the compaction's dump run in query workers when the
 * gateway has them, so a sweep never blocks the thread that serves /health and /sparql.
 * Removing a run also ends its resume: a clarification cannot be resumed after its run is gone.
 */
import type { DeltaStep } from '../rdf/durable.ts';
import type { AssayStore, RdfReader } from '../rdf/backend.ts';
import { RdfStore, factory, type Quad } from '../rdf/store.ts';
import { ASSAY, PROV, RDF, graphIri } from '../rdf/vocab.ts';
import type { Limits } from '../config.ts';

export interface SweepResult {
  runs: number;
  removed: string[];
  quadsRemoved: number;
}

/** The runs in the store: graph IRI and start time (ms), oldest first. */
export function listRuns(rdf: RdfReader, baseIri: string): { graph: string; id: string; startedAt: number }[] {
  const prefix = graphIri(baseIri, 'runs/');
  const rows = rdf.select(`SELECT ?g ?t WHERE { GRAPH ?g { ?run <${RDF.type}> <${ASSAY.Run}> ; <${PROV.startedAtTime}> ?t } }`);
  const out: { graph: string; id: string; startedAt: number }[] = [];
  for (const r of rows) {
    const g = r.get('g')?.value;
    const t = Date.parse(r.get('t')?.value ?? '');
    if (!g || !g.startsWith(prefix) || !Number.isFinite(t)) continue;
    out.push({ graph: g, id: decodeURIComponent(g.slice(prefix.length)), startedAt: t });
  }
  return out.sort((a, b) => a.startedAt - b.startedAt);
}

/** What one sweep removes: the run graphs to clear and the evidence quads to delete, as one delta. */
export interface SweepPlan {
  runs: number;
  removed: string[];
  quadsRemoved: number;
  steps: DeltaStep[];
}

/**
 * Work out what the policy no longer keeps. Reads the whole evidence graph, so on a large store
 * the gateway runs this in a query worker against its replica (QueryPool.sweepPlan), not on the
 * thread that serves requests. Runs added after the replica's write are simply not considered.
 */
export function planSweep(rdf: RdfReader, baseIri: string, policy: Limits['runs'], now = Date.now()): SweepPlan {
  const runs = listRuns(rdf, baseIri);
  const drop = new Set<string>();
  if (policy.maxAgeHours > 0) {
    const cutoff = now - policy.maxAgeHours * 3_600_000;
    for (const r of runs) if (r.startedAt < cutoff) drop.add(r.graph);
  }
  if (policy.maxCount > 0 && runs.length > policy.maxCount) {
    for (const r of runs.slice(0, runs.length - policy.maxCount)) drop.add(r.graph);
  }
  if (drop.size === 0) return { runs: runs.length, removed: [], quadsRemoved: 0, steps: [] };
  const gone = runs.filter((r) => drop.has(r.graph));
  const evidenceGraph = factory.namedNode(graphIri(baseIri, 'evidence'));
  const prefixes = gone.map((r) => `${baseIri}evidence/${encodeURIComponent(r.id)}/`);
  const evidence: Quad[] = rdf.match(null, null, null, evidenceGraph)
    .filter((q) => q.subject.termType === 'NamedNode' && prefixes.some((p) => q.subject.value.startsWith(p)));
  let quadsRemoved = evidence.length;
  for (const r of gone) quadsRemoved += rdf.graphSize(r.graph);
  const steps: DeltaStep[] = gone.map((r) => ({ step: 'clear', target: r.graph }));
  if (evidence.length > 0) {
    const scratch = new RdfStore();
    scratch.add(evidence);
    steps.push({ step: 'delete', nquads: scratch.dump({ format: 'application/n-quads' }) });
  }
  return { runs: runs.length, removed: gone.map((r) => r.id), quadsRemoved, steps };
}

/** Where a sweep is planned: by default against the store itself (see planSweep). */
export type SweepPlanner = (now: number) => Promise<SweepPlan>;

/**
 * Remove the runs the policy no longer keeps (and their evidence) in one journaled write; then
 * compact (the embedded store dumps its snapshot in a query worker when the gateway set one up).
 */
export async function sweepRuns(store: AssayStore, baseIri: string, policy: Limits['runs'], now = Date.now(), planner?: SweepPlanner): Promise<SweepResult> {
  const plan = planner ? await planner(now) : planSweep(store.rdf, baseIri, policy, now);
  if (plan.steps.length === 0) return { runs: plan.runs, removed: [], quadsRemoved: 0 };
  await store.apply({ kind: 'delta', steps: plan.steps });
  // The embedded store compacts so its snapshot no longer holds them; a remote store keeps its own files.
  if ('compact' in store && typeof store.compact === 'function') await (store.compact as () => Promise<void>)();
  return { runs: plan.runs, removed: plan.removed, quadsRemoved: plan.quadsRemoved };
}

/** Run sweepRuns every `sweepEveryMs` (and once soon after start). Returns a stop function. */
export function startRetention(store: AssayStore, baseIri: string, policy: Limits['runs'], log: (r: SweepResult | Error) => void, planner?: SweepPlanner): () => void {
  if (policy.maxAgeHours === 0 && policy.maxCount === 0) return () => {};
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    sweepRuns(store, baseIri, policy, Date.now(), planner).then((r) => { if (r.removed.length > 0) log(r); }, (e: Error) => log(e)).finally(() => { running = false; });
  };
  const first = setTimeout(tick, Math.min(5_000, policy.sweepEveryMs));
  const every = setInterval(tick, policy.sweepEveryMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
