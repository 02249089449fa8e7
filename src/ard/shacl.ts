/**
 * SHACL validation over RDF/JS quads with rdf-validate-shacl, wrapped once here.
 *
 * `compileShapes(turtleDocs)` parses the shapes once; `validate(quads)` runs them over a data
 * graph and returns plain results (IRIs as strings, severity as a word) so no caller touches the
 * library's clownface pointers. Data quads are copied into the validator's own dataset in the
 * default graph, because shapes describe triples regardless of the named graph they live in.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Parser, Store } from 'n3';
import SHACLValidator from 'rdf-validate-shacl';
import env from 'rdf-validate-shacl/src/defaultEnv.js';
import type * as RDFJS from '@rdfjs/types';
import { SH, XSD } from '../rdf/vocab.ts';

export interface ShaclResult {
  focusNode: string;
  path?: string;
  severity: 'Violation' | 'Warning' | 'Info';
  /** Constraint component local name, e.g. MinCountConstraintComponent. */
  component: string;
  message: string;
  value?: string;
  sourceShape?: string;
}

export interface CompiledShapes {
  validate(data: readonly RDFJS.Quad[]): Promise<ShaclResult[]>;
}

/** Shapes shipped in shapes/ that the catalog graph must conform to. */
export const CATALOG_SHAPE_FILES = ['catalog-shapes.ttl'].map((f) => fileURLToPath(new URL(`../../shapes/${f}`, import.meta.url)));

export async function loadShapeFiles(paths: readonly string[]): Promise<CompiledShapes> {
  return compileShapes(await Promise.all(paths.map((p) => readFile(p, 'utf8'))));
}

/**
 * rdf-validate-shacl's environment with N3's Store as the dataset. The library's default dataset
 * (@rdfjs/dataset) builds a new indexed dataset for the result of every `match`, and validation
 * matches millions of times over the full catalog: most of a catalog run went to building those
 * and collecting them (GC was ~half of the time). N3's `match` is a lazy view over the store's own
 * indexes. Everything else (terms, clownface, term maps) is the library's default. `datasets:
 * 'library'` keeps the library's own dataset: the reference a test holds the reports equal to.
 */
const n3Env: Env = Object.assign(Object.create(env) as Env, {
  dataset: (quads?: Iterable<RDFJS.Quad>) => new Store(quads ? [...quads] : undefined),
});

export function compileShapes(turtleDocs: readonly string[], options: { datasets?: 'n3' | 'library' } = {}): CompiledShapes {
  const E = options.datasets === 'library' ? env : n3Env;
  const shapes = E.dataset();
  for (const doc of turtleDocs) for (const q of new Parser().parse(doc)) shapes.add(env.quad(q.subject, q.predicate, q.object));
  const validator = new SHACLValidator(shapes, { factory: E });
  return {
    async validate(data) {
      const ds = E.dataset();
      for (const q of data) ds.add(env.quad(toEnv(env, q.subject) as never, env.namedNode(q.predicate.value), toEnv(env, q.object) as never));
      const report = await validator.validate(ds);
      return report.results.map((r) => {
        const severity = r.severity?.value === SH.Warning ? 'Warning' : r.severity?.value === SH.Info ? 'Info' : 'Violation';
        const component = (r.sourceConstraintComponent?.value ?? '').replace(SH.ns, '');
        const out: ShaclResult = {
          focusNode: r.focusNode?.value ?? '',
          severity,
          component,
          message: r.message.map((m) => m.value).join('; ') || component,
        };
        if (r.path) out.path = r.path.value;
        if (r.value) out.value = r.value.value;
        if (r.sourceShape) out.sourceShape = r.sourceShape.value;
        return out;
      });
    },
  };
}

type Env = typeof env;
function toEnv(env: Env, t: { termType: string; value: string; language?: string; datatype?: { value: string } }) {
  switch (t.termType) {
    case 'NamedNode': return env.namedNode(t.value);
    case 'BlankNode': return env.blankNode(t.value);
    case 'Literal': return t.language ? env.literal(t.value, t.language) : env.literal(t.value, env.namedNode(t.datatype?.value ?? XSD.string));
    default: throw new Error(`SHACL data cannot hold a ${t.termType} term`);
  }
}
