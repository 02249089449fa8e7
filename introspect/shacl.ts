/**
 * SHACL renderer: node shapes mined from the data, which the graph conforms to by construction.
 *
 * Contract
 * - One sh:NodeShape per kept characteristic set: a property shape per predicate other than
 *   rdf:type with sh:minCount 1, sh:maxCount 1 where every subject of the set has at most one
 *   value, and sh:nodeKind where the set's values are all of one kind. sh:targetClass names
 *   each class universal to the set (every subject of the set has it) AND whose every focus node
 *   (instances and subclass instances) satisfies those constraints; a set whose classes also
 *   appear elsewhere gets no target and is a reusable shape to edit, not a contract.
 * - One sh:NodeShape per class (`…class-N`), targeting it, stating only what holds for all its
 *   focus nodes: sh:minCount 1 for predicates every one uses, sh:maxCount 1 for predicates none
 *   repeats, sh:nodeKind when uniform.
 * - Output is N-Triples (valid Turtle) or Turtle. Shapes are mined from what the data asserts: a
 *   data-grounded floor, not a statement of intent.
 */
import type * as RDFJS from '@rdfjs/types';
import type { CharSet, FocusClass, Introspection, ObjectKinds } from './model.ts';
import { blankNode, int, literal, namedNode, quad, serialize, type RdfOutput } from './rdf-out.ts';
import { RDF, RDFS, SH } from './vocab.ts';

export interface ShaclOptions {
  format?: RdfOutput;
  /** IRI prefix for the shapes (default `urn:introspect:shape:`). */
  base?: string;
  /** Emit the per-class shapes (default true). */
  classShapes?: boolean;
}

export function shaclQuads(ix: Introspection, options: ShaclOptions = {}): RDFJS.Quad[] {
  const base = options.base ?? 'urn:introspect:shape:';
  const out: RDFJS.Quad[] = [];
  const add = (s: RDFJS.Quad_Subject, p: string, o: RDFJS.Quad_Object) => out.push(quad(s, namedNode(p), o));
  const focus = new Map(ix.focus.map((f) => [f.iri, f]));
  let bn = 0;
  const property = (shape: RDFJS.NamedNode, path: string, min: boolean, max: boolean, kinds: ObjectKinds) => {
    const kind = nodeKind(kinds);
    if (!min && !max && !kind) return;
    const b = blankNode(`p${bn++}`);
    add(shape, SH.property, b);
    add(b, SH.path, namedNode(path));
    if (min) add(b, SH.minCount, int(1));
    if (max) add(b, SH.maxCount, int(1));
    if (kind) add(b, SH.nodeKind, namedNode(kind));
  };

  ix.characteristicSets.sets.forEach((cs, i) => {
    const shape = namedNode(`${base}cs-${i + 1}`);
    add(shape, RDF.type, namedNode(SH.NodeShape));
    add(shape, RDFS.comment, literal(`Characteristic set ${i + 1}: ${cs.subjects} subjects use exactly these ${cs.predicates.length} predicates.`));
    for (const t of cs.types) {
      const f = focus.get(t.iri);
      if (t.count === cs.subjects && f && safeTarget(cs, f)) add(shape, SH.targetClass, namedNode(t.iri));
    }
    for (const p of cs.predicates) if (p.iri !== RDF.type) property(shape, p.iri, true, p.singleValued, p.kinds);
  });

  if (options.classShapes !== false) {
    ix.focus.forEach((f, i) => {
      const shape = namedNode(`${base}class-${i + 1}`);
      add(shape, RDF.type, namedNode(SH.NodeShape));
      add(shape, RDFS.comment, literal(`What all ${f.focusNodes} focus nodes of <${f.iri}> (with its subclasses) have in common.`));
      add(shape, SH.targetClass, namedNode(f.iri));
      for (const p of f.predicates) {
        if (p.iri !== RDF.type) property(shape, p.iri, p.subjects === f.focusNodes, p.maxPerSubject <= 1, p.kinds);
      }
    });
  }
  return out;
}

/** Every focus node of the class satisfies the set's constraints. */
function safeTarget(cs: CharSet, f: FocusClass): boolean {
  const byIri = new Map(f.predicates.map((p) => [p.iri, p]));
  return cs.predicates.every((p) => {
    if (p.iri === RDF.type) return true;
    const fp = byIri.get(p.iri);
    if (!fp || fp.subjects !== f.focusNodes) return false;
    if (p.singleValued && fp.maxPerSubject > 1) return false;
    const mask = (k: ObjectKinds) => (k.iri ? 1 : 0) | (k.bnode ? 2 : 0) | (k.literal ? 4 : 0);
    return (mask(fp.kinds) & ~mask(p.kinds)) === 0;
  });
}

function nodeKind(k: ObjectKinds): string | undefined {
  const iri = k.iri > 0;
  const bnode = k.bnode > 0;
  const lit = k.literal > 0;
  if (iri && !bnode && !lit) return SH.IRI;
  if (!iri && bnode && !lit) return SH.BlankNode;
  if (!iri && !bnode && lit) return SH.Literal;
  if (iri && bnode && !lit) return SH.BlankNodeOrIRI;
  if (iri && !bnode && lit) return SH.IRIOrLiteral;
  if (!iri && bnode && lit) return SH.BlankNodeOrLiteral;
  return undefined;
}

export function toShacl(ix: Introspection, options: ShaclOptions = {}): string {
  return serialize(shaclQuads(ix, options), options.format ?? 'ntriples');
}
