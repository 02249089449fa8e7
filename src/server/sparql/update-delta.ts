/**
 * SPARQL Update turned into its effect: runs a checked update's operations, in order, against a
 * query worker's replica and returns what they did as `DeltaStep`s (graphs cleared, concrete
 * quads deleted and inserted), which the owner of the durable store journals and applies.
 *
 * Why: an update can run for as long as its WHERE clause takes. Evaluated here it runs under
 * the job's deadline in a worker the pool can kill; the main thread only applies the result
 * (proportional to what changed, not to the work of finding it), and replay at start-up is a
 * plain reapplication that cannot fail or run long. Functions such as NOW(), UUID() and
 * BNODE() are evaluated once, here, so every replica and every restart sees the same values.
 *
 * Semantics (SPARQL 1.1 Update §3): each operation sees the effects of the ones before it;
 * DELETE/INSERT instantiate both templates from the same WHERE solutions, deleting first;
 * a template triple with an unbound variable or an ill-formed term is skipped; blank nodes in
 * INSERT templates are fresh per solution. The store keeps no empty graphs (a graph exists
 * while it has quads), so CREATE of a graph with quads fails unless SILENT and is otherwise a
 * no-op, and DROP/ADD/MOVE/COPY of a named graph without quads fail unless SILENT.
 *
 * The replica is put back exactly as it was before returning (every change is recorded and
 * undone), so it stays an exact copy of the acknowledged state; the owner then forwards the
 * delta like any other write. A failure anywhere fails the whole request, with nothing applied.
 *
 * Blank nodes: oxigraph renames blank nodes on load, so the replica's labels for existing blank
 * nodes differ from the owner's. An update whose effect names an existing blank node (deleting
 * a quad that has one, or inserting one bound by WHERE) is therefore `portable: false`: the
 * owner runs the checked text itself, now known to finish within the limit on the same state.
 */
import { randomBytes } from 'node:crypto';
import sparqljs from 'sparqljs';
import type * as Sparql from 'sparqljs';
import { RdfStore, factory, iriRef, type Quad, type Term, type QueryOptions } from '../../rdf/store.ts';
import type { DeltaStep } from '../../rdf/durable.ts';
import { generate } from './classify.ts';
import { SparqlError } from './errors.ts';

export type UpdateEffect = { portable: true; steps: DeltaStep[]; quads: number } | { portable: false };

type OxTerm = Term;
type GraphTarget = { type?: 'graph'; name?: Sparql.IriTerm; default?: true; named?: true; all?: true };

class Recorder {
  readonly steps: DeltaStep[] = [];
  /** Changes made to the replica, in order, to undo them. */
  readonly #undo: { added: Quad[]; removed: Quad[] }[] = [];
  /** Blank node labels this update created (safe to name in a delta). */
  readonly fresh = new Set<string>();
  portable = true;
  quads = 0;

  constructor(readonly rdf: RdfStore, readonly maxQuads: number) {}

  #count(n: number): void {
    this.quads += n;
    if (this.quads > this.maxQuads) {
      throw new SparqlError('update-too-large', `the update would change more than ${this.maxQuads} quads (the limit is sparql.maxUpdateQuads = ${this.maxQuads})`);
    }
  }

  #existingBlank(q: Quad): boolean {
    return [q.subject, q.object, q.graph].some((t) => t.termType === 'BlankNode' && !this.fresh.has(t.value));
  }

  clear(target: string, quads: Quad[]): void {
    this.rdf.delete(quads);
    this.#undo.push({ added: [], removed: quads });
    this.steps.push({ step: 'clear', target });
  }

  delete(quads: Quad[]): void {
    const present = dedupe(quads).filter((q) => this.rdf.has(q));
    if (present.length === 0) return;
    this.#count(present.length);
    if (present.some((q) => this.#existingBlank(q))) this.portable = false;
    this.rdf.delete(present);
    this.#undo.push({ added: [], removed: present });
    this.steps.push({ step: 'delete', nquads: toNQuads(present) });
  }

  insert(quads: Quad[]): void {
    const absent = dedupe(quads).filter((q) => !this.rdf.has(q));
    if (absent.length === 0) return;
    this.#count(absent.length);
    if (absent.some((q) => this.#existingBlank(q))) this.portable = false;
    this.rdf.add(absent);
    this.#undo.push({ added: absent, removed: [] });
    this.steps.push({ step: 'insert', nquads: toNQuads(absent) });
  }

  undo(): void {
    for (const u of this.#undo.splice(0).reverse()) {
      this.rdf.delete(u.added);
      this.rdf.add(u.removed);
    }
  }
}

function dedupe(quads: Quad[]): Quad[] {
  const seen = new Map<string, Quad>();
  for (const q of quads) seen.set(quadKey(q), q);
  return [...seen.values()];
}

function quadKey(q: Quad): string {
  return `${termKey(q.subject)} ${termKey(q.predicate)} ${termKey(q.object)} ${termKey(q.graph)}`;
}

function termKey(t: OxTerm): string {
  if (t.termType === 'Literal') return `"${t.value}"@${t.language}^^${t.datatype.value}`;
  return `${t.termType[0]}:${t.value}`;
}

/** N-Quads with blank node labels as the quads have them (a scratch store's dump keeps them). */
function toNQuads(quads: Quad[]): string {
  const scratch = new RdfStore();
  scratch.add(quads);
  return scratch.dump({ format: 'application/n-quads' });
}

/** Compute the effect of a checked update against `rdf`, leaving `rdf` as it was. */
export function updateEffect(rdf: RdfStore, ast: Sparql.Update, limits: { maxQuads: number }): UpdateEffect {
  const rec = new Recorder(rdf, limits.maxQuads);
  try {
    for (const op of ast.updates) runOperation(rec, op);
  } finally {
    rec.undo();
  }
  return rec.portable ? { portable: true, steps: rec.steps, quads: rec.quads } : { portable: false };
}

function runOperation(rec: Recorder, op: Sparql.UpdateOperation): void {
  if ('updateType' in op) {
    switch (op.updateType) {
      case 'insert': {
        const labels = new Map<string, string>();
        rec.insert(instantiate(rec, op.insert, new Map(), undefined, labels));
        return;
      }
      case 'delete':
        rec.delete(instantiate(rec, op.delete, new Map(), undefined, new Map()));
        return;
      case 'deletewhere': {
        const where = op.delete.map((q): Sparql.Pattern => q.type === 'graph'
          ? { type: 'graph', name: q.name, patterns: [{ type: 'bgp', triples: q.triples }] } as Sparql.GraphPattern
          : { type: 'bgp', triples: q.triples });
        const rows = solutions(rec.rdf, where, undefined, undefined);
        rec.delete(rows.flatMap((row) => instantiate(rec, op.delete, row, undefined, new Map())));
        return;
      }
      case 'insertdelete': {
        const withGraph = op.graph?.value;
        const rows = solutions(rec.rdf, op.where ?? [], op.using, withGraph);
        const dels = rows.flatMap((row) => instantiate(rec, op.delete ?? [], row, withGraph, new Map()));
        const ins = rows.flatMap((row) => instantiate(rec, op.insert ?? [], row, withGraph, new Map()));
        rec.delete(dels);
        rec.insert(ins);
        return;
      }
    }
  }
  const g = op as unknown as { type: string; silent?: boolean; graph?: GraphTarget; source?: GraphTarget; destination?: GraphTarget };
  switch (g.type) {
    case 'clear':
    case 'drop': {
      const t = g.graph ?? {};
      if (t.name && !g.silent && g.type === 'drop' && !graphHasQuads(rec.rdf, t.name.value)) {
        throw new SparqlError('update-failed', `DROP GRAPH <${t.name.value}>: the graph does not exist (use DROP SILENT to ignore that)`);
      }
      clearTarget(rec, t);
      return;
    }
    case 'create': {
      const name = g.graph?.name?.value;
      if (name && !g.silent && graphHasQuads(rec.rdf, name)) {
        throw new SparqlError('update-failed', `CREATE GRAPH <${name}>: the graph already exists (use CREATE SILENT to ignore that)`);
      }
      return; // empty graphs are not recorded
    }
    case 'add':
    case 'copy':
    case 'move': {
      const src = g.source ?? {};
      const dst = g.destination ?? {};
      const srcName = src.name?.value ?? '';
      const dstName = dst.name?.value ?? '';
      if (srcName === dstName) return;
      if (src.name && !graphHasQuads(rec.rdf, srcName)) {
        if (g.silent) return;
        throw new SparqlError('update-failed', `${g.type.toUpperCase()}: the source graph <${srcName}> does not exist (use ${g.type.toUpperCase()} SILENT to ignore that)`);
      }
      const quads = rec.rdf.match(null, null, null, graphTerm(srcName));
      if (g.type !== 'add') clearTarget(rec, dst);
      rec.insert(quads.map((q) => factory.quad(q.subject, q.predicate, q.object, graphTerm(dstName))));
      if (g.type === 'move') clearTarget(rec, src);
      return;
    }
    case 'load':
      // refuseRemote stops LOAD before this; a local store never fetches.
      throw new SparqlError('remote-not-supported', 'LOAD fetches remote data, which this endpoint does not do');
  }
  throw new SparqlError('update-failed', `unsupported update operation ${g.type}`);
}

function graphTerm(iri: string) {
  return iri === '' ? factory.defaultGraph() : factory.namedNode(iri);
}

function graphHasQuads(rdf: RdfStore, iri: string): boolean {
  return rdf.ask(`ASK { GRAPH ${iriRef(iri)} { ?s ?p ?o } }`);
}

function clearTarget(rec: Recorder, t: GraphTarget): void {
  const rdf = rec.rdf;
  if (t.all) {
    rec.clear('ALL', rdf.match());
  } else if (t.named) {
    rec.clear('NAMED', rdf.match().filter((q) => q.graph.termType !== 'DefaultGraph'));
  } else if (t.name) {
    rec.clear(t.name.value, rdf.match(null, null, null, factory.namedNode(t.name.value)));
  } else {
    rec.clear('DEFAULT', rdf.match(null, null, null, factory.defaultGraph()));
  }
}

/** The WHERE clause's solutions over the update's dataset (USING, else WITH, else the store's default graph). */
function solutions(rdf: RdfStore, where: Sparql.Pattern[], using: { default: Sparql.IriTerm[]; named: Sparql.IriTerm[] } | undefined, withGraph: string | undefined): ReadonlyMap<string, OxTerm>[] {
  const usingAny = using && (using.default.length > 0 || using.named.length > 0);
  const query = {
    type: 'query', queryType: 'SELECT', prefixes: {}, variables: [new sparqljs.Wildcard()], where,
    ...(usingAny ? { from: { default: using.default, named: using.named } } : {}),
  } as unknown as Sparql.SelectQuery;
  const options: QueryOptions | undefined = !usingAny && withGraph ? { defaultGraphs: [withGraph] } : undefined;
  // A WHERE with no variables has one empty solution; SELECT * of it is refused by the parser
  // of some engines, so say it plainly.
  try {
    return rdf.select(generate(query), options);
  } catch (e) {
    if (/SELECT \* with no variable|no variables/i.test((e as Error).message)) return [new Map()];
    throw e;
  }
}

/** Template quads with one solution's bindings; triples with unbound variables or ill-formed terms are skipped. */
function instantiate(rec: Recorder, template: Sparql.Quads[], row: ReadonlyMap<string, OxTerm>, withGraph: string | undefined, labels: Map<string, string>): Quad[] {
  const out: Quad[] = [];
  const term = (t: Sparql.Term): OxTerm | undefined => {
    switch (t.termType) {
      case 'NamedNode': return factory.namedNode(t.value);
      case 'Variable': return row.get(t.value);
      case 'BlankNode': {
        let label = labels.get(t.value);
        if (!label) {
          label = `u${randomBytes(12).toString('hex')}`;
          labels.set(t.value, label);
          rec.fresh.add(label);
        }
        return factory.blankNode(label);
      }
      case 'Literal': return factory.literal(t.value, t.language ? t.language : factory.namedNode(t.datatype.value));
      default: return undefined; // quoted triples are not supported by this store
    }
  };
  for (const q of template) {
    const graph = q.type === 'graph' ? term(q.name as Sparql.Term) : withGraph ? factory.namedNode(withGraph) : factory.defaultGraph();
    if (!graph || (graph.termType !== 'NamedNode' && graph.termType !== 'DefaultGraph')) continue;
    for (const tr of q.triples) {
      const s = term(tr.subject as Sparql.Term);
      const p = term(tr.predicate as Sparql.Term);
      const o = term(tr.object as Sparql.Term);
      if (!s || !p || !o) continue;
      if (s.termType !== 'NamedNode' && s.termType !== 'BlankNode') continue;
      if (p.termType !== 'NamedNode') continue;
      if (o.termType === 'Variable' || o.termType === 'DefaultGraph' || o.termType === 'Quad') continue;
      out.push(factory.quad(s, p, o, graph));
    }
  }
  return out;
}
